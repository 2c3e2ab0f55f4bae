/**
 * A tenant token never holds more than the API key it comes from (issue 23, item 3): its scopes are
 * spec 2.5's tenant scopes (profile:read, profile:write) that the key holds, plus sign_up. The
 * review's reproduction: a key holding only insights:read got a tenant token that wrote the
 * profile, created a Business V1 application, submitted it to lenders and passed access on
 * accepting offers, while that key's own platform token got 403 on each.
 * Every way to mint one is covered: POST /auth/token with Service-tenant-id, POST
 * .../auth/tenants/authorize with a platform or master bearer, and the tenant refresh token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_APPLICATION } from './support/answers.js';
import { CredentialFactory } from './support/credentials.js';
import { graphqlOutcome, restOutcome } from './support/probe-client.js';
import { bearer, createTenant, masterToken, platformToken, signUpIntegrator, type Integrator } from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

const B = '/api/business/v1';
const P = '/api/platform/v1';
const V2 = '/api/marketplace/v2';

let app: TestApp;
let owner: Integrator;
let factory: CredentialFactory;
const db = () => app.runtime.database.prisma;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signUpIntegrator(app);
  const userId = (await db().platformUser.findFirstOrThrow({ where: { accountId: owner.accountId } })).id;
  factory = new CredentialFactory(app, owner.loginToken, { accountId: owner.accountId, userId }, { accountId: owner.accountId, userId });
});
afterAll(() => app?.close());

/** A tenant with a profile, made with the account's all-scope platform token (fixture only). */
async function tenantWithProfile(): Promise<string> {
  const tenant = await createTenant(app, owner.platformToken);
  const res = await postJson(
    `${app.url}${B}/profile`,
    { companyInformation: { registrationNumber: '09876543' } },
    { ...bearer(owner.platformToken), 'service-tenant-id': tenant.id },
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return tenant.id;
}

/** Three ways to mint a tenant token from a key holding exactly `scopes`. */
async function mintedTokens(scopes: string[], tenantId: string): Promise<Array<{ how: string; token: string; scope: string }>> {
  const key = await factory.apiKey(scopes, { fresh: true });
  const viaKey = await platformToken(app, key.secret, tenantId);
  const refreshed = await postJson(`${app.url}${P}/auth/refresh-token`, { refresh_token: viaKey.refresh_token });
  expect(refreshed.status).toBe(201);
  const viaRefresh = await refreshed.json();
  const authorized = [];
  for (const [how, bearerToken] of [
    ['platform token → /auth/tenants/authorize', (await platformToken(app, key.secret)).access_token],
    ['master token → /auth/tenants/authorize', (await masterToken(app, key.secret)).access_token],
  ] as const) {
    const res = await postJson(`${app.url}${V2}/auth/tenants/authorize`, undefined, { ...bearer(bearerToken), 'service-tenant-id': tenantId });
    expect(res.status).toBe(201);
    const body = await res.json();
    authorized.push({ how, token: body.access_token as string, scope: body.scope as string });
  }
  return [
    { how: 'API key + Service-tenant-id', token: viaKey.access_token, scope: viaKey.scope },
    { how: 'tenant refresh token', token: viaRefresh.access_token, scope: viaRefresh.scope },
    ...authorized,
  ];
}

describe('tenant tokens carry only the tenant scopes their key holds', () => {
  it.for([
    [['insights:read'], 'sign_up'],
    [['funding:write'], 'sign_up'],
    [['profile:read'], 'profile:read sign_up'],
    [['profile:write'], 'profile:write sign_up'],
    [['profile:read', 'profile:write', 'funding:read'], 'profile:read profile:write sign_up'],
  ] as const)('a key of [%s] mints tenant tokens with scope "%s", every way', async ([scopes, expected]) => {
    const tenantId = await tenantWithProfile();
    for (const minted of await mintedTokens([...scopes], tenantId)) expect(minted.scope, minted.how).toBe(expected);
  });

  it("the review's reproduction: a tenant token from an insights:read key writes nothing, creates and submits no application, decides no offer (REST and GraphQL)", async () => {
    const tenantId = await tenantWithProfile();
    const profileBefore = await db().profile.findFirstOrThrow({ where: { tenantId } });
    for (const { how, token } of await mintedTokens(['insights:read'], tenantId)) {
      const auth = bearer(token);
      const attempts = [
        await restOutcome(app.url, {
          method: 'PATCH',
          path: `${B}/profile`,
          headers: auth,
          body: { companyInformation: { website: 'https://written.example' } },
        }),
        await restOutcome(app.url, { method: 'GET', path: `${B}/profile`, headers: auth }),
        await restOutcome(app.url, { method: 'POST', path: `${B}/applications`, headers: auth, body: ACME_APPLICATION }),
        await restOutcome(app.url, { method: 'POST', path: `${B}/lender-applications/1/accept`, headers: auth }),
        await graphqlOutcome(
          app.url,
          'mutation { updateTenantProfile(input: { companyInformation: { website: "https://written.example" } }) { __typename } }',
          {},
          auth,
        ),
        await graphqlOutcome(app.url, 'mutation { acceptOffer(applicationId: 1) { __typename } }', {}, auth),
      ];
      expect(
        attempts.map((a) => a.status),
        `${how}: ${attempts.map((a) => a.text.slice(0, 200)).join(' | ')}`,
      ).toEqual([403, 403, 403, 403, 403, 403]);
    }
    expect(await db().profile.findFirstOrThrow({ where: { tenantId } })).toEqual(profileBefore);
    expect(await db().businessApplication.count({ where: { tenantId } })).toBe(0);
  });

  it('a tenant token from a profile:read key reads the profile but does not write it', async () => {
    const tenantId = await tenantWithProfile();
    const token = (await mintedTokens(['profile:read'], tenantId))[0]!.token;
    expect((await restOutcome(app.url, { method: 'GET', path: `${B}/profile`, headers: bearer(token) })).status).toBe(200);
    const write = await restOutcome(app.url, {
      method: 'PATCH',
      path: `${B}/profile`,
      headers: bearer(token),
      body: { companyInformation: { website: 'https://written.example' } },
    });
    expect(write.status, write.text).toBe(403);
  });
});
