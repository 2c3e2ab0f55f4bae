/**
 * The tenant's profile (onboarding 5-6, Business V1 profile, Marketplace V2 /profile): set-up from
 * the registry, the credit report envelope and the dedicated report, updates, and the rules on
 * tokens, tenants and bad bodies, each failure leaving the database unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTenant, masterToken, platformToken, signUpIntegrator, type Integrator } from '../../../test/support/identities.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let me: Integrator;
const db = () => app.runtime.database.prisma;

beforeAll(async () => {
  app = await startTestApp();
  me = await signUpIntegrator(app);
});
afterAll(() => app?.close());

/** A fresh tenant and its tenant token. */
async function tenantWithToken(): Promise<{ tenantId: string; auth: Record<string, string> }> {
  const { id } = await createTenant(app, me.platformToken);
  return { tenantId: id, auth: bearer((await platformToken(app, me.apiKey, id)).access_token) };
}

const send = (method: string, path: string, auth: Record<string, string>, body?: unknown) =>
  fetch(`${app.url}${path}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const B = '/api/business/v1';
const ACME = { companyInformation: { registrationNumber: '09876543' } };

async function snapshot() {
  const [profiles, references, properties] = await Promise.all([db().profile.count(), db().tradeReference.count(), db().property.count()]);
  return { profiles, references, properties };
}

describe('POST /profile (set-up)', () => {
  it('sets up the profile from the registry: 201 with the Business V1 profile', async () => {
    const { auth } = await tenantWithToken();
    const res = await send('POST', `${B}/profile`, auth, {
      companyInformation: {
        registrationNumber: '09876543',
        website: 'https://acme.example',
        tradingAddress: { city: 'Sheffield' },
        name: 'Not The Registry Name',
      },
      financials: { revenue: { code: 'GBP', value: 900000 }, paymentTerms: 30 },
      tradeReferences: [{ companyName: 'Steel Supplies Ltd', contactEmail: 'ap@steel.example' }],
      properties: [{ type: 'OFFICES', value: { code: 'GBP', value: 450000 } }],
    });
    expect(res.status).toBe(201);
    const profile = await res.json();
    expect(Object.keys(profile).sort()).toEqual(
      [
        'assets',
        'assetsForSecurity',
        'companyInformation',
        'createdAt',
        'financials',
        'id',
        'merchantCashAdvance',
        'properties',
        'tradeReferences',
        'updatedAt',
      ].sort(),
    );
    expect(profile.companyInformation).toMatchObject({
      name: 'ACME WIDGETS LIMITED', // the registry's facts win
      type: 'LIMITED_COMPANY',
      sector: 'MANUFACTURING',
      website: 'https://acme.example',
      tradingAddress: { city: 'Sheffield' },
      score: { grade: 'A', previous: { grade: 'B' } },
      creditLimit: { code: 'GBP', value: 150000 },
      // The registered office (GET /companies/09876543), copied as the contact address.
      contactAddress: { city: 'Sheffield', postalCode: 'S9 3BL', street: 'Unit 4, Parkway Industrial Estate' },
    });
    expect(profile.financials).toEqual({ revenue: { code: 'GBP', value: 900000 }, paymentTerms: 30 });
    expect(profile.tradeReferences).toEqual([{ companyName: 'Steel Supplies Ltd', contactEmail: 'ap@steel.example' }]);
    expect(profile.properties).toEqual([{ type: 'OFFICES', value: { code: 'GBP', value: 450000 } }]);
  });

  it('a contact address the client sends at set-up replaces the registered office', async () => {
    const { auth } = await tenantWithToken();
    const contactAddress = { street: '1 Canal Wharf', city: 'Leeds', postalCode: 'LS11 5PS' };
    const res = await send('POST', `${B}/profile`, auth, { companyInformation: { registrationNumber: '09876543', contactAddress } });
    expect(res.status).toBe(201);
    expect((await res.json()).companyInformation.contactAddress).toEqual(contactAddress);
  });

  it('takes PROPERTY as an asset type (spec 2.6) and reads it back; an unknown type is 400, storing nothing', async () => {
    const { auth } = await tenantWithToken();
    const asset = { name: 'Warehouse', type: 'PROPERTY', netCost: { code: 'GBP', value: 250000 } };
    const before = await snapshot();
    const bad = await send('POST', `${B}/profile`, auth, { ...ACME, assets: [{ ...asset, type: 'CASTLE' }] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toEqual([{ pointer: '/assets/0/type', message: expect.stringContaining('PROPERTY') }]);
    expect(await snapshot()).toEqual(before);
    expect((await send('POST', `${B}/profile`, auth, { ...ACME, assets: [asset] })).status).toBe(201);
    const read = await (await send('GET', `${B}/profile`, auth)).json();
    expect(read.data.assets).toEqual([asset]);
  });

  it('a second set-up is 409 and changes nothing', async () => {
    const { auth } = await tenantWithToken();
    expect((await send('POST', `${B}/profile`, auth, ACME)).status).toBe(201);
    const before = await snapshot();
    const again = await send('POST', `${B}/profile`, auth, ACME);
    expect(again.status).toBe(409);
    expect((await again.json()).detail).toBe('The tenant already has a profile; change it with PATCH or PUT /profile');
    expect(await snapshot()).toEqual(before);
  });

  it('an unknown registration number is 404 naming the field, and stores nothing', async () => {
    const { auth } = await tenantWithToken();
    const before = await snapshot();
    const res = await send('POST', `${B}/profile`, auth, { companyInformation: { registrationNumber: '99999999' } });
    expect(res.status).toBe(404);
    expect((await res.json()).errors).toEqual([{ pointer: '/companyInformation/registrationNumber', message: 'is not in the company registry' }]);
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    [{}, '/companyInformation'],
    [{ companyInformation: {} }, '/companyInformation/registrationNumber'],
    [{ ...ACME, extra: 1 }, '/extra'],
    [{ ...ACME, properties: [{ type: 'CASTLE' }] }, '/properties/0/type'],
    [{ ...ACME, financials: { debtors: [{ name: 'x' }] } }, '/financials/debtors/0/id'],
    [{ companyInformation: { registrationNumber: '09876543', score: { grade: 'H' } } }, '/companyInformation/score/grade'],
  ])('refuses %j with 400 naming %s, storing nothing', async (body, pointer) => {
    const { auth } = await tenantWithToken();
    const before = await snapshot();
    const res = await send('POST', `${B}/profile`, auth, body);
    expect(res.status).toBe(400);
    expect((await res.json()).errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    expect(await snapshot()).toEqual(before);
  });

  it('takes a platform token with Service-tenant-id, refuses a master token (403)', async () => {
    const { id } = await createTenant(app, me.platformToken);
    const master = await masterToken(app, me.apiKey);
    expect((await send('POST', `${B}/profile`, { ...bearer(master.access_token), 'service-tenant-id': id }, ACME)).status).toBe(403);
    expect((await send('POST', `${B}/profile`, { ...bearer(me.platformToken), 'service-tenant-id': id }, ACME)).status).toBe(201);
  });
});

describe('GET /profile and GET /profile/credit-report', () => {
  it('answers the credit report envelope around the profile, and the report alone', async () => {
    const { tenantId, auth } = await tenantWithToken();
    const created = await (await send('POST', `${B}/profile`, auth, ACME)).json();
    const res = await send('GET', `${B}/profile`, auth);
    expect(res.status).toBe(200);
    const envelope = await res.json();
    expect(envelope).toMatchObject({
      data: { id: created.id, companyInformation: { name: 'ACME WIDGETS LIMITED', score: { grade: 'A' }, legalNotices: expect.any(Object) } },
      links: { self: '/api/business/v1/profile' },
      meta: { tenantId, creditReport: { available: true } },
    });

    const report = await (await send('GET', `${B}/profile/credit-report`, auth)).json();
    expect(report.data).toEqual({
      companyInformation: {
        name: 'ACME WIDGETS LIMITED',
        type: 'LIMITED_COMPANY',
        sector: 'MANUFACTURING',
        registrationNumber: '09876543',
        score: {
          grade: 'A',
          changedAt: expect.any(String),
          lastAssessedAt: expect.any(String),
          industryAverageGrade: expect.stringMatching(/^[A-G]$/),
          previous: { grade: 'B' },
        },
        creditLimit: { code: 'GBP', value: 150000 },
        legalNotices: {
          company: { last12MonthsCount: 0, last12MonthsValue: { code: 'GBP', value: 0 } },
          directors: { last12MonthsCount: expect.any(Number), last12MonthsValue: { code: 'GBP', value: expect.any(Number) } },
        },
      },
      id: created.id,
      createdAt: created.createdAt,
      updatedAt: created.updatedAt,
    });
    expect(report.links).toEqual({ self: '/api/business/v1/profile/credit-report' });
  });

  it('a new score moves the grade, previous.grade and changedAt', async () => {
    const { auth } = await tenantWithToken();
    await send('POST', `${B}/profile`, auth, { companyInformation: { registrationNumber: '08234567' } });
    const before = (await (await send('GET', `${B}/profile/credit-report`, auth)).json()).data.companyInformation.score;
    expect(before).toMatchObject({ grade: 'C' });
    const assessedAt = new Date('2026-11-20T08:00:00Z');
    await app.runtime.companies.recordScore('08234567', 'GB', 93, assessedAt, 'Example Bureau');
    const after = (await (await send('GET', `${B}/profile/credit-report`, auth)).json()).data.companyInformation.score;
    expect(after).toMatchObject({ grade: 'A', previous: { grade: 'C' }, changedAt: assessedAt.toISOString(), lastAssessedAt: assessedAt.toISOString() });
    await app.runtime.companies.recordScore('08234567', 'GB', 93, new Date('2026-11-21T08:00:00Z'), 'Example Bureau');
    const unchanged = (await (await send('GET', `${B}/profile/credit-report`, auth)).json()).data.companyInformation.score;
    expect(unchanged).toMatchObject({ grade: 'A', previous: { grade: 'C' }, changedAt: assessedAt.toISOString(), lastAssessedAt: '2026-11-21T08:00:00.000Z' });
    const named = (await (await send('GET', `${B}/profile/credit-report`, auth)).json()).meta.creditData;
    expect(named).toEqual({ available: true, source: 'Example Bureau', asOf: '2026-11-21T08:00:00.000Z', demo: false });
  });

  it.each([
    ['ST000001', 'A credit report is offered for limited companies only; this company is a SOLE_TRADER'],
    ['OC301234', 'A credit report is offered for limited companies only; this company is a LIMITED_LIABILITY_PARTNERSHIP'],
  ])('%s: the profile says why there is no report; the report is 422', async (number, reason) => {
    const { auth } = await tenantWithToken();
    expect((await send('POST', `${B}/profile`, auth, { companyInformation: { registrationNumber: number } })).status).toBe(201);
    const envelope = await (await send('GET', `${B}/profile`, auth)).json();
    expect(envelope.meta.creditReport).toEqual({ available: false, reason });
    expect(envelope.data.companyInformation.score).toBeUndefined();
    const report = await send('GET', `${B}/profile/credit-report`, auth);
    expect(report.status).toBe(422);
    expect((await report.json()).detail).toBe(reason);
  });

  it('a tenant without a profile is 404; another account’s tenant is 404', async () => {
    const { auth } = await tenantWithToken();
    expect((await send('GET', `${B}/profile`, auth)).status).toBe(404);
    const other = await signUpIntegrator(app);
    const { id } = await createTenant(app, other.platformToken);
    expect((await send('GET', `${B}/profile`, { ...bearer(me.platformToken), 'service-tenant-id': id })).status).toBe(404);
  });
});

describe('PATCH and PUT /profile', () => {
  it('PATCH merges companyInformation and financials, replaces the sections sent: 201', async () => {
    const { auth } = await tenantWithToken();
    await send('POST', `${B}/profile`, auth, {
      ...ACME,
      financials: { revenue: { code: 'GBP', value: 1 } },
      tradeReferences: [{ companyName: 'A' }, { companyName: 'B' }],
    });
    const res = await send('PATCH', `${B}/profile`, auth, {
      companyInformation: { website: 'https://new.example', name: 'Renamed' },
      financials: { netProfit: { code: 'GBP', value: 2 } },
      tradeReferences: [{ companyName: 'C' }],
    });
    expect(res.status).toBe(201);
    const profile = await res.json();
    expect(profile.companyInformation).toMatchObject({ website: 'https://new.example', name: 'ACME WIDGETS LIMITED' });
    expect(profile.financials).toEqual({ revenue: { code: 'GBP', value: 1 }, netProfit: { code: 'GBP', value: 2 } });
    expect(profile.tradeReferences).toEqual([{ companyName: 'C' }]);
  });

  it('PUT replaces the profile: sections left out are emptied, the registry facts stay', async () => {
    const { auth } = await tenantWithToken();
    await send('POST', `${B}/profile`, auth, { ...ACME, financials: { revenue: { code: 'GBP', value: 1 } }, tradeReferences: [{ companyName: 'A' }] });
    const res = await send('PUT', `${B}/profile`, auth, { companyInformation: { website: 'https://put.example' } });
    expect(res.status).toBe(201);
    const profile = await res.json();
    expect(profile).toMatchObject({
      financials: {},
      tradeReferences: [],
      companyInformation: { website: 'https://put.example', registrationNumber: '09876543' },
    });
  });

  it('refuses a new registration number (422) and an empty PATCH (400), changing nothing', async () => {
    const { auth } = await tenantWithToken();
    const created = await (await send('POST', `${B}/profile`, auth, ACME)).json();
    const before = await db().profile.findUniqueOrThrow({ where: { id: created.id } });
    const moved = await send('PATCH', `${B}/profile`, auth, { companyInformation: { registrationNumber: '08234567' } });
    expect(moved.status).toBe(422);
    expect((await moved.json()).errors).toEqual([{ pointer: '/companyInformation/registrationNumber', message: 'must stay 09876543' }]);
    expect((await send('PATCH', `${B}/profile`, auth, {})).status).toBe(400);
    expect(await db().profile.findUniqueOrThrow({ where: { id: created.id } })).toEqual(before);
  });
});

describe('Marketplace V2 /profile with a tenant token', () => {
  it('POST 201, GET 200, PATCH 200', async () => {
    const { auth } = await tenantWithToken();
    const M = '/api/marketplace/v2';
    expect((await send('POST', `${M}/profile`, auth, ACME)).status).toBe(201);
    const read = await send('GET', `${M}/profile`, auth);
    expect(read.status).toBe(200);
    expect((await read.json()).links.self).toBe('/api/marketplace/v2/profile');
    expect((await send('PATCH', `${M}/profile`, auth, { financials: { primaryBank: 3 } })).status).toBe(200);
  });
});
