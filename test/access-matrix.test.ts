/**
 * The access matrix: every kind of token against one endpoint of every surface (and GraphQL),
 * each allowed or refused with the status and problem body the access table promises.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { accessTableMarkdown } from '../src/kernel/access-policy.js';
import { TokenAuthority } from '../src/modules/identity/token-authority.js';
import { loadSigningKeys } from '../src/infra/signing-keys.js';
import { graphql } from './support/graphql-client.js';
import {
  bearer,
  createTenant,
  lenderCredentials,
  lenderIdToken,
  marketplaceV1Token,
  masterToken,
  platformToken,
  signUpIntegrator,
  type Integrator,
} from './support/identities.js';
import { postJson, startTestApp, testSigningKeys, type TestApp } from './support/test-app.js';

let app: TestApp;
let me: Integrator;
const tokens: Record<string, string> = {};

/** A token signed with our own key but with a clock, environment or content of our choosing. */
async function forge(options: { environment?: 'demo' | 'production'; now?: Date }): Promise<string> {
  const keys = await loadSigningKeys({ AUTH_SIGNING_KEYS: await testSigningKeys(), DATA_DIR: 'unused', DEPLOY_ENV: 'demo' });
  const clock = { now: () => options.now ?? new Date() };
  const authority = new TokenAuthority(keys, app.runtime.config.PUBLIC_URL, options.environment ?? 'demo', clock);
  return authority.sign({ tkn: 'platform', scope: 'profile:read', acc: me.accountId, key: me.apiKeyId }, { subject: `key:${me.apiKeyId}`, ttlSeconds: 36_000 });
}

function b64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

beforeAll(async () => {
  app = await startTestApp();
  me = await signUpIntegrator(app);
  const tenant = await createTenant(app, me.platformToken, 'matrix-tenant');
  const [base64Header, payload, signature] = me.platformToken.split('.') as [string, string, string];
  Object.assign(tokens, {
    login: me.loginToken,
    platform: me.platformToken,
    master: (await masterToken(app, me.apiKey)).access_token,
    tenant: (await platformToken(app, me.apiKey, tenant.id)).access_token,
    marketplace_v1: (await marketplaceV1Token(app, me.apiKey)).jwt,
    lender: await lenderIdToken(app, await lenderCredentials(app)),
    expired: await forge({ now: new Date(Date.now() - 36_001_000) }),
    wrong_environment: await forge({ environment: 'production' }),
    tampered: `${base64Header}.${payload}.${signature.slice(0, -4)}${signature.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`,
    alg_none: `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`,
  });
});
afterAll(() => app?.close());

type Expectation = 200 | 201 | 401 | 403;

const ENDPOINTS = {
  'platform GET /tenants': (token: string) => fetch(`${app.url}/api/platform/v1/tenants`, { headers: bearer(token) }),
  'marketplace V2 GET /tenants': (token: string) => fetch(`${app.url}/api/marketplace/v2/tenants`, { headers: bearer(token) }),
  'business V1 POST /tenants': (token: string) => postJson(`${app.url}/api/business/v1/tenants`, {}, bearer(token)),
  'marketplace V1 POST /profiles/blank': (token: string) => postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, bearer(token)),
  'lender API GET /applications': (token: string) => fetch(`${app.url}/api/platform/v1/funding/applications`, { headers: bearer(token) }),
} as const;
type Endpoint = keyof typeof ENDPOINTS;

/** Rows: token kinds. Columns: the endpoints above, in order. */
const MATRIX: Record<string, Expectation[]> = {
  login: [403, 401, 401, 401, 401],
  platform: [200, 200, 201, 401, 401],
  master: [200, 200, 201, 401, 401],
  tenant: [403, 403, 403, 401, 401],
  marketplace_v1: [401, 401, 401, 200, 401],
  lender: [401, 401, 401, 401, 200],
  expired: [401, 401, 401, 401, 401],
  wrong_environment: [401, 401, 401, 401, 401],
  tampered: [401, 401, 401, 401, 401],
  alg_none: [401, 401, 401, 401, 401],
};

const DETAIL_OF_INVALID: Record<string, RegExp> = {
  expired: /Invalid token: it has expired/,
  wrong_environment: /Invalid token: the token belongs to the production environment, not demo/,
  tampered: /Invalid token: its signature does not verify/,
  alg_none: /Invalid token: its signing algorithm is not accepted/,
};

const cases = Object.entries(MATRIX).flatMap(([kind, row]) =>
  (Object.keys(ENDPOINTS) as Endpoint[]).map((endpoint, i) => [kind, endpoint, row[i] as Expectation] as const),
);

describe('REST: every token kind against every surface', () => {
  it.each(cases)('%s token on %s → %i', async (kind, endpoint, expected) => {
    const res = await ENDPOINTS[endpoint](tokens[kind] as string);
    expect(res.status).toBe(expected);
    if (expected >= 400) {
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      const problem = await res.json();
      expect(problem).toMatchObject({ status: expected, code: expected === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN' });
      if (DETAIL_OF_INVALID[kind]) expect(problem.detail).toMatch(DETAIL_OF_INVALID[kind]);
      if (expected === 401) expect(res.headers.get('www-authenticate')).toBe('Bearer');
      // Error bodies never echo a credential.
      expect(JSON.stringify(problem)).not.toContain((tokens[kind] as string).slice(-20));
    }
  });

  it('without any credential every surface answers 401 naming what it takes', async () => {
    const res = await fetch(`${app.url}/api/business/v1/tenants`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'UNAUTHENTICATED', detail: expect.stringContaining('Authorization: Bearer <token> is required') });
    const malformed = await fetch(`${app.url}/api/platform/v1/tenants`, { headers: { authorization: 'Token abc' } });
    expect(malformed.status).toBe(401);
    expect((await malformed.json()).detail).toBe('The Authorization header must be "Bearer <token>"');
  });

  it('says why a recognised token is not enough', async () => {
    const res = await postJson(`${app.url}/api/business/v1/tenants`, {}, bearer(tokens.tenant as string));
    expect(await res.json()).toMatchObject({
      status: 403,
      detail: 'A tenant token cannot create a tenant of the account; use a platform access or master token',
    });
    const v1 = await fetch(`${app.url}/api/platform/v1/tenants`, { headers: bearer(tokens.marketplace_v1 as string) });
    expect((await v1.json()).detail).toBe('This API does not accept a Marketplace V1 token; use a platform login, platform access, master or tenant token');
  });
});

describe('GraphQL: the same identities and the same table', () => {
  const allowed = ['platform', 'master'];
  it.each(Object.keys(MATRIX))('%s token on { tenants }', async (kind) => {
    const res = await graphql(app.url, '{ tenants { total } }', {}, bearer(tokens[kind] as string));
    if (allowed.includes(kind)) {
      expect(res.errors).toBeUndefined();
      expect(res.data?.tenants.total).toBeGreaterThan(0);
      return;
    }
    const expectedCode = kind in DETAIL_OF_INVALID ? 'UNAUTHENTICATED' : 'FORBIDDEN';
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: expectedCode, status: expectedCode === 'FORBIDDEN' ? 403 : 401 });
  });

  it('anonymous GraphQL callers get UNAUTHENTICATED', async () => {
    const res = await graphql(app.url, '{ tenants { total } }');
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
  });
});

describe('GET /profile: platform, tenant and master tokens (spec 4.2 rule 2, 5.4)', () => {
  let tenantId: string;
  let otherTenantId: string;
  beforeAll(async () => {
    tenantId = (await createTenant(app, me.platformToken, 'profile-owner')).id;
    await app.runtime.database.prisma.profile.create({ data: { tenantId, registrationNumber: '09876543', environment: 'demo' } });
    const other = await signUpIntegrator(app);
    otherTenantId = (await createTenant(app, other.platformToken)).id;
  });
  const getProfile = (token: string, tenantHeader?: string) =>
    fetch(`${app.url}/api/business/v1/profile`, {
      headers: { ...bearer(token), ...(tenantHeader ? { 'service-tenant-id': tenantHeader } : {}) },
    });

  it('a platform token needs Service-tenant-id, and only for its own tenants', async () => {
    const missing = await getProfile(me.platformToken);
    expect(missing.status).toBe(400);
    expect((await missing.json()).errors).toEqual([{ pointer: 'header:Service-tenant-id', message: 'is required' }]);
    const ok = await getProfile(me.platformToken, tenantId);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ data: { companyInformation: { registrationNumber: '09876543' } }, meta: { tenantId } });
    const foreign = await getProfile(me.platformToken, otherTenantId);
    expect(foreign.status).toBe(404);
  });

  it('a tenant token reads its own profile; a different Service-tenant-id is 403', async () => {
    const tenantToken = (await platformToken(app, me.apiKey, tenantId)).access_token;
    expect((await getProfile(tenantToken)).status).toBe(200);
    expect((await getProfile(tenantToken, tenantId)).status).toBe(200);
    const mismatch = await getProfile(tenantToken, otherTenantId);
    expect(mismatch.status).toBe(403);
    expect((await mismatch.json()).detail).toBe("Service-tenant-id does not match the tenant token's tenant");
  });

  it('a master token reaches /tenants but not /profile', async () => {
    const res = await getProfile(tokens.master as string, tenantId);
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('FORBIDDEN');
    const marketplace = await fetch(`${app.url}/api/marketplace/v2/profile`, {
      headers: { ...bearer(tokens.master as string), 'service-tenant-id': tenantId },
    });
    expect(marketplace.status).toBe(403);
  });

  it('an unknown tenant id is a 404, a malformed one a 400', async () => {
    expect((await getProfile(me.platformToken, randomUUID())).status).toBe(404);
    expect((await getProfile(me.platformToken, 'not-a-uuid')).status).toBe(400);
  });
});

describe('the access table', () => {
  it('is the one docs/access.md shows', async () => {
    const page = await readFile(new URL('../docs/access.md', import.meta.url), 'utf8');
    expect(page).toContain(accessTableMarkdown());
  });
});
