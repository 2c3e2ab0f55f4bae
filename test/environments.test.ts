// Demo and production side by side with (mistakenly) shared signing keys: nothing of demo's opens production.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/kernel/context.js';
import { issueLenderCredentials, registerLender, type LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { TokenAuthority } from '../src/modules/identity/token-authority.js';
import { loadSigningKeys } from '../src/infra/signing-keys.js';
import { bearer, lenderCredentials, lenderIdToken, lenderPasswordGrant, marketplaceV1Token, signUpIntegrator, type Integrator } from './support/identities.js';
import { postJson, startTestApp, testSigningKeys, type TestApp } from './support/test-app.js';

let demo: TestApp;
let production: TestApp;
let demoIntegrator: Integrator;
let demoLender: LenderCredentials;
let productionIntegrator: Integrator;
let productionLender: LenderCredentials;
beforeAll(async () => {
  const sharedKeys = await testSigningKeys();
  [demo, production] = await Promise.all([
    startTestApp({ config: { DEPLOY_ENV: 'demo', AUTH_SIGNING_KEYS: sharedKeys } }),
    startTestApp({ config: { DEPLOY_ENV: 'production', AUTH_SIGNING_KEYS: sharedKeys } }),
  ]);
  demoIntegrator = await signUpIntegrator(demo);
  demoLender = await lenderCredentials(demo);
  productionIntegrator = await signUpIntegrator(production); // an account and admin in environment 'production'
  productionLender = await registerLender(production.runtime.database.prisma, {
    environment: 'production',
    publicUrl: production.runtime.config.PUBLIC_URL,
    name: 'Live Lender',
    applicationUrl: 'https://lender.example.test/applications',
  });
});
afterAll(() => Promise.all([demo?.close(), production?.close()]));

const tenantsOf = (app: TestApp, token: string) => fetch(`${app.url}/api/platform/v1/tenants`, { headers: bearer(token) });
const applicationsOf = (app: TestApp, token: string) => fetch(`${app.url}/api/platform/v1/funding/applications`, { headers: bearer(token) });

async function expectUnauthenticated(res: Response, detail: string | RegExp): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const problem = await res.json();
  expect(problem).toMatchObject({ status: 401, title: 'Unauthorized', code: 'UNAUTHENTICATED' });
  expect(problem.detail).toMatch(detail);
}

it("production takes its own platform and lender tokens (so its 401s below are about the tokens' origin)", async () => {
  expect((await tenantsOf(production, productionIntegrator.platformToken)).status).toBe(200);
  const res = await applicationsOf(production, await lenderIdToken(production, productionLender));
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual([]);
});

describe("demo's tokens at production", () => {
  it('refuses a demo platform token with 401', async () => {
    expect((await tenantsOf(demo, demoIntegrator.platformToken)).status).toBe(200);
    await expectUnauthenticated(await tenantsOf(production, demoIntegrator.platformToken), 'Invalid token: claim iss is not valid');
  });

  it('refuses a demo Marketplace V1 jwt with 401', async () => {
    const { jwt } = await marketplaceV1Token(demo, demoIntegrator.apiKey);
    await expectUnauthenticated(
      await postJson(`${production.url}/api/marketplace/v1/profiles/blank`, undefined, bearer(jwt)),
      'Invalid token: claim iss is not valid',
    );
  });

  it('refuses a demo lender id_token with 401', async () => {
    const idToken = await lenderIdToken(demo, demoLender);
    expect((await applicationsOf(demo, idToken)).status).toBe(200);
    await expectUnauthenticated(await applicationsOf(production, idToken), 'Invalid token: claim iss is not valid');
  });
});

describe("a demo token minted under production's issuer with the shared keys", () => {
  const productionIssuer = () => production.runtime.config.PUBLIC_URL;
  const authorityFor = async (environment: 'demo' | 'production') => {
    const keys = await loadSigningKeys({ AUTH_SIGNING_KEYS: await testSigningKeys(), DATA_DIR: 'unused', DEPLOY_ENV: 'demo' });
    return new TokenAuthority(keys, productionIssuer(), environment, systemClock);
  };
  // Names production's real account and key, so nothing but the environment is wrong.
  const platformClaims = () => ({ tkn: 'platform' as const, scope: 'profile:read', acc: productionIntegrator.accountId, key: productionIntegrator.apiKeyId });

  it('is refused by production, which names the demo environment', async () => {
    const rogue = await authorityFor('demo');
    expect(rogue.issuer).toBe(productionIssuer());
    const token = await rogue.sign(platformClaims(), { subject: 'platform:forged', ttlSeconds: 600 });
    await expectUnauthenticated(await tenantsOf(production, token), 'Invalid token: the token belongs to the demo environment, not production');
  });

  it("is refused on the lender API too, even naming production's own lender", async () => {
    const rogue = await authorityFor('demo');
    const token = await rogue.sign(
      { tkn: 'lender', scope: 'openid', lid: productionLender.lenderId, azp: productionLender.clientId },
      { subject: `lender:${productionLender.lenderId}`, ttlSeconds: 120, audience: productionLender.clientId },
    );
    await expectUnauthenticated(await applicationsOf(production, token), 'Invalid token: the token belongs to the demo environment, not production');
  });

  it('would pass with environment production: the environment claim is what stops it', async () => {
    const token = await (await authorityFor('production')).sign(platformClaims(), { subject: 'platform:forged', ttlSeconds: 600 });
    expect((await tenantsOf(production, token)).status).toBe(200);
  });
});

describe("demo's credentials at production", () => {
  it('refuses a demo API key at POST /api/platform/v1/auth/token with 401', async () => {
    const res = await postJson(`${production.url}/api/platform/v1/auth/token`, undefined, { 'x-api-key': demoIntegrator.apiKey });
    await expectUnauthenticated(res, 'This API key belongs to the demo environment');
  });

  const tokenRequest = (app: TestApp, credentials: LenderCredentials) => postJson(`${app.url}/oauth/token`, lenderPasswordGrant(credentials));

  it('refuses demo lender client credentials at /oauth/token with 401 invalid_client', async () => {
    const res = await tokenRequest(production, demoLender);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed' });
  });

  it("refuses them even when production's own database holds them (a shared database)", async () => {
    const db = production.runtime.database.prisma;
    const { id } = await db.lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
    const res = await tokenRequest(production, await issueLenderCredentials(db, id, 'demo', production.runtime.config.PUBLIC_URL));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed' });
  });
});
