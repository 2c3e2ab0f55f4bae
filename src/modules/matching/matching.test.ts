/** Marketplace V1 matching (spec 2.3 FundingSearch, 4.1 funding rows): count, results, filters, explanations. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, marketplaceV1Token, signUpIntegrator } from '../../../test/support/identities.js';
import { ACME_ANSWERS } from '../../../test/support/answers.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let auth: Record<string, string>;
let acme: string;

async function profileWith(answers: object | null): Promise<string> {
  const { uuid } = await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, auth)).json();
  if (answers) {
    const res = await fetch(`${app.url}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${uuid}/answers`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(answers),
    });
    expect(res.status).toBe(204);
  }
  return uuid;
}
const get = (path: string, headers = auth) => fetch(`${app.url}/api/marketplace/v1${path}`, { headers });

/** A recorded search's matches as its row keeps them (rank order). */
async function recordedMatches(searchId: number) {
  const row = await app.runtime.database.prisma.fundingSearch.findUniqueOrThrow({ where: { id: searchId } });
  return { lenderIds: row.matchLenderIds, productIds: row.matchProductIds, likelihoods: row.matchLikelihoods.map(Number), reasons: row.matchReasons };
}

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
    // Every match is recorded with the search, in its order, in the search's own row; none is a
    // funding_match row until its lender is chosen (apply).
    const stored = await recordedMatches(search.id);
    expect(stored.productIds).toEqual(search.matches.map((m: { productId: number }) => m.productId));
    expect(stored.lenderIds).toEqual(search.matches.map((m: { lender: { id: number } }) => m.lender.id));
    expect(stored.likelihoods).toEqual(likelihoods);
    expect(await app.runtime.database.prisma.fundingMatch.count({ where: { fundingSearchId: search.id } })).toBe(0);
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
    // The amount reason names the matched product's own range, read from its catalogue row.
    const product = await app.runtime.database.prisma.lenderProduct.findUniqueOrThrow({ where: { id: search.matches[0].productId } });
    const pounds = (value: unknown) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 }).format(Number(value));
    expect(search.matches[0].reasons).toContain(`amount £150,000 within ${pounds(product.minAmount)}-${pounds(product.maxAmount)}`);
    expect(search.explanation.missing).toEqual([]);
    // The recorded matches keep the reasons the search gave, each with its own product.
    const stored = await recordedMatches(search.id);
    expect(stored.productIds).toEqual(search.matches.map((m: { productId: number }) => m.productId));
    expect(stored.reasons).toEqual(search.matches.map((m: { reasons: string[] }) => m.reasons));
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

describe('POST /profiles/{uuid}/funding/apply', () => {
  const apply = (uuid: string, body: unknown, headers: Record<string, string> = {}) =>
    postJson(`${app.url}/api/marketplace/v1/profiles/${uuid}/funding/apply`, body, { ...auth, ...headers });
  const queue = (uuid: string) => app.runtime.database.prisma.reviewSelection.findMany({ where: { profileId: uuid } });

  async function matchedLenders(uuid: string, count: number): Promise<Array<{ lenderId: number; products: string[] }>> {
    const search = await (await get(`/profiles/${uuid}/funding/matches/results`)).json();
    const byLender = new Map<number, string[]>();
    for (const m of search.matches as Array<{ lender: { id: number }; product: string }>)
      byLender.set(m.lender.id, [...(byLender.get(m.lender.id) ?? []), m.product]);
    return [...byLender.entries()].slice(0, count).map(([lenderId, products]) => ({ lenderId, products }));
  }

  it('queues 1 to 4 matched lenders for review: 200 FundingSearch of the selection', async () => {
    const uuid = await profileWith(ACME_ANSWERS);
    for (const count of [1, 4]) {
      const selection = await matchedLenders(uuid, count);
      expect(selection).toHaveLength(count);
      const res = await apply(uuid, selection);
      expect(res.status).toBe(200);
      const search = await res.json();
      expect(search).toMatchObject({ amount: 150000, id: expect.any(Number) });
      expect(new Set(search.matches.map((m: { lender: { id: number } }) => m.lender.id))).toEqual(new Set(selection.map((s) => s.lenderId)));
    }
    // A profile has one selection waiting for review: the second apply replaced the first (issue 25).
    const rows = await queue(uuid);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => [(r.selection as unknown[]).length, r.state]).sort()).toEqual([
      [1, 'CLOSED'],
      [4, 'PENDING_REVIEW'],
    ]);
  });

  it("writes the chosen lenders' matches as funding_match rows, with the search's reasons, and no other lender's", async () => {
    const uuid = await profileWith(ACME_ANSWERS);
    const search = await (await get(`/profiles/${uuid}/funding/matches/results?explain=true`)).json();
    const selection = await matchedLenders(uuid, 2);
    const res = await apply(uuid, selection);
    expect(res.status).toBe(200);
    expect((await res.json()).id).toBe(search.id);
    const chosen = new Set(selection.map((s) => s.lenderId));
    const expected = (search.matches as Array<{ lender: { id: number }; productId: number; product: string; likelihood: { value: number }; reasons: string[] }>)
      .filter((m) => chosen.has(m.lender.id))
      .map((m) => ({ lenderId: m.lender.id, productId: m.productId, productType: m.product, likelihood: m.likelihood.value, reasons: m.reasons }));
    const rows = await app.runtime.database.prisma.fundingMatch.findMany({
      where: { fundingSearchId: search.id },
      select: { lenderId: true, productId: true, productType: true, likelihood: true, reasons: true },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => ({ ...r, likelihood: Number(r.likelihood) }))).toEqual(expected);
    // Applying again adds no row.
    expect((await apply(uuid, selection.slice(0, 1))).status).toBe(200);
    expect(await app.runtime.database.prisma.fundingMatch.count({ where: { fundingSearchId: search.id } })).toBe(expected.length);
  });

  it('refuses 0 or 5 lenders with 400, and a lender not among the matches with 422, queueing nothing', async () => {
    const uuid = await profileWith(ACME_ANSWERS);
    const none = await apply(uuid, []);
    expect(none.status).toBe(400);
    const five = await apply(
      uuid,
      [1, 2, 3, 4, 5].map((lenderId) => ({ lenderId, products: ['TERM_LOAN'] })),
    );
    expect(five.status).toBe(400);
    expect((await five.json()).errors[0].message).toContain('at most 4');
    const unmatched = await apply(uuid, [{ lenderId: 999999, products: ['TERM_LOAN'] }]);
    expect(unmatched.status).toBe(422);
    expect((await unmatched.json()).errors).toEqual([
      { pointer: '/0/products/0', message: "lender 999999 has no TERM_LOAN among this profile's current matches" },
    ]);
    expect(await queue(uuid)).toEqual([]);
  });

  it('is idempotent by content and by Idempotency-Key', async () => {
    const uuid = await profileWith(ACME_ANSWERS);
    const selection = await matchedLenders(uuid, 2);
    await apply(uuid, selection);
    await apply(uuid, [...selection].reverse());
    expect(await queue(uuid)).toHaveLength(1);
    const keyed = await apply(uuid, selection.slice(0, 1), { 'idempotency-key': 'k-1' });
    expect(keyed.status).toBe(200);
    expect((await apply(uuid, selection.slice(0, 1), { 'idempotency-key': 'k-1' })).status).toBe(200);
    const reused = await apply(uuid, selection.slice(1, 2), { 'idempotency-key': 'k-1' });
    expect(reused.status).toBe(422);
    expect(await queue(uuid)).toHaveLength(2);
  });
});

describe('GraphQL', () => {
  it('Profile.matches through federation, applyToLenders, and the staff review queue', async () => {
    const { graphql } = await import('../../../test/support/graphql-client.js');
    const { createAccountWithUser } = await import('../identity/bootstrap.js');
    const { signIn } = await import('../../../test/support/identities.js');
    const uuid = await profileWith(ACME_ANSWERS);
    const res = await graphql(
      app.url,
      'query($u: ID!) { profile(uuid: $u) { companyName matches(explain: true) { id amount matches { lender { id name average } product likelihood reasons } explanation { missing rejections { lender { id } product productId reasons } } } } }',
      { u: uuid },
      auth,
    );
    expect(res.errors).toBeUndefined();
    const search = res.data?.profile.matches;
    expect(res.data?.profile.companyName).toBe('ACME WIDGETS LIMITED');
    expect(search.matches[0]).toMatchObject({
      lender: { id: expect.any(Number), name: expect.any(String), average: expect.any(String) },
      reasons: expect.any(Array),
    });
    const rest = await (await get(`/profiles/${uuid}/funding/matches/results?explain=true`)).json();
    expect(search.explanation).toEqual(rest.explanation);
    expect(search.explanation.missing).toEqual([]);

    const first = search.matches[0];
    const applied = await graphql(
      app.url,
      'mutation($u: ID!, $s: [SelectedLenderInput!]!) { applyToLenders(profileId: $u, selection: $s) { id matches { lender { id } product } } }',
      { u: uuid, s: [{ lenderId: first.lender.id, products: [first.product] }] },
      auth,
    );
    expect(applied.data?.applyToLenders.matches).toEqual([{ lender: { id: first.lender.id }, product: first.product }]);
    const tooMany = await graphql(app.url, 'mutation($u: ID!) { applyToLenders(profileId: $u, selection: []) { id } }', { u: uuid }, auth);
    expect(tooMany.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST' });

    await createAccountWithUser(app.runtime.database.prisma, {
      environment: 'demo',
      accountName: 'staff',
      email: 'specialist@example.test',
      password: 'specialist-password',
      role: 'STAFF',
    });
    const staff = bearer(await signIn(app, 'specialist@example.test', 'specialist-password'));
    const queue = await graphql(
      app.url,
      '{ reviewQueue(state: "PENDING_REVIEW", first: 200) { nodes { profileId state selection { lenderId products } } } }',
      {},
      staff,
    );
    expect(queue.data?.reviewQueue.nodes).toContainEqual({
      profileId: uuid,
      state: 'PENDING_REVIEW',
      selection: [{ lenderId: first.lender.id, products: [first.product] }],
    });
    const notStaff = await graphql(app.url, '{ reviewQueue { nodes { id } } }', {}, auth);
    expect(notStaff.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
  });
});
