/** The profiles subgraph through the gateway: the same operations, rules and errors as REST. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../../test/support/graphql-client.js';
import { bearer, createTenant, marketplaceV1Token, platformToken, signUpIntegrator, type Integrator } from '../../../test/support/identities.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';

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
    const res = await graphql(
      app.url,
      '{ companySearch(term: "acme", limit: 2) { name number } company(registrationNumber: "09876543") { name score { grade value previous { grade } } creditLimit { code value } legalNotices { company { last12MonthsCount } } } }',
      {},
      v1,
    );
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
    const setUpOnly = 'mutation($input: TenantProfileSetUpInput!) { setUpTenantProfile(input: $input) { id } }';
    const setUp = await graphql(app.url, setUpOnly, { input: { companyInformation: { registrationNumber: '08234567' } } }, tenant);
    expect(setUp.errors).toBeUndefined();
    const report = await graphql(app.url, '{ creditReport { id companyInformation { name score { grade industryAverageGrade } } } }', {}, tenant);
    expect(report.data?.creditReport).toMatchObject({
      id: setUp.data?.setUpTenantProfile.id,
      companyInformation: { name: 'THORNBURY JOINERY LTD', score: { grade: 'C' } },
    });
    const again = await graphql(app.url, setUpOnly, { input: { companyInformation: { registrationNumber: '08234567' } } }, tenant);
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT', status: 409 });
  });

  it('setUpTenantProfile and updateTenantProfile return the profile as stored, field by field', async () => {
    const { id: tenantId } = await createTenant(app, me.platformToken);
    const tenant = bearer((await platformToken(app, me.apiKey, tenantId)).access_token);
    const selection = `{
      id createdAt updatedAt
      companyInformation { name type registrationNumber sector website score { grade value } legalNotices { company { last12MonthsCount last12MonthsValue { code value } } }
        primaryContactInformation { name email address { city postalCode } } }
      financials { revenue { code value } tradingHistory { yearEnd revenue profitNet } debtors { id name averageMonthlyIncome { code value } } }
      properties { type location value { code value } address { simpleValue } }
      assets { name type netCost { code value } }
      assetsForSecurity { type owner totalDebt { code value } }
      merchantCashAdvance { type averageMonthlyTransactions monthsOnBusinessLease }
      tradeReferences { companyName contactEmail }
    }`;
    const input = {
      companyInformation: {
        registrationNumber: '09876543',
        website: 'https://acme.example',
        primaryContactInformation: { name: 'Ada Owner', email: 'ada@acme.example', address: { city: 'Sheffield', postalCode: 'S9 3BL' } },
      },
      financials: {
        revenue: { code: 'GBP', value: 900000 },
        tradingHistory: [{ yearEnd: 2024, revenue: 900000, profitNet: 80000 }],
        debtors: [{ id: 'd-1', name: 'Big Buyer plc', averageMonthlyIncome: { code: 'GBP', value: 12000.5 } }],
      },
      properties: [{ type: 'OFFICES', location: 'UK_MAINLAND', value: { code: 'GBP', value: 350000.25 }, address: { simpleValue: '4 Parkway Drive' } }],
      assets: [{ name: 'Van', type: 'TRANSPORTATION', netCost: { code: 'GBP', value: 30000 } }],
      assetsForSecurity: [{ type: 'MAIN_PROPERTY', owner: 'Ada Owner', totalDebt: { code: 'GBP', value: 100000 } }],
      merchantCashAdvance: [{ type: 'CARD', averageMonthlyTransactions: 420.5, monthsOnBusinessLease: 18 }],
      tradeReferences: [{ companyName: 'Supplier Ltd', contactEmail: 'accounts@supplier.example' }],
    };
    const setUp = await graphql(app.url, `mutation($input: TenantProfileSetUpInput!) { setUpTenantProfile(input: $input) ${selection} }`, { input }, tenant);
    expect(setUp.errors).toBeUndefined();
    const expectStored = async (payload: Record<string, any>) => {
      const row = await app.runtime.database.prisma.profile.findFirstOrThrow({
        where: { tenantId },
        include: { properties: true, assets: true, assetsForSecurity: true, merchantCashAdvance: true, tradeReferences: true },
      });
      const info = row.companyInformation as Record<string, any>;
      const financials = row.financials as Record<string, any>;
      const money = (value: unknown, code: string | null) => (value === null ? null : { code, value: Number(value) });
      expect(payload).toEqual({
        id: row.id,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        companyInformation: {
          name: info.name,
          type: info.type,
          registrationNumber: info.registrationNumber,
          sector: info.sector,
          website: info.website ?? null,
          score: { grade: info.score.grade, value: info.score.value },
          legalNotices: { company: info.legalNotices.company },
          primaryContactInformation: info.primaryContactInformation
            ? { name: info.primaryContactInformation.name, email: info.primaryContactInformation.email, address: info.primaryContactInformation.address }
            : null,
        },
        financials: {
          revenue: financials.revenue ?? null,
          tradingHistory: financials.tradingHistory ?? null,
          debtors: financials.debtors ?? null,
        },
        properties: row.properties.map((p) => ({ type: p.type, location: p.location, value: money(p.valueValue, p.valueCurrency), address: p.address })),
        assets: row.assets.map((a) => ({ name: a.name, type: a.type, netCost: money(a.netCostValue, a.netCostCurrency) })),
        assetsForSecurity: row.assetsForSecurity.map((a) => ({ type: a.type, owner: a.owner, totalDebt: money(a.totalDebtValue, a.totalDebtCurrency) })),
        merchantCashAdvance: row.merchantCashAdvance.map((m) => ({
          type: m.type,
          averageMonthlyTransactions: m.averageMonthlyTransactions,
          monthsOnBusinessLease: m.monthsOnBusinessLease,
        })),
        tradeReferences: row.tradeReferences.map((t) => ({ companyName: t.companyName, contactEmail: t.contactEmail })),
      });
    };
    await expectStored(setUp.data!.setUpTenantProfile);
    // What was sent is what is stored (the registry's facts added beside it).
    expect(setUp.data!.setUpTenantProfile).toMatchObject({
      companyInformation: {
        name: 'ACME WIDGETS LIMITED',
        website: 'https://acme.example',
        primaryContactInformation: input.companyInformation.primaryContactInformation,
      },
      financials: input.financials,
      properties: input.properties,
      merchantCashAdvance: input.merchantCashAdvance,
    });

    const updated = await graphql(
      app.url,
      `mutation($input: TenantProfileUpdateInput!) { updateTenantProfile(input: $input) ${selection} }`,
      { input: { companyInformation: { website: 'https://acme-widgets.example' }, assets: [] } },
      tenant,
    );
    expect(updated.errors).toBeUndefined();
    await expectStored(updated.data!.updateTenantProfile);
    expect(updated.data!.updateTenantProfile).toMatchObject({
      companyInformation: { website: 'https://acme-widgets.example' },
      assets: [],
      tradeReferences: input.tradeReferences,
    });

    const replaceWithout = await graphql(
      app.url,
      'mutation($input: TenantProfileUpdateInput!) { updateTenantProfile(input: $input, replace: true) { id } }',
      { input: { assets: [] } },
      tenant,
    );
    expect(replaceWithout.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', fields: [{ pointer: '/companyInformation' }] });
  });
});

describe('Marketplace V1 profile mutations over GraphQL', () => {
  it('creates and patches a profile, with the same validation as REST', async () => {
    const created = await graphql(app.url, 'mutation { createBlankProfile { uuid legacyEntityBusinessId } }', {}, v1);
    const uuid = created.data?.createBlankProfile.uuid as string;
    const patched = await graphql(
      app.url,
      'mutation($uuid: ID!, $input: CompanyInformationPatchInput!) { patchProfileCompany(uuid: $uuid, input: $input) { companyName companyInformation { name sector score { grade } } } }',
      { uuid, input: { name: 'GraphQL Ltd', sector: 'RETAIL' } },
      v1,
    );
    expect(patched.data?.patchProfileCompany).toEqual({
      companyName: 'GraphQL Ltd',
      companyInformation: { name: 'GraphQL Ltd', sector: 'RETAIL', score: null },
    });
    const financials = await graphql(
      app.url,
      'mutation($uuid: ID!, $input: FinancialsPatchInput!) { patchProfileFinancials(uuid: $uuid, input: $input) { financials { revenue { code value } primaryBank } } }',
      { uuid, input: { revenue: { code: 'GBP', value: 250000.5 }, primaryBank: 3 } },
      v1,
    );
    expect(financials.data?.patchProfileFinancials).toEqual({ financials: { revenue: { code: 'GBP', value: 250000.5 }, primaryBank: 3 } });
    const bad = await graphql(
      app.url,
      'mutation($uuid: ID!, $input: FinancialsPatchInput!) { patchProfileFinancials(uuid: $uuid, input: $input) { uuid } }',
      { uuid, input: { revenue: { code: 'USD', value: 1 } } },
      v1,
    );
    expect(bad.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_REQUEST',
      status: 400,
      fields: [{ pointer: '/revenue/code', message: 'must be one of GBP, EUR, ZAR' }],
    });
    const url = await graphql(app.url, 'query($uuid: ID!) { profileFundingSearchUrl(uuid: $uuid) { url } }', { uuid }, v1);
    expect(url.data?.profileFundingSearchUrl.url).toContain(`/app/funding-search/${uuid}?token=`);
  });

  it('reads every section of the public profile', async () => {
    const created = await graphql(app.url, 'mutation { createBlankProfile { uuid legacyEntityBusinessId } }', {}, v1);
    const { uuid, legacyEntityBusinessId } = created.data?.createBlankProfile as { uuid: string; legacyEntityBusinessId: number };
    const prisma = app.runtime.database.prisma;
    await prisma.person.create({
      data: { profileId: uuid, name: 'Ada', type: 'DIRECTOR', address: { city: 'Leeds' }, dateOfBirth: new Date('1980-02-03T00:00:00Z') },
    });
    await prisma.property.create({
      data: { profileId: uuid, type: 'HOTEL', valueValue: 1250000.5, valueCurrency: 'GBP', additionalDetails: 'Grade II listed' },
    });
    await prisma.assetSecurity.create({ data: { profileId: uuid, type: 'MAIN_PROPERTY', owner: 'Ada' } });
    await prisma.profile.update({
      where: { id: uuid },
      data: {
        eligibilityRequest: {
          shared: { useOfFunds: 'CASH_FLOW', backgroundPurpose: 'Seasonal stock' },
          recovery: { defendant: { name: 'SLOW PAYER LTD', sector: 'RETAIL' } },
        },
      },
    });
    const res = await graphql(
      app.url,
      `query($uuid: ID!) { profile(uuid: $uuid) { legacy { entityBusinessId fundingSearchId }
        eligibilityRequest { sourceQuestionnaireId shared { useOfFunds backgroundPurpose fundingAmount { value } } recovery { defendant { name sector } } termLoan { hasTermLoan } }
        persons { type title name address { city } dateOfBirth } properties { type value { code value } additionalDetails outstandingDebt { value } }
        assets { name } assetsForSecurity { type owner value { value } } merchantCashAdvance { terminalId } } }`,
      { uuid },
      v1,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.profile).toEqual({
      legacy: { entityBusinessId: legacyEntityBusinessId, fundingSearchId: null },
      // Typed as spec 2.2 shows it: what is stored, null where nothing answered.
      eligibilityRequest: {
        sourceQuestionnaireId: null,
        shared: { useOfFunds: 'CASH_FLOW', backgroundPurpose: 'Seasonal stock', fundingAmount: null },
        recovery: { defendant: { name: 'SLOW PAYER LTD', sector: 'RETAIL' } },
        termLoan: null,
      },
      persons: [{ type: 'DIRECTOR', title: null, name: 'Ada', address: { city: 'Leeds' }, dateOfBirth: '1980-02-03T00:00:00.000Z' }],
      properties: [{ type: 'HOTEL', value: { code: 'GBP', value: 1250000.5 }, additionalDetails: 'Grade II listed', outstandingDebt: null }],
      assets: [],
      assetsForSecurity: [{ type: 'MAIN_PROPERTY', owner: 'Ada', value: null }],
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
