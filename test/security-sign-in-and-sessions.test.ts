/**
 * Issue 23, items 5 and 7, tried as an attacker would over real HTTP:
 * - guessing throttles count parallel attempts (a point is taken before the secret is compared),
 *   and a stranger's guesses from another address never lock the real login or lender out;
 * - trust changes end sessions: a role change, a password reset or change ends the user's login
 *   tokens; changing one's own password needs the current one; revoking a refresh family ends the
 *   tenant tokens minted from its tokens; only account admins mint account-wide keys or revoke
 *   other users' keys.
 * Client addresses are set with X-Forwarded-For through TRUST_PROXY=loopback, as in production
 * behind a proxy.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccountWithUser, type LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { LOGIN_LIMITS } from '../src/modules/identity/login-throttle.js';
import { API_KEY_SCOPES } from '../src/kernel/scopes.js';
import { ACCESS_POLICY } from '../src/kernel/access-policy.js';
import {
  bearer,
  createTenant,
  lenderCredentials,
  lenderPasswordGrant,
  masterToken,
  platformToken,
  signIn,
  signUpIntegrator,
  type Integrator,
} from './support/identities.js';
import { startSingleProcessServer } from '../src/processes/single-process-server.js';
import { startRuntime } from '../src/processes/runtime.js';
import { freePort } from './support/processes.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

const LENDER_LIMIT = 10;
let app: TestApp;
const url = (path: string) => `${app.url}${path}`;
const db = () => app.runtime.database.prisma;

beforeAll(async () => {
  app = await startTestApp({ config: { TRUST_PROXY: 'loopback', RATE_LIMIT_LENDER_TOKEN_FAILURES: LENDER_LIMIT } });
}, 120_000);
afterAll(() => app?.close());

const login = (email: string, password: string, from: string) => postJson(url('/api/platform/v1/auth/login'), { email, password }, { 'x-forwarded-for': from });

/** A unique documentation-range address per call, so runs and tests never share a counter. */
let nextHost = 1;
const address = () => `198.18.${Math.floor(nextHost / 250)}.${(nextHost++ % 250) + 1}`;

function count(statuses: number[]): Record<number, number> {
  return statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
}

describe('guessing throttles count parallel attempts and lock out nobody else', () => {
  it('200 parallel wrong passwords for one user from one address: only the budget (5) is checked, the rest 429; the user still signs in from their own address', async () => {
    const email = `victim-${randomUUID()}@example.test`;
    const password = `right-${randomUUID()}`;
    await createAccountWithUser(db(), { environment: 'demo', accountName: `victim-${randomUUID().slice(0, 8)}`, email, password });
    const attacker = address();
    const statuses = (await Promise.all(Array.from({ length: 200 }, (_, i) => login(email, `guess-${i}`, attacker)))).map((r) => r.status);
    const budget = LOGIN_LIMITS.perEmailAndAddress.points;
    expect(count(statuses)).toEqual({ 401: budget, 429: 200 - budget });
    expect((await login(email, password, address())).status).toBe(200);
  }, 120_000);

  async function lenderToken(credentials: LenderCredentials, from: string, overrides: Record<string, string> = {}): Promise<Response> {
    return postJson(url('/oauth/token'), { ...lenderPasswordGrant(credentials), ...overrides }, { 'x-forwarded-for': from });
  }

  /** Fresh credentials for the n-th seeded lender, so each test has its own client id and username. */
  async function lender(n: number): Promise<LenderCredentials> {
    const lenders = await db().lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: n + 1 });
    return lenderCredentials(app, lenders[n]!.id);
  }

  it('40 parallel wrong lender passwords from one address: only the budget (10) is checked, the rest 429', async () => {
    const credentials = await lender(0);
    const attacker = address();
    const statuses = (await Promise.all(Array.from({ length: 40 }, (_, i) => lenderToken(credentials, attacker, { password: `wrong-${i}` })))).map(
      (r) => r.status,
    );
    expect(count(statuses)).toEqual({ 400: LENDER_LIMIT, 429: 40 - LENDER_LIMIT });
  }, 120_000);

  it("a stranger guessing a lender's client secret from another address does not lock the lender out", async () => {
    const credentials = await lender(1);
    const stranger = address();
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => lenderToken(credentials, stranger, { client_secret: `lns_demo_guess${i}` })));
    expect(count(guesses.map((r) => r.status))).toEqual({ 401: LENDER_LIMIT, 429: 30 - LENDER_LIMIT });
    // The stranger's address stays refused, even with the right credentials…
    expect((await lenderToken(credentials, stranger)).status).toBe(429);
    // …while the lender, from its own address, gets its token and uses it.
    const own = await lenderToken(credentials, address());
    expect(own.status).toBe(200);
    const { id_token } = await own.json();
    expect((await fetch(url('/api/platform/v1/funding/applications'), { headers: bearer(id_token) })).status).toBe(200);
  }, 120_000);

  it("a stranger naming only the lender's username (with a client id of its own making) does not lock the lender out", async () => {
    const credentials = await lender(2);
    const stranger = address();
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        lenderToken(credentials, stranger, { client_id: `lnd_demo_${randomUUID().slice(0, 16)}`, client_secret: `lns_demo_guess${i}` }),
      ),
    );
    expect(count(guesses.map((r) => r.status))).toEqual({ 401: LENDER_LIMIT, 429: 30 - LENDER_LIMIT });
    expect((await lenderToken(credentials, address())).status).toBe(200);
  }, 120_000);
});

// ------------------------------------------------------------------------------------- sessions

const patchUser = (token: string, userId: string, body: unknown) =>
  fetch(url(`/api/platform/v1/users/${userId}`), {
    method: 'PATCH',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const listUsers = (token: string) => fetch(url('/api/platform/v1/users'), { headers: bearer(token) });

/** A new user of the admin's account, created over HTTP, signed in. */
async function addUser(admin: Integrator, role: 'MEMBER' | 'ADMIN'): Promise<{ id: string; email: string; password: string; token: string }> {
  const email = `${role.toLowerCase()}-${randomUUID()}@example.test`;
  const password = `pw-${randomUUID()}`;
  const res = await postJson(url('/api/platform/v1/users'), { email, password, role }, bearer(admin.loginToken));
  expect(res.status).toBe(201);
  const { id } = await res.json();
  return { id, email, password, token: await signIn(app, email, password) };
}

describe('trust changes end sessions', () => {
  it("a demoted admin's earlier login token is refused (401) and creates no ADMIN user", async () => {
    const owner = await signUpIntegrator(app);
    const second = await addUser(owner, 'ADMIN');
    expect((await listUsers(second.token)).status).toBe(200);
    expect((await patchUser(owner.loginToken, second.id, { role: 'MEMBER' })).status).toBe(200);

    const usersBefore = await db().platformUser.count({ where: { accountId: owner.accountId } });
    const escalation = await postJson(
      url('/api/platform/v1/users'),
      { email: `sneaky-${randomUUID()}@example.test`, password: 'a-long-enough-password', role: 'ADMIN' },
      bearer(second.token),
    );
    expect(escalation.status).toBe(401);
    expect((await escalation.json()).detail).toMatch(/role or password has changed/);
    expect(await db().platformUser.count({ where: { accountId: owner.accountId } })).toBe(usersBefore);
    // Signed in again, the user has what the new role gives: no user creation.
    const asMember = await signIn(app, second.email, second.password);
    expect(
      (await postJson(url('/api/platform/v1/users'), { email: `sneaky-${randomUUID()}@example.test`, password: 'a-long-enough-password' }, bearer(asMember)))
        .status,
    ).toBe(403);
  });

  it('a login token issued before an admin resets the password is refused (401); the new password signs in', async () => {
    const owner = await signUpIntegrator(app);
    const member = await addUser(owner, 'MEMBER');
    expect((await patchUser(owner.loginToken, member.id, { password: 'the-reset-password-1' })).status).toBe(200);
    expect((await listUsers(member.token)).status).toBe(401);
    expect((await listUsers(await signIn(app, member.email, 'the-reset-password-1'))).status).toBe(200);
    // The admin's own session is untouched.
    expect((await listUsers(owner.loginToken)).status).toBe(200);
  });

  it('disabling ends the sessions for good: re-enabling does not revive tokens issued before', async () => {
    const owner = await signUpIntegrator(app);
    const member = await addUser(owner, 'MEMBER');
    expect((await patchUser(owner.loginToken, member.id, { disabled: true })).status).toBe(200);
    expect((await patchUser(owner.loginToken, member.id, { disabled: false })).status).toBe(200);
    expect((await listUsers(member.token)).status).toBe(401);
  });

  it('changing your own password needs the current one: missing 400 naming currentPassword, wrong 403, nothing changed', async () => {
    const owner = await signUpIntegrator(app);
    const member = await addUser(owner, 'MEMBER');
    const missing = await patchUser(member.token, member.id, { password: 'attacker-chosen-password' });
    expect(missing.status).toBe(400);
    expect((await missing.json()).errors).toEqual([{ pointer: '/currentPassword', message: 'is required with password' }]);
    const wrong = await patchUser(member.token, member.id, { password: 'attacker-chosen-password', currentPassword: 'not-my-password' });
    expect(wrong.status).toBe(403);
    expect((await wrong.json()).errors).toEqual([{ pointer: '/currentPassword', message: 'is not correct' }]);
    // Nothing changed: the old password signs in, the session goes on.
    expect((await listUsers(member.token)).status).toBe(200);
    await signIn(app, member.email, member.password);

    const changed = await patchUser(member.token, member.id, { password: 'my-new-password-123', currentPassword: member.password });
    expect(changed.status).toBe(200);
    // Every earlier session ends, this one included: sign in again with the new password.
    expect((await listUsers(member.token)).status).toBe(401);
    expect((await listUsers(await signIn(app, member.email, 'my-new-password-123'))).status).toBe(200);
  });

  it('currentPassword alone changes nothing (400 naming it)', async () => {
    const owner = await signUpIntegrator(app);
    const res = await patchUser(owner.loginToken, (await (await listUsers(owner.loginToken)).json())[0].id, { currentPassword: owner.password });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([
      { pointer: '', message: 'must change at least one field' },
      { pointer: '/currentPassword', message: 'goes only with password' },
    ]);
  });

  for (const minting of ['master', 'platform'] as const) {
    it(`a tenant token minted from a ${minting} token is refused (401) once that token's refresh family is revoked by a replay`, async () => {
      const integrator = await signUpIntegrator(app);
      const tenant = await createTenant(app, integrator.platformToken);
      const pair = minting === 'master' ? await masterToken(app, integrator.apiKey) : await platformToken(app, integrator.apiKey);
      const base = minting === 'master' ? '/api/marketplace/v2' : '/api/platform/v1';
      const issued = await postJson(url(`${base}/auth/tenants/authorize`), undefined, { ...bearer(pair.access_token), 'service-tenant-id': tenant.id });
      expect(issued.status).toBe(201);
      const tenantToken = (await issued.json()).access_token as string;
      const readProfile = () => fetch(url('/api/business/v1/profile'), { headers: bearer(tenantToken) });
      const before = (await readProfile()).status;
      expect(before).not.toBe(401);

      const refresh = () => postJson(url(`${base}/auth/refresh-token`), { refresh_token: pair.refresh_token });
      expect((await refresh()).status).toBe(201);
      expect((await refresh()).status).toBe(401); // the replay revokes the family
      const after = await readProfile();
      expect(after.status).toBe(401);
      expect((await after.json()).detail).toMatch(/whole family is revoked/);
      // A tenant token minted from another family of the same key goes on working.
      const fresh = await platformToken(app, integrator.apiKey, tenant.id);
      expect((await fetch(url('/api/business/v1/profile'), { headers: bearer(fresh.access_token) })).status).toBe(before);
    });
  }
});

describe('trust changes reach every process', () => {
  it("a demotion made in one process ends the user's token in another at once, not after the 30 s cache", async () => {
    const redisUrl = process.env.REDIS_URL;
    if (!redisUrl) throw new Error('REDIS_URL is required for this test');
    // Two processes of one deployment: the same database, Redis, signing keys and public URL.
    const first = await startTestApp({ config: { REDIS_URL: redisUrl } });
    const secondRuntime = await startRuntime(first.runtime.config);
    const secondServer = await startSingleProcessServer(secondRuntime, { port: await freePort() });
    try {
      const asUser = (base: string, token: string) => fetch(`${base}/api/platform/v1/users`, { headers: bearer(token) });
      const owner = await signUpIntegrator(first);
      const res = await postJson(
        `${first.url}/api/platform/v1/users`,
        { email: `admin-${randomUUID()}@example.test`, password: 'second-admin-password', role: 'ADMIN' },
        bearer(owner.loginToken),
      );
      const second = await res.json();
      const token = await signIn(first, second.email, 'second-admin-password');
      // The second process has checked (and cached) the token as active.
      expect((await asUser(secondServer.url, token)).status).toBe(200);
      const demoted = await fetch(`${first.url}/api/platform/v1/users/${second.id}`, {
        method: 'PATCH',
        headers: { ...bearer(owner.loginToken), 'content-type': 'application/json' },
        body: JSON.stringify({ role: 'MEMBER' }),
      });
      expect(demoted.status).toBe(200);
      // Told through Redis: well before its own cache would expire (30 s).
      await vi.waitFor(async () => expect((await asUser(secondServer.url, token)).status).toBe(401), { timeout: 15_000, interval: 100 });
      const escalation = await postJson(
        `${secondServer.url}/api/platform/v1/users`,
        { email: `sneaky-${randomUUID()}@example.test`, password: 'a-long-enough-password', role: 'ADMIN' },
        bearer(token),
      );
      expect(escalation.status).toBe(401);
    } finally {
      await secondServer.close();
      await secondRuntime.close();
      await first.close();
    }
  }, 120_000);
});

describe('account-wide keys are for account admins', () => {
  const createKey = (token: string, body: Record<string, unknown>) =>
    postJson(url('/api/platform/v1/api-key'), { name: `k-${randomUUID().slice(0, 8)}`, ...body }, bearer(token));
  const revokeKey = (token: string, id: string) => fetch(url(`/api/platform/v1/api-key/${id}`), { method: 'DELETE', headers: bearer(token) });

  it('a MEMBER cannot mint a master key or a key with every scope (403, nothing stored); a narrower key it can', async () => {
    const owner = await signUpIntegrator(app);
    const member = await addUser(owner, 'MEMBER');
    const keysBefore = await db().apiKey.count({ where: { accountId: owner.accountId } });
    const master = await createKey(member.token, { scopes: [...API_KEY_SCOPES], isMaster: true });
    expect(master.status).toBe(403);
    expect((await master.json()).detail).toMatch(/Only account admins \(scope users:write\)/);
    expect((await createKey(member.token, { scopes: ['profile:read'], isMaster: true })).status).toBe(403);
    expect((await createKey(member.token, { scopes: [...API_KEY_SCOPES] })).status).toBe(403);
    expect(await db().apiKey.count({ where: { accountId: owner.accountId } })).toBe(keysBefore);
    expect((await createKey(member.token, { scopes: ['profile:read', 'funding:read'] })).status).toBe(200);
    // The admin can.
    expect((await createKey(owner.loginToken, { scopes: [...API_KEY_SCOPES], isMaster: true })).status).toBe(200);
  });

  it("which scopes a MEMBER may grant is the access table's row: each admin-only scope alone, or with all the others, is a 403; every other scope it may grant", async () => {
    const owner = await signUpIntegrator(app);
    const member = await addUser(owner, 'MEMBER');
    const adminOnly = ACCESS_POLICY['apiKeys.create'].elevated.grants;
    expect(adminOnly.length).toBeGreaterThan(0);
    const memberGrantable = API_KEY_SCOPES.filter((scope) => !(adminOnly as readonly string[]).includes(scope));
    const keysBefore = await db().apiKey.count({ where: { accountId: owner.accountId } });
    for (const scope of adminOnly) {
      for (const scopes of [[scope], [...memberGrantable, scope]]) {
        const refused = await createKey(member.token, { scopes });
        expect(refused.status).toBe(403);
        expect((await refused.json()).detail).toMatch(/Only account admins \(scope users:write\)/);
      }
    }
    expect(await db().apiKey.count({ where: { accountId: owner.accountId } })).toBe(keysBefore);
    // Nine of ten scopes is no longer a way round the rule; the member-grantable ones together are fine.
    expect((await createKey(member.token, { scopes: memberGrantable })).status).toBe(200);
    for (const scope of adminOnly) expect((await createKey(owner.loginToken, { scopes: [scope] })).status).toBe(200);
  });

  it("a MEMBER cannot revoke an admin's key (403, the key goes on working) but revokes its own", async () => {
    const owner = await signUpIntegrator(app);
    const member = await addUser(owner, 'MEMBER');
    expect((await revokeKey(member.token, owner.apiKeyId)).status).toBe(403);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: owner.apiKeyId } })).revokedAt).toBeNull();
    expect((await fetch(url('/api/platform/v1/tenants'), { headers: bearer(owner.platformToken) })).status).toBe(200);

    const own = await (await createKey(member.token, { scopes: ['profile:read'] })).json();
    expect((await revokeKey(member.token, own.id)).status).toBe(204);
    // An unknown key is a 404 for a member too (no 403 telling it exists elsewhere).
    expect((await revokeKey(member.token, randomUUID())).status).toBe(404);
    // The admin revokes the member's keys.
    const members = await (await createKey(member.token, { scopes: ['profile:read'] })).json();
    expect((await revokeKey(owner.loginToken, members.id)).status).toBe(204);
  });
});
