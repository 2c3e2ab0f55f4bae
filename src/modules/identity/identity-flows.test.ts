/**
 * Identity flows end to end: platform login and its throttle, API keys, token exchanges,
 * single-use refresh tokens with family revocation, expiry on an injected clock, and isolation
 * between accounts and tenants, each failure leaving the database as it was.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser } from './bootstrap.js';
import { subscribe } from '../../../test/support/graphql-client.js';
import {
  bearer,
  createApiKey,
  createTenant,
  marketplaceV1Token,
  masterToken,
  platformToken,
  signIn,
  signUpIntegrator,
  type Integrator,
} from '../../../test/support/identities.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';

let now = new Date('2026-11-21T09:00:00Z');
let app: TestApp;
let me: Integrator;
let other: Integrator;
const db = () => app.runtime.database.prisma;
const url = (path: string) => `${app.url}${path}`;

beforeAll(async () => {
  app = await startTestApp({ clock: { now: () => now } });
  me = await signUpIntegrator(app);
  other = await signUpIntegrator(app);
});
afterAll(() => app?.close());

async function snapshot() {
  const [tenants, keys, refreshTokens, revoked, users] = await Promise.all([
    db().tenant.count(),
    db().apiKey.count(),
    db().refreshToken.count(),
    db().refreshToken.count({ where: { revokedAt: { not: null } } }),
    db().platformUser.count(),
  ]);
  return { tenants, keys, refreshTokens, revoked, users };
}

describe('platform login', () => {
  it('answers 200 with the spec 4.2 token response', async () => {
    const res = await postJson(url('/api/platform/v1/auth/login'), { email: me.email, password: me.password });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ access_token: expect.any(String), expires_in: 86400, scope: expect.stringContaining('api_keys:write'), token_type: 'Bearer' });
  });

  it('gives the same 401 for an unknown email and a wrong password', async () => {
    const unknown = await postJson(url('/api/platform/v1/auth/login'), { email: 'nobody@example.test', password: 'whatever-password' });
    const wrong = await postJson(url('/api/platform/v1/auth/login'), { email: other.email, password: 'not-the-password' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    // The same problem; only `instance` differs, naming each request.
    const withoutInstance = ({ instance: _instance, ...problem }: Record<string, unknown>) => problem;
    expect(withoutInstance(await unknown.json())).toEqual(withoutInstance(await wrong.json()));
  });

  it('throttles repeated failures per email with 429 and Retry-After, even for the right password', async () => {
    const { userId } = await createAccountWithUser(db(), {
      environment: 'demo',
      accountName: 'throttled',
      email: 'throttled@example.test',
      password: 'right-password-123',
    });
    expect(userId).toBeTruthy();
    for (let i = 0; i < 5; i++) {
      const res = await postJson(url('/api/platform/v1/auth/login'), { email: 'throttled@example.test', password: `wrong-${i}` });
      expect(res.status).toBe(401);
    }
    const blocked = await postJson(url('/api/platform/v1/auth/login'), { email: 'Throttled@example.test', password: 'right-password-123' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await blocked.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS', detail: expect.stringContaining('Too many failed sign-in attempts') });
  });

  it('validates the body', async () => {
    const res = await postJson(url('/api/platform/v1/auth/login'), { email: 'a@b.c' });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([{ pointer: '/password', message: expect.any(String) }]);
  });
});

describe('API keys', () => {
  it('creates a key shown once, lists keys without secrets, and revokes one', async () => {
    const created = await createApiKey(app, me.loginToken, { name: 'listed', scopes: ['profile:read'] });
    expect(created.key).toMatch(/^fgk_demo_key_[0-9a-f]{12}_/);
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.keyHash).not.toContain(created.key);
    const list = await (await fetch(url('/api/platform/v1/api-key'), { headers: bearer(me.loginToken) })).json();
    expect(list.map((k: { name: string }) => k.name)).toEqual(expect.arrayContaining(['integration', 'listed']));
    expect(JSON.stringify(list)).not.toContain(created.key);

    const token = await platformToken(app, created.key);
    expect((await fetch(url('/api/platform/v1/tenants'), { headers: bearer(token.access_token) })).status).toBe(200);
    const revoke = await fetch(url(`/api/platform/v1/api-key/${created.id}`), { method: 'DELETE', headers: bearer(me.loginToken) });
    expect(revoke.status).toBe(204);
    // The key's live access token stops working too, before its expiry.
    const live = await fetch(url('/api/platform/v1/tenants'), { headers: bearer(token.access_token) });
    expect(live.status).toBe(401);
    expect((await live.json()).detail).toBe('Invalid token: its API key has been revoked');
    const exchange = await postJson(url('/api/platform/v1/auth/token'), undefined, { 'x-api-key': created.key });
    expect(exchange.status).toBe(401);
    expect((await exchange.json()).detail).toBe('The API key has been revoked');
    const refresh = await postJson(url('/api/platform/v1/auth/refresh-token'), { refresh_token: token.refresh_token });
    expect(refresh.status).toBe(401);
  });

  it.each([
    [{ name: 'integration', scopes: ['profile:read'] }, 409, '/name'],
    [{ name: 'bad-scope', scopes: ['profile:read', 'admin'] }, 400, '/scopes/1'],
    [{ name: 'past', scopes: ['profile:read'], expiresAt: '2020-01-01T00:00:00Z' }, 422, '/expiresAt'],
    [{ name: 'no-scopes', scopes: [] }, 400, '/scopes'],
    [{ name: 'extra', scopes: ['profile:read'], owner: 'x' }, 400, '/owner'],
  ])('refuses %j with %i at %s and creates nothing', async (body, status, pointer) => {
    const before = await snapshot();
    const res = await postJson(url('/api/platform/v1/api-key'), body, bearer(me.loginToken));
    expect(res.status).toBe(status);
    expect((await res.json()).errors[0].pointer).toBe(pointer);
    expect(await snapshot()).toEqual(before);
  });

  it('names partnerApiKey as unsupported (400), creating nothing', async () => {
    const before = await snapshot();
    const res = await postJson(
      url('/api/platform/v1/api-key'),
      { name: 'with-partner', scopes: ['profile:read'], partnerApiKey: 'pk_live_123' },
      bearer(me.loginToken),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([
      { pointer: '/partnerApiKey', message: 'is not supported: this gateway does not link partner API keys; leave it out' },
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('needs a login token: an API-key token cannot mint keys', async () => {
    const res = await postJson(url('/api/platform/v1/api-key'), { name: 'x', scopes: ['profile:read'] }, bearer(me.platformToken));
    expect(res.status).toBe(403);
  });

  it('an expired key mints nothing (clock moved past expiresAt)', async () => {
    const key = await createApiKey(app, me.loginToken, {
      name: 'short-lived',
      scopes: ['profile:read'],
      expiresAt: new Date(now.getTime() + 60_000).toISOString(),
    });
    expect((await postJson(url('/api/platform/v1/auth/token'), undefined, { 'x-api-key': key.key })).status).toBe(201);
    now = new Date(now.getTime() + 61_000);
    const res = await postJson(url('/api/platform/v1/auth/token'), undefined, { 'x-api-key': key.key });
    expect(res.status).toBe(401);
    expect((await res.json()).detail).toBe('The API key has expired');
  });
});

describe('token exchanges', () => {
  it('POST /auth/token: platform token with the key scopes, 201', async () => {
    const res = await postJson(url('/api/platform/v1/auth/token'), undefined, { 'x-api-key': me.apiKey });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      access_token: expect.any(String),
      expires_in: 36000,
      refresh_token: expect.any(String),
      scope: expect.stringContaining('funding:write'),
      token_type: 'Bearer',
    });
    expect(body.scope.split(' ')).toHaveLength(10);
  });

  it('POST /auth/token with Service-tenant-id: a tenant token; another account’s tenant is 404 and writes nothing', async () => {
    const tenant = await createTenant(app, me.platformToken);
    const token = await platformToken(app, me.apiKey, tenant.id);
    expect(token.scope).toBe('profile:read profile:write sign_up');
    const foreign = await createTenant(app, other.platformToken);
    const before = await snapshot();
    const res = await postJson(url('/api/platform/v1/auth/token'), undefined, { 'x-api-key': me.apiKey, 'service-tenant-id': foreign.id });
    expect(res.status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('master token → tenant token through /auth/tenants/authorize (no refresh token)', async () => {
    const tenant = await createTenant(app, me.platformToken);
    const master = await masterToken(app, me.apiKey);
    const res = await postJson(url('/api/marketplace/v2/auth/tenants/authorize'), undefined, {
      ...bearer(master.access_token),
      'service-tenant-id': tenant.id,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      access_token: expect.any(String),
      expires_in: 36000,
      scope: 'profile:read profile:write sign_up',
      token_type: 'Bearer',
    });
    const noHeader = await postJson(url('/api/marketplace/v2/auth/tenants/authorize'), undefined, bearer(master.access_token));
    expect(noHeader.status).toBe(400);
    const foreign = await createTenant(app, other.platformToken);
    const cross = await postJson(url('/api/marketplace/v2/auth/tenants/authorize'), undefined, {
      ...bearer(master.access_token),
      'service-tenant-id': foreign.id,
    });
    expect(cross.status).toBe(404);
  });

  it('refuses a missing or unknown API key with 401', async () => {
    expect((await postJson(url('/api/platform/v1/auth/token'), undefined)).status).toBe(401);
    expect((await postJson(url('/api/marketplace/v2/auth/authorize'), undefined, { 'x-api-key': 'fgk_demo_key_000000000000_nope' })).status).toBe(401);
    const prod = await postJson(url('/api/platform/v1/auth/token'), undefined, { 'x-api-key': 'fgk_live_key_000000000000_nope' });
    expect((await prod.json()).detail).toBe('This API key belongs to the production environment');
  });

  it('a platform token expires after 36000 s on the injected clock', async () => {
    const token = await platformToken(app, me.apiKey);
    const list = () => fetch(url('/api/platform/v1/tenants'), { headers: bearer(token.access_token) });
    expect((await list()).status).toBe(200);
    const issuedAt = now;
    now = new Date(issuedAt.getTime() + 35_999_000);
    expect((await list()).status).toBe(200);
    now = new Date(issuedAt.getTime() + 36_001_000);
    const res = await list();
    expect(res.status).toBe(401);
    expect((await res.json()).detail).toBe('Invalid token: it has expired');
    now = issuedAt; // the other tests' tokens stay valid
  });
});

describe('refresh tokens: single use, replay revokes the family', () => {
  it('platform: rotates, and a replay is 401 and revokes the successor too', async () => {
    const first = await platformToken(app, me.apiKey);
    const refresh = (token: string) => postJson(url('/api/platform/v1/auth/refresh-token'), { refresh_token: token });
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(201);
    const pair = await second.json();
    expect(pair).toEqual({ access_token: expect.any(String), expires_in: 36000, refresh_token: expect.any(String), scope: first.scope, token_type: 'Bearer' });

    const before = await snapshot();
    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(401);
    expect((await replay.json()).detail).toBe('Invalid refresh token: it has already been used; every token of its family is now revoked');
    const after = await snapshot();
    // The family (the used token and its successor) is revoked; no token was issued.
    expect(after).toEqual({ ...before, revoked: before.revoked + 2 });
    expect((await refresh(pair.refresh_token)).status).toBe(401);
  });

  it('a tenant refresh token refreshes to a tenant token of the same tenant', async () => {
    const tenant = await createTenant(app, me.platformToken);
    const first = await platformToken(app, me.apiKey, tenant.id);
    const res = await postJson(url('/api/platform/v1/auth/refresh-token'), { refreshToken: first.refresh_token });
    expect(res.status).toBe(201);
    expect((await res.json()).scope).toBe('profile:read profile:write sign_up');
  });

  it('master: refreshes on marketplace V2 only', async () => {
    const master = await masterToken(app, me.apiKey);
    const wrongPlace = await postJson(url('/api/platform/v1/auth/refresh-token'), { refresh_token: master.refresh_token });
    expect(wrongPlace.status).toBe(401);
    const res = await postJson(url('/api/marketplace/v2/auth/refresh-token'), { refresh_token: master.refresh_token });
    expect(res.status).toBe(201);
  });

  it('Marketplace V1: { jwt, refreshToken }, strict body, single use', async () => {
    const first = await marketplaceV1Token(app, me.apiKey);
    expect(first).toEqual({ jwt: expect.any(String), refreshToken: expect.any(String), expiresIn: 36000 });
    const extra = await postJson(url('/api/marketplace/v1/auth/refresh-token'), { refreshToken: first.refreshToken, more: 1 });
    expect(extra.status).toBe(400);
    expect((await extra.json()).errors).toEqual([{ pointer: '/more', message: 'is not an allowed property' }]);
    const next = await postJson(url('/api/marketplace/v1/auth/refresh-token'), { refreshToken: first.refreshToken });
    expect(next.status).toBe(200);
    expect(await next.json()).toEqual({ jwt: expect.any(String), refreshToken: expect.any(String), expiresIn: 36000 });
    const replay = await postJson(url('/api/marketplace/v1/auth/refresh-token'), { refreshToken: first.refreshToken });
    expect(replay.status).toBe(401);
  });

  it('an unknown refresh token is 401', async () => {
    const res = await postJson(url('/api/marketplace/v1/auth/refresh-token'), { refreshToken: 'fgr_demo_nothing' });
    expect(res.status).toBe(401);
  });
});

describe('isolation between accounts', () => {
  it('nobody sees, reads or changes another account’s tenants; nothing changes', async () => {
    const mine = await createTenant(app, me.platformToken, `iso-${randomUUID()}`);
    const theirs = await fetch(url(`/api/platform/v1/tenants/${mine.id}`), { headers: bearer(other.platformToken) });
    expect(theirs.status).toBe(404);
    const list = await (await fetch(url('/api/platform/v1/tenants?limit=100'), { headers: bearer(other.platformToken) })).json();
    expect(list.data.map((t: { id: string }) => t.id)).not.toContain(mine.id);
    const before = await db().tenant.findUniqueOrThrow({ where: { id: mine.id } });
    const patch = await fetch(url(`/api/platform/v1/tenants/${mine.id}`), {
      method: 'PATCH',
      headers: { ...bearer(other.platformToken), 'content-type': 'application/json' },
      body: JSON.stringify({ referenceId: 'hijacked' }),
    });
    expect(patch.status).toBe(404);
    expect(await db().tenant.findUniqueOrThrow({ where: { id: mine.id } })).toEqual(before);
  });

  it('PATCH {platform_base}/tenants/{id} changes the own tenant', async () => {
    const mine = await createTenant(app, me.platformToken, `patch-${randomUUID()}`);
    const res = await fetch(url(`/api/platform/v1/tenants/${mine.id}`), {
      method: 'PATCH',
      headers: { ...bearer(me.platformToken), 'content-type': 'application/json' },
      body: JSON.stringify({ referenceId: `patched-${mine.id}` }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).referenceId).toBe(`patched-${mine.id}`);
  });

  it('GET /tenants pages with offset/limit and self/prev/next links', async () => {
    const fresh = await signUpIntegrator(app);
    for (let i = 0; i < 3; i++) await createTenant(app, fresh.platformToken, `page-${i}`);
    const res = await fetch(url('/api/platform/v1/tenants?offset=1&limit=1'), { headers: bearer(fresh.platformToken) });
    expect(res.status).toBe(200);
    const page = await res.json();
    expect(page.meta).toEqual({ total: 3, totalEntries: 3, offset: 1, limit: 1 });
    expect(page.data.map((t: { referenceId: string }) => t.referenceId)).toEqual(['page-1']);
    expect(page.links).toEqual({
      self: '/api/platform/v1/tenants?offset=1&limit=1',
      prev: '/api/platform/v1/tenants?offset=0&limit=1',
      next: '/api/platform/v1/tenants?offset=2&limit=1',
    });
    const first = await (await fetch(url('/api/platform/v1/tenants?offset=0&limit=2'), { headers: bearer(fresh.platformToken) })).json();
    expect(first.links).toEqual({ self: '/api/platform/v1/tenants?offset=0&limit=2', next: '/api/platform/v1/tenants?offset=2&limit=2' });
    const last = await (await fetch(url('/api/platform/v1/tenants?offset=2&limit=2'), { headers: bearer(fresh.platformToken) })).json();
    expect(last.links).toEqual({ self: '/api/platform/v1/tenants?offset=2&limit=2', prev: '/api/platform/v1/tenants?offset=0&limit=2' });
    expect(last.meta).toEqual({ total: 3, totalEntries: 3, offset: 2, limit: 2 });
  });

  it('Marketplace V1 profiles are visible to their owner account only', async () => {
    const mine = await marketplaceV1Token(app, me.apiKey);
    const theirs = await marketplaceV1Token(app, other.apiKey);
    const created = await (await postJson(url('/api/marketplace/v1/profiles/blank'), undefined, bearer(mine.jwt))).json();
    expect(created).toMatchObject({ uuid: expect.any(String), persons: [] });
    // No funding search yet: the key is left out, not null.
    expect(created.legacy).toEqual({ entityBusinessId: expect.any(Number) });
    const row = await db().profile.findUniqueOrThrow({ where: { id: created.uuid } });
    expect(row).toMatchObject({ ownerApiKeyId: me.apiKeyId, ownerAccountId: me.accountId });
    expect((await fetch(url(`/api/marketplace/v1/profiles/${created.uuid}`), { headers: bearer(mine.jwt) })).status).toBe(200);
    expect((await fetch(url(`/api/marketplace/v1/profiles/${created.uuid}`), { headers: bearer(theirs.jwt) })).status).toBe(404);
  });

  it('tenantCreated over graphql-ws (credentials in connection_init) reports only the own account', async () => {
    const sub = await subscribe(app.url, 'subscription { tenantCreated { id referenceId } }', {}, { authorization: `Bearer ${me.platformToken}` });
    try {
      await createTenant(app, other.platformToken, 'not-for-me');
      const mine = await createTenant(app, me.platformToken, 'for-me');
      const event = await sub.next();
      expect(event.data?.tenantCreated).toEqual({ id: mine.id, referenceId: 'for-me' });
    } finally {
      await sub.close();
    }
  });
});

describe('platform users', () => {
  it('admins list and add users; members cannot add; a user renames themself', async () => {
    const admin = await signUpIntegrator(app);
    const created = await postJson(
      url('/api/platform/v1/users'),
      { email: `member-${randomUUID()}@example.test`, password: 'member-password-1' },
      bearer(admin.loginToken),
    );
    expect(created.status).toBe(201);
    const member = await created.json();
    expect(member).toMatchObject({ role: 'MEMBER', disabled: false });
    expect(JSON.stringify(member)).not.toContain('password');
    const users = await (await fetch(url('/api/platform/v1/users'), { headers: bearer(admin.loginToken) })).json();
    expect(users).toHaveLength(2);

    const memberToken = await signIn(app, member.email, 'member-password-1');
    const before = await snapshot();
    const denied = await postJson(url('/api/platform/v1/users'), { email: 'x@example.test', password: 'another-password' }, bearer(memberToken));
    expect(denied.status).toBe(403);
    expect(await snapshot()).toEqual(before);
    const renamed = await fetch(url(`/api/platform/v1/users/${member.id}`), {
      method: 'PATCH',
      headers: { ...bearer(memberToken), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Member Name' }),
    });
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).name).toBe('Member Name');
    const foreign = await fetch(url(`/api/platform/v1/users/${member.id}`), { headers: bearer(other.loginToken) });
    expect(foreign.status).toBe(404);
  });

  it("another account's user is 404 whatever the body, a malformed one included; the own account's gets the 400", async () => {
    const admin = await signUpIntegrator(app);
    const member = await (
      await postJson(url('/api/platform/v1/users'), { email: `member-${randomUUID()}@example.test`, password: 'member-password-1' }, bearer(admin.loginToken))
    ).json();
    const patch = (token: string, body: string) =>
      fetch(url(`/api/platform/v1/users/${member.id}`), { method: 'PATCH', headers: { ...bearer(token), 'content-type': 'application/json' }, body });
    const before = await db().platformUser.findUniqueOrThrow({ where: { id: member.id } });
    // `other` is an account admin (users:write): the strongest credential of another account.
    for (const body of [JSON.stringify({ role: 'EMPEROR', name: 42 }), JSON.stringify({ name: 'Taken Over' }), JSON.stringify([1, 2])]) {
      const foreign = await patch(other.loginToken, body);
      expect(foreign.status, body).toBe(404);
    }
    expect(await db().platformUser.findUniqueOrThrow({ where: { id: member.id } })).toEqual(before);
    const own = await patch(admin.loginToken, JSON.stringify({ role: 'EMPEROR' }));
    expect(own.status).toBe(400);
    expect((await own.json()).errors[0].pointer).toBe('/role');
  });

  it('the last admin cannot be demoted', async () => {
    const admin = await signUpIntegrator(app);
    const self = (await (await fetch(url('/api/platform/v1/users'), { headers: bearer(admin.loginToken) })).json())[0];
    const res = await fetch(url(`/api/platform/v1/users/${self.id}`), {
      method: 'PATCH',
      headers: { ...bearer(admin.loginToken), 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'MEMBER' }),
    });
    expect(res.status).toBe(409);
  });
});
