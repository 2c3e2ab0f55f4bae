/**
 * The integrator console's API (GraphQL for the dashboard, REST for rotation): API keys with their
 * last use and rotation, the account's tenants, and the request log the HTTP layer records after
 * each response. Each is asked by an account's ADMIN and MEMBER, another account's ADMIN, a tenant
 * token and a lender token, with the answers the access table promises.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './support/graphql-client.js';
import { bearer, createTenant, lenderCredentials, lenderIdToken, platformToken, signIn, signUpIntegrator, type Integrator } from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';
import { applicationWithLink, postChoice } from './support/review-continue.js';
import { purgeRequestLog } from '../src/modules/request-log/request-log-service.js';

let app: TestApp;
let admin: Integrator;
let other: Integrator;
let member: { id: string; token: string };
let tenantId: string;
let tenantToken: string;
let lenderToken: string;

const ask = <T = any>(token: string, query: string, variables: Record<string, unknown> = {}) => graphql<T>(app.url, query, variables, bearer(token));
const codeOf = (res: { errors?: Array<{ extensions?: Record<string, unknown> }> }) => res.errors?.[0]?.extensions?.code;

async function addMember(owner: Integrator): Promise<{ id: string; token: string }> {
  const email = `member-${randomUUID()}@example.test`;
  const password = `pw-${randomUUID()}`;
  const res = await postJson(`${app.url}/api/platform/v1/users`, { email, password, role: 'MEMBER' }, bearer(owner.loginToken));
  expect(res.status).toBe(201);
  return { id: (await res.json()).id, token: await signIn(app, email, password) };
}

/** Waits for the recorder's next flush (once a second) to write what the test just did. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const REQUEST_LOG = /* GraphQL */ `query Log($filter: RequestLogFilter) { requestLog(filter: $filter) { nodes { id requestId method route status latencyMs credentialKind apiKeyId userId tenantId problem createdAt } endCursor } }`;

beforeAll(async () => {
  app = await startTestApp();
  admin = await signUpIntegrator(app);
  other = await signUpIntegrator(app);
  member = await addMember(admin);
  tenantId = (await createTenant(app, admin.platformToken, `console-${randomUUID().slice(0, 8)}`)).id;
  tenantToken = (await platformToken(app, admin.apiKey, tenantId)).access_token;
  lenderToken = await lenderIdToken(app, await lenderCredentials(app));
});
afterAll(() => app?.close());

describe('API keys in the console', () => {
  const KEYS = 'query { apiKeys { id name keyPrefix scopes lastUsedAt revokedAt } }';

  it("lists the account's keys to its ADMIN and MEMBER, never another account's; refuses tenant and lender tokens", async () => {
    for (const token of [admin.loginToken, member.token]) {
      const res = await ask(token, KEYS);
      expect(res.errors).toBeUndefined();
      expect(res.data!.apiKeys.map((k: { id: string }) => k.id)).toContain(admin.apiKeyId);
    }
    const theirs = await ask(other.loginToken, KEYS);
    expect(theirs.data!.apiKeys.map((k: { id: string }) => k.id)).not.toContain(admin.apiKeyId);
    expect(codeOf(await ask(tenantToken, KEYS))).toBe('FORBIDDEN');
    expect(codeOf(await ask(lenderToken, KEYS))).toBe('FORBIDDEN');
  });

  it("records a key's last use after its token is used, without a write on the request path", async () => {
    const created = await ask(admin.loginToken, 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { id key lastUsedAt } }', {
      input: { name: `last-use-${randomUUID().slice(0, 8)}`, scopes: ['profile:read', 'funding:read'] },
    });
    expect(created.errors).toBeUndefined();
    const { id, key, lastUsedAt } = created.data!.createApiKey;
    expect(lastUsedAt).toBeNull();
    const token = (await platformToken(app, key)).access_token;
    const db = app.runtime.database.prisma;
    // Issuing the token wrote the key's use (a POST that writes anyway); a read with the token is noted in memory.
    await db.apiKey.update({ where: { id }, data: { lastUsedAt: null } });
    const before = Date.now();
    expect((await fetch(`${app.url}/api/platform/v1/tenants`, { headers: bearer(token) })).status).toBe(200);
    const row = await eventually(
      () => db.apiKey.findUniqueOrThrow({ where: { id } }),
      (k) => k.lastUsedAt !== null,
    );
    expect(row.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('rotates a key: new secret, same id and scopes, the old secret refused at once', async () => {
    const created = await ask(admin.loginToken, 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { id key keyPrefix scopes } }', {
      input: { name: `rotate-${randomUUID().slice(0, 8)}`, scopes: ['profile:read', 'profile:write'] },
    });
    const old = created.data!.createApiKey;
    const res = await postJson(`${app.url}/api/platform/v1/api-key/${old.id}/rotate`, undefined, bearer(admin.loginToken));
    expect(res.status).toBe(200);
    const rotated = await res.json();
    expect(rotated).toMatchObject({ id: old.id, keyPrefix: old.keyPrefix, scopes: old.scopes });
    expect(rotated.key).not.toBe(old.key);
    const exchange = (key: string) => postJson(`${app.url}/api/platform/v1/auth/token`, undefined, { 'x-api-key': key });
    expect((await exchange(old.key)).status).toBe(401);
    expect((await exchange(rotated.key)).status).toBe(201);
    // The same through GraphQL.
    const again = await ask(admin.loginToken, 'mutation($id: ID!) { rotateApiKey(id: $id) { id key } }', { id: old.id });
    expect(again.data!.rotateApiKey.id).toBe(old.id);
    expect((await exchange(rotated.key)).status).toBe(401);
    expect((await exchange(again.data!.rotateApiKey.key)).status).toBe(201);
  });

  it("lets a MEMBER rotate its own key but not the ADMIN's; another account gets 404; tenant and lender tokens are refused", async () => {
    const own = await ask(member.token, 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { id } }', {
      input: { name: `member-${randomUUID().slice(0, 8)}`, scopes: ['profile:read'] },
    });
    expect(own.errors).toBeUndefined();
    const rotate = (token: string, id: string) => postJson(`${app.url}/api/platform/v1/api-key/${id}/rotate`, undefined, bearer(token));
    expect((await rotate(member.token, own.data!.createApiKey.id)).status).toBe(200);
    const refused = await rotate(member.token, admin.apiKeyId);
    expect(refused.status).toBe(403);
    expect((await refused.json()).detail).toContain('users:write');
    expect((await rotate(other.loginToken, admin.apiKeyId)).status).toBe(404);
    expect((await rotate(tenantToken, admin.apiKeyId)).status).toBe(403);
    expect((await rotate(lenderToken, admin.apiKeyId)).status).toBe(401);
    expect(codeOf(await ask(member.token, 'mutation($id: ID!) { rotateApiKey(id: $id) { id } }', { id: admin.apiKeyId }))).toBe('FORBIDDEN');
    expect(codeOf(await ask(tenantToken, 'mutation($id: ID!) { rotateApiKey(id: $id) { id } }', { id: admin.apiKeyId }))).toBe('FORBIDDEN');
  });

  it('revokes through GraphQL; a member cannot create a key with an admin-only scope', async () => {
    const created = await ask(admin.loginToken, 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { id key } }', {
      input: { name: `revoke-${randomUUID().slice(0, 8)}`, scopes: ['profile:read'] },
    });
    const { id, key } = created.data!.createApiKey;
    expect((await ask(admin.loginToken, 'mutation($id: ID!) { revokeApiKey(id: $id) }', { id })).data!.revokeApiKey).toBe(true);
    expect((await postJson(`${app.url}/api/platform/v1/auth/token`, undefined, { 'x-api-key': key })).status).toBe(401);
    const elevated = await ask(member.token, 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { id } }', {
      input: { name: `x-${randomUUID().slice(0, 8)}`, scopes: ['insights:read'] },
    });
    expect(codeOf(elevated)).toBe('FORBIDDEN');
  });
});

describe('tenants in the console', () => {
  const SEARCH = 'query($search: String) { consoleTenants(search: $search) { total items { id referenceId companyName registrationNumber } } }';
  const OPEN =
    'query($id: ID!) { consoleTenant(id: $id) { tenant { id companyName } profileId creditReport { available grade reason } applications { id questionnaireId } selections { id state lenders } } }';

  it("finds the account's tenant by reference for ADMIN and MEMBER, not for another account", async () => {
    const reference = (await app.runtime.database.prisma.tenant.findUniqueOrThrow({ where: { id: tenantId } })).referenceId!;
    for (const token of [admin.loginToken, member.token]) {
      const res = await ask(token, SEARCH, { search: reference.slice(0, 12).toUpperCase() });
      expect(res.errors).toBeUndefined();
      expect(res.data!.consoleTenants.items.map((t: { id: string }) => t.id)).toEqual([tenantId]);
    }
    expect((await ask(other.loginToken, SEARCH, { search: reference })).data!.consoleTenants.total).toBe(0);
    expect(codeOf(await ask(other.loginToken, OPEN, { id: tenantId }))).toBe('NOT_FOUND');
    expect(codeOf(await ask(tenantToken, SEARCH))).toBe('FORBIDDEN');
    expect(codeOf(await ask(lenderToken, OPEN, { id: tenantId }))).toBe('FORBIDDEN');
  });

  it('opens a tenant with its profile, credit report, applications and review selections', async () => {
    const fixture = await applicationWithLink(app, admin, 'Console Test Ltd');
    expect((await postChoice(fixture.continueUrl, fixture.choices.slice(0, 2))).status).toBe(303);
    const row = await app.runtime.database.prisma.businessApplication.findUniqueOrThrow({ where: { id: fixture.id } });
    const found = await ask(member.token, SEARCH, { search: row.tenantId });
    expect(found.data!.consoleTenants.items).toHaveLength(1);
    const res = await ask(member.token, OPEN, { id: row.tenantId });
    expect(res.errors).toBeUndefined();
    const detail = res.data!.consoleTenant;
    expect(detail.profileId).toBe(fixture.profileId);
    expect(detail.applications.map((a: { id: string }) => a.id)).toEqual([fixture.id]);
    expect(detail.selections).toEqual([expect.objectContaining({ state: 'PENDING_REVIEW', lenders: 2 })]);
    expect(typeof detail.creditReport.available).toBe('boolean');
    if (!detail.creditReport.available) expect(detail.creditReport.reason).toBeTruthy();
  });
});

describe('the request log', () => {
  it("keeps a failure's problem body and no body of a success, for the account's ADMIN only", async () => {
    const failing = await fetch(`${app.url}/api/platform/v1/tenants/not-a-uuid`, { headers: bearer(admin.platformToken) });
    expect(failing.status).toBe(400);
    const problem = await failing.json();
    const failedId = failing.headers.get('x-request-id')!;
    const ok = await fetch(`${app.url}/api/platform/v1/tenants`, { headers: bearer(admin.platformToken) });
    expect(ok.status).toBe(200);
    const okId = ok.headers.get('x-request-id')!;

    const entryOf = async (requestId: string): Promise<any> => (await ask(admin.loginToken, REQUEST_LOG, { filter: { requestId } })).data?.requestLog.nodes[0];
    const failed = await eventually(
      () => entryOf(failedId),
      (e) => Boolean(e),
    );
    expect(failed).toMatchObject({
      method: 'GET',
      route: '/api/platform/v1/tenants/:tenantId',
      status: 400,
      credentialKind: 'platform',
      apiKeyId: admin.apiKeyId,
      userId: null,
    });
    expect(failed.latencyMs).toBeGreaterThan(0);
    expect(JSON.parse(failed.problem)).toEqual(problem);
    const succeeded = await eventually(
      () => entryOf(okId),
      (e) => Boolean(e),
    );
    expect(succeeded).toMatchObject({ status: 200, route: '/api/platform/v1/tenants', problem: null });
    const stored = await app.runtime.database.prisma.requestLogEntry.findFirstOrThrow({ where: { requestId: okId } });
    expect(stored.problem).toBeNull();

    // Filters: status class, route text, credential (key id or token kind).
    const failures = await ask(admin.loginToken, REQUEST_LOG, { filter: { outcome: 'FAILED', route: 'tenants/:tenantId', credential: admin.apiKeyId } });
    expect(failures.data!.requestLog.nodes.map((n: { requestId: string }) => n.requestId)).toContain(failedId);
    expect(failures.data!.requestLog.nodes.every((n: { status: number }) => n.status >= 400)).toBe(true);
    const byStatus = await ask(admin.loginToken, REQUEST_LOG, { filter: { status: 200, credential: 'platform' } });
    expect(byStatus.data!.requestLog.nodes.map((n: { requestId: string }) => n.requestId)).toContain(okId);
    expect(byStatus.data!.requestLog.nodes.map((n: { requestId: string }) => n.requestId)).not.toContain(failedId);
    const badFilter = await ask(admin.loginToken, REQUEST_LOG, { filter: { first: 1000 } });
    expect(codeOf(badFilter)).toBe('BAD_REQUEST');

    // Nobody else sees it: a member, another account's admin, tenant and lender tokens.
    expect(codeOf(await ask(member.token, REQUEST_LOG))).toBe('FORBIDDEN');
    expect((await ask(other.loginToken, REQUEST_LOG, { filter: { requestId: failedId } })).data!.requestLog.nodes).toEqual([]);
    expect(codeOf(await ask(tenantToken, REQUEST_LOG))).toBe('FORBIDDEN');
    expect(codeOf(await ask(lenderToken, REQUEST_LOG))).toBe('FORBIDDEN');
  });

  it('logs a login token by its user, and pages newest first', async () => {
    const res = await ask(admin.loginToken, REQUEST_LOG, { filter: { first: 1 } });
    expect(res.data!.requestLog.nodes).toHaveLength(1);
    const next = await ask(admin.loginToken, REQUEST_LOG, { filter: { first: 1, before: res.data!.requestLog.endCursor } });
    expect(Number(next.data!.requestLog.nodes[0].id)).toBeLessThan(Number(res.data!.requestLog.nodes[0].id));
    const logins = await eventually(
      async (): Promise<Array<{ userId: string | null }>> =>
        (await ask(admin.loginToken, REQUEST_LOG, { filter: { credential: 'login' } })).data!.requestLog.nodes,
      (nodes) => nodes.length > 0,
    );
    expect(logins[0]).toMatchObject({ credentialKind: 'login', route: '/graphql', apiKeyId: null });
    expect(logins.map((n: { userId: string | null }) => n.userId)).toContain(
      (await app.runtime.database.prisma.platformUser.findUniqueOrThrow({ where: { email: admin.email } })).id,
    );
  });

  it('is purged past the retention', async () => {
    const db = app.runtime.database.prisma;
    const old = new Date(Date.now() - (app.runtime.config.REQUEST_LOG_RETENTION_DAYS + 1) * 86_400_000);
    const requestId = `old-${randomUUID()}`;
    await db.requestLogEntry.create({
      data: {
        accountId: admin.accountId,
        environment: 'demo',
        requestId,
        method: 'GET',
        route: '/api/x',
        status: 200,
        latencyMs: 1,
        credentialKind: 'platform',
        createdAt: old,
      },
    });
    expect(await purgeRequestLog(db, new Date(), app.runtime.config.REQUEST_LOG_RETENTION_DAYS)).toBeGreaterThanOrEqual(1);
    expect(await db.requestLogEntry.count({ where: { requestId } })).toBe(0);
    expect(await db.requestLogEntry.count({ where: { accountId: admin.accountId } })).toBeGreaterThan(0);
  });
});
