/**
 * Every request example our specification prints (test/fixtures/spec-request-examples.ts, each
 * naming its section) is accepted by a started server: sent as printed, its placeholders filled from
 * the running server, each with the least-privileged credential its operation takes (a key holding
 * exactly the scopes the access table names, or one unrelated scope where it names none). The shared
 * client checks each answer against the OpenAPI document too (contractFetch).
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { SPEC_REQUEST_EXAMPLES, type ExampleCredential, type SpecRequestExample } from './fixtures/spec-request-examples.js';
import { CredentialFactory } from './support/credentials.js';
import { bearer, createTenant, lenderCredentials, lenderIdToken, marketplaceV1Token, signUpIntegrator, type Integrator } from './support/identities.js';
import { storedLenderApplication } from './support/lender-applications.js';
import { assertContract, contractFetch } from './support/openapi-contract.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

const BASES: Record<string, string> = {
  '{marketplace_v1_base}': '/api/marketplace/v1',
  '{marketplace_v2_base}': '/api/marketplace/v2',
  '{business_v1_base}': '/api/business/v1',
  '{platform_base}': '/api/platform/v1',
  '{lender_api_base}': '/api/platform/v1/funding',
  '{auth_url}': '',
};

let app: TestApp;
let owner: Integrator;
let factory: CredentialFactory;
let lender: LenderCredentials;
const db = () => app.runtime.database.prisma;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signUpIntegrator(app);
  const userId = (await db().platformUser.findFirstOrThrow({ where: { accountId: owner.accountId } })).id;
  factory = new CredentialFactory(app, owner.loginToken, { accountId: owner.accountId, userId }, { accountId: owner.accountId, userId });
  lender = await lenderCredentials(app);
});
afterAll(() => app?.close());

/** A Marketplace V1 profile of the account, made with a key that may only create profiles. */
async function blankProfile(): Promise<string> {
  const writer = await factory.keyToken('marketplace_v1', ['profile:write']);
  const res = await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, bearer(writer.token));
  expect(res.status).toBe(200);
  return (await res.json()).uuid;
}

/** A Business V1 application of a new tenant, and the tenant token (key: profile:write) that made it. */
async function tenantApplication(): Promise<{ tenantId: string; applicationId: string }> {
  const tenantId = (await createTenant(app, owner.platformToken)).id;
  const tenant = await factory.tenant(tenantId, undefined, ['profile:write']);
  const res = await postJson(`${app.url}/api/business/v1/applications`, { fundingAmount: { code: 'GBP', value: 25000 } }, bearer(tenant.token));
  expect(res.status, await res.clone().text()).toBe(201);
  return { tenantId, applicationId: (await res.json()).id };
}

/** The values the example's placeholders stand for, made for this example on the running server. */
async function placeholderValues(example: SpecRequestExample): Promise<Record<string, string>> {
  const text = JSON.stringify(example);
  const values: Record<string, string> = { '<UNIQUE_NAME>': `example-${randomUUID().slice(0, 8)}`, '<REGISTRATION_NUMBER>': '09876543' };
  if (text.includes('<EMAIL>')) Object.assign(values, { '<EMAIL>': owner.email, '<PASSWORD>': owner.password });
  if (text.includes('<API_KEY>')) values['<API_KEY>'] = (await factory.apiKey(['profile:read'], { fresh: true })).secret;
  if (text.includes('<REFRESH_TOKEN>'))
    values['<REFRESH_TOKEN>'] = (await marketplaceV1Token(app, (await factory.apiKey(['profile:read'], { fresh: true })).secret)).refreshToken;
  if (text.includes('<TENANT_ID>')) values['<TENANT_ID>'] = (await createTenant(app, owner.platformToken)).id;
  if (text.includes('<TENANT_WITH_PROFILE>')) {
    const tenantId = (await createTenant(app, owner.platformToken)).id;
    const setUp = await postJson(
      `${app.url}/api/business/v1/profile`,
      { companyInformation: { registrationNumber: '09876543' } },
      { ...bearer(owner.platformToken), 'service-tenant-id': tenantId },
    );
    expect(setUp.status).toBe(201);
    Object.assign(values, { '<TENANT_WITH_PROFILE>': tenantId, '<TENANT_ID>': tenantId });
  }
  if (text.includes('<PROFILE_UUID>')) values['<PROFILE_UUID>'] = await blankProfile();
  if (text.includes('<APPLICATION_ID>'))
    Object.assign(values, await tenantApplication().then(({ tenantId, applicationId }) => ({ '<TENANT_ID>': tenantId, '<APPLICATION_ID>': applicationId })));
  if (text.includes('<LENDER_APPLICATION_ID>'))
    values['<LENDER_APPLICATION_ID>'] = String(await storedLenderApplication(app, { lenderId: lender.lenderId, profileId: await blankProfile() }));
  if (text.includes('<CLIENT_ID>')) {
    Object.assign(values, {
      '<AUDIENCE>': lender.audience,
      '<CLIENT_ID>': lender.clientId,
      '<CLIENT_SECRET>': lender.clientSecret,
      '<USERNAME>': lender.username,
      '<PASSWORD>': lender.password,
    });
  }
  return values;
}

const fill = <T>(value: T, values: Record<string, string>): T =>
  JSON.parse(
    JSON.stringify(value).replace(/<[A-Z_]+>/g, (name) => {
      if (!(name in values)) throw new Error(`no value for ${name}`);
      return values[name]!.replace(/["\\]/g, (c) => `\\${c}`);
    }),
  ) as T;

async function authorization(credential: ExampleCredential, tenantId: string | undefined): Promise<Record<string, string>> {
  switch (credential.kind) {
    case 'none':
      return {};
    case 'login':
      return bearer((await factory.login(credential.scopes)).token);
    case 'tenant':
      if (!tenantId) throw new Error('a tenant credential needs <TENANT_ID> or <APPLICATION_ID>');
      return bearer((await factory.tenant(tenantId, undefined, credential.keyScopes)).token);
    case 'lender':
      return bearer(await lenderIdToken(app, lender));
    default:
      return bearer((await factory.keyToken(credential.kind, credential.scopes)).token);
  }
}

/** A GET carrying a body, sent as is (fetch refuses one), its answer checked against the OpenAPI document. */
function getWithBody(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          assertContract('GET', url, res.statusCode ?? 0, res.headers['content-type'] ?? null, text);
          resolve({ status: res.statusCode ?? 0, text });
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the request examples the specification prints', () => {
  it.each(SPEC_REQUEST_EXAMPLES.map((example) => [`${example.section}: ${example.method} ${example.path}`, example] as const))(
    '%s is accepted',
    async (_name, example) => {
      const values = await placeholderValues(example);
      // A tenant-restricted operation without a printed tenant runs on a tenant made for it.
      const tenantId = values['<TENANT_ID>'] ?? (example.credential.kind === 'tenant' ? (await createTenant(app, owner.platformToken)).id : undefined);
      const filled = fill(example, values);
      const path = Object.entries(BASES).reduce((p, [placeholder, base]) => p.replace(placeholder, base), filled.path);
      const headers = {
        ...(filled.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...filled.headers,
        ...(await authorization(example.credential, tenantId)),
      };
      const body = filled.body === undefined ? undefined : JSON.stringify(filled.body);
      const { status, text } =
        filled.method === 'GET' && body !== undefined
          ? await getWithBody(`${app.url}${path}`, headers, body)
          : await contractFetch(`${app.url}${path}`, { method: filled.method, headers, body }).then(async (res) => ({
              status: res.status,
              text: await res.text(),
            }));
      expect(status, text).toBe(example.status);
    },
  );
});
