/**
 * The lender's list of its applications through real HTTP: search (company name, reference, id),
 * status and age filters, every order with keyset pages continuing after the last id, and the
 * totals beside them, all as a least-privileged lender (an `openid` id_token); a second lender
 * finds none of them whatever it asks, and bad input is a 400 naming the field.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from '../identity/bootstrap.js';
import { leastPrivilegedLender, lenderCredentials } from '../../../test/support/identities.js';
import { storedApplicationDocument } from '../../../test/support/lender-applications.js';
import { expectJson } from '../../../test/support/rest-calls.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let lenderA: LenderCredentials;
let lenderB: LenderCredentials;
let authA: Record<string, string>;
let authB: Record<string, string>;
const db = () => app.runtime.database.prisma;
const L = '/api/platform/v1/funding';
/** Every company name of this run starts with it, so other tests' rows never match a search. */
const RUN = `LIST${randomUUID().slice(0, 6).toUpperCase()}`;
const DAY_MS = 86_400_000;
const now = Date.now();

interface Seeded {
  id: number;
  company: string;
  status: string;
  createdAt: Date;
  amount: string;
}
const seeded: Seeded[] = [];

async function application(lenderId: number, company: string, status: string, ageDays: number, amount: string): Promise<Seeded> {
  const profile = await db().profile.create({ data: { environment: 'demo' } });
  const createdAt = new Date(now - ageDays * DAY_MS);
  const row = await db().lenderApplication.create({
    data: { lenderId, profileId: profile.id, status, createdAt, payload: storedApplicationDocument({ lenderId, companyName: company, amount }) },
  });
  return { id: row.id, company, status, createdAt, amount };
}

const list = async (query: string, auth = authA) =>
  (await expectJson(await fetch(`${app.url}${L}/applications?${query}`, { headers: auth }), 200)) as Array<{
    application: { id: number; status: string; profile?: { basicCompanyDetails: { companyName: string | null } } };
  }>;
const ids = (documents: Array<{ application: { id: number } }>) => documents.map((d) => d.application.id);
const totals = async (query: string, auth = authA) => expectJson(await fetch(`${app.url}${L}/applications/totals?${query}`, { headers: auth }), 200);

beforeAll(async () => {
  app = await startTestApp();
  const [first, second] = await db().lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 2 });
  lenderA = await lenderCredentials(app, first!.id);
  lenderB = await lenderCredentials(app, second!.id);
  authA = await leastPrivilegedLender(app, lenderA);
  authB = await leastPrivilegedLender(app, lenderB);
  const rows: Array<[string, string, number, string]> = [
    ['Brightwater Bakery Ltd', 'In Review', 5, '20000.00'],
    ['Alder Joinery Ltd', 'Offered', 1, '90000.00'],
    ['Copperfield Couriers Ltd', 'In Review', 0.5, '45000.00'],
    ['Brightside Dental Ltd', 'Rejected', 10, '120000.00'],
    ['Elm Street Florists', 'In Review', 2, '5000.00'],
  ];
  for (const [company, status, ageDays, amount] of rows) seeded.push(await application(lenderA.lenderId, `${RUN} ${company}`, status, ageDays, amount));
  // Lender B's application under a name lender A searches for.
  seeded.push(await application(lenderB.lenderId, `${RUN} Brightwater Bakery Ltd`, 'In Review', 3, '10000.00'));
  await db().lenderApplication.update({ where: { id: seeded[1]!.id }, data: { reference: `${RUN}-REF-7` } });
});
afterAll(() => app?.close());

const mine = () => seeded.slice(0, 5);

describe('GET /applications: search, filters and orders', () => {
  it('finds applications by the start of a company name (any case), by the lender reference and by id; never another lender’s', async () => {
    expect(ids(await list(`q=${encodeURIComponent(`${RUN.toLowerCase()} bright`)}`))).toEqual([seeded[3]!.id, seeded[0]!.id]);
    expect(ids(await list(`q=${RUN}-REF-7`))).toEqual([seeded[1]!.id]);
    expect(ids(await list(`q=${seeded[2]!.id}`))).toEqual([seeded[2]!.id]);
    // Lender B's own search finds its one row only; lender A's rows are not there by name or id.
    expect(ids(await list(`q=${encodeURIComponent(`${RUN} bright`)}`, authB))).toEqual([seeded[5]!.id]);
    expect(await list(`q=${seeded[0]!.id}`, authB)).toEqual([]);
    expect(await list(`q=${seeded[5]!.id}`)).toEqual([]);
  });

  it('filters by status and by age (received before / after an instant)', async () => {
    const q = `q=${encodeURIComponent(RUN)}`;
    expect(ids(await list(`${q}&status=In%20Review`))).toEqual([seeded[0]!.id, seeded[4]!.id, seeded[2]!.id]);
    const threeDaysAgo = new Date(now - 3 * DAY_MS).toISOString();
    expect(ids(await list(`${q}&receivedBefore=${threeDaysAgo}`))).toEqual([seeded[3]!.id, seeded[0]!.id]);
    expect(ids(await list(`${q}&receivedAfter=${threeDaysAgo}&status=In%20Review`))).toEqual([seeded[4]!.id, seeded[2]!.id]);
  });

  it('sorts by each field both ways and pages through every order with after = the last id, each row once', async () => {
    const q = `q=${encodeURIComponent(RUN)}`;
    const byCompany = [...mine()].sort((a, b) => a.company.toLowerCase().localeCompare(b.company.toLowerCase())).map((s) => s.id);
    const byAmount = [...mine()].sort((a, b) => Number(a.amount) - Number(b.amount)).map((s) => s.id);
    const byReceived = [...mine()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((s) => s.id);
    const expected: Record<string, number[]> = {
      received: byReceived,
      '-received': [...byReceived].reverse(),
      company: byCompany,
      '-company': [...byCompany].reverse(),
      amount: byAmount,
      '-amount': [...byAmount].reverse(),
    };
    for (const [sort, order] of Object.entries(expected)) {
      expect(ids(await list(`${q}&sort=${sort}&limit=50`)), sort).toEqual(order);
      const paged: number[] = [];
      let after: number | undefined;
      for (;;) {
        const page = ids(await list(`${q}&sort=${sort}&limit=2${after ? `&after=${after}` : ''}`));
        paged.push(...page);
        if (page.length < 2) break;
        after = page.at(-1);
      }
      expect(paged, `${sort} paged`).toEqual(order);
    }
    // Another lender's id continues nowhere.
    expect(await list(`${q}&sort=-company&after=${seeded[5]!.id}`)).toEqual([]);
  });

  it('totals: what the filters match, and by status of all but the status filter; the second lender counts only its own', async () => {
    const q = `q=${encodeURIComponent(RUN)}`;
    expect(await totals(q)).toEqual({
      total: 5,
      byStatus: [
        { status: 'In Review', count: 3 },
        { status: 'Offered', count: 1 },
        { status: 'Rejected', count: 1 },
      ],
    });
    expect(await totals(`${q}&status=In%20Review`)).toMatchObject({ total: 3 });
    expect(await totals(`${q}&receivedBefore=${new Date(now - 3 * DAY_MS).toISOString()}`)).toEqual({
      total: 2,
      byStatus: [
        { status: 'In Review', count: 1 },
        { status: 'Rejected', count: 1 },
      ],
    });
    expect(await totals(q, authB)).toEqual({ total: 1, byStatus: [{ status: 'In Review', count: 1 }] });
  });

  it('refuses bad filters with a 400 naming the field, and callers that are not lenders', async () => {
    for (const [query, field] of [
      ['sort=colour', 'sort'],
      ['status=Pending', 'status'],
      ['receivedBefore=yesterday', 'receivedBefore'],
    ] as const) {
      const body = await expectJson(await fetch(`${app.url}${L}/applications?${query}`, { headers: authA }), 400);
      expect(JSON.stringify(body.errors ?? body), query).toContain(field);
      await expectJson(await fetch(`${app.url}${L}/applications/totals?${query.startsWith('sort') ? 'status=Pending' : query}`, { headers: authA }), 400);
    }
    expect((await fetch(`${app.url}${L}/applications/totals`)).status).toBe(401);
  });
});

describe('POST /api/platform/v1/auth/lender-console', () => {
  const signIn = (body: unknown) => postJson(`${app.url}/api/platform/v1/auth/lender-console`, body);

  it('gives a lender’s user a token for its own data with the username and password alone', async () => {
    const session = await expectJson(await signIn({ username: lenderA.username, password: lenderA.password }), 200);
    expect(session).toMatchObject({ token_type: 'Bearer', expires_in: 1800, scope: 'openid profile' });
    const auth = { authorization: `Bearer ${session.id_token}` };
    expect(ids(await list(`q=${encodeURIComponent(RUN)}`, auth)).sort()).toEqual(
      mine()
        .map((s) => s.id)
        .sort(),
    );
    const claims = JSON.parse(Buffer.from(session.id_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ tkn: 'lender', lid: lenderA.lenderId, azp: lenderA.clientId, aud: lenderA.clientId });
    expect(claims.exp - claims.iat).toBe(1800);
  });

  it('answers one 401 for a wrong password or an unknown username, 400 for a missing field, 415 for a form post', async () => {
    const wrong = await expectJson(await signIn({ username: lenderA.username, password: 'not-the-password' }), 401);
    const unknown = await expectJson(await signIn({ username: `nobody-${RUN}`, password: 'not-the-password' }), 401);
    expect(wrong.detail).toBe(unknown.detail);
    expect(JSON.stringify(await expectJson(await signIn({ username: lenderA.username }), 400))).toContain('password');
    const form = await fetch(`${app.url}/api/platform/v1/auth/lender-console`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `username=${lenderA.username}&password=x`,
    });
    expect(form.status).toBe(415);
  });
});
