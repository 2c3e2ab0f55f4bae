/**
 * The documented flows (README, docs/integrators) through a client generated from /openapi.json
 * alone (openapi-fetch over the client package's generated types, clients/typescript/src/generated/openapi.ts): every answer's fields are read as the
 * generated types declare them, with no cast, so the compiler (tsc) proves a generated client
 * needs none, and the run proves the answers are what those types say (the client's contract check).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser } from '../src/modules/identity/bootstrap.js';
import { ACME_ANSWERS } from './support/answers.js';
import { restClient } from './support/rest-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
const email = `typed-${randomUUID().slice(0, 8)}@example.test`;
const password = `pw-${randomUUID()}`;

beforeAll(async () => {
  app = await startTestApp();
  await createAccountWithUser(app.runtime.database.prisma, { environment: app.runtime.config.DEPLOY_ENV, accountName: 'typed-client', email, password });
});
afterAll(() => app?.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Login → API key (the scopes given), as the onboarding's first two steps. */
async function apiKeyWith(scopes: Array<'profile:read' | 'profile:write' | 'funding:read'>, name: string): Promise<string> {
  const api = restClient(app.url);
  const login = await api.POST('/api/platform/v1/auth/login', { body: { email, password } });
  if (!login.data) throw new Error(`login: ${login.response.status}`);
  expect(login.data.token_type).toBe('Bearer');
  const created = await api.POST('/api/platform/v1/api-key', { body: { name, scopes }, headers: bearer(login.data.access_token) });
  if (!created.data) throw new Error(`api key: ${created.response.status}`);
  expect(created.data.scopes).toEqual(scopes);
  const key = created.data.key;
  if (!key) throw new Error('the API key was answered without its secret');
  expect(key.startsWith('fgk_')).toBe(true);
  return key;
}

describe('a generated client walks the documented flows without casts', () => {
  it('login → API key → platform token → tenant → tenant token → set up and read the profile (Business V1, Marketplace V2)', async () => {
    const api = restClient(app.url);
    const key = await apiKeyWith(['profile:read', 'profile:write'], 'business');
    const platform = await api.POST('/api/platform/v1/auth/token', { headers: { 'x-api-key': key } });
    if (!platform.data) throw new Error(`platform token: ${platform.response.status}`);
    expect(platform.data.refresh_token).toEqual(expect.any(String));

    const tenant = await api.POST('/api/business/v1/tenants', { body: { referenceId: 'typed-client-tenant' }, headers: bearer(platform.data.access_token) });
    if (!tenant.data) throw new Error(`tenant: ${tenant.response.status}`);
    expect(tenant.data.referenceId).toBe('typed-client-tenant');

    const tenantToken = await api.POST('/api/platform/v1/auth/token', { headers: { 'x-api-key': key, 'service-tenant-id': tenant.data.id } });
    if (!tenantToken.data) throw new Error(`tenant token: ${tenantToken.response.status}`);
    expect(tenantToken.data.scope.split(' ')).toContain('profile:write');
    const asTenant = bearer(tenantToken.data.access_token);

    const setUp = await api.POST('/api/business/v1/profile', { body: { companyInformation: { registrationNumber: '09876543' } }, headers: asTenant });
    if (!setUp.data) throw new Error(`set-up: ${setUp.response.status}`);
    expect(setUp.data.companyInformation.registrationNumber).toBe('09876543');
    expect(setUp.data.properties).toEqual([]);

    const business = await api.GET('/api/business/v1/profile', { headers: asTenant });
    if (!business.data) throw new Error(`read: ${business.response.status}`);
    expect(business.data.data.id).toBe(setUp.data.id);
    expect(business.data.meta.tenantId).toBe(tenant.data.id);
    expect(business.data.meta.creditReport.available).toBe(true);
    expect(business.data.data.companyInformation.score?.grade).toMatch(/^[A-G]$/);

    // Spec 2.6: the request's variant defaults to business-all-funding-products; the answer is the introducer variant.
    const application = await api.POST('/api/business/v1/applications', {
      body: { fundingAmount: { code: 'GBP', value: 50000 }, fundingPeriod: 24, useOfFunds: 'CASH_FLOW' },
      headers: asTenant,
    });
    if (!application.data) throw new Error(`application: ${application.response.status}`);
    const answeredType: 'introducer-all-funding-products' = application.data.type;
    expect(answeredType).toBe('introducer-all-funding-products');
    expect(application.data).toMatchObject({ fundingPeriod: 24, useOfFunds: 'CASH_FLOW' });

    const marketplace = await api.GET('/api/marketplace/v2/profile', { headers: asTenant });
    if (!marketplace.data) throw new Error(`read (v2): ${marketplace.response.status}`);
    expect(marketplace.data.links.self).toBe('/api/marketplace/v2/profile');
    expect(marketplace.data.data.companyInformation.name).toBe(business.data.data.companyInformation.name);
  });

  it('Marketplace V1: authorize → blank profile → answers → matches', async () => {
    const api = restClient(app.url);
    const key = await apiKeyWith(['profile:read', 'profile:write', 'funding:read'], 'marketplace-v1');
    const authorized = await api.POST('/api/marketplace/v1/auth/authorize', { params: { query: { api_key: key } } });
    if (!authorized.data) throw new Error(`authorize: ${authorized.response.status}`);
    expect(authorized.data.expiresIn).toBeGreaterThan(0);
    const asKey = bearer(authorized.data.jwt);

    const blank = await api.POST('/api/marketplace/v1/profiles/blank', { headers: asKey });
    if (!blank.data) throw new Error(`blank: ${blank.response.status}`);
    expect(blank.data.legacy.entityBusinessId).toEqual(expect.any(Number));
    expect(blank.data.persons).toEqual([]);

    const read = await api.GET('/api/marketplace/v1/profiles/{uuid}', { params: { path: { uuid: blank.data.uuid } }, headers: asKey });
    if (!read.data) throw new Error(`read: ${read.response.status}`);
    expect(read.data.uuid).toBe(blank.data.uuid);

    // The answer body is typed by the questionnaires' own JSON Schemas: the fixture is one variant as it is.
    const answersPath = { questionnaireId: 'introducer-all-funding-products', profileId: blank.data.uuid };
    const put = await api.PUT('/api/marketplace/v1/questionnaires/{questionnaireId}/profiles/{profileId}/answers', {
      params: { path: answersPath },
      body: ACME_ANSWERS,
      headers: asKey,
    });
    expect(put.response.status).toBe(204);
    const patched = await api.PATCH('/api/marketplace/v1/questionnaires/{questionnaireId}/profiles/{profileId}/answers', {
      params: { path: answersPath },
      body: { fundingPeriod: 36, fundingUrgency: 'ONE_WEEK' },
      headers: asKey,
    });
    expect(patched.response.status).toBe(204);
    const stored = await api.GET('/api/marketplace/v1/questionnaires/{questionnaireId}/profiles/{profileId}/answers', {
      params: { path: answersPath },
      headers: asKey,
    });
    expect(stored.data).toMatchObject({ companyName: 'ACME WIDGETS LIMITED', fundingPeriod: 36 });

    const count = await api.GET('/api/marketplace/v1/profiles/{uuid}/funding/matches/count', {
      params: { path: { uuid: blank.data.uuid }, query: {} },
      headers: asKey,
    });
    if (count.data === undefined) throw new Error(`matches: ${count.response.status}`);
    expect(count.data).toBeGreaterThanOrEqual(0);
  });
});
