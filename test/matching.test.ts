/** Marketplace V1 matching (spec 2.3 FundingSearch, 4.1 funding rows): count, results, filters, explanations. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, marketplaceV1Token, signUpIntegrator } from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let auth: Record<string, string>;
let acme: string;

/** ACME WIDGETS LIMITED (registry grade A) asking for £150,000 over 24 months. */
export const ACME_ANSWERS = {
  clientName: 'Ada Owner', clientEmail: 'ada@acme-widgets.example', clientNumber: '+44 20 7946 0000', legalRequirements: true,
  companyType: 'LIMITED_COMPANY', companyNumber: '09876543', companyName: 'ACME WIDGETS LIMITED', useOfFunds: 'BUSINESS_EXPANSION',
  fundingAmount: { code: 'GBP', value: 150000 }, fundingPeriod: 24, sector: 'MANUFACTURING', incorporationDate: '2015-10-19',
  revenue: { code: 'GBP', value: 900000 }, raiseInvoices: true, cardPayments: false, fundingAsset: false, purchaseOrders: false,
  governmentBacked: false, governmentBackedLoansExist: false, homeOwnership: true, personalGuarantee: true, businessOwnsAssets: true,
};

async function profileWith(answers: object | null): Promise<string> {
  const { uuid } = await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, auth)).json();
  if (answers) {
    const res = await fetch(`${app.url}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${uuid}/answers`, {
      method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(answers),
    });
    expect(res.status).toBe(204);
  }
  return uuid;
}
const get = (path: string, headers = auth) => fetch(`${app.url}/api/marketplace/v1${path}`, { headers });

beforeAll(async () => {
  app = await startTestApp();
  auth = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
  acme = await profileWith(ACME_ANSWERS);
});
afterAll(() => app?.close());

describe('GET /profiles/{uuid}/funding/matches/count and /results', () => {
  it('matches the demo catalogue, ordered by likelihood, and records the funding search', async () => {
    const count = await (await get(`/profiles/${acme}/funding/matches/count`)).json();
    expect(count).toBeGreaterThan(3);
    const res = await get(`/profiles/${acme}/funding/matches/results`);
    expect(res.status).toBe(200);
    const search = await res.json();
    expect(search).toMatchObject({ amount: 150000, id: expect.any(Number) });
    expect(search.matches).toHaveLength(count);
    expect(search.matches[0]).toMatchObject({ lender: { id: expect.any(Number) }, product: expect.any(String), likelihood: { value: expect.any(Number) } });
    const likelihoods = search.matches.map((m: { likelihood: { value: number } }) => m.likelihood.value);
    expect(likelihoods).toEqual([...likelihoods].sort((a, b) => b - a));
    const stored = await app.runtime.database.prisma.fundingMatch.count({ where: { fundingSearchId: search.id } });
    expect(stored).toBe(count);
    const again = await (await get(`/profiles/${acme}/funding/matches/results`)).json();
    expect(again.id).toBe(search.id);
  });

  it('filters by productTypes (repeatable or comma-separated); an unknown type is 400', async () => {
    const all = await (await get(`/profiles/${acme}/funding/matches/results`)).json();
    const types = [...new Set(all.matches.map((m: { product: string }) => m.product))] as string[];
    const one = await (await get(`/profiles/${acme}/funding/matches/results?productTypes=${types[0]}`)).json();
    expect(new Set(one.matches.map((m: { product: string }) => m.product))).toEqual(new Set([types[0]]));
    const two = await (await get(`/profiles/${acme}/funding/matches/count?productTypes=${types.slice(0, 2).join(',')}`)).json();
    expect(two).toBe(all.matches.filter((m: { product: string }) => types.slice(0, 2).includes(m.product)).length);
    const bad = await get(`/profiles/${acme}/funding/matches/count?productTypes=SPACE_LOAN`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].pointer).toBe('/productTypes/0');
  });

  it('explains each match and each rejection precisely with ?explain=true', async () => {
    const search = await (await get(`/profiles/${acme}/funding/matches/results?explain=true`)).json();
    expect(search.matches[0].reasons).toContain('amount £150,000 within ' + search.matches[0].reasons[0].split(' within ')[1]);
    expect(search.explanation.missing).toEqual([]);
    expect(search.explanation.rejections.length).toBeGreaterThan(0);
    const reasons = search.explanation.rejections.flatMap((r: { reasons: string[] }) => r.reasons) as string[];
    expect(reasons.some((r) => /^(amount|revenue|trading|term|credit grade|the product)/.test(r))).toBe(true);
  });

  it('a profile with too little data matches nothing and says what is missing', async () => {
    const blank = await profileWith(null);
    expect(await (await get(`/profiles/${blank}/funding/matches/count`)).json()).toBe(0);
    const search = await (await get(`/profiles/${blank}/funding/matches/results?explain=true`)).json();
    expect(search.matches).toEqual([]);
    expect(search.explanation.missing).toContain('fundingAmount (how much funding is needed)');
  });

  it("another account's profile is 404", async () => {
    const stranger = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
    expect((await get(`/profiles/${acme}/funding/matches/count`, stranger)).status).toBe(404);
  });
});
