/**
 * Real identities for tests, made the way a user makes them: an account with an admin (through the
 * bootstrap used by the CLI), then login → API key → tokens over HTTP.
 */
import { randomUUID } from 'node:crypto';
import { createAccountWithUser, issueLenderCredentials, type LenderCredentials } from '../../src/modules/identity/bootstrap.js';
import { API_KEY_SCOPES } from '../../src/kernel/scopes.js';
import { postJson, type TestApp } from './test-app.js';

export interface Integrator {
  accountId: string;
  email: string;
  password: string;
  loginToken: string;
  apiKey: string;
  apiKeyId: string;
  platformToken: string;
  platformRefreshToken: string;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function expectJson(res: Response, status: number): Promise<any> {
  const body = await res.json();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

export async function signIn(app: TestApp, email: string, password: string): Promise<string> {
  const res = await postJson(`${app.url}/api/platform/v1/auth/login`, { email, password });
  return (await expectJson(res, 200)).access_token;
}

export async function createApiKey(app: TestApp, loginToken: string, body: Record<string, unknown>): Promise<{ key: string; id: string }> {
  const res = await postJson(`${app.url}/api/platform/v1/api-key`, body, bearer(loginToken));
  return expectJson(res, 200);
}

export async function platformToken(app: TestApp, apiKey: string, tenantId?: string): Promise<{ access_token: string; refresh_token: string; scope: string }> {
  const headers: Record<string, string> = { 'x-api-key': apiKey, ...(tenantId ? { 'service-tenant-id': tenantId } : {}) };
  return expectJson(await postJson(`${app.url}/api/platform/v1/auth/token`, undefined, headers), 201);
}

export async function masterToken(app: TestApp, apiKey: string): Promise<{ access_token: string; refresh_token: string }> {
  return expectJson(await postJson(`${app.url}/api/marketplace/v2/auth/authorize`, undefined, { 'x-api-key': apiKey }), 201);
}

export async function marketplaceV1Token(app: TestApp, apiKey: string): Promise<{ jwt: string; refreshToken: string }> {
  return expectJson(await postJson(`${app.url}/api/marketplace/v1/auth/authorize?api_key=${encodeURIComponent(apiKey)}`, undefined), 200);
}

export async function createTenant(app: TestApp, token: string, referenceId?: string): Promise<{ id: string; referenceId: string | null }> {
  return expectJson(await postJson(`${app.url}/api/business/v1/tenants`, referenceId ? { referenceId } : {}, bearer(token)), 201);
}

/**
 * The demo integrator of a seeded demo deployment, signed in as a user would: login → API key →
 * platform token, against any base URL (a process started by a test, not only a TestApp).
 */
export async function demoIntegratorToken(baseUrl: string, email: string, password: string): Promise<string> {
  const app = { url: baseUrl } as TestApp;
  const login = await signIn(app, email, password);
  const key = await createApiKey(app, login, { name: `test-${randomUUID()}`, scopes: [...API_KEY_SCOPES] });
  return (await platformToken(app, key.key)).access_token;
}

/** A new account with an admin user, a key holding every scope, and a platform token. */
export async function signUpIntegrator(app: TestApp, name = `acct-${randomUUID().slice(0, 8)}`): Promise<Integrator> {
  const email = `${name}@example.test`;
  const password = `pw-${randomUUID()}`;
  const { accountId } = await createAccountWithUser(app.runtime.database.prisma, {
    environment: app.runtime.config.DEPLOY_ENV,
    accountName: name,
    email,
    password,
  });
  const loginToken = await signIn(app, email, password);
  const key = await createApiKey(app, loginToken, { name: 'integration', scopes: [...API_KEY_SCOPES] });
  const token = await platformToken(app, key.key);
  return {
    accountId,
    email,
    password,
    loginToken,
    apiKey: key.key,
    apiKeyId: key.id,
    platformToken: token.access_token,
    platformRefreshToken: token.refresh_token,
  };
}

/** Gives a seeded demo lender fresh OAuth credentials. */
export async function lenderCredentials(app: TestApp, lenderId?: number): Promise<LenderCredentials> {
  const db = app.runtime.database.prisma;
  const id = lenderId ?? (await db.lender.findFirstOrThrow({ where: { environment: app.runtime.config.DEPLOY_ENV }, orderBy: { id: 'asc' } })).id;
  return issueLenderCredentials(db, id, app.runtime.config.DEPLOY_ENV, app.runtime.config.PUBLIC_URL);
}

/** The body of a lender's password grant at /oauth/token (spec 5.9), with its own credentials. */
export const lenderPasswordGrant = (credentials: LenderCredentials) => ({
  grant_type: 'password',
  client_id: credentials.clientId,
  client_secret: credentials.clientSecret,
  username: credentials.username,
  password: credentials.password,
  scope: 'openid',
});

/** A lender's bearer header from an id_token asked for with `openid` alone: the least a lender API call needs. */
export async function leastPrivilegedLender(app: TestApp, credentials: LenderCredentials): Promise<Record<string, string>> {
  const res = await postJson(`${app.url}/oauth/token`, {
    ...lenderPasswordGrant(credentials),
    audience: `${app.url}/api/platform/v1/funding`,
    scope: 'openid',
  });
  return bearer((await expectJson(res, 200)).id_token);
}

export async function lenderIdToken(app: TestApp, credentials: LenderCredentials): Promise<string> {
  const res = await postJson(`${app.url}/oauth/token`, {
    ...lenderPasswordGrant(credentials),
    audience: `${app.url}/api/platform/v1/funding`,
    scope: 'openid email profile',
  });
  return (await expectJson(res, 200)).id_token;
}
