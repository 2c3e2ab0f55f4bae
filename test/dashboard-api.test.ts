/**
 * The GraphQL API the dashboard reads: the lender application board (filters, updatedSince for a
 * reconnect's catch-up) and a row's history, with least-privileged callers: a login token holding
 * only an unrelated scope sees its account's rows; staff see all; another account sees none of them
 * and gets 404 for a history; other token kinds are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser, type LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { graphql } from './support/graphql-client.js';
import { CredentialFactory, UNRELATED_LOGIN_SCOPE } from './support/credentials.js';
import { bearer, lenderCredentials, lenderIdToken, marketplaceV1Token, signUpIntegrator, type Integrator } from './support/identities.js';
import { lenderAcknowledges, lenderOffers, storedApplicationDocument, submittableMatches } from './support/lender-applications.js';
import { ACME_ANSWERS } from './support/answers.js';
import { postJson } from './support/test-app.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let lender: LenderCredentials;
let accountA: Integrator;
let accountB: Integrator;
let staff: Record<string, string>;
let memberA: Record<string, string>;
const db = () => app.runtime.database.prisma;

const BOARD =
  'query($f: LenderApplicationFilter, $first: Int, $after: String) { lenderApplicationBoard(filter: $f, first: $first, after: $after) { nodes { id companyName lenderId lenderName productType amount status acknowledgedAt updatedAt offer { reference status decision amount termMonths interestRate productType } } pageInfo { endCursor hasNextPage } } }';
const HISTORY = 'query($id: Int!) { lenderApplicationHistory(applicationId: $id) { kind status fromStatus comment replacedAt offer { reference } } }';

async function storedApplication(account: Integrator, companyName: string): Promise<number> {
  const profile = await db().profile.create({ data: { environment: 'demo', ownerAccountId: account.accountId, companyInformation: { name: companyName } } });
  const row = await db().lenderApplication.create({
    data: {
      lenderId: lender.lenderId,
      profileId: profile.id,
      status: 'In Review',
      payload: storedApplicationDocument({ lenderId: lender.lenderId, companyName, amount: '80000.00' }),
    },
  });
  await db().applicationStatusChange.create({ data: { lenderApplicationId: row.id, fromStatus: null, toStatus: 'In Review' } });
  return row.id;
}

const boardPage = async (headers: Record<string, string>, filter: Record<string, unknown> = {}, page: { first?: number; after?: string } = {}) =>
  graphql(app.url, BOARD, { f: filter, ...page }, headers);
/** The board's first page of the largest size, its rows where the board used to answer a list. */
const board = async (headers: Record<string, string>, filter: Record<string, unknown> = {}) => {
  const res = await boardPage(headers, filter, { first: 200 });
  return { ...res, data: res.data ? { lenderApplicationBoard: res.data.lenderApplicationBoard.nodes } : res.data };
};
const ids = (rows: Array<{ id: number }> | undefined) => (rows ?? []).map((r) => r.id).sort((a, b) => a - b);

let a1: number;
let a2: number;
let b1: number;

beforeAll(async () => {
  app = await startTestApp();
  lender = await lenderCredentials(app);
  accountA = await signUpIntegrator(app, 'board-a');
  accountB = await signUpIntegrator(app, 'board-b');
  const userA = (await db().platformUser.findFirstOrThrow({ where: { accountId: accountA.accountId } })).id;
  const staffUser = await createAccountWithUser(db(), {
    environment: 'demo',
    accountName: 'ops',
    email: 'board-staff@example.test',
    password: 'board-staff-pw-1',
    role: 'STAFF',
  });
  const factory = new CredentialFactory(app, accountA.loginToken, { accountId: accountA.accountId, userId: userA }, staffUser);
  staff = bearer((await factory.login(['staff'])).token);
  memberA = bearer((await factory.login([UNRELATED_LOGIN_SCOPE])).token);
  a1 = await storedApplication(accountA, 'ALPHA ONE LTD');
  a2 = await storedApplication(accountA, 'ALPHA TWO LTD');
  b1 = await storedApplication(accountB, 'BRAVO ONE LTD');
});
afterAll(() => app?.close());

describe('Query.lenderApplicationBoard', () => {
  it('staff see every row, with company, lender, product, amount and the current offer with its key terms', async () => {
    await lenderOffers(app, await lenderIdToken(app, lender), a1, 'BOARD-OFFER-1');
    const res = await board(staff);
    expect(res.errors).toBeUndefined();
    expect(ids(res.data!.lenderApplicationBoard)).toEqual(expect.arrayContaining([a1, a2, b1]));
    const row = res.data!.lenderApplicationBoard.find((r: { id: number }) => r.id === a1);
    expect(row).toMatchObject({
      companyName: 'ALPHA ONE LTD',
      lenderId: lender.lenderId,
      lenderName: expect.any(String),
      amount: 80000,
      status: 'Offered',
      productType: 'TERM_LOAN',
      offer: { reference: 'BOARD-OFFER-1', status: 'INDICATIVE', decision: null, amount: 150000, termMonths: 36, interestRate: 0.85, productType: 'TERM_LOAN' },
    });
  });

  it("a platform user holding no relevant scope sees its account's rows only; another account's user sees none of them", async () => {
    const own = await board(memberA);
    expect(own.errors).toBeUndefined();
    expect(ids(own.data!.lenderApplicationBoard)).toEqual([a1, a2].sort((x, y) => x - y));
    const other = await board(bearer(accountB.loginToken));
    expect(ids(other.data!.lenderApplicationBoard)).toEqual([b1]);
  });

  it('filters by status, lender and application', async () => {
    expect(ids((await board(staff, { status: 'Offered' })).data!.lenderApplicationBoard)).toEqual([a1]);
    expect(ids((await board(memberA, { lenderId: lender.lenderId, status: 'In Review' })).data!.lenderApplicationBoard)).toEqual([a2]);
    expect(ids((await board(memberA, { lenderId: lender.lenderId + 100_000 })).data!.lenderApplicationBoard)).toEqual([]);
    expect(ids((await board(memberA, { applicationId: b1 })).data!.lenderApplicationBoard)).toEqual([]);
  });

  it('updatedSince returns exactly the rows changed at or after it (the catch-up after a lost connection)', async () => {
    const rows = (await board(staff)).data!.lenderApplicationBoard as Array<{ id: number; updatedAt: string }>;
    const lastSeen = rows
      .map((r) => r.updatedAt)
      .sort()
      .at(-1)!;
    await new Promise((r) => setTimeout(r, 5));
    await lenderAcknowledges(app, await lenderIdToken(app, lender), b1, 'changed after the last change seen');
    const since = await board(staff, { updatedSince: new Date(Date.parse(lastSeen) + 1).toISOString() });
    expect(ids(since.data!.lenderApplicationBoard)).toEqual([b1]);
    expect(since.data!.lenderApplicationBoard[0]).toMatchObject({ status: 'In Review', acknowledgedAt: expect.any(String) });
  });

  it('refuses a malformed updatedSince or an unknown status naming the field (400)', async () => {
    const res = await board(staff, { updatedSince: 'yesterday' });
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(JSON.stringify(res.errors?.[0]?.extensions?.fields)).toContain('updatedSince');
    const status = await board(staff, { status: 'Sunk' });
    expect(status.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(JSON.stringify(status.errors?.[0]?.extensions?.fields)).toContain('status');
  });

  it('pages by cursor: pages of `first` rows, last changed first, each row once, to the last page; a foreign cursor or page size is a 400', async () => {
    const everything = ids((await board(memberA)).data!.lenderApplicationBoard);
    const seen: number[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const res = await boardPage(memberA, {}, { first: 1, ...(after ? { after } : {}) });
      expect(res.errors).toBeUndefined();
      const page = res.data!.lenderApplicationBoard as {
        nodes: Array<{ id: number; updatedAt: string }>;
        pageInfo: { endCursor: string | null; hasNextPage: boolean };
      };
      expect(page.nodes.length).toBeLessThanOrEqual(1);
      seen.push(...page.nodes.map((r) => r.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor!;
    }
    expect([...seen].sort((x, y) => x - y)).toEqual(everything);
    expect(new Set(seen).size).toBe(seen.length);
    const foreign = await boardPage(memberA, {}, { after: 'not-a-cursor' });
    expect(foreign.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(JSON.stringify(foreign.errors?.[0]?.extensions?.fields)).toContain('after');
    const tooMany = await boardPage(memberA, {}, { first: 201 });
    expect(tooMany.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
  });

  it('is refused to other token kinds (403) and without a token (401)', async () => {
    const lenderRes = await board(bearer(await lenderIdToken(app, lender)));
    expect(lenderRes.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    const platformRes = await board(bearer(accountA.platformToken));
    expect(platformRes.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    const anonymous = await board({});
    expect(anonymous.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('Query.lenderApplicationHistory', () => {
  it('lists status moves, offers (the replaced one with when) and the decision, oldest first', async () => {
    await lenderOffers(app, await lenderIdToken(app, lender), a1, 'BOARD-OFFER-2');
    const client = bearer((await marketplaceV1Token(app, accountA.apiKey)).jwt);
    const accepted = await graphql(app.url, 'mutation($id: Int!) { acceptOffer(applicationId: $id) { __typename } }', { id: a1 }, client);
    expect(accepted.errors).toBeUndefined();
    const res = await graphql(app.url, HISTORY, { id: a1 }, memberA);
    expect(res.errors).toBeUndefined();
    const entries = res.data!.lenderApplicationHistory as Array<{
      kind: string;
      status: string;
      fromStatus: string | null;
      replacedAt: string | null;
      offer: { reference: string } | null;
    }>;
    expect(entries.filter((e) => e.kind === 'STATUS').map((e) => [e.fromStatus, e.status])).toEqual([
      [null, 'In Review'],
      ['In Review', 'Offered'],
      ['Offered', 'Offered'],
      ['Offered', 'Client Accepted'],
    ]);
    const offers = entries.filter((e) => e.kind === 'OFFER');
    expect(offers.map((o) => o.offer?.reference)).toEqual(['BOARD-OFFER-1', 'BOARD-OFFER-2']);
    expect(offers[0]!.replacedAt).toEqual(expect.any(String));
    expect(offers[1]!.replacedAt).toBeNull();
    expect(entries.filter((e) => e.kind === 'DECISION').map((e) => [e.status, e.offer?.reference])).toEqual([['ACCEPTED', 'BOARD-OFFER-2']]);
    expect(entries.at(-1)!.kind).toMatch(/STATUS|DECISION/);
  });

  it("is a 404 for another account's application, whatever it is", async () => {
    const res = await graphql(app.url, HISTORY, { id: b1 }, memberA);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const missing = await graphql(app.url, HISTORY, { id: 987654 }, staff);
    expect(missing.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});

describe('Query.reviewSelection', () => {
  const PREVIEW =
    'query($id: ID!) { reviewSelection(selectionId: $id) { state applicant { companyName amount } lenders { lenderId matched products reasons missingFields { field message } } } }';

  async function queuedSelection(
    pick: (
      matches: Array<{ lender: { id: number }; product: string }>,
      easy: Array<{ lenderId: number; products: string[] }>,
    ) => Array<{ lenderId: number; products: string[] }>,
  ) {
    const v1 = bearer((await marketplaceV1Token(app, accountA.apiKey)).jwt);
    const { uuid } = await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, v1)).json();
    await fetch(`${app.url}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${uuid}/answers`, {
      method: 'PUT',
      headers: { ...v1, 'content-type': 'application/json' },
      body: JSON.stringify(ACME_ANSWERS),
    });
    const search = await (await fetch(`${app.url}/api/marketplace/v1/profiles/${uuid}/funding/matches/results`, { headers: v1 })).json();
    const selection = pick(search.matches, await submittableMatches(app, search.matches));
    const applied = await postJson(`${app.url}/api/marketplace/v1/profiles/${uuid}/funding/apply`, selection, v1);
    expect(applied.status).toBe(200);
    return { selection, id: (await db().reviewSelection.findFirstOrThrow({ where: { profileId: uuid } })).id };
  }

  it("shows the applicant's facts, why each lender matched, and the same missing fields submission would refuse", async () => {
    const { selection, id } = await queuedSelection((matches, easy) => {
      const easyIds = new Set(easy.map((e) => e.lenderId));
      const hard = matches.find((m) => !easyIds.has(m.lender.id))!;
      return [easy[0]!, { lenderId: hard.lender.id, products: [hard.product] }];
    });
    const preview = await graphql(app.url, PREVIEW, { id }, staff);
    expect(preview.errors).toBeUndefined();
    const review = preview.data!.reviewSelection;
    expect(review).toMatchObject({ state: 'PENDING_REVIEW', applicant: { companyName: 'ACME WIDGETS LIMITED', amount: 150000 } });
    const lenders = review.lenders as Array<{ lenderId: number; matched: boolean; reasons: string[]; missingFields: Array<{ field: string }> }>;
    const easy = lenders.find((l) => l.lenderId === selection[0]!.lenderId);
    const hard = lenders.find((l) => l.lenderId === selection[1]!.lenderId);
    expect(easy).toMatchObject({ lenderId: selection[0]!.lenderId, matched: true, missingFields: [] });
    expect(easy!.reasons.length).toBeGreaterThan(0);
    expect(hard!.missingFields.length).toBeGreaterThan(0);
    const submitted = await graphql(app.url, 'mutation($id: ID!) { submitReviewedSelection(selectionId: $id) { selectionId } }', { id }, staff);
    expect(submitted.errors?.[0]?.extensions).toMatchObject({ code: 'UNPROCESSABLE', status: 422 });
    const pointers = (submitted.errors?.[0]?.extensions?.fields as Array<{ pointer: string }>).map((f) => f.pointer).sort();
    expect(pointers).toEqual(hard!.missingFields.map((f) => `lender:${hard!.lenderId}:${f.field}`).sort());
  });

  it('is for staff only, and a 404 for an unknown selection', async () => {
    const { id } = await queuedSelection((_m, easy) => [easy[0]!]);
    const member = await graphql(app.url, PREVIEW, { id }, memberA);
    expect(member.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    const missing = await graphql(app.url, PREVIEW, { id: '00000000-0000-4000-8000-000000000000' }, staff);
    expect(missing.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const malformed = await graphql(app.url, PREVIEW, { id: 'not-a-uuid' }, staff);
    expect(malformed.errors?.[0]?.extensions).toMatchObject({ status: 400 });
  });
});
