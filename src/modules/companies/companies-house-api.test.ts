/**
 * The Companies House API as the source behind the register, against a fake Companies House on a
 * local port: a number the register lacks is looked up with the key and stored (the next lookup is
 * local), a spent rate limit is waited out as the headers say while search keeps answering from the
 * register without asking, and a failing API opens a circuit.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../kernel/config.js';
import { companiesHouseApi } from './companies-house/companies-house-api.js';
import { bearer, marketplaceV1Token, signUpIntegrator } from '../../../test/support/identities.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { startFakeCompaniesHouse, type FakeCompaniesHouse } from '../../../test/support/fake-companies-house.js';

let fake: FakeCompaniesHouse;
let app: TestApp;
let auth: Record<string, string>;
beforeAll(async () => {
  fake = await startFakeCompaniesHouse();
  fake.companies.set('09123456', {
    company_name: 'TARNBECK INSTRUMENTS LIMITED',
    company_number: '09123456',
    company_status: 'active',
    type: 'ltd',
    date_of_creation: '2014-07-01',
    sic_codes: ['26511'],
    previous_company_names: [{ name: 'TARNBECK GAUGES LIMITED', ceased_on: '2019-02-01', effective_from: '2014-07-01' }],
    registered_office_address: {
      premises: 'Unit 7',
      address_line_1: 'Riverside Park',
      locality: 'Kendal',
      region: 'Cumbria',
      postal_code: 'LA9 6AB',
      country: 'England',
    },
  });
  fake.companies.set('SC654321', {
    company_name: 'GLENCAIRN OPTICS LTD',
    company_number: 'SC654321',
    company_status: 'active',
    type: 'ltd',
    sic_codes: ['32500'],
    registered_office_address: { address_line_1: '3 Dock Street', locality: 'Dundee', postal_code: 'DD1 3DR' },
  });
  fake.companies.set('OC445566', { company_name: 'WHINFELL SURVEYORS LLP', company_number: 'OC445566', company_status: 'active', type: 'llp' });
  app = await startTestApp({ config: { COMPANIES_HOUSE_API_KEY: fake.apiKey, COMPANIES_HOUSE_API_URL: fake.url } });
  const me = await signUpIntegrator(app);
  auth = bearer((await marketplaceV1Token(app, me.apiKey)).jwt);
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.failWith(null);
  fake.setBudget(600, 300);
  fake.requests.length = 0;
});

const get = (p: string) => fetch(`${app.url}/api/marketplace/v1${p}`, { headers: auth });

describe('a number the register does not hold', () => {
  it('is looked up at Companies House with the key, stored, and then answered by the register', async () => {
    const res = await get('/companies/09123456');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      name: 'TARNBECK INSTRUMENTS LIMITED',
      type: 'LIMITED_COMPANY',
      sector: 'MANUFACTURING',
      incorporatedAt: '2014-07-01T00:00:00.000Z',
      contactAddress: { simpleValue: 'Unit 7 Riverside Park, Kendal, Cumbria, LA9 6AB', city: 'Kendal', postalCode: 'LA9 6AB' },
      score: null,
      legalNotices: null,
    });
    expect(fake.requests).toEqual([{ path: '/company/09123456', status: 200 }]);
    const stored = await app.runtime.database.prisma.company.findFirstOrThrow({
      where: { registrationNumber: '09123456' },
      select: { registerSource: true, previousNames: true, creditSource: true },
    });
    expect(stored).toEqual({ registerSource: 'companies-house-api', previousNames: ['TARNBECK GAUGES LIMITED'], creditSource: null });

    expect((await get('/companies/09123456')).status).toBe(200);
    const search = await (await get('/companies/search/gauges')).json();
    expect(search).toEqual([{ name: 'TARNBECK INSTRUMENTS LIMITED', number: '09123456' }]);
    expect(fake.requests).toHaveLength(1);
  });

  it('is a 404 when Companies House does not know it either', async () => {
    expect((await get('/companies/09999998')).status).toBe(404);
    expect(fake.requests).toEqual([{ path: '/company/09999998', status: 404 }]);
  });

  it('waits out a spent rate limit as the headers say, while search answers from the register without asking', async () => {
    fake.setBudget(0, 2);
    const lookup = get('/companies/SC654321');
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    // The lookup was answered 429 and waits for the reset. Meanwhile: a search the register answers, and one it cannot (no hit): neither reaches the API.
    const held = await (await get('/companies/search/ACME')).json();
    expect(held.length).toBeGreaterThan(0);
    expect(await (await get('/companies/search/glencairn')).json()).toEqual([]);
    const res = await lookup;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'GLENCAIRN OPTICS LTD', sector: 'MANUFACTURING' });
    expect(fake.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(fake.requests.every((r) => r.path === '/company/SC654321')).toBe(true);
  });

  it('is searched at Companies House when the register has no hit and the budget allows', async () => {
    expect(await (await get('/companies/search/whinfell')).json()).toEqual([{ name: 'WHINFELL SURVEYORS LLP', number: 'OC445566' }]);
    expect(fake.requests).toEqual([{ path: '/search/companies?q=whinfell&items_per_page=10&start_index=0', status: 200 }]);
  });
});

describe('the Companies House source itself', () => {
  it('stops asking a failing API for a while (circuit open), so lookups fail fast', async () => {
    fake.failWith(500);
    const source = companiesHouseApi({ baseUrl: fake.url, apiKey: fake.apiKey, timeoutMs: 5000, maxWaitMs: 1000, failuresToOpen: 2, circuitOpenMs: 60_000 });
    await expect(source.lookup('OC445566', 'GB')).rejects.toThrow('answered 500');
    await expect(source.lookup('OC445566', 'GB')).rejects.toThrow('answered 500');
    await expect(source.lookup('OC445566', 'GB')).rejects.toThrow('failing');
    expect(await source.search('whinfell', 5)).toBeNull();
    expect(fake.requests).toHaveLength(2);
    expect(source.state().circuitOpenUntil).not.toBeNull();
  });

  it('is refused wrong credentials by the fake, as the real API does', async () => {
    const source = companiesHouseApi({ baseUrl: fake.url, apiKey: 'not-the-key', timeoutMs: 5000, maxWaitMs: 1000 });
    await expect(source.lookup('OC445566', 'GB')).rejects.toThrow('answered 401');
  });

  it('is configured by COMPANY_DATA_SOURCES, which needs the key', () => {
    expect(loadConfig({ COMPANIES_HOUSE_API_KEY: 'k' }).COMPANY_DATA_SOURCES).toEqual(['companies-house-api']);
    expect(loadConfig({ COMPANIES_HOUSE_API_KEY: 'k', COMPANY_DATA_SOURCES: 'none' }).COMPANY_DATA_SOURCES).toEqual([]);
    expect(loadConfig({}).COMPANY_DATA_SOURCES).toEqual([]);
    expect(() => loadConfig({ COMPANY_DATA_SOURCES: 'companies-house-api' })).toThrow('companies-house-api needs COMPANIES_HOUSE_API_KEY');
    expect(() => loadConfig({ COMPANY_DATA_SOURCES: 'dun-and-bradstreet' })).toThrow('each source must be companies-house-api');
  });
});
