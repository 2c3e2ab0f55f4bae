/**
 * The GraphQL API the dashboard reads: the lender application board (filters, updatedSince for a
 * reconnect's catch-up) and a row's history, with least-privileged callers: a login token holding
 * only an unrelated scope sees its account's rows; staff see all; another account sees none of them
 * and gets 404 for a history; other token kinds are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser, type LenderCredentials } from '../src/domain/identity/bootstrap.js';
import { graphql } from './support/graphql-client.js';
import { CredentialFactory, UNRELATED_LOGIN_SCOPE } from './support/credentials.js';
import { bearer, lenderCredentials, lenderIdToken, marketplaceV1Token, signUpIntegrator, type Integrator } from './support/identities.js';
import { lenderAcknowledges, lenderOffers } from './support/lender-applications.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let lender: LenderCredentials;
let accountA: Integrator;
let accountB: Integrator;
let staff: Record<string, string>;
let memberA: Record<string, string>;
const db = () => app.runtime.database.prisma;

const BOARD = 'query($f: LenderApplicationFilter) { lenderApplicationBoard(filter: $f) { id companyName lenderId lenderName productType amount status updatedAt offer { reference status decision amount termMonths interestRate productType } } }';
const HISTORY = 'query($id: Int!) { lenderApplicationHistory(applicationId: $id) { kind status fromStatus comment replacedAt offer { reference } } }';

async function storedApplication(account: Integrator, companyName: string): Promise<number> {
  const profile = await db().profile.create({ data: { environment: 'demo', ownerAccountId: account.accountId, companyInformation: { name: companyName } } });
  const row = await db().lenderApplication.create({
    data: { lenderId: lender.lenderId, profileId: profile.id, status: 'Submitted', payload: { application: { fundingSearch: { amount: '80000.00' } } } },
  });
  await db().applicationStatusChange.create({ data: { lenderApplicationId: row.id, fromStatus: null, toStatus: 'Submitted' } });
  return row.id;
}

const board = async (headers: Record<string, string>, filter: Record<string, unknown> = {}) => graphql(app.url, BOARD, { f: filter }, headers);
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
  const staffUser = await createAccountWithUser(db(), { environment: 'demo', accountName: 'ops', email: 'board-staff@example.test', password: 'board-staff-pw-1', role: 'STAFF' });
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
    expect(ids((await board(memberA, { lenderId: lender.lenderId, status: 'Submitted' })).data!.lenderApplicationBoard)).toEqual([a2]);
    expect(ids((await board(memberA, { lenderId: lender.lenderId + 100_000 })).data!.lenderApplicationBoard)).toEqual([]);
    expect(ids((await board(memberA, { applicationId: b1 })).data!.lenderApplicationBoard)).toEqual([]);
  });

  it('updatedSince returns exactly the rows changed at or after it (the catch-up after a lost connection)', async () => {
    const rows = (await board(staff)).data!.lenderApplicationBoard as Array<{ id: number; updatedAt: string }>;
    const lastSeen = rows.map((r) => r.updatedAt).sort().at(-1)!;
    await new Promise((r) => setTimeout(r, 5));
    await lenderAcknowledges(app, await lenderIdToken(app, lender), b1, 'changed after the last change seen');
    const since = await board(staff, { updatedSince: new Date(Date.parse(lastSeen) + 1).toISOString() });
    expect(ids(since.data!.lenderApplicationBoard)).toEqual([b1]);
    expect(since.data!.lenderApplicationBoard[0]).toMatchObject({ status: 'Acknowledged' });
  });

  it('refuses a malformed updatedSince naming the field (400)', async () => {
    const res = await board(staff, { updatedSince: 'yesterday' });
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(JSON.stringify(res.errors?.[0]?.extensions?.fields)).toContain('updatedSince');
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
    const entries = res.data!.lenderApplicationHistory as Array<{ kind: string; status: string; fromStatus: string | null; replacedAt: string | null; offer: { reference: string } | null }>;
    expect(entries.filter((e) => e.kind === 'STATUS').map((e) => [e.fromStatus, e.status])).toEqual([
      [null, 'Submitted'],
      ['Submitted', 'Offered'],
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
