/**
 * The board's search, orders, keyset pages, total and counts per status over GraphQL, as the
 * least-privileged callers: a staff login (scope `staff` only) sees every row and counts them all;
 * a member login of account A (an unrelated scope only) sees and counts only its account's rows;
 * a cursor of another order is a 400 naming `after`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser, type LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { graphql } from './support/graphql-client.js';
import { CredentialFactory, UNRELATED_LOGIN_SCOPE } from './support/credentials.js';
import { bearer, lenderCredentials, signUpIntegrator, type Integrator } from './support/identities.js';
import { storedApplicationDocument } from './support/lender-applications.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let lender: LenderCredentials;
let accountA: Integrator;
let accountB: Integrator;
let staff: Record<string, string>;
let memberA: Record<string, string>;
const db = () => app.runtime.database.prisma;

const BOARD = `query($f: LenderApplicationFilter, $first: Int, $after: String, $o: LenderApplicationOrder) {
  lenderApplicationBoard(filter: $f, first: $first, after: $after, orderBy: $o) {
    nodes { id companyName companyNumber reference amount status createdAt updatedAt statusChangedAt }
    pageInfo { endCursor hasNextPage } totalCount statusCounts { status count } } }`;

interface Row {
  id: number;
  companyName: string | null;
  companyNumber: string | null;
  reference: string | null;
  amount: number | null;
  status: string;
  createdAt: string;
  updatedAt: string;
}
interface Seeded extends Row {
  account: 'A' | 'B';
}

const STATUSES = ['In Review', 'Offered', 'Failed', 'Rejected', 'Client Declined'];
const seeded: Seeded[] = [];

/** Every row of the board for a caller, in the order asked, page by page; each page's total checked. */
async function everyRow(headers: Record<string, string>, filter: Record<string, unknown>, order: { field: string; direction: string }, first = 7) {
  const rows: Row[] = [];
  let total: number | undefined;
  for (let after: string | undefined, pages = 0; pages < 100; pages++) {
    const res = await graphql(app.url, BOARD, { f: filter, first, o: order, ...(after ? { after } : {}) }, headers);
    expect(res.errors).toBeUndefined();
    const page = res.data!.lenderApplicationBoard;
    rows.push(...page.nodes);
    total ??= page.totalCount;
    expect(page.totalCount).toBe(total);
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor;
  }
  return { rows, total };
}

const KEYS: Record<string, (r: Row) => string | number> = {
  LAST_CHANGE: (r) => r.updatedAt,
  CREATED: (r) => r.createdAt,
  AMOUNT: (r) => r.amount ?? -1,
  COMPANY: (r) => (r.companyName ?? '').toLowerCase(),
  STATUS: (r) => r.status,
};
/** The order the board promises: the key (byte order for text), ties by id, both in the direction. */
function expectedOrder(rows: Row[], field: string, direction: string): number[] {
  const key = KEYS[field]!;
  const sign = direction === 'ASC' ? 1 : -1;
  const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  return [...rows].sort((a, b) => sign * (compare(key(a), key(b)) || a.id - b.id)).map((r) => r.id);
}

beforeAll(async () => {
  app = await startTestApp();
  lender = await lenderCredentials(app);
  accountA = await signUpIntegrator(app, 'board-sort-a');
  accountB = await signUpIntegrator(app, 'board-sort-b');
  const userA = (await db().platformUser.findFirstOrThrow({ where: { accountId: accountA.accountId } })).id;
  const staffUser = await createAccountWithUser(db(), {
    environment: 'demo',
    accountName: 'ops',
    email: 'board-sort-staff@example.test',
    password: 'board-sort-staff-pw-1',
    role: 'STAFF',
  });
  const factory = new CredentialFactory(app, accountA.loginToken, { accountId: accountA.accountId, userId: userA }, staffUser);
  staff = bearer((await factory.login(['staff'])).token);
  memberA = bearer((await factory.login([UNRELATED_LOGIN_SCOPE])).token);
  const profileA = await db().profile.create({ data: { environment: 'demo', ownerAccountId: accountA.accountId } });
  const profileB = await db().profile.create({ data: { environment: 'demo', ownerAccountId: accountB.accountId } });
  const base = Date.parse('2026-11-20T09:00:00.000Z');
  for (let n = 0; n < 30; n++) {
    const account = n % 3 === 2 ? 'B' : 'A';
    const companyName = `${['Zephyr', 'acme', 'Borealis', 'Acme', 'Cobalt'][n % 5]} Trading ${String(n).padStart(2, '0')} Ltd`;
    const payload = storedApplicationDocument({ lenderId: lender.lenderId, companyName, amount: `${10_000 + ((n * 7919) % 13) * 5_000}.00` });
    payload.application.profile.basicCompanyDetails.companyNumber = `sc${String(100_000 + n)}` as never;
    const row = await db().lenderApplication.create({
      data: {
        lenderId: lender.lenderId,
        profileId: account === 'A' ? profileA.id : profileB.id,
        status: STATUSES[n % 5]!,
        reference: `LREF-${n}`,
        payload: payload as never,
        createdAt: new Date(base + n * 60_000),
        // Several rows share a last change: ties are ordered by id.
        updatedAt: new Date(base + 10_000_000 + (n % 4) * 1_000),
      },
    });
    const stored = await db().lenderApplication.findUniqueOrThrow({ where: { id: row.id } });
    seeded.push({
      account,
      id: row.id,
      companyName: stored.sentCompanyName,
      companyNumber: stored.sentCompanyNumber,
      reference: stored.reference,
      amount: stored.sentAmount,
      status: stored.status,
      createdAt: stored.createdAt.toISOString(),
      updatedAt: stored.updatedAt.toISOString(),
    });
  }
}, 120_000);
afterAll(() => app?.close());

/** Only the rows seeded here (the template database holds demo rows too): by their lender reference. */
const mine = (rows: Row[]) => rows.filter((r) => seeded.some((s) => s.id === r.id));

describe('lenderApplicationBoard: orders and keyset pages', () => {
  for (const field of Object.keys(KEYS)) {
    for (const direction of ['ASC', 'DESC']) {
      it(`staff page through every row by ${field} ${direction}: each row once, in order, with the total`, async () => {
        const { rows, total } = await everyRow(staff, {}, { field, direction }, 40);
        expect(total).toBe(rows.length);
        expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
        expect(rows.map((r) => r.id)).toEqual(expectedOrder(rows, field, direction));
        expect(mine(rows).map((r) => r.id)).toEqual(expectedOrder(seeded, field, direction));
      });
    }
  }

  it("a member pages through its account's rows only, in order, and its total counts only those", async () => {
    const { rows, total } = await everyRow(memberA, {}, { field: 'COMPANY', direction: 'ASC' }, 4);
    const own = seeded.filter((s) => s.account === 'A');
    expect(rows.map((r) => r.id)).toEqual(expectedOrder(own, 'COMPANY', 'ASC'));
    expect(total).toBe(own.length);
  });

  it("a cursor of another order is a 400 naming 'after'", async () => {
    const first = await graphql(app.url, BOARD, { f: {}, first: 2, o: { field: 'AMOUNT', direction: 'ASC' } }, staff);
    const res = await graphql(
      app.url,
      BOARD,
      { f: {}, first: 2, o: { field: 'COMPANY', direction: 'ASC' }, after: first.data!.lenderApplicationBoard.pageInfo.endCursor },
      staff,
    );
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST' });
    expect(JSON.stringify(res.errors?.[0]?.extensions)).toContain('after');
  });
});

describe('lenderApplicationBoard: search', () => {
  const search = async (headers: Record<string, string>, text: string) =>
    (await everyRow(headers, { search: text }, { field: 'LAST_CHANGE', direction: 'DESC' }, 50)).rows.map((r) => r.id).sort((a, b) => a - b);
  const idsOf = (rows: Seeded[]) => rows.map((r) => r.id).sort((a, b) => a - b);

  it('finds by company name prefix (any case), registration number, lender reference and id', async () => {
    expect(await search(staff, 'ACME trading')).toEqual(idsOf(seeded.filter((s) => s.companyName!.toLowerCase().startsWith('acme trading'))));
    expect(await search(staff, 'SC100007')).toEqual([seeded[7]!.id]);
    expect(await search(staff, 'sc100007')).toEqual([seeded[7]!.id]);
    expect(await search(staff, 'LREF-12')).toEqual([seeded[12]!.id]);
    expect(await search(staff, String(seeded[3]!.id))).toContain(seeded[3]!.id);
    expect(await search(staff, '%')).toEqual([]);
  });

  it("a member's search never finds another account's row", async () => {
    const theirs = seeded.find((s) => s.account === 'B')!;
    expect(await search(memberA, theirs.reference!)).toEqual([]);
    expect(await search(memberA, String(theirs.id))).toEqual([]);
    expect(await search(memberA, 'acme')).toEqual(idsOf(seeded.filter((s) => s.account === 'A' && s.companyName!.toLowerCase().startsWith('acme'))));
  });

  it('a search longer than 100 characters is a 400 naming the field', async () => {
    const res = await graphql(app.url, BOARD, { f: { search: 'x'.repeat(101) } }, staff);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST' });
    expect(JSON.stringify(res.errors?.[0]?.extensions)).toContain('search');
  });
});

describe('lenderApplicationBoard: total and counts per status', () => {
  const counts = async (headers: Record<string, string>, filter: Record<string, unknown>) => {
    const res = await graphql(app.url, BOARD, { f: filter, first: 1 }, headers);
    expect(res.errors).toBeUndefined();
    const page = res.data!.lenderApplicationBoard;
    return {
      total: page.totalCount as number,
      byStatus: Object.fromEntries((page.statusCounts as Array<{ status: string; count: number }>).map((c) => [c.status, c.count])),
    };
  };
  const tally = (rows: Seeded[]) => Object.fromEntries(STATUSES.map((s) => [s, rows.filter((r) => r.status === s).length]));

  it('count the filter; the counts per status leave the status filter out', async () => {
    const acme = seeded.filter((s) => s.companyName!.toLowerCase().startsWith('acme'));
    const all = await counts(staff, { search: 'acme' });
    expect(all.total).toBe(acme.length);
    expect(all.byStatus).toMatchObject(tally(acme));
    const offered = await counts(staff, { search: 'acme', status: 'Offered' });
    expect(offered.total).toBe(acme.filter((s) => s.status === 'Offered').length);
    expect(offered.byStatus).toEqual(all.byStatus);
  });

  it("a member's total and counts are of its account's rows only", async () => {
    const own = seeded.filter((s) => s.account === 'A');
    const member = await counts(memberA, {});
    expect(member.total).toBe(own.length);
    expect(member.byStatus).toMatchObject(tally(own));
    // Staff count every account's rows (the template's demo rows too).
    const staffCounts = await counts(staff, {});
    expect(staffCounts.total).toBeGreaterThanOrEqual(seeded.length);
    expect(staffCounts.total).toBeGreaterThan(member.total);
  });
});
