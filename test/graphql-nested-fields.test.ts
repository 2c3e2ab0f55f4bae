/**
 * Nested GraphQL fields over a list of parents: each field's look-up is batched over every parent
 * of the request (one DataLoader per request), so the SQL statements a query executes do not grow
 * with the list, and each field's access row is decided once for all parents. The fields trust
 * their parent's visibility, so an entity reference sent straight to a subgraph (anyone who reaches
 * its port in the distributed mode can send `_entities`) is answered only when the caller sees it.
 *
 * Statements are counted on the application's own pg pool (every statement Prisma sends goes
 * through it), against the real test database.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createDefaultExecutor } from '@graphql-mesh/transport-common';
import { parse } from 'graphql';
import type pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolOf } from '../src/infra/database.js';
import { buildSubgraphSchemas, type SubgraphName } from '../src/api/graphql/subgraphs/index.js';
import { graphql } from './support/graphql-client.js';
import { bearer, createApiKey, createTenant, platformToken, signUpIntegrator, type Integrator } from './support/identities.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const TENANTS = 50;
const DOCUMENTS_EACH = 2;

let app: TestApp;
let owner: Integrator;
const auditLines: Array<{ audit?: string; operation?: string }> = [];

/** Counts the statements the application's pool executes while `measure` runs (wrapping each client once). */
function statementCounter(pool: pg.Pool) {
  const wrapped = new WeakSet<object>();
  let counting = false;
  const statements: string[] = [];
  pool.on('acquire', (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      if (counting) statements.push(typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text));
      return query(...args);
    };
  });
  return async function measure(run: () => Promise<void>): Promise<string[]> {
    statements.length = 0;
    counting = true;
    try {
      await run();
    } finally {
      counting = false;
    }
    return [...statements];
  };
}

let measure: ReturnType<typeof statementCounter>;

/** A platform token of a key of `integrator` holding exactly these scopes. */
async function keyToken(scopes: string[], integrator = owner): Promise<string> {
  const key = await createApiKey(app, integrator.loginToken, { name: `batching-${scopes.join('+')}-${randomUUID().slice(0, 6)}`, scopes });
  return (await platformToken(app, key.key)).access_token;
}

const NESTED = `query($limit: Int!) { tenants(offset: 0, limit: $limit) { items {
  id profile { uuid documents { id } cases { id } matches { matches { product } }
    applications { id matches { numberOfMatches } preselectedOffers { id } } }
} } }`;

interface NestedProfile {
  uuid: string;
  documents: unknown[];
  cases: unknown[];
  matches: { matches: unknown[] };
  applications: Array<{ id: string; matches: { numberOfMatches: number }; preselectedOffers: unknown[] }>;
}
type Page = { tenants: { items: Array<{ id: string; profile: NestedProfile | null }> } };

beforeAll(async () => {
  const capture = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) auditLines.push(JSON.parse(line));
      done();
    },
  });
  app = await startTestApp({ config: { LOG_LEVEL: 'info' }, logger: pino({ level: 'info' }, capture) });
  owner = await signUpIntegrator(app, `batching-${randomUUID().slice(0, 6)}`);
  measure = statementCounter(poolOf(app.runtime.database.prisma));
  const db = app.runtime.database.prisma;
  // Fixtures written directly: what is measured is the read, not how the rows came to be.
  for (let i = 0; i < TENANTS; i++) {
    const tenant = await db.tenant.create({ data: { accountId: owner.accountId, environment: 'demo', referenceId: `batch-${i}` } });
    // A registered company, so matching reads the registry too.
    const profile = await db.profile.create({ data: { tenantId: tenant.id, environment: 'demo', registrationNumber: '09876543' } });
    for (let d = 0; d < DOCUMENTS_EACH; d++) {
      await db.document.create({
        data: { profileId: profile.id, fileName: `statement-${d}.pdf`, contentType: 'application/pdf', sizeBytes: 10, sha256: 'a'.repeat(64) },
      });
    }
    await db.case.create({
      data: {
        profileId: profile.id,
        type: 'GRANTS',
        product: 'GRANTS',
        productName: 'Grants',
        caseState: 'NEW',
        state: 'AWAITING_REVIEW',
        stateType: 'OPEN',
        history: { create: [{ toState: 'AWAITING_REVIEW', note: 'Case opened' }] },
      },
    });
    await db.businessApplication.create({
      data: {
        tenantId: tenant.id,
        accountId: owner.accountId,
        environment: 'demo',
        profileId: profile.id,
        type: 'business-all-funding-products',
        answers: { fundingAmount: { code: 'GBP', value: 50000 } },
      },
    });
  }
}, 120_000);
afterAll(() => app?.close());

describe('nested fields over a list of tenants', () => {
  it('answer tenant(id){ id referenceId profile { uuid } } with two cheap statements: the tenant (visibility decided there), then the profile uuid column of the one local schema', async () => {
    const auth = bearer(await keyToken(['profile:read']));
    const { id } = (await graphql<Page>(app.url, 'query { tenants(offset: 0, limit: 1) { items { id } } }', {}, auth)).data!.tenants.items[0]!;
    const query = 'query($id: ID!) { tenant(id: $id) { id referenceId profile { uuid } } }';
    let answer: { tenant: { id: string; profile: { uuid: string } | null } } | undefined;
    const statements = await measure(async () => {
      const res = await graphql<NonNullable<typeof answer>>(app.url, query, { id }, auth);
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      answer = res.data!;
    });
    expect(answer!.tenant.profile!.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const profileReads = statements.filter((text) => /from "profile"/i.test(text));
    expect(profileReads, statements.join('\n')).toHaveLength(1);
    expect(profileReads[0]).not.toMatch(/json_agg|companyInformation/);
    // One local schema: Tenant.profile runs on the tenant the tenants module resolved, with no entity reference to re-check.
    expect(statements, statements.join('\n')).toHaveLength(2);
  });

  it('execute as many SQL statements for 50 tenants as for 5, each field (matches included) answered for every parent', async () => {
    const auth = bearer(await keyToken(['profile:read', 'profile:write']));
    const run = async (limit: number) => {
      let page: Page | undefined;
      const statements = await measure(async () => {
        const res = await graphql<Page>(app.url, NESTED, { limit }, auth);
        expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
        page = res.data!;
      });
      return { statements, items: page!.tenants.items };
    };
    await run(1); // the credential's status and the schema are cached by the first request, not by either measured one
    const few = await run(5);
    const many = await run(TENANTS);

    expect(many.items).toHaveLength(TENANTS);
    for (const tenant of many.items) {
      expect(tenant.profile).not.toBeNull();
      expect(tenant.profile!.documents).toHaveLength(DOCUMENTS_EACH);
      expect(tenant.profile!.cases).toHaveLength(1);
      expect(tenant.profile!.applications).toHaveLength(1);
      expect(tenant.profile!.matches.matches).toEqual(expect.any(Array));
      expect(tenant.profile!.applications[0]!.matches.numberOfMatches).toEqual(expect.any(Number));
    }
    expect(few.statements.length).toBeGreaterThan(0);
    expect(many.statements.length, `5 tenants:\n${few.statements.join('\n')}\n\n50 tenants:\n${many.statements.join('\n')}`).toBe(few.statements.length);
  });

  it("decides a refused field's row once for the whole list: FORBIDDEN on each parent's field, one audit line", async () => {
    const auth = bearer(await keyToken(['profile:read']));
    const before = auditLines.filter((line) => line.audit === 'access.denied' && line.operation === 'Profile.documents').length;
    const res = await graphql<Page>(
      app.url,
      `query($limit: Int!) { tenants(offset: 0, limit: $limit) { items { id profile { uuid cases { id } documents { id } } } } }`,
      { limit: TENANTS },
      auth,
    );
    const errors = (res.errors ?? []) as Array<{ path?: unknown[]; extensions?: { code?: string } }>;
    expect(errors).toHaveLength(TENANTS);
    for (const error of errors) {
      expect(error.extensions?.code).toBe('FORBIDDEN');
      expect(error.path?.slice(-2)).toEqual(['profile', 'documents']);
    }
    // documents is a non-null list, so its refusal nulls the (nullable) profile; the tenants are answered.
    expect(res.data!.tenants.items.map((tenant) => tenant.profile)).toEqual(Array.from({ length: TENANTS }, () => null));
    const denials = auditLines.filter((line) => line.audit === 'access.denied' && line.operation === 'Profile.documents').length - before;
    expect(denials).toBe(1);
  });
});

describe('entity references sent straight to a subgraph', () => {
  let other: { token: string; tenantId: string; profileId: string; applicationId: string };
  let owners: { tenantId: string; profileId: string; applicationId: string };

  beforeAll(async () => {
    const db = app.runtime.database.prisma;
    const integrator = await signUpIntegrator(app, `references-${randomUUID().slice(0, 6)}`);
    const tenant = await createTenant(app, integrator.platformToken, 'own');
    const profile = await db.profile.create({ data: { tenantId: tenant.id, environment: 'demo' } });
    const application = await db.businessApplication.create({
      data: {
        tenantId: tenant.id,
        accountId: integrator.accountId,
        environment: 'demo',
        profileId: profile.id,
        type: 'business-all-funding-products',
        answers: {},
      },
    });
    other = { token: await keyToken(['profile:read'], integrator), tenantId: tenant.id, profileId: profile.id, applicationId: application.id };
    const ownersApplication = await db.businessApplication.findFirstOrThrow({ where: { accountId: owner.accountId } });
    owners = { tenantId: ownersApplication.tenantId!, profileId: ownersApplication.profileId, applicationId: ownersApplication.id };
  });

  /** `_entities` executed on one subgraph's schema, as the caller's credential makes its context. */
  async function entities(subgraph: SubgraphName, typeName: string, key: Record<string, string>, selection: string): Promise<unknown[]> {
    const schema = (await buildSubgraphSchemas())[subgraph];
    const contextValue = await app.runtime.contextForRequest({ authorization: `Bearer ${other.token}` });
    const document = parse(`query($r: [_Any!]!) { _entities(representations: $r) { ... on ${typeName} { ${selection} } } }`);
    // Executed as the gateway's in-process transport executes a subgraph (graphql's ESM and CJS builds differ in the test runner).
    const result = (await createDefaultExecutor(schema)({ document, variables: { r: [{ __typename: typeName, ...key }] }, context: contextValue })) as {
      data?: unknown;
      errors?: unknown;
    };
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    return (result.data as { _entities: unknown[] })._entities;
  }

  it.for([
    ['profiles', 'Tenant', (ids: typeof owners) => ({ id: ids.tenantId }), 'profile { uuid }'],
    ['matches', 'Profile', (ids: typeof owners) => ({ uuid: ids.profileId }), 'matches { id }'],
    ['applications', 'Profile', (ids: typeof owners) => ({ uuid: ids.profileId }), 'applications { id }'],
    ['matches', 'Application', (ids: typeof owners) => ({ id: ids.applicationId }), 'matches { numberOfMatches }'],
    ['applications', 'Application', (ids: typeof owners) => ({ id: ids.applicationId }), 'preselectedOffers { id }'],
  ] as const)('%s subgraph, %s: answered for the caller’s own, null for another account’s', async ([subgraph, typeName, keyOf, selection]) => {
    const [own] = await entities(subgraph, typeName, keyOf(other), selection);
    expect(own).not.toBeNull();
    const [foreign] = await entities(subgraph, typeName, keyOf(owners), selection);
    expect(foreign).toBeNull();
  });
});
