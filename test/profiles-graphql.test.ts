/** The profiles subgraph through the gateway: the same operations, rules and errors as REST. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './support/graphql-client.js';
import { bearer, createTenant, marketplaceV1Token, platformToken, signUpIntegrator, type Integrator } from './support/identities.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let me: Integrator;
let v1: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  me = await signUpIntegrator(app);
  v1 = bearer((await marketplaceV1Token(app, me.apiKey)).jwt);
});
afterAll(() => app?.close());

describe('companies and credit reports over GraphQL', () => {
  it('searches and reads companies', async () => {
    const res = await graphql(app.url, '{ companySearch(term: "acme", limit: 2) { name number } company(registrationNumber: "09876543") { name score { grade value previous { grade } } creditLimit { code value } legalNotices { company { last12MonthsCount } } } }', {}, v1);
    expect(res.errors).toBeUndefined();
    expect(res.data?.companySearch).toHaveLength(2);
    expect(res.data?.company).toEqual({
      name: 'ACME WIDGETS LIMITED',
      score: { grade: 'A', value: 95, previous: { grade: 'B' } },
      creditLimit: { code: 'GBP', value: 150000 },
      legalNotices: { company: { last12MonthsCount: 0 } },
    });
    const bad = await graphql(app.url, '{ companySearch(term: "acme", limit: 0) { name } }', {}, v1);
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', fields: [{ pointer: '/limit' }] });
  });

  it("sets up a tenant's profile and reads its credit report with a tenant token", async () => {
    const { id } = await createTenant(app, me.platformToken);
    const tenant = bearer((await platformToken(app, me.apiKey, id)).access_token);
    const setUp = await graphql(app.url, 'mutation($input: JSONObject!) { setUpTenantProfile(input: $input) }', { input: { companyInformation: { registrationNumber: '08234567' } } }, tenant);
    expect(setUp.errors).toBeUndefined();
    const report = await graphql(app.url, '{ creditReport { id companyInformation { name score { grade industryAverageGrade } } } }', {}, tenant);
    expect(report.data?.creditReport).toMatchObject({ id: setUp.data?.setUpTenantProfile.id, companyInformation: { name: 'THORNBURY JOINERY LTD', score: { grade: 'C' } } });
    const again = await graphql(app.url, 'mutation($input: JSONObject!) { setUpTenantProfile(input: $input) }', { input: { companyInformation: { registrationNumber: '08234567' } } }, tenant);
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT', status: 409 });
  });
});

describe('Marketplace V1 profile mutations over GraphQL', () => {
  it('creates and patches a profile, with the same validation as REST', async () => {
    const created = await graphql(app.url, 'mutation { createBlankProfile { uuid legacyEntityBusinessId } }', {}, v1);
    const uuid = created.data?.createBlankProfile.uuid as string;
    const patched = await graphql(
      app.url,
      'mutation($uuid: ID!, $input: JSONObject!) { patchProfileCompany(uuid: $uuid, input: $input) { companyName companyInformation } }',
      { uuid, input: { name: 'GraphQL Ltd', sector: 'RETAIL' } },
      v1,
    );
    expect(patched.data?.patchProfileCompany).toEqual({ companyName: 'GraphQL Ltd', companyInformation: { name: 'GraphQL Ltd', sector: 'RETAIL' } });
    const bad = await graphql(
      app.url,
      'mutation($uuid: ID!, $input: JSONObject!) { patchProfileFinancials(uuid: $uuid, input: $input) { uuid } }',
      { uuid, input: { revenue: { code: 'USD', value: 1 } } },
      v1,
    );
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', status: 400, fields: [{ pointer: '/revenue/code', message: 'must be one of GBP, EUR, ZAR' }] });
    const url = await graphql(app.url, 'query($uuid: ID!) { profileFundingSearchUrl(uuid: $uuid) { url } }', { uuid }, v1);
    expect(url.data?.profileFundingSearchUrl.url).toContain(`/app/funding-search/${uuid}?token=`);
  });

  it('reads every section of the public profile', async () => {
    const created = await graphql(app.url, 'mutation { createBlankProfile { uuid legacyEntityBusinessId } }', {}, v1);
    const { uuid, legacyEntityBusinessId } = created.data?.createBlankProfile as { uuid: string; legacyEntityBusinessId: number };
    await app.runtime.database.prisma.person.create({ data: { profileId: uuid, name: 'Ada' } });
    const res = await graphql(app.url, 'query($uuid: ID!) { profile(uuid: $uuid) { legacy { entityBusinessId fundingSearchId } eligibilityRequest persons properties assets assetsForSecurity merchantCashAdvance } }', { uuid }, v1);
    expect(res.data?.profile).toEqual({
      legacy: { entityBusinessId: legacyEntityBusinessId, fundingSearchId: null },
      eligibilityRequest: {},
      persons: [{ name: 'Ada' }],
      properties: [],
      assets: [],
      assetsForSecurity: [],
      merchantCashAdvance: [],
    });
  });

  it('hides another account’s profile (NOT_FOUND)', async () => {
    const created = await graphql(app.url, 'mutation { createBlankProfile { uuid } }', {}, v1);
    const stranger = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
    const res = await graphql(app.url, 'query($uuid: ID!) { profile(uuid: $uuid) { uuid } }', { uuid: created.data?.createBlankProfile.uuid }, stranger);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});
