/**
 * Marketplace V1 profiles (spec 2.1, 2.2, 4.1): anonymous and blank creation, ownership, and the
 * company and financials patches: exact validation with JSON pointers, merging, nothing written
 * on a bad body, and another account's profile invisible.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKey, marketplaceV1Token, signUpIntegrator, type Integrator } from '../../../test/support/identities.js';
import { contractFetch } from '../../../test/support/openapi-contract.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { buildOpenApiDocument } from '../../api/rest/openapi-document.js';

let app: TestApp;
let mine: Record<string, string>;
let theirs: Record<string, string>;
/** The same account's Marketplace V1 jwt of a key holding profile:read only. */
let reader: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  const me = await signUpIntegrator(app);
  mine = bearer((await marketplaceV1Token(app, me.apiKey)).jwt);
  reader = bearer((await marketplaceV1Token(app, (await createApiKey(app, me.loginToken, { name: 'reader', scopes: ['profile:read'] })).key)).jwt);
  theirs = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
});
afterAll(() => app?.close());

const v1 = (path: string) => `${app.url}/api/marketplace/v1${path}`;
const patch = (path: string, body: unknown, headers = mine) =>
  fetch(v1(path), {
    method: 'PATCH',
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const readProfile = async (uuid: string, headers = mine) => (await fetch(v1(`/profiles/${uuid}`), { headers })).json();
const row = (uuid: string) => app.runtime.database.prisma.profile.findUniqueOrThrow({ where: { id: uuid } });
const blank = async (headers = mine) => (await (await postJson(v1('/profiles/blank'), undefined, headers)).json()) as { uuid: string };

describe('creating profiles', () => {
  it('POST /profiles/blank → 200 with the spec 2.2 shape and empty sections; the empty documents left out, never {}', async () => {
    const res = await postJson(v1('/profiles/blank'), undefined, mine);
    expect(res.status).toBe(200);
    const profile = await res.json();
    // Spec 2.2 declares companyInformation and financials non-empty: a blank profile has neither yet.
    expect(Object.keys(profile).sort()).toEqual(
      ['assets', 'assetsForSecurity', 'createdAt', 'eligibilityRequest', 'legacy', 'merchantCashAdvance', 'persons', 'properties', 'updatedAt', 'uuid'].sort(),
    );
    expect(profile).toMatchObject({ persons: [], legacy: { entityBusinessId: expect.any(Number) } });
    expect(profile.legacy).not.toHaveProperty('fundingSearchId'); // no funding search yet: left out, not null
    expect(await readProfile(profile.uuid)).not.toHaveProperty('companyInformation');
  });

  it('shows companyInformation and financials once they hold something, each on its own', async () => {
    const { uuid } = await blank();
    expect((await patch(`/profiles/${uuid}/company`, { name: 'ACME WIDGETS LIMITED' })).status).toBe(204);
    const withCompany = await readProfile(uuid);
    expect(withCompany.companyInformation).toEqual({ name: 'ACME WIDGETS LIMITED' });
    expect(withCompany).not.toHaveProperty('financials');
    expect((await patch(`/profiles/${uuid}/financials`, { revenue: { code: 'GBP', value: 250000 } })).status).toBe(204);
    expect((await readProfile(uuid)).financials).toEqual({ revenue: { code: 'GBP', value: 250000 } });
  });

  it('GET /profiles/{uuid} shows every section of spec 2.2 from its rows', async () => {
    const { uuid } = await blank();
    const prisma = app.runtime.database.prisma;
    await prisma.person.create({ data: { profileId: uuid, type: 'DIRECTOR', name: 'Ada Director', dateOfBirth: new Date('1980-02-03T00:00:00Z') } });
    await prisma.property.create({ data: { profileId: uuid, type: 'OFFICES', valueValue: 450000, valueCurrency: 'GBP' } });
    await prisma.asset.create({ data: { profileId: uuid, name: 'Van', type: 'TRANSPORTATION', netCostValue: 30000, netCostCurrency: 'GBP' } });
    await prisma.assetSecurity.create({ data: { profileId: uuid, type: 'MAIN_PROPERTY', owner: 'Ada' } });
    await prisma.merchantCashAdvance.create({ data: { profileId: uuid, terminalId: 'T-1', averageMonthlyTransactions: 1200 } });
    const profile = await readProfile(uuid);
    expect(profile).toMatchObject({
      persons: [{ type: 'DIRECTOR', name: 'Ada Director', dateOfBirth: '1980-02-03T00:00:00.000Z' }],
      properties: [{ type: 'OFFICES', value: { code: 'GBP', value: 450000 } }],
      assets: [{ name: 'Van', type: 'TRANSPORTATION', netCost: { code: 'GBP', value: 30000 } }],
      assetsForSecurity: [{ type: 'MAIN_PROPERTY', owner: 'Ada' }],
      merchantCashAdvance: [{ terminalId: 'T-1', averageMonthlyTransactions: 1200 }],
    });
  });

  it('POST /profiles/anonymous {countryCode} → 200, no owner; other values are 400', async () => {
    const res = await postJson(v1('/profiles/anonymous'), { countryCode: 'ZA' }, mine);
    expect(res.status).toBe(200);
    const profile = await res.json();
    expect(profile).not.toHaveProperty('companyInformation');
    expect(profile).not.toHaveProperty('financials');
    expect(await row(profile.uuid)).toMatchObject({ countryCode: 'ZA', ownerAccountId: null, ownerApiKeyId: null });
    const bad = await postJson(v1('/profiles/anonymous'), { countryCode: 'FR' }, mine);
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toEqual([{ pointer: '/countryCode', message: 'must be one of GB, ZA' }]);
  });
});

describe('eligibilityRequest (spec 2.2)', () => {
  it('is answered in the shape spec 2.2 gives it, shared.backgroundPurpose included, and valid against the OpenAPI document', async () => {
    const { uuid } = await blank();
    const eligibilityRequest = {
      sourceQuestionnaireId: 'business-all-funding-products',
      shared: {
        useOfFunds: 'CASH_FLOW',
        fundingAmount: { code: 'GBP', value: 50000 },
        fundingPeriod: 12,
        backgroundPurpose: 'Seasonal stock before Christmas',
      },
      recovery: { defendant: { name: 'SLOW PAYER LTD', primaryContactInformation: { email: 'accounts dept' } }, claimAmount: { code: 'GBP', value: 1200 } },
      termLoan: { hasTermLoan: false, preferredCreditFacility: ['TERM_LOAN'] },
    };
    await app.runtime.database.prisma.profile.update({ where: { id: uuid }, data: { eligibilityRequest } });
    // contractFetch fails the test when the body is not valid against the document's Profile schema.
    const res = await contractFetch(v1(`/profiles/${uuid}`), { headers: reader });
    expect(res.status).toBe(200);
    expect((await res.json()).eligibilityRequest).toEqual(eligibilityRequest);
    const component = (buildOpenApiDocument() as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } }).components.schemas;
    expect(Object.keys(component.EligibilityShared?.properties ?? {})).toContain('backgroundPurpose');
  });
});

describe('PATCH /profiles/{uuid}/company and /financials', () => {
  it('merge: a patch of one field keeps the others, nested objects merge, updatedAt moves', async () => {
    const { uuid } = await blank();
    const before = await row(uuid);
    expect(
      (await patch(`/profiles/${uuid}/company`, { name: 'ACME WIDGETS LIMITED', type: 'LIMITED_COMPANY', contactAddress: { city: 'Sheffield' } })).status,
    ).toBe(204);
    expect((await patch(`/profiles/${uuid}/company`, { sector: 'MANUFACTURING', contactAddress: { postalCode: 'S9 3BL' } })).status).toBe(204);
    const profile = await readProfile(uuid);
    expect(profile.companyInformation).toEqual({
      name: 'ACME WIDGETS LIMITED',
      type: 'LIMITED_COMPANY',
      sector: 'MANUFACTURING',
      contactAddress: { city: 'Sheffield', postalCode: 'S9 3BL' },
    });
    const after = await row(uuid);
    expect(after).toMatchObject({ companyType: 'LIMITED_COMPANY', sector: 'MANUFACTURING' });
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());

    const financials = {
      revenue: { code: 'GBP', value: 250000 },
      tradingHistory: [{ profitNet: 1, revenue: 2, yearEnd: 2025 }],
      debtors: [{ id: 'd-1', name: 'Big Customer' }],
    };
    expect((await patch(`/profiles/${uuid}/financials`, financials)).status).toBe(204);
    expect((await patch(`/profiles/${uuid}/financials`, { netProfit: { code: 'GBP', value: 30000 } })).status).toBe(204);
    expect((await readProfile(uuid)).financials).toEqual({ ...financials, netProfit: { code: 'GBP', value: 30000 } });
  });

  it('a new registration number of a registered company brings its registered office as the contact address, unless the patch gives one', async () => {
    const { uuid } = await blank();
    expect((await patch(`/profiles/${uuid}/company`, { name: 'ACME', contactAddress: { city: 'Leeds', houseNumber: '9' } })).status).toBe(204);
    expect((await patch(`/profiles/${uuid}/company`, { registrationNumber: '09876543' })).status).toBe(204);
    const registered = (await (await fetch(v1('/companies/09876543'), { headers: mine })).json()).contactAddress;
    expect(registered).toMatchObject({ city: 'Sheffield', postalCode: 'S9 3BL' });
    expect((await readProfile(uuid)).companyInformation).toEqual({ name: 'ACME', registrationNumber: '09876543', contactAddress: registered });
    // The same number again keeps what the client has since set.
    expect((await patch(`/profiles/${uuid}/company`, { contactAddress: { city: 'York' } })).status).toBe(204);
    expect((await patch(`/profiles/${uuid}/company`, { registrationNumber: '09876543' })).status).toBe(204);
    expect((await readProfile(uuid)).companyInformation.contactAddress).toEqual({ ...registered, city: 'York' });
    const given = { street: '2 Quay Street', city: 'Bristol', postalCode: 'BS1 4DB' };
    expect((await patch(`/profiles/${uuid}/company`, { registrationNumber: '08234567', contactAddress: given })).status).toBe(204);
    expect((await readProfile(uuid)).companyInformation.contactAddress).toEqual({ ...registered, ...given });
  });

  it.each([
    ['company', undefined, ''],
    ['company', {}, ''],
    ['company', { nickname: 'x' }, '/nickname'],
    ['company', { type: 'PLC' }, '/type'],
    ['company', { sector: 'SPACE' }, '/sector'],
    ['company', { creditLimit: { code: 'GBP' } }, '/creditLimit/value'],
    ['company', { creditLimit: { code: 'USD', value: 1 } }, '/creditLimit/code'],
    ['company', { score: { value: 101 } }, '/score/value'],
    ['company', { score: { grade: 'F' } }, '/score/grade'],
    ['company', { contactAddress: { city: 'Leeds', county: 'West Yorkshire' } }, '/contactAddress/county'],
    ['company', { legalNotices: { company: {}, directors: {} } }, '/legalNotices'],
    ['financials', { revenue: { value: 1 } }, '/revenue/code'],
    ['financials', { tradingHistory: [{ profitNet: 1, revenue: 2 }] }, '/tradingHistory/0/yearEnd'],
    ['financials', { debtors: [{ name: 'no id' }] }, '/debtors/0/id'],
    ['financials', { paymentTerms: 30 }, '/paymentTerms'],
  ])('PATCH %s with %j → 400 naming %s, nothing written', async (section, body, pointer) => {
    const { uuid } = await blank();
    const before = await row(uuid);
    const res = await patch(`/profiles/${uuid}/${section}`, body);
    expect(res.status).toBe(400);
    const problem = await res.json();
    expect(problem.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    expect(await row(uuid)).toEqual(before);
  });

  it('another account cannot read or change a profile (404); a malformed uuid is 400', async () => {
    const { uuid } = await blank();
    const before = await row(uuid);
    expect((await fetch(v1(`/profiles/${uuid}`), { headers: theirs })).status).toBe(404);
    expect((await patch(`/profiles/${uuid}/company`, { name: 'Hijack' }, theirs)).status).toBe(404);
    expect(await row(uuid)).toEqual(before);
    expect((await patch('/profiles/not-a-uuid/company', { name: 'x' })).status).toBe(400);
  });
});

describe('PATCH /profiles/{uuid}/set-ownership', () => {
  it('makes the caller the owner of an anonymous profile; others then lose sight of it', async () => {
    const anonymous = await (await postJson(v1('/profiles/anonymous'), { countryCode: 'GB' }, theirs)).json();
    expect((await fetch(v1(`/profiles/${anonymous.uuid}`), { headers: mine })).status).toBe(200);
    expect((await patch(`/profiles/${anonymous.uuid}/set-ownership`, undefined)).status).toBe(204);
    expect((await patch(`/profiles/${anonymous.uuid}/set-ownership`, undefined)).status).toBe(204);
    expect((await fetch(v1(`/profiles/${anonymous.uuid}`), { headers: theirs })).status).toBe(404);
    const claimTheirs = await patch(`/profiles/${anonymous.uuid}/set-ownership`, undefined, theirs);
    expect(claimTheirs.status).toBe(404);
    expect((await row(anonymous.uuid)).ownerAccountId).not.toBeNull();
  });
});

describe('PUT /profiles/{uuid}/move/{targetApiKey}', () => {
  let owner: Integrator;
  let master: { key: string; id: string; keyPrefix: string };
  let other: { key: string; id: string; keyPrefix: string };
  let masterAuth: Record<string, string>;
  beforeAll(async () => {
    owner = await signUpIntegrator(app);
    master = (await createApiKey(app, owner.loginToken, { name: 'master', scopes: ['profile:read', 'profile:write'], isMaster: true })) as typeof master;
    other = (await createApiKey(app, owner.loginToken, { name: 'second', scopes: ['profile:read', 'profile:write'] })) as typeof other;
    masterAuth = bearer((await marketplaceV1Token(app, master.key)).jwt);
  });
  const move = (uuid: string, target: string, headers: Record<string, string>) => fetch(v1(`/profiles/${uuid}/move/${target}`), { method: 'PUT', headers });

  it("moves a master key's profile to another key of the account by its keyPrefix: 204", async () => {
    const { uuid } = await blank(masterAuth);
    expect((await move(uuid, other.keyPrefix, masterAuth)).status).toBe(204);
    expect((await row(uuid)).ownerApiKeyId).toBe(other.id);
  });

  it('refuses a non-master profile (403), a foreign or unknown key (404), a secret instead of an id (400)', async () => {
    const secondAuth = bearer((await marketplaceV1Token(app, other.key)).jwt);
    const { uuid: notMaster } = await blank(secondAuth);
    const refused = await move(notMaster, master.keyPrefix, secondAuth);
    expect(refused.status).toBe(403);
    expect((await refused.json()).detail).toBe('Only a profile created under a master key can be moved');

    const { uuid } = await blank(masterAuth);
    const before = await row(uuid);
    const stranger = await signUpIntegrator(app);
    const foreignKey = (await app.runtime.database.prisma.apiKey.findUniqueOrThrow({ where: { id: stranger.apiKeyId } })).keyPrefix;
    expect((await move(uuid, foreignKey, masterAuth)).status).toBe(404);
    expect((await move(uuid, 'key_000000000000', masterAuth)).status).toBe(404);
    const forged = `${other.key.slice(0, other.key.lastIndexOf('_'))}_not-the-secret`;
    expect((await move(uuid, forged, masterAuth)).status).toBe(404);
    expect((await move(uuid, stranger.apiKey, masterAuth)).status).toBe(404);
    const garbage = await move(uuid, 'not-a-key', masterAuth);
    expect(garbage.status).toBe(400);
    expect((await garbage.json()).errors).toEqual([{ pointer: '', message: 'must be an API key, or its keyPrefix (e.g. key_0123456789ab)' }]);
    expect((await move(uuid, other.keyPrefix, theirs)).status).toBe(404);
    expect(await row(uuid)).toEqual(before);
  });

  it('moves by the target API key itself (as the spec and live docs pass it): 204', async () => {
    const { uuid } = await blank(masterAuth);
    expect((await move(uuid, other.key, masterAuth)).status).toBe(204);
    expect((await row(uuid)).ownerApiKeyId).toBe(other.id);
  });
});
