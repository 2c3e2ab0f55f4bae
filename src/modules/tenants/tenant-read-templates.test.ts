/**
 * The hot tenant and profile reads are compiled once per shape and bound at each call
 * (statement-templates.ts): every call must read as the statement built for its own values would.
 * Calls alternate between accounts, environments, filter shapes (an account's whole list, and a
 * tenant token's filter bound to one tenant) and tenants, so a template that kept one call's values,
 * or one shape's text for another, would show here as a tenant read across those lines.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { selectProfileIdsOfTenants } from '../profiles/profile-reads.js';
import { selectTenant, type TenantFilter } from './tenant-reads.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const db = () => app.runtime.database.prisma;

async function accountWithTenants(count: number): Promise<{ accountId: string; tenantIds: string[] }> {
  const account = await db().account.create({ data: { name: `templates-${randomUUID()}`, environment: 'demo' } });
  const tenantIds: string[] = [];
  for (let i = 0; i < count; i++)
    tenantIds.push((await db().tenant.create({ data: { accountId: account.id, environment: 'demo', referenceId: `t-${i}` } })).id);
  return { accountId: account.id, tenantIds };
}

describe('template-bound tenant and profile reads', () => {
  it('read a tenant only within the filter each call passes, whatever the calls before it', async () => {
    const a = await accountWithTenants(2);
    const b = await accountWithTenants(1);
    const [a1, a2] = a.tenantIds as [string, string];
    const [b1] = b.tenantIds as [string];
    const whole = (accountId: string, environment: TenantFilter['environment'] = 'demo'): TenantFilter => ({ accountId, environment });
    const calls: Array<[TenantFilter, string, string | undefined]> = [
      [whole(a.accountId), a1, a1],
      [whole(b.accountId), a1, undefined],
      [whole(b.accountId), b1, b1],
      [{ ...whole(a.accountId), id: a2 }, a1, undefined],
      [{ ...whole(a.accountId), id: a1 }, a1, a1],
      [{ ...whole(b.accountId), id: b1 }, a1, undefined],
      [whole(a.accountId, 'production'), a1, undefined],
      [whole(a.accountId), a2, a2],
      [{ ...whole(a.accountId), id: a2 }, a2, a2],
    ];
    for (const [filter, id, expected] of calls) {
      expect((await selectTenant(db(), filter, id))?.id, JSON.stringify({ filter, id })).toBe(expected);
    }
  });

  it("read the profiles of the tenants each call names, in the call's environment", async () => {
    const { accountId, tenantIds } = await accountWithTenants(3);
    const [t1, t2, t3] = tenantIds as [string, string, string];
    const profileOf = async (tenantId: string) => (await db().profile.create({ data: { ownerAccountId: accountId, tenantId, environment: 'demo' } })).id;
    const p1 = await profileOf(t1);
    const p2 = await profileOf(t2);
    const read = async (ids: string[], environment: TenantFilter['environment']) =>
      (await selectProfileIdsOfTenants(db(), ids, environment)).map((row) => [row.tenantId, row.id]).sort();
    expect(await read([t1], 'demo')).toEqual([[t1, p1]]);
    expect(await read([t2, t3], 'demo')).toEqual([[t2, p2]]);
    expect(await read([t1, t2], 'production')).toEqual([]);
    expect(await read([t1, t2, t3], 'demo')).toEqual(
      [
        [t1, p1],
        [t2, p2],
      ].sort(),
    );
  });
});
