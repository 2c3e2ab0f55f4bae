/**
 * How searches are recorded and reused (issue 28): a repeated search neither runs the engine nor
 * writes, first searches of many profiles at once are all recorded, and a catalogue change reaches
 * the next search through a background refresh, never through a request.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, marketplaceV1Token, signUpIntegrator } from '../../../test/support/identities.js';
import { ACME_ANSWERS } from '../../../test/support/answers.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { createEventBus } from '../../infra/event-bus.js';
import { lenderCatalogueChanged } from '../lenders/lender-catalogue-changes.js';
import { catalogueActivity, catalogueSettled, productCatalogue } from './product-catalogue.js';

let app: TestApp;
let auth: Record<string, string>;

async function answeredProfile(): Promise<string> {
  const { uuid } = await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, auth)).json();
  const res = await fetch(`${app.url}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${uuid}/answers`, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(ACME_ANSWERS),
  });
  expect(res.status).toBe(204);
  return uuid;
}
const results = (uuid: string, query = '') => fetch(`${app.url}/api/marketplace/v1/profiles/${uuid}/funding/matches/results${query}`, { headers: auth });
const prisma = () => app.runtime.database.prisma;
const source = () => app.runtime.contextFor();
/** The matches a search recorded (its row keeps them all). */
const recordedMatchCount = async (searchId: number) =>
  (await prisma().fundingSearch.findUniqueOrThrow({ where: { id: searchId }, select: { matchProductIds: true } })).matchProductIds.length;

beforeAll(async () => {
  app = await startTestApp();
  auth = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
});
afterAll(() => app?.close());

describe('a recorded funding search', () => {
  it('is answered again without running the engine and without writing', async () => {
    const uuid = await answeredProfile();
    const first = await (await results(uuid)).json();
    const recorded = async () => ({
      searches: await prisma().fundingSearch.findMany({ where: { profileId: uuid }, select: { id: true, updatedAt: true } }),
      matches: (await prisma().fundingSearch.findMany({ where: { profileId: uuid }, select: { matchProductIds: true } })).flatMap((s) => s.matchProductIds)
        .length,
      matchRows: await prisma().fundingMatch.count({ where: { fundingSearch: { profileId: uuid } } }),
      profile: await prisma().profile.findUniqueOrThrow({ where: { id: uuid }, select: { updatedAt: true, legacyFundingSearchId: true } }),
    });
    const before = await recorded();
    expect(before.searches).toHaveLength(1);
    expect(before.matches).toBe(first.matches.length);
    expect(before.profile.legacyFundingSearchId).toBe(first.id);
    const catalogue = await productCatalogue(source());
    const computed = catalogue.computedOutcomes;

    const again = await (await results(uuid)).json();
    expect(again).toEqual(first);
    expect(await recorded()).toEqual(before);
    expect(catalogue.computedOutcomes).toBe(computed);
  });

  it('is a new search when the profile changes, and the old one stays as it was', async () => {
    const uuid = await answeredProfile();
    const first = await (await results(uuid)).json();
    const res = await fetch(`${app.url}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${uuid}/answers`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ ...ACME_ANSWERS, fundingAmount: { value: 90_000, code: 'GBP' } }),
    });
    expect(res.status).toBe(204);
    const changed = await (await results(uuid)).json();
    expect(changed.amount).toBe(90_000);
    expect(changed.id).not.toBe(first.id);
    expect(await recordedMatchCount(first.id)).toBe(first.matches.length);
    expect(await recordedMatchCount(changed.id)).toBe(changed.matches.length);
    expect((await prisma().profile.findUniqueOrThrow({ where: { id: uuid } })).legacyFundingSearchId).toBe(changed.id);
  });

  it('is recorded for each of ten profiles searched at once for the first time', async () => {
    const profiles = await Promise.all(Array.from({ length: 10 }, () => answeredProfile()));
    const responses = await Promise.all(profiles.map((uuid) => results(uuid)));
    expect(responses.map((r) => r.status)).toEqual(profiles.map(() => 200));
    const searches = await Promise.all(responses.map((r) => r.json()));
    expect(new Set(searches.map((s) => s.id)).size).toBe(profiles.length);
    for (const search of searches) {
      expect(search.matches.length).toBeGreaterThan(0);
      expect(await recordedMatchCount(search.id)).toBe(search.matches.length);
    }
  });
});

describe('the product catalogue', () => {
  it('takes a changed product in off the request path; the next search sees it', async () => {
    const uuid = await answeredProfile();
    const before = await (await results(uuid)).json();
    await catalogueSettled(source());
    const activity = catalogueActivity(source());

    const lender = await prisma().lender.create({
      data: { name: 'Late Lender', slug: `late-lender-${Date.now()}`, applicationUrl: 'https://lender.invalid/applications' },
    });
    const product = await prisma().lenderProduct.create({
      data: {
        lenderId: lender.id,
        productType: 'TERM_LOAN',
        name: 'Late loan',
        minAmount: 1,
        maxAmount: 10_000_000,
        minTermMonths: 0,
        maxTermMonths: 120,
        annualRateMin: 5,
        annualRateMax: 9,
      },
    });
    lenderCatalogueChanged(source());
    await vi.waitFor(() => expect(catalogueActivity(source()).loads).toBeGreaterThan(activity.loads), { timeout: 60_000, interval: 50 });
    await catalogueSettled(source());
    const refreshed = catalogueActivity(source());
    expect(refreshed.changes).toBe(activity.changes + 1);
    expect(refreshed.version).not.toBe(activity.version);

    const afterResponse = await results(uuid);
    const after = await afterResponse.json();
    expect(afterResponse.status, JSON.stringify(after)).toBe(200);
    expect(after.matches.map((m: { productId: number }) => m.productId)).toContain(product.id);
    expect(before.matches.map((m: { productId: number }) => m.productId)).not.toContain(product.id);
    // A new catalogue is a new search: the one recorded before is kept as it was.
    expect(after.id).not.toBe(before.id);
    await (await results(uuid)).json();
    // Searches used the snapshot in hand: none of them loaded the catalogue.
    expect(catalogueActivity(source()).loads).toBe(refreshed.loads);
  });

  it('matches a change no event announced (the admin CLI, SQL) on the next search: the snapshot is older than the revision read with the profile', async () => {
    const uuid = await answeredProfile();
    const before = await (await results(uuid)).json();
    await catalogueSettled(source());
    const loads = catalogueActivity(source()).loads;

    // Written as the admin CLI writes (no use case, so nothing is published on the bus).
    const lender = await prisma().lender.create({
      data: { name: 'Quiet Lender', slug: `quiet-lender-${Date.now()}`, applicationUrl: 'https://lender.invalid/applications' },
    });
    const product = await prisma().lenderProduct.create({
      data: {
        lenderId: lender.id,
        productType: 'TERM_LOAN',
        name: 'Quiet loan',
        minAmount: 1,
        maxAmount: 10_000_000,
        minTermMonths: 0,
        maxTermMonths: 120,
        annualRateMin: 5,
        annualRateMax: 9,
      },
    });
    const afterResponse = await results(uuid);
    const after = await afterResponse.json();
    expect(afterResponse.status, JSON.stringify(after)).toBe(200);
    expect(before.matches.map((m: { productId: number }) => m.productId)).not.toContain(product.id);
    expect(after.matches.map((m: { productId: number }) => m.productId)).toContain(product.id);
    // That search loaded the catalogue once; the next one, with nothing changed, loads nothing.
    expect(catalogueActivity(source()).loads).toBe(loads + 1);
    await (await results(uuid)).json();
    expect(catalogueActivity(source()).loads).toBe(loads + 1);
  });

  it("a lender's secrets and webhook settings are not a catalogue change; its name is", async () => {
    const revision = async () => Number((await prisma().lenderCatalogueRevision.findUniqueOrThrow({ where: { id: true } })).revision);
    const lender = await prisma().lender.create({
      data: { name: 'Rotating Lender', slug: `rotating-lender-${Date.now()}`, applicationUrl: 'https://lender.invalid/applications' },
    });
    const created = await revision();
    await prisma().lender.update({
      where: { id: lender.id },
      data: { webhookSecret: 'whsec_rotated', applicationUrl: 'https://lender.invalid/v2/applications' },
    });
    expect(await revision()).toBe(created);
    await prisma().lender.update({ where: { id: lender.id }, data: { name: 'Renamed Lender' } });
    expect(await revision()).toBe(created + 1);
  });

  it('reads list columns as stored (enum arrays as their names), and one left NULL as empty', async () => {
    const lender = await prisma().lender.create({
      data: {
        name: 'Listed Lender',
        slug: `listed-lender-${Date.now()}`,
        applicationUrl: 'https://lender.invalid/applications',
        requiredDocuments: ['bank statements'],
      },
    });
    const listed = await prisma().lenderProduct.create({
      data: {
        lenderId: lender.id,
        productType: 'INVOICE_FINANCE',
        name: 'Listed',
        minAmount: 1,
        maxAmount: 10_000,
        minTermMonths: 0,
        maxTermMonths: 12,
        annualRateMin: 5,
        annualRateMax: 9,
        excludedSectors: ['RETAIL', 'PROPERTY'],
        requiredSectors: ['MANUFACTURING'],
        companyTypes: ['LIMITED_COMPANY'],
        countries: ['GB', 'IE'],
        currencies: ['GBP'],
      },
    });
    const bare = await prisma().lenderProduct.create({
      data: {
        lenderId: lender.id,
        productType: 'TERM_LOAN',
        name: 'Bare',
        minAmount: 1,
        maxAmount: 10_000,
        minTermMonths: 0,
        maxTermMonths: 12,
        annualRateMin: 5,
        annualRateMax: 9,
      },
    });
    await prisma()
      .$executeRaw`UPDATE lender_product SET "excludedSectors" = NULL, "requiredSectors" = NULL, "companyTypes" = NULL, countries = NULL, currencies = NULL WHERE id = ${bare.id}`;
    await prisma().$executeRaw`UPDATE lender SET "requiredDocuments" = NULL WHERE id = ${lender.id}`;
    const loads = catalogueActivity(source()).loads;
    lenderCatalogueChanged(source());
    await vi.waitFor(() => expect(catalogueActivity(source()).loads).toBeGreaterThan(loads), { timeout: 60_000, interval: 50 });
    await catalogueSettled(source());

    const catalogue = await productCatalogue(source());
    expect(catalogue.productById.get(listed.id)).toMatchObject({
      excludedSectors: ['RETAIL', 'PROPERTY'],
      requiredSectors: ['MANUFACTURING'],
      companyTypes: ['LIMITED_COMPANY'],
      countries: ['GB', 'IE'],
      currencies: ['GBP'],
      minAmount: 1,
      maxAmount: 10_000,
    });
    expect(catalogue.productById.get(bare.id)).toMatchObject({ excludedSectors: [], requiredSectors: [], companyTypes: [], countries: [], currencies: [] });
    expect(catalogue.lenders.get(lender.id)?.requiredDocuments).toEqual([]);
  });

  it.skipIf(!process.env.REDIS_URL)('hears of a change made in another process over the Redis-backed event bus', async () => {
    // Two buses on one Redis stand for two processes; the production catalogue has a holder of its own.
    const here = createEventBus(process.env.REDIS_URL);
    const there = createEventBus(process.env.REDIS_URL);
    try {
      const local = { db: prisma(), environment: 'production' as const, events: here.bus };
      await productCatalogue(local);
      expect(catalogueActivity(local).loads).toBe(1);
      const elsewhere = { events: there.bus, environment: 'production' as const, logger: app.runtime.logger };
      // Published until heard: the subscription reaches Redis a round trip after the first load.
      await vi.waitFor(
        () => {
          lenderCatalogueChanged(elsewhere);
          expect(catalogueActivity(local).loads).toBeGreaterThan(1);
        },
        { timeout: 60_000, interval: 200 },
      );
    } finally {
      await here.close();
      await there.close();
    }
  });
});
