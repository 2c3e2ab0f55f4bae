/**
 * Company search and lookup on Marketplace V1 (spec 4.1, rule 4): ranking, limits, country codes,
 * the CompanyInformation shape with graded scores, and the grade bands of spec 2.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeFor, marketplaceV1Grade } from './credit-grade.js';
import { bearer, marketplaceV1Token, signUpIntegrator } from '../../../test/support/identities.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let auth: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  const me = await signUpIntegrator(app);
  auth = bearer((await marketplaceV1Token(app, me.apiKey)).jwt);
});
afterAll(() => app?.close());

const get = (path: string, headers = auth) => fetch(`${app.url}/api/marketplace/v1${path}`, { headers });
const search = async (term: string, query = '') => {
  const res = await get(`/companies/search/${encodeURIComponent(term)}${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Array<{ name: string; number: string }>;
};

describe('GET /companies/search/{searchTerm}', () => {
  it('ranks the exact name first, then prefixes, then names containing the term', async () => {
    const hits = await search('acme widgets limited');
    expect(hits[0]).toEqual({ name: 'ACME WIDGETS LIMITED', number: '09876543' });
    const acme = await search('ACME');
    expect(
      acme
        .slice(0, 2)
        .map((h) => h.number)
        .sort(),
    ).toEqual(['09876543', '11223344']);
    const inside = await search('widgets');
    expect(inside.map((h) => h.number)).toEqual(expect.arrayContaining(['09876543', '11223344']));
    expect(Object.keys(inside[0]!).sort()).toEqual(['name', 'number']);
  });

  it('finds a company by registration number (prefix, case-insensitive)', async () => {
    expect((await search('09876543'))[0]).toEqual({ name: 'ACME WIDGETS LIMITED', number: '09876543' });
    expect((await search('sc4123')).map((h) => h.number)).toContain('SC412345');
  });

  it('returns 10 results unless limit is given, and honours limit', async () => {
    expect(await search('a')).toHaveLength(10);
    expect(await search('a', '?limit=3')).toHaveLength(3);
    expect((await search('a', '?limit=100')).length).toBeGreaterThan(10);
  });

  it('treats wildcards literally', async () => {
    expect(await search('%')).toEqual([]);
    expect(await search('_')).toEqual([]);
  });

  it('filters by countryCode (GB by default, ZA supported)', async () => {
    expect(await search('ubuntu')).toEqual([]);
    expect(await search('ubuntu', '?countryCode=ZA')).toEqual([{ name: 'UBUNTU FRESH PRODUCE (PTY) LTD', number: '2015/123456/07' }]);
  });

  it.each([
    ['?limit=0', '/limit'],
    ['?limit=101', '/limit'],
    ['?limit=ten', '/limit'],
    ['?countryCode=FR', '/countryCode'],
  ])('refuses %s with 400 naming %s', async (query, pointer) => {
    const res = await get(`/companies/search/acme${query}`);
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([{ pointer, message: expect.any(String) }]);
  });

  it('needs a Marketplace V1 token', async () => {
    expect((await get('/companies/search/acme', {})).status).toBe(401);
  });
});

describe('GET /companies/{registrationNumber}', () => {
  it('answers CompanyInformation with a graded score against the industry', async () => {
    const res = await get('/companies/09876543');
    expect(res.status).toBe(200);
    const company = await res.json();
    expect(company).toMatchObject({
      name: 'ACME WIDGETS LIMITED',
      type: 'LIMITED_COMPANY',
      registrationNumber: '09876543',
      sector: 'MANUFACTURING',
      vatStatus: 'REGISTERED',
      incorporatedAt: '2015-10-19T00:00:00.000Z',
      score: { grade: 'A', value: 95, previous: { grade: 'B' }, industryAverageGrade: expect.stringMatching(/^[A-E]$/) },
      creditLimit: { code: 'GBP', value: 150000 },
      employeesNumber: 42,
      website: 'https://acme-widgets.example',
      contactAddress: expect.objectContaining({ city: 'Sheffield', postalCode: 'S9 3BL' }),
      legalNotices: { company: { last12MonthsCount: 0, last12MonthsValue: { code: 'GBP', value: 0 } }, directors: expect.any(Object) },
    });
  });

  it('shows Marketplace V1 grades only: F and G (dissolved) appear as E', async () => {
    const soleTrader = await (await get('/companies/ST000001')).json();
    expect(soleTrader.score).toMatchObject({ value: 12, grade: 'E' });
    // A score never changed: changedAt and previous are left out, not null.
    expect(soleTrader.score).not.toHaveProperty('changedAt');
    expect(soleTrader.score).not.toHaveProperty('previous');
    const dissolved = await (await get('/companies/04512398')).json();
    expect(dissolved.score).toMatchObject({ value: 0, grade: 'E', previous: { grade: 'E' } });
  });

  it('404s an unknown number and a number of another country', async () => {
    expect((await get('/companies/99999999')).status).toBe(404);
    expect((await get('/companies/09876543?countryCode=ZA')).status).toBe(404);
    const za = await get(`/companies/${encodeURIComponent('2015/123456/07')}?countryCode=ZA`);
    expect(za.status).toBe(200);
  });
});

describe('credit grade bands (spec 2.1)', () => {
  it.each([
    [100, 'A'],
    [91, 'A'],
    [90, 'B'],
    [81, 'B'],
    [80, 'C'],
    [51, 'C'],
    [50, 'D'],
    [26, 'D'],
    [25, 'E'],
    [16, 'E'],
    [15, 'F'],
    [2, 'F'],
    [1, 'F'],
    [0, 'F'],
  ] as const)('score %i is grade %s', (score, grade) => {
    expect(gradeFor(score)).toBe(grade);
  });

  it('a dissolved company is G whatever its score; Marketplace V1 shows F and G as E', () => {
    expect(gradeFor(95, true)).toBe('G');
    expect(marketplaceV1Grade('F')).toBe('E');
    expect(marketplaceV1Grade('G')).toBe('E');
    expect(marketplaceV1Grade('B')).toBe('B');
  });
});
