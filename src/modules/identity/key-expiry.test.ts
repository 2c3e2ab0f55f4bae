/**
 * A token never outlives its API key: every token minted from a key (platform, master, tenant,
 * Marketplace V1) expires no later than the key's `expiresAt`, and the credential status refuses a
 * key past its expiry, so even a token signed for longer stops at it, on REST and on GraphQL.
 * Real time, not an injected clock: the credential status, the token check and the key's expiry
 * must agree on one clock.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../../test/support/graphql-client.js';
import {
  bearer,
  createApiKey,
  createTenant,
  marketplaceV1Token,
  masterToken,
  platformToken,
  signUpIntegrator,
  type Integrator,
} from '../../../test/support/identities.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let me: Integrator;
beforeAll(async () => {
  app = await startTestApp();
  me = await signUpIntegrator(app);
});
afterAll(() => app?.close());

/** The tenant list (an authenticated tenant token is refused it: 403), or Marketplace V1's questionnaires on its own API. */
const restStatus = async (token: string, v1 = false) =>
  (await fetch(`${app.url}${v1 ? '/api/marketplace/v1/questionnaires' : '/api/platform/v1/tenants'}`, { headers: bearer(token) })).status;
const LENDERS = '{ lenders { id } }';
const graphqlRefusal = async (token: string) => (await graphql(app.url, LENDERS, {}, bearer(token))).errors?.[0]?.extensions?.code;

/** Every kind of token a key mints, each with the lifetime it was given. */
async function tokensOf(apiKey: string) {
  const tenant = await createTenant(app, me.platformToken);
  const platform = await platformToken(app, apiKey);
  const master = await masterToken(app, apiKey);
  const tenantByKey = await platformToken(app, apiKey, tenant.id);
  const tenantByMaster = await (
    await postJson(`${app.url}/api/marketplace/v2/auth/tenants/authorize`, undefined, { ...bearer(master.access_token), 'service-tenant-id': tenant.id })
  ).json();
  const v1 = await marketplaceV1Token(app, apiKey);
  return {
    tokens: [platform.access_token, master.access_token, tenantByKey.access_token, tenantByMaster.access_token],
    v1Token: v1.jwt,
    lifetimes: [platform, master, tenantByKey, tenantByMaster]
      .map((t) => (t as { expires_in: number }).expires_in)
      .concat((v1 as unknown as { expiresIn: number }).expiresIn),
  };
}

async function pollUntil(done: () => Promise<boolean>, boundMs: number): Promise<void> {
  const until = Date.now() + boundMs;
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`not refused within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('a token never outlives its API key', () => {
  it('tokens of a key expiring in a few seconds are given at most that long, and are refused after it on REST and GraphQL', async () => {
    const expiresAt = new Date(Date.now() + 5_000);
    const key = await createApiKey(app, me.loginToken, {
      name: `short-${randomUUID().slice(0, 8)}`,
      scopes: ['profile:read', 'profile:write', 'funding:read'],
      expiresAt: expiresAt.toISOString(),
    });
    const { tokens, v1Token, lifetimes } = await tokensOf(key.key);
    for (const seconds of lifetimes) expect(seconds).toBeLessThanOrEqual(5);
    const restStatuses = () => Promise.all([...tokens.map((token) => restStatus(token)), restStatus(v1Token, true)]);
    // Before the key expires, every token is accepted (tenant tokens authenticated, then refused the account's list).
    expect(await restStatuses()).toEqual([200, 200, 403, 403, 200]);
    for (const token of [...tokens, v1Token]) expect(await graphqlRefusal(token)).toBeUndefined();

    // A generous bound on a loaded machine; the answer itself is what is asserted.
    await pollUntil(async () => (await restStatuses()).every((status) => status === 401), 30_000);
    // Tokens end at the whole second before the key does, at the latest; past the key's expiry they stay refused.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt.getTime() - Date.now() + 100)));
    expect(await restStatuses()).toEqual([401, 401, 401, 401, 401]);
    for (const token of [...tokens, v1Token]) expect(await graphqlRefusal(token)).toBe('UNAUTHENTICATED');
    // Nor does the key mint anything more.
    expect((await postJson(`${app.url}/api/platform/v1/auth/token`, undefined, { 'x-api-key': key.key })).status).toBe(401);
  });

  it('the credential status refuses a key past its expiry, even for a token signed to live longer', async () => {
    const key = await createApiKey(app, me.loginToken, {
      name: `later-${randomUUID().slice(0, 8)}`,
      scopes: ['profile:read'],
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const token = (await platformToken(app, key.key)).access_token;
    expect(await restStatus(token)).toBe(200);
    expect(await graphqlRefusal(token)).toBeUndefined();
    // The key's expiry moved into the past behind the token's back (as a key of an older release whose
    // tokens were signed for their full lifetime): the token's own `exp` is still hours ahead.
    await app.runtime.database.prisma.apiKey.update({ where: { id: key.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    app.runtime.auth.credentialStatus.forget(key.id);
    const refused = await fetch(`${app.url}/api/platform/v1/tenants`, { headers: bearer(token) });
    expect(refused.status).toBe(401);
    expect((await refused.json()).detail).toBe('Invalid token: its API key has expired');
    const viaGraphql = await graphql(app.url, LENDERS, {}, bearer(token));
    expect(viaGraphql.errors?.[0]).toMatchObject({ message: 'Invalid token: its API key has expired', extensions: { code: 'UNAUTHENTICATED' } });
  });
});
