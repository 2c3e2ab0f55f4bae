/**
 * Business V1 applications (spec 2.6, 4.4; the live platform's paths): create, continue URL and its
 * validation and page, matches, and pre-selected instant offers, with the tenant rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthlyRepayment, roundPennies } from '../offers/loan-arithmetic.js';
import { bearer, createTenant, platformToken, signUpIntegrator, type Integrator } from '../../../test/support/identities.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let me: Integrator;
const B = '/api/business/v1';

const GBP = (value: number) => ({ code: 'GBP', value });
const CLIENT = { clientName: 'Ada Owner', clientEmail: 'ada@acme-widgets.example', clientNumber: '+44 20 7946 0000' };
const ALL_FUNDING = {
  fundingUrgency: 'ONE_MONTH',
  useOfFunds: 'BUSINESS_EXPANSION',
  assetType: 'PROPERTY',
  ...CLIENT,
  legalRequirements: true,
  businessPurposes: true,
  fundingAmount: GBP(150000),
  fundingPeriod: 24,
  clientType: 1,
  averageCardSales: 7500,
  netProfit: GBP(120000),
  revenue: GBP(900000),
  netAssetCost: GBP(40000),
  cardPayments: true,
  raiseInvoices: true,
  fundingAsset: true,
  assetExistingAgreement: false,
  purchaseOrders: false,
  businessOwnsAssets: true,
  homeOwnership: true,
};
const WORKING_CAPITAL = {
  fundingUrgency: 'ASAP',
  useOfFunds: 'CASH_FLOW',
  businessPurposes: true,
  personalGuarantee: true,
  homeOwnership: false,
  businessOwnsAssets: true,
  fundingAmount: GBP(50000),
  fundingPeriod: 12,
  netProfit: GBP(80000),
  revenue: GBP(600000),
  contactName: 'Ada Owner',
  contactEmail: 'ada@acme-widgets.example',
  contactNumber: '+44 20 7946 0000',
  tradingAddress: '4 Parkway Drive, Sheffield, S9 3BL',
};
/** One body per Business V1 application variant, each with every field of its variant (REFERENCE_NOTES), and a field foreign to it. */
const VARIANTS: Record<string, { body: Record<string, unknown>; foreign: [string, unknown] }> = {
  'business-all-funding-products': {
    body: { ...ALL_FUNDING, personalGuarantee: true, governmentBackedLoansExist: false },
    foreign: ['tradingAddress', 'Sheffield'],
  },
  'introducer-all-funding-products': {
    body: { ...ALL_FUNDING, personalGuarantee: true, tradingAddress: 'Sheffield' },
    foreign: ['governmentBackedLoansExist', false],
  },
  'introducer-recovery-loan-scheme': { body: { ...ALL_FUNDING, tradingAddress: 'Sheffield' }, foreign: ['personalGuarantee', true] },
  'business-working-capital': { body: WORKING_CAPITAL, foreign: ['clientName', 'Ada Owner'] },
  'business-anonymous-working-capital': { body: WORKING_CAPITAL, foreign: ['companyName', 'ACME WIDGETS LIMITED'] },
  'introducer-working-capital': {
    body: {
      fundingUrgency: 'ONE_WEEK',
      useOfFunds: 'CASH_FLOW',
      ...CLIENT,
      legalRequirements: true,
      fundingPeriod: 12,
      businessPurposes: true,
      personalGuarantee: true,
      homeOwnership: true,
      businessOwnsAssets: false,
      netProfit: GBP(30000),
      fundingAmount: GBP(25000),
      revenue: GBP(300000),
      tradingAddress: 'Sheffield',
    },
    foreign: ['contactName', 'Ada Owner'],
  },
  'introducer-commercial-property': {
    body: {
      repaymentMethod: 'CAPITAL_AND_INTEREST',
      propertyClassification: 'COMMERCIAL',
      mortgageProduct: 'COMMERCIAL_MORTGAGE',
      portfolioSize: 'TWO_TO_FOUR',
      primaryUse: 'OFFICES',
      propertySetting: 'CITY',
      propertyLocation: 'UK_MAINLAND',
      ...CLIENT,
      legalRequirements: true,
      businessPurposes: true,
      netProfit: GBP(90000),
      revenue: GBP(700000),
      fundingAmount: GBP(400000),
      depositOrEquity: GBP(100000),
      propertyValue: GBP(500000),
      outstandingDebt: GBP(0),
      annualIncome: GBP(60000),
      fundingPeriod: 60,
      personalGuarantee: false,
      homeOwnership: true,
      businessOwnsAssets: true,
      refinancing: false,
      tradingAddress: 'Sheffield',
    },
    foreign: ['assetType', 'PROPERTY'],
  },
  'introducer-credit-improvement': {
    body: { ...CLIENT, legalRequirements: false, netProfit: GBP(10000), revenue: GBP(200000) },
    foreign: ['fundingAmount', GBP(1000)],
  },
  'introducer-debt-recovery': {
    body: {
      ...CLIENT,
      legalRequirements: true,
      claimAmount: GBP(12500),
      defendantSector: 'RETAIL',
      defendantCompanyType: 'LIMITED_COMPANY',
      defendantClientName: 'Bob Debtor',
      defendantClientEmail: 'bob@debtor.example',
      defendantClientNumber: '+44 113 496 0000',
      defendantTradingAddress: '1 High Street, Leeds',
      defendantIncorporationDate: '2012-03-01',
      defendantCompanyName: 'DEBTOR TRADING LIMITED',
      defendantCompanyNumber: '07654321',
    },
    foreign: ['defendantName', 'Bob Debtor'],
  },
  'introducer-grants': {
    body: {
      ...CLIENT,
      legalRequirements: true,
      netProfit: GBP(20000),
      revenue: GBP(250000),
      tradeDebtors: GBP(15000),
      bankInterest: GBP(500),
      depreciation: GBP(2000),
      amortisation: GBP(1000),
      companyWebsite: 'https://acme.example',
      employeesNumber: 12,
      uniqueIp: true,
      previousGrantApplication: false,
      tradingDifficulty: false,
      tradingAddress: 'Sheffield',
    },
    foreign: ['taxRelief', true],
  },
  'introducer-rd-tax-claim': {
    body: {
      ...CLIENT,
      legalRequirements: true,
      companyWebsite: 'https://acme.example',
      netProfit: GBP(20000),
      revenue: GBP(250000),
      innovativeProductsOrServices: true,
      taxRelief: true,
      tradingDifficulty: false,
      tradingAddress: 'Sheffield',
    },
    foreign: ['uniqueIp', true],
  },
};
const APPLICATION = VARIANTS['business-all-funding-products']!.body;

/** A tenant whose Business V1 profile is set up (ACME WIDGETS LIMITED), as the live flow has it before applications. */
async function tenantAuth(): Promise<{ tenantId: string; auth: Record<string, string> }> {
  const { id } = await createTenant(app, me.platformToken);
  const auth = bearer((await platformToken(app, me.apiKey, id)).access_token);
  expect((await send('POST', '/profile', auth, { companyInformation: { registrationNumber: '09876543' } })).status).toBe(201);
  return { tenantId: id, auth };
}
const send = (method: string, path: string, auth: Record<string, string>, body?: unknown) =>
  fetch(`${app.url}${B}${path}`, {
    method,
    headers: { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A matched lender (lowest id) whose required fields the application's answers provide: the company number and contact details. */
async function answerableMatch(applicationId: string, auth: Record<string, string>): Promise<{ lender: { id: number; name: string }; product: string }> {
  const matches = await (await send('GET', `/applications/${applicationId}/matches`, auth)).json();
  const lenders = await app.runtime.database.prisma.lender.findMany({
    where: { id: { in: matches.matches.map((m: { lender: { id: number } }) => m.lender.id) } },
    orderBy: { id: 'asc' },
  });
  const lender = lenders.find((l) =>
    (l.requiredFields as Array<{ field: string }>).every((rule) => /\.basicCompanyDetails\.(companyNumber|contactEmail|contactPhone)$/.test(rule.field)),
  )!;
  return { lender, product: matches.matches.find((m: { lender: { id: number } }) => m.lender.id === lender.id).product };
}

beforeAll(async () => {
  app = await startTestApp();
  me = await signUpIntegrator(app);
});
afterAll(() => app?.close());

describe('POST /applications', () => {
  it('creates the application (201, spec 2.6 response) and fills the tenant profile', async () => {
    const { tenantId, auth } = await tenantAuth();
    const res = await send('POST', '/applications', auth, APPLICATION);
    expect(res.status).toBe(201);
    const body = await res.json();
    const { governmentBackedLoansExist: _left, ...expected } = APPLICATION;
    // No type in the body: the default variant's fields, answered as spec 2.6's response variant.
    expect(body).toEqual({ ...expected, id: expect.any(String), type: 'introducer-all-funding-products' });
    const profile = await app.runtime.database.prisma.profile.findFirstOrThrow({ where: { tenantId } });
    expect(profile.eligibilityRequest).toMatchObject({ sourceQuestionnaireId: 'business-all-funding-products', shared: { fundingAmount: { value: 150000 } } });
    expect(profile.financials).toMatchObject({ revenue: { value: 900000 } });
  });

  it.each([
    [{}, ''],
    [{ ...APPLICATION, fundingUrgency: 'TOMORROW' }, '/fundingUrgency'],
    [{ ...APPLICATION, fundingAmount: { code: 'USD', value: 1 } }, '/fundingAmount/code'],
    [{ ...APPLICATION, assetType: 'SPACESHIP', fundingAsset: true }, '/assetType'],
    [{ type: 'business-all-funding-products' }, ''],
    [{ ...APPLICATION, type: 'not-a-variant' }, '/type'],
    [{ ...APPLICATION, surprise: 1 }, '/surprise'],
  ])('refuses %j with 400 at %s, creating nothing', async (body, pointer) => {
    const { auth } = await tenantAuth();
    const before = await app.runtime.database.prisma.businessApplication.count();
    const res = await send('POST', '/applications', auth, body);
    expect(res.status).toBe(400);
    expect((await res.json()).errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    expect(await app.runtime.database.prisma.businessApplication.count()).toBe(before);
  });

  it('takes only platform tokens (a login token is 401) and bounds by tenant (another tenant: 404)', async () => {
    expect((await send('POST', '/applications', bearer(me.loginToken), APPLICATION)).status).toBe(401);
    const { auth } = await tenantAuth();
    const created = await (await send('POST', '/applications', auth, APPLICATION)).json();
    const other = await tenantAuth();
    expect((await send('GET', `/applications/${created.id}/matches`, other.auth)).status).toBe(404);
  });
});

describe('the eleven application variants', () => {
  it.each(Object.keys(VARIANTS))('%s: every field of the variant is accepted (201) and read back', async (type) => {
    const { tenantId, auth } = await tenantAuth();
    const { body } = VARIANTS[type]!;
    const res = await send('POST', '/applications', auth, { type, ...body });
    expect(res.status).toBe(201);
    const created = await res.json();
    const { governmentBackedLoansExist: _left, ...expected } = body;
    expect(created).toEqual({ ...expected, id: expect.any(String), type: 'introducer-all-funding-products' });
    const row = await app.runtime.database.prisma.businessApplication.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ tenantId, type, answers: body });
  });

  it.each(Object.keys(VARIANTS))('%s: a field of another variant is a 400 naming it, creating nothing', async (type) => {
    const { auth } = await tenantAuth();
    const {
      body,
      foreign: [field, value],
    } = VARIANTS[type]!;
    const before = await app.runtime.database.prisma.businessApplication.count();
    const res = await send('POST', '/applications', auth, { type, ...body, [field]: value });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([{ pointer: `/${field}`, message: 'is not an allowed property' }]);
    expect(await app.runtime.database.prisma.businessApplication.count()).toBe(before);
  });

  it('fills the profile with what the questionnaire asks: the debt-recovery defendant under its questionnaire names', async () => {
    const { tenantId, auth } = await tenantAuth();
    expect((await send('POST', '/applications', auth, { type: 'introducer-debt-recovery', ...VARIANTS['introducer-debt-recovery']!.body })).status).toBe(201);
    const profile = await app.runtime.database.prisma.profile.findFirstOrThrow({ where: { tenantId } });
    const answers = await app.runtime.database.prisma.questionnaireAnswerSet.findFirstOrThrow({
      where: { profileId: profile.id, questionnaireId: 'introducer-debt-recovery' },
    });
    expect(answers.answers).toMatchObject({
      defendantName: 'Bob Debtor',
      defendantEmail: 'bob@debtor.example',
      defendantCompanyName: 'DEBTOR TRADING LIMITED',
    });
    expect(answers.answers).not.toHaveProperty('defendantClientName');
  });

  it("takes the defendant's contact as spec 2.1 types it (plain strings, as the live documents do), and still types the client's", async () => {
    const { tenantId, auth } = await tenantAuth();
    const defendant = { defendantClientEmail: 'accounts dept, via the switchboard', defendantClientNumber: '0113 496 0000 ext. 12' };
    const res = await send('POST', '/applications', auth, { type: 'introducer-debt-recovery', ...VARIANTS['introducer-debt-recovery']!.body, ...defendant });
    expect(res.status, await res.clone().text()).toBe(201);
    const profile = await app.runtime.database.prisma.profile.findFirstOrThrow({ where: { tenantId } });
    expect(profile.eligibilityRequest).toMatchObject({
      recovery: {
        defendant: { primaryContactInformation: { name: 'Bob Debtor', email: defendant.defendantClientEmail, number: defendant.defendantClientNumber } },
      },
    });
    // The client's own contact keeps spec 2.4's rules (email format, the clientNumber pattern).
    const client = await send('POST', '/applications', auth, { type: 'introducer-debt-recovery', clientEmail: 'not an email', clientNumber: '12' });
    expect(client.status).toBe(400);
    expect((await client.json()).errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/clientEmail', '/clientNumber']);
    // Still strings: a number is refused.
    const wrongType = await send('POST', '/applications', auth, { type: 'introducer-debt-recovery', defendantClientNumber: 1134960000 });
    expect(wrongType.status).toBe(400);
  });
});

describe('continue URL', () => {
  it('is signed, validates, opens the page, and expires', async () => {
    const { auth } = await tenantAuth();
    const created = await (await send('POST', '/applications', auth, APPLICATION)).json();
    const res = await send('POST', `/applications/${created.id}/continue-url`, auth, { clickId: 'campaign-42' });
    expect(res.status).toBe(201);
    const { continueUrl } = await res.json();
    expect(continueUrl).toMatch(new RegExp(`^${app.url}/app/applications/${created.id}/continue\\?token=`));
    expect((await app.runtime.database.prisma.businessApplication.findUniqueOrThrow({ where: { id: created.id } })).clickId).toBe('campaign-42');
    const valid = await send('GET', `/applications/validate-continue-url?continueUrl=${encodeURIComponent(continueUrl)}`, auth);
    expect(await valid.json()).toEqual({ valid: true, applicationId: created.id });
    const page = await fetch(continueUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('ACME WIDGETS LIMITED');
    const tampered = `${continueUrl.slice(0, -2)}xx`;
    expect((await send('GET', `/applications/validate-continue-url?continueUrl=${encodeURIComponent(tampered)}`, auth)).status).toBe(403);
  });
});

describe('matches and pre-selected offers', () => {
  it('GET /applications/{id}/matches answers the spec 2.6 match list', async () => {
    const { auth } = await tenantAuth();
    const created = await (await send('POST', '/applications', auth, APPLICATION)).json();
    const res = await send('GET', `/applications/${created.id}/matches`, auth);
    expect(res.status).toBe(200);
    const list = await res.json();
    expect(list.numberOfMatches).toBe(list.matches.length);
    expect(list.numberOfMatches).toBeGreaterThan(0);
    expect(list.matches[0]).toEqual({
      lender: {
        id: expect.any(Number),
        name: expect.any(String),
        logo: expect.any(String),
        description: expect.any(String),
        average: expect.stringMatching(/^(LOW|AVERAGE|EXPENSIVE|MOST_EXPENSIVE)$/),
        responseTime: expect.any(Number),
        documents: expect.any(Array),
      },
      product: expect.any(String),
      fees: { arrangementFees: expect.any(Number), earlyRepaymentFees: expect.any(Number), exitFees: expect.any(Number) },
      likelihood: { value: expect.any(Number) },
      instantOffer: expect.any(Boolean),
    });

    // The logo a match points at is served.
    const { logo, name } = list.matches[0].lender;
    const image = await fetch(`${app.url}${logo}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const svg = await image.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain(name.replace(/&/g, '&#38;').slice(0, 24));
    expect((await fetch(`${app.url}${logo.replace('.svg', '-icon.svg')}`)).status).toBe(200);
    expect((await fetch(`${app.url}/static/lenders/no-such-lender.svg`)).status).toBe(404);
  });

  it('GET /applications/{id}/pre-selected prices instant offers with amortised repayments', async () => {
    const { auth } = await tenantAuth();
    const created = await (await send('POST', '/applications', auth, APPLICATION)).json();
    const offers = await (await send('GET', `/applications/${created.id}/pre-selected`, auth)).json();
    expect(offers.length).toBeGreaterThan(0);
    for (const offer of offers) {
      expect(offer).toMatchObject({
        status: 'PRE_SELECTED',
        type: 'INSTANT_OFFER',
        isPreselected: true,
        profileUuid: expect.any(String),
        expiryDate: expect.any(String),
      });
      expect(offer).not.toHaveProperty('applicationUrl'); // none: left out, not null
      if (offer.termLoan) {
        const t = offer.termLoan;
        expect(t.monthlyRepayment).toBe(roundPennies(monthlyRepayment(t.maximumAmount, t.rate, t.term)));
        expect(t.totalFees).toBe(roundPennies(Math.abs(t.totalRepayment - t.maximumAmount)));
        expect(t.representativeAPR).toBeGreaterThanOrEqual(t.rate);
      }
    }
    const matches = await (await send('GET', `/applications/${created.id}/matches`, auth)).json();
    expect(offers.length).toBe(matches.matches.filter((m: { instantOffer: boolean }) => m.instantOffer).length);
  });
});

describe('GraphQL', () => {
  it('answers the same type as REST for an application of each of several variants: the response variant of spec 2.6; questionnaireId the variant it was made with', async () => {
    const { graphql } = await import('../../../test/support/graphql-client.js');
    const { auth } = await tenantAuth();
    const types = [
      'business-all-funding-products',
      'introducer-all-funding-products',
      'business-working-capital',
      'introducer-debt-recovery',
      'introducer-grants',
    ];
    for (const type of types) {
      const rest = await (await send('POST', '/applications', auth, { type, ...VARIANTS[type]!.body })).json();
      const read = await graphql(app.url, 'query($id: ID!) { application(id: $id) { id type questionnaireId } }', { id: rest.id }, auth);
      expect(read.errors).toBeUndefined();
      expect({ rest: rest.type, graphql: read.data?.application }).toEqual({
        rest: 'introducer-all-funding-products',
        graphql: { id: rest.id, type: 'introducer-all-funding-products', questionnaireId: type },
      });
    }
  });

  it('createApplication returns the application as stored, then Application.matches (federated) and typed preselectedOffers as REST answers them', async () => {
    const { graphql, selectedFrom, selectionSet } = await import('../../../test/support/graphql-client.js');
    const { auth } = await tenantAuth();
    const created = await graphql(
      app.url,
      'mutation($i: JSONObject!) { createApplication(input: $i) { id type questionnaireId createdAt } }',
      { i: APPLICATION },
      auth,
    );
    expect(created.errors).toBeUndefined();
    const stored = await app.runtime.database.prisma.businessApplication.findUniqueOrThrow({ where: { id: created.data?.createApplication.id } });
    expect(created.data?.createApplication).toEqual({
      id: stored.id,
      type: 'introducer-all-funding-products',
      questionnaireId: 'business-all-funding-products',
      createdAt: stored.createdAt.toISOString(),
    });
    expect(stored.type).toBe('business-all-funding-products');

    const offerSelection = {
      id: true,
      status: true,
      type: true,
      isPreselected: true,
      productType: true,
      profileUuid: true,
      reference: true,
      securityRequired: true,
      termLoan: {
        maximumAmount: true,
        minimumAmount: true,
        interestCharge: true,
        rate: true,
        interestRate: true,
        term: true,
        monthlyRepayment: true,
        totalRepayment: true,
        totalFees: true,
        promotion: true,
      },
      assetFinance: { advanceAmount: true, deposit: true, term: true, productOption: true, representativeAPR: true },
      merchantCashAdvance: { fundingAmount: true, sweep: true, ratio: true, totalFees: true },
      invoiceFinance: { maximumCreditLine: true, advanceRate: true, facility: true, contractLength: true, confidential: true },
      tradeFinance: { maximumCreditLine: true, contractLength: true, likelihoodOfAcceptance: true },
      commercialProperty: { fundingAmount: true, mortgageTerm: true, dealTerm: true, rateType: true, exitFee: true },
    } as const;
    const res = await graphql(
      app.url,
      `mutation($i: JSONObject!) { createApplication(input: $i) { id matches { numberOfMatches matches { lender { id name } product fees { arrangementFees } likelihood instantOffer } } preselectedOffers ${selectionSet(offerSelection)} } }`,
      { i: APPLICATION },
      auth,
    );
    expect(res.errors).toBeUndefined();
    const application = res.data?.createApplication;
    expect(application.matches.numberOfMatches).toBe(application.matches.matches.length);
    expect(application.preselectedOffers.length).toBeGreaterThan(0);
    const rest = await (await send('GET', `/applications/${application.id}/pre-selected`, auth)).json();
    expect(application.preselectedOffers).toEqual(selectedFrom(rest, offerSelection));
    for (const offer of application.preselectedOffers) {
      const productObjects = ['termLoan', 'assetFinance', 'merchantCashAdvance', 'invoiceFinance', 'tradeFinance', 'commercialProperty'].filter(
        (name) => offer[name] !== null,
      );
      expect(productObjects).toHaveLength(1);
    }
  });

  it('staff (admin scope) add a lender and a product that then matches; integrators cannot', async () => {
    const { graphql } = await import('../../../test/support/graphql-client.js');
    const { createAccountWithUser } = await import('../identity/bootstrap.js');
    const { signIn } = await import('../../../test/support/identities.js');
    await createAccountWithUser(app.runtime.database.prisma, {
      environment: 'demo',
      accountName: 'ops',
      email: 'ops@example.test',
      password: 'ops-password-123',
      role: 'STAFF',
    });
    const staff = bearer(await signIn(app, 'ops@example.test', 'ops-password-123'));
    const lender = await graphql(
      app.url,
      'mutation { createLender(input: { name: "Northern Test Capital", priceBand: "LOW" }) { id name priceBand } }',
      {},
      staff,
    );
    expect(lender.errors).toBeUndefined();
    const lenderId = lender.data?.createLender.id;
    const product = {
      productType: 'TERM_LOAN',
      name: 'Test term loan',
      minAmount: 10000,
      maxAmount: 1000000,
      minTermMonths: 6,
      maxTermMonths: 60,
      annualRateMin: 7,
      annualRateMax: 12,
      likelihoodBase: 0.95,
      instantOffer: true,
    };
    const saved = await graphql(
      app.url,
      'mutation($l: Int!, $p: LenderProductInput!) { saveLenderProduct(lenderId: $l, input: $p) { products { productType name } } }',
      { l: lenderId, p: product },
      staff,
    );
    expect(saved.data?.saveLenderProduct.products).toEqual([{ productType: 'TERM_LOAN', name: 'Test term loan' }]);
    const stored = await app.runtime.database.prisma.lenderProduct.findFirstOrThrow({ where: { lenderId } });
    const decimals = {
      minAmount: Number(stored.minAmount),
      maxAmount: Number(stored.maxAmount),
      annualRateMin: Number(stored.annualRateMin),
      annualRateMax: Number(stored.annualRateMax),
      likelihoodBase: Number(stored.likelihoodBase),
    };
    expect({ ...stored, ...decimals }).toMatchObject({ ...product, minGrade: 'E', countries: ['GB'], requirements: {} });
    const bad = await graphql(
      app.url,
      'mutation($l: Int!, $p: LenderProductInput!) { saveLenderProduct(lenderId: $l, input: $p) { id } }',
      { l: lenderId, p: { ...product, maxAmount: 1 } },
      staff,
    );
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', fields: [{ pointer: '/maxAmount', message: 'must be at least minAmount' }] });

    const { auth } = await tenantAuth();
    const created = await (await send('POST', '/applications', auth, APPLICATION)).json();
    const matches = await (await send('GET', `/applications/${created.id}/matches`, auth)).json();
    expect(matches.matches.map((m: { lender: { id: number } }) => m.lender.id)).toContain(lenderId);
    // A lender without logo or description: the keys are left out of the REST body, not null.
    const ours = matches.matches.find((m: { lender: { id: number } }) => m.lender.id === lenderId).lender;
    expect(ours).toEqual({ id: lenderId, name: 'Northern Test Capital', average: 'LOW', responseTime: expect.any(Number), documents: expect.any(Array) });

    const renamed = await graphql(
      app.url,
      'mutation($id: Int!) { updateLender(id: $id, input: { responseTimeHours: 12 }) { name responseTimeHours } }',
      { id: lenderId },
      staff,
    );
    expect(renamed.data?.updateLender).toEqual({ name: 'Northern Test Capital', responseTimeHours: 12 });

    const denied = await graphql(app.url, 'mutation { createLender(input: { name: "Nope" }) { id } }', {}, bearer(me.loginToken));
    expect(denied.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('submitApplicationToLender and acceptOffer return what was stored, field by field, in the shape the lender API declares (without its apiProvider)', async () => {
    const { graphql, selectedFrom, selectionSet } = await import('../../../test/support/graphql-client.js');
    const { lenderCredentials, lenderIdToken } = await import('../../../test/support/identities.js');
    const { FundingApplicationDocument } = await import('../lender-applications/funding-application-schemas.js');
    const db = app.runtime.database.prisma;
    const { auth } = await tenantAuth();
    const created = await (await send('POST', '/applications', auth, APPLICATION)).json();
    const { lender: easy, product } = await answerableMatch(created.id, auth);

    const submitted = await graphql(
      app.url,
      'mutation($a: ID!, $l: Int!, $p: [String!]!) { submitApplicationToLender(applicationId: $a, lenderId: $l, products: $p) { applications { lenderId applicationId } } }',
      { a: created.id, l: easy.id, p: [product] },
      auth,
    );
    expect(submitted.errors).toBeUndefined();
    const rows = await db.lenderApplication.findMany({ where: { businessApplicationId: created.id } });
    expect(submitted.data?.submitApplicationToLender).toEqual({ applications: rows.map((r) => ({ lenderId: r.lenderId, applicationId: r.id })) });
    const id = rows[0]!.id;

    const lender = bearer(await lenderIdToken(app, await lenderCredentials(app, easy.id)));
    const offerBody = {
      reference: `GQL-${id}`,
      status: 'FINAL',
      expiryDate: '2031-01-31',
      comment: 'Subject to contract',
      termLoan: {
        maximumAmount: { code: 'GBP', value: 150000 },
        term: 24,
        interestRate: 0.79,
        totalRepayment: 166512.34,
        arrangementFee: { code: 'GBP', value: 1500 },
        likelihoodOfAcceptance: 0.8,
      },
    };
    expect(
      (
        await fetch(`${app.url}/api/platform/v1/funding/applications/${id}/offer`, {
          method: 'POST',
          headers: { ...lender, 'content-type': 'application/json' },
          body: JSON.stringify(offerBody),
        })
      ).status,
    ).toBe(200);

    // The integrator's view: the application only; apiProvider (the lender's token) is the lender's alone.
    const documentSelection = {
      application: {
        id: true,
        reference: true,
        status: true,
        responseReason: true,
        comment: true,
        acceptedAt: true,
        invalidatedAt: true,
        fundingSearch: { id: true, status: true, amount: true, period: true, statusLabel: true, author: { id: true }, useOfFunds: true, urgency: true },
        fundingMatch: {
          id: true,
          offerId: true,
          products: true,
          productNames: true,
          canUseInstantOffer: true,
          canUseInstantApplication: true,
          lender: { id: true, entityId: true, companyName: true, logo: true },
          status: true,
        },
        profile: {
          basicCompanyDetails: {
            contactName: true,
            contactEmail: true,
            companyName: true,
            companyNumber: true,
            companyType: true,
            vatRegistered: true,
            tradingFrom: true,
            tradingPeriod: true,
            creditScore: true,
            sectorName: true,
          },
          directorOrSecretaryDetails: { fullName: true, dateOfBirth: true },
          tradeHistory: { year: true, revenue: true },
          guarantorAssetsForSecurity: { hasUkHomeownerDirector: true, estimatedSecurity: true, guarantorAssets: { owner: true } },
          invoiceFinancing: { debtorsValue: true },
          eposTerminalInfo: { terminalId: true },
          assetsToFinance: { assetType: true },
          attachments: { id: true, url: true },
        },
        offer: {
          id: true,
          reference: true,
          status: true,
          expiryDate: true,
          comment: true,
          decision: true,
          termLoan: {
            maximumAmount: { code: true, value: true },
            term: true,
            interestRate: true,
            totalRepayment: true,
            totalFees: true,
            arrangementFee: { value: true },
            likelihoodOfAcceptance: true,
            likelihoodOfRate: true,
          },
          invoiceFinance: { facility: true },
        },
      },
    } as const;
    const accepted = await graphql(app.url, `mutation($id: Int!) { acceptOffer(applicationId: $id) ${selectionSet(documentSelection)} }`, { id }, auth);
    expect(accepted.errors).toBeUndefined();

    const row = await db.lenderApplication.findUniqueOrThrow({ where: { id }, include: { offers: true } });
    const offer = row.offers.find((o) => o.supersededAt === null)!;
    const payload = row.payload as { apiProvider: unknown; application: Record<string, unknown> };
    const termLoan = offer.product as { maximumAmount: { value: number }; totalRepayment: number };
    const stored = {
      application: {
        ...payload.application,
        fundingMatch: { ...(payload.application.fundingMatch as object), offerId: offer.id },
        id: row.id,
        reference: row.reference,
        status: row.status,
        responseReason: row.responseReason,
        comment: row.comment,
        acceptedAt: Math.floor(row.acceptedAt!.getTime() / 1000),
        invalidatedAt: null,
        offer: {
          id: offer.id,
          reference: offer.reference,
          status: offer.status,
          expiryDate: offer.expiryDate!.toISOString(),
          comment: offer.comment,
          decision: offer.decision,
          // Computed as the offer is fetched (spec 2.7), not stored.
          termLoan: { ...termLoan, totalFees: Math.round(Math.abs(termLoan.totalRepayment - termLoan.maximumAmount.value) * 100) / 100 },
        },
      },
    };
    expect(row.status).toBe('Client Accepted');
    expect(offer.decision).toBe('ACCEPTED');
    expect(accepted.data?.acceptOffer).toEqual(selectedFrom(stored, documentSelection));

    // The lender API's REST body is exactly the declared shape, and GraphQL answers the same values.
    const rest = await (await fetch(`${app.url}/api/platform/v1/funding/applications/${id}`, { headers: lender })).json();
    expect(FundingApplicationDocument.parse(rest)).toEqual(rest);
    expect(accepted.data?.acceptOffer).toEqual(selectedFrom(rest, documentSelection));
  });
});

describe('POST /applications/{id}/submit', () => {
  it('sends the application to a matched lender (201), whose webhook is queued; a lender it does not match is 422', async () => {
    const { auth } = await tenantAuth();
    const created = await (await send('POST', '/applications', auth, APPLICATION)).json();
    const db = app.runtime.database.prisma;
    const { lender: easy, product } = await answerableMatch(created.id, auth);
    const res = await send('POST', `/applications/${created.id}/submit`, auth, { lenderId: easy.id, products: [product] });
    expect(res.status).toBe(201);
    const { applications } = await res.json();
    expect(applications).toEqual([{ lenderId: easy.id, applicationId: expect.any(Number) }]);
    const row = await db.lenderApplication.findUniqueOrThrow({ where: { id: applications[0].applicationId } });
    expect(row).toMatchObject({ status: 'In Review', businessApplicationId: created.id });
    expect(await db.webhookDelivery.count({ where: { lenderApplicationId: row.id, event: 'APPLICATION_CREATED' } })).toBe(1);
    const unmatched = await send('POST', `/applications/${created.id}/submit`, auth, { lenderId: 999999, products: ['TERM_LOAN'] });
    expect(unmatched.status).toBe(422);
  });

  it("a profile set up from the registry gives the lender document the registered office's address, city and postal code", async () => {
    const { lenderCredentials, lenderIdToken } = await import('../../../test/support/identities.js');
    const { auth } = await tenantAuth(); // set up from the registry: 09876543
    const created = await (await send('POST', '/applications', auth, APPLICATION)).json();
    const { lender: easy, product } = await answerableMatch(created.id, auth);
    const { applications } = await (await send('POST', `/applications/${created.id}/submit`, auth, { lenderId: easy.id, products: [product] })).json();
    const lender = bearer(await lenderIdToken(app, await lenderCredentials(app, easy.id)));
    const read = await fetch(`${app.url}/api/platform/v1/funding/applications/${applications[0].applicationId}`, { headers: lender });
    expect(read.status).toBe(200);
    expect((await read.json()).application.profile.basicCompanyDetails).toMatchObject({
      companyName: 'ACME WIDGETS LIMITED',
      address: expect.stringContaining('Parkway Industrial Estate'),
      city: 'Sheffield',
      postalCode: 'S9 3BL',
    });
  });
});

describe('POST /applications with an Idempotency-Key', () => {
  const keyed = (auth: Record<string, string>, key: string) => ({ ...auth, 'idempotency-key': key });
  const applicationsOf = (tenantId: string) => app.runtime.database.prisma.businessApplication.count({ where: { tenantId } });

  it('answers a retry of the same request with the first application, storing nothing; another request under the key is a 422', async () => {
    const { tenantId, auth } = await tenantAuth();
    const key = `retry-${Date.now()}`;
    const first = await send('POST', '/applications', keyed(auth, key), APPLICATION);
    expect(first.status).toBe(201);
    const created = await first.json();
    const retried = await send('POST', '/applications', keyed(auth, key), APPLICATION);
    expect(retried.status).toBe(201);
    expect(await retried.json()).toEqual(created);
    expect(await applicationsOf(tenantId)).toBe(1);

    const other = await send('POST', '/applications', keyed(auth, key), { ...APPLICATION, fundingPeriod: 36 });
    expect(other.status).toBe(422);
    expect((await other.json()).errors).toEqual([{ pointer: 'header:Idempotency-Key', message: expect.stringContaining('another request') }]);
    expect(await applicationsOf(tenantId)).toBe(1);

    // Without a key, each request is a new application.
    expect((await send('POST', '/applications', auth, APPLICATION)).status).toBe(201);
    expect(await applicationsOf(tenantId)).toBe(2);
  });

  it("keeps keys per account: another integrator's request under the same key makes its own application", async () => {
    const key = `shared-${Date.now()}`;
    const mine = await tenantAuth();
    const myApplication = await (await send('POST', '/applications', keyed(mine.auth, key), APPLICATION)).json();
    const other = await signUpIntegrator(app);
    const { id: theirTenant } = await createTenant(app, other.platformToken);
    const theirAuth = bearer((await platformToken(app, other.apiKey, theirTenant)).access_token);
    expect((await send('POST', '/profile', theirAuth, { companyInformation: { registrationNumber: '09876543' } })).status).toBe(201);
    const theirs = await send('POST', '/applications', keyed(theirAuth, key), APPLICATION);
    expect(theirs.status).toBe(201);
    expect((await theirs.json()).id).not.toBe(myApplication.id);
    expect(await applicationsOf(theirTenant)).toBe(1);
  });

  it('refuses a malformed key (400 naming the header) and stores nothing', async () => {
    const { tenantId, auth } = await tenantAuth();
    const res = await send('POST', '/applications', keyed(auth, 'k'.repeat(256)), APPLICATION);
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].pointer).toBe('header:Idempotency-Key');
    expect(await applicationsOf(tenantId)).toBe(0);
  });
});
