/**
 * The visibility scope of a statement compiled once per shape (the status change's lock) must be the
 * statement built afresh for every caller: same text, same values. A shape key that missed a branch
 * of the scope would run one caller's rule with another's values.
 */
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { createSqlReads } from '../../infra/sql-reads.js';
import { StatementTemplates } from '../../infra/statement-templates.js';
import {
  lenderApplicationListScope,
  lenderApplicationScopeTemplate,
  lenderApplicationSqlScope,
  type ApplicationListScope,
  type ApplicationViewer,
} from './lender-application-visibility.js';

const reads = createSqlReads(new pg.Pool({ max: 1 }));
const scoped = (applicationId: number, scope: ApplicationListScope) =>
  reads.selectFrom('lender_application as la').select('la.id').where('la.id', '=', applicationId).where(lenderApplicationSqlScope(scope));

/** Two callers of every kind (and staff and non-staff logins), differing in every value they carry. */
const callers = (n: number): ApplicationViewer[] => [
  { kind: 'lender', lenderId: n, clientId: `client-${n}`, scopes: ['lender'] },
  { kind: 'login', accountId: `account-${n}`, userId: `user-${n}`, role: 'MEMBER', sessionEpoch: n, scopes: ['user'] },
  { kind: 'login', accountId: `account-${n}`, userId: `user-${n}`, role: 'STAFF', sessionEpoch: n, scopes: ['user', 'staff'] },
  { kind: 'platform', accountId: `account-${n}`, apiKeyId: `key-${n}`, scopes: ['platform'] },
  { kind: 'master', accountId: `account-${n}`, apiKeyId: `key-${n}`, scopes: ['master'] },
  { kind: 'marketplace_v1', accountId: `account-${n}`, apiKeyId: `key-${n}`, scopes: ['marketplace'] },
  { kind: 'tenant', accountId: `account-${n}`, apiKeyId: `key-${n}`, tenantId: `tenant-${n}`, scopes: ['tenant'] },
];

describe('lenderApplicationScopeTemplate', () => {
  it('binds, for every caller, the statement built afresh for that caller', () => {
    const templates = new StatementTemplates<unknown>();
    // The first caller of each shape compiles it; the second only binds its own values.
    for (const [n, environment] of [
      [1, 'demo'],
      [2, 'production'],
      [3, 'demo'],
    ] as const) {
      for (const actor of callers(n)) {
        const visible = lenderApplicationScopeTemplate({ environment }, actor);
        const bound = templates.bind(visible.shape, (value) => scoped(value('applicationId'), visible.scope(value, reads)), {
          ...visible.values,
          applicationId: 100 + n,
        });
        const fresh = scoped(100 + n, lenderApplicationListScope({ environment }, actor, reads)).compile();
        expect({ sql: bound.sql, parameters: bound.parameters }).toEqual({ sql: fresh.sql, parameters: fresh.parameters });
      }
    }
  });

  it('refuses a statement with a placeholder the call gives no value for', () => {
    const templates = new StatementTemplates<unknown>();
    const build = (value: <T>(name: string) => T) => scoped(value('applicationId'), { environment: 'demo', lenderId: value('lenderId') });
    expect(() => templates.bind('missing', build, { applicationId: 1 })).toThrow(/no value for lenderId/);
  });
});
