/**
 * The review queue's staff actions over GraphQL: reject (reason shown to the client on the continue
 * page), return to the client (who chooses again), assign to me, notes; each allowed to a staff login
 * only (an account admin's login, an integrator's token or a wrong token kind is refused), each
 * leaving a review_action row; only the transitions of review-selection-states.ts (409 otherwise).
 * And the continue page's replacing: never two selections waiting for review for one profile, even
 * for two choices posted at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser } from '../identity/bootstrap.js';
import { graphql } from '../../../test/support/graphql-client.js';
import { bearer, marketplaceV1Token, signIn, signUpIntegrator, type Integrator } from '../../../test/support/identities.js';
import { applicationWithLink, postChoice } from '../../../test/support/review-continue.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let integrator: Integrator;
let staff: Record<string, string>;
let otherStaff: Record<string, string>;
let accountAdmin: Record<string, string>;
const db = () => app.runtime.database.prisma;

const REJECT = 'mutation($s: ID!, $r: String!) { rejectReviewSelection(selectionId: $s, reason: $r) { id state reason company { name number } } }';
const RETURN = 'mutation($s: ID!, $r: String) { returnReviewSelection(selectionId: $s, reason: $r) { id state reason } }';
const ASSIGN = 'mutation($s: ID!) { assignReviewSelectionToMe(selectionId: $s) { id state assignee { email } } }';
const NOTE = 'mutation($s: ID!, $t: String!) { addReviewNote(selectionId: $s, text: $t) { id kind text actor { email } } }';
const SUBMIT = 'mutation($s: ID!) { submitReviewedSelection(selectionId: $s) { selectionId } }';

beforeAll(async () => {
  app = await startTestApp();
  integrator = await signUpIntegrator(app);
  await createAccountWithUser(db(), {
    environment: 'demo',
    accountName: 'specialists-r',
    email: 'review-a@example.test',
    password: 'review-a-password',
    role: 'STAFF',
  });
  await createAccountWithUser(db(), {
    environment: 'demo',
    accountName: 'specialists-r2',
    email: 'review-b@example.test',
    password: 'review-b-password',
    role: 'STAFF',
  });
  await createAccountWithUser(db(), {
    environment: 'demo',
    accountName: 'admins-r',
    email: 'admin-r@example.test',
    password: 'admin-r-password',
    role: 'ADMIN',
  });
  staff = bearer(await signIn(app, 'review-a@example.test', 'review-a-password'));
  otherStaff = bearer(await signIn(app, 'review-b@example.test', 'review-b-password'));
  accountAdmin = bearer(await signIn(app, 'admin-r@example.test', 'admin-r-password'));
});
afterAll(async () => {
  await app?.close();
});

/** A client's choice waiting for review (through the continue page's form), and its selection id. */
async function waitingSelection(name = 'ACME WIDGETS LIMITED') {
  const fixture = await applicationWithLink(app, integrator, name);
  expect((await postChoice(fixture.continueUrl, fixture.choices.slice(0, 2))).status).toBe(303);
  const selection = await db().reviewSelection.findFirstOrThrow({ where: { profileId: fixture.profileId, state: 'PENDING_REVIEW' } });
  return { ...fixture, selectionId: selection.id };
}

describe('who may act on the review queue', () => {
  it('a staff login may; an account admin, an integrator token, a Marketplace V1 token or a lender-less call may not, and nothing changes', async () => {
    const { selectionId } = await waitingSelection();
    const v1 = bearer((await marketplaceV1Token(app, integrator.apiKey)).jwt);
    const refused: Array<[Record<string, string>, string]> = [
      [accountAdmin, 'FORBIDDEN'], // a login without the staff scope
      [bearer(integrator.loginToken), 'FORBIDDEN'], // the integrator's own admin login
      [bearer(integrator.platformToken), 'FORBIDDEN'], // wrong token kind (platform access token)
      [v1, 'FORBIDDEN'], // wrong token kind (Marketplace V1)
      [{}, 'UNAUTHENTICATED'],
    ];
    for (const [headers, code] of refused) {
      for (const [query, variables] of [
        [REJECT, { s: selectionId, r: 'no' }],
        [RETURN, { s: selectionId, r: 'no' }],
        [ASSIGN, { s: selectionId }],
        [NOTE, { s: selectionId, t: 'no' }],
      ] as const) {
        const res = await graphql(app.url, query, variables, headers);
        expect(res.errors?.[0]?.extensions?.code, `${query} ${JSON.stringify(headers).slice(0, 40)}`).toBe(code);
      }
    }
    const row = await db().reviewSelection.findUniqueOrThrow({ where: { id: selectionId } });
    expect(row).toMatchObject({ state: 'PENDING_REVIEW', assigneeId: null, decisionReason: null });
    expect(await db().reviewAction.count({ where: { selectionId } })).toBe(0);
  });

  it('names the field of bad input (an empty reason or note, a malformed id) and answers an unknown selection as missing', async () => {
    const { selectionId } = await waitingSelection();
    const empty = await graphql(app.url, REJECT, { s: selectionId, r: '   ' }, staff);
    expect(empty.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST' });
    expect(JSON.stringify(empty.errors?.[0]?.extensions)).toContain('/reason');
    const note = await graphql(app.url, NOTE, { s: selectionId, t: '' }, staff);
    expect(JSON.stringify(note.errors?.[0]?.extensions)).toContain('/text');
    expect((await graphql(app.url, ASSIGN, { s: 'not-a-uuid' }, staff)).errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect((await graphql(app.url, ASSIGN, { s: '00000000-0000-4000-8000-000000000000' }, staff)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('the actions and their states', () => {
  it('assign to me records the assignee (shown in the queue) and a second specialist can take it over', async () => {
    const { selectionId } = await waitingSelection('ACME WIDGETS LIMITED');
    const taken = await graphql(app.url, ASSIGN, { s: selectionId }, staff);
    expect(taken.data?.assignReviewSelectionToMe).toEqual({ id: selectionId, state: 'IN_REVIEW', assignee: { email: 'review-a@example.test' } });
    const queue = await graphql(app.url, '{ reviewQueue(first: 200) { nodes { id state company { name number } assignee { email } } } }', {}, staff);
    expect(queue.data?.reviewQueue.nodes).toContainEqual({
      id: selectionId,
      state: 'IN_REVIEW',
      company: { name: 'ACME WIDGETS LIMITED', number: '09876543' },
      assignee: { email: 'review-a@example.test' },
    });
    const over = await graphql(app.url, ASSIGN, { s: selectionId }, otherStaff);
    expect(over.data?.assignReviewSelectionToMe.assignee).toEqual({ email: 'review-b@example.test' });
    const trail = await db().reviewAction.findMany({ where: { selectionId }, orderBy: { createdAt: 'asc' }, include: { actor: true } });
    expect(trail.map((t) => [t.kind, t.actor?.email])).toEqual([
      ['ASSIGNED', 'review-a@example.test'],
      ['ASSIGNED', 'review-b@example.test'],
    ]);
  });

  it('notes: staff-only, listed on the review with their author, in any state', async () => {
    const { selectionId } = await waitingSelection();
    const added = await graphql(app.url, NOTE, { s: selectionId, t: 'Called the director: accounts due Friday' }, staff);
    expect(added.data?.addReviewNote).toMatchObject({
      kind: 'NOTE',
      text: 'Called the director: accounts due Friday',
      actor: { email: 'review-a@example.test' },
    });
    const review = await graphql(
      app.url,
      'query($s: ID!) { reviewSelection(selectionId: $s) { notes { text actor { email } } history { kind } } }',
      { s: selectionId },
      staff,
    );
    expect(review.data?.reviewSelection.notes).toEqual([{ text: 'Called the director: accounts due Friday', actor: { email: 'review-a@example.test' } }]);
    expect(review.data?.reviewSelection.history).toEqual([{ kind: 'NOTE' }]);
  });

  it('reject: final, with the reason the client reads on the continue page; no second decision (409), no submission', async () => {
    const { selectionId, continueUrl, choices } = await waitingSelection('ACME WIDGETS LIMITED');
    const rejected = await graphql(app.url, REJECT, { s: selectionId, r: 'Trading history too short for these lenders' }, staff);
    expect(rejected.data?.rejectReviewSelection).toEqual({
      id: selectionId,
      state: 'REJECTED',
      reason: 'Trading history too short for these lenders',
      company: { name: 'ACME WIDGETS LIMITED', number: '09876543' },
    });
    for (const [query, variables] of [
      [REJECT, { s: selectionId, r: 'again' }],
      [RETURN, { s: selectionId }],
      [ASSIGN, { s: selectionId }],
      [SUBMIT, { s: selectionId }],
    ] as const) {
      const res = await graphql(app.url, query, variables, staff);
      expect(res.errors?.[0]?.extensions?.code).toBe('CONFLICT');
      expect(res.errors?.[0]?.message).toMatch(/The selection is rejected \(REJECTED\): it cannot be/);
    }
    const page = await (await fetch(continueUrl)).text();
    expect(page).toContain('Not taken forward');
    expect(page).toContain('Trading history too short for these lenders');
    expect(page).not.toContain('<form');
    // And the client cannot choose around it.
    const again = await postChoice(continueUrl, choices.slice(2, 3), true);
    expect(again.status).toBe(409);
    expect(
      await db().reviewSelection.count({
        where: { profileId: (await db().reviewSelection.findUniqueOrThrow({ where: { id: selectionId } })).profileId, state: 'PENDING_REVIEW' },
      }),
    ).toBe(0);
    const trail = await db().reviewAction.findMany({ where: { selectionId } });
    expect(trail.map((t) => [t.kind, t.text])).toEqual([['REJECTED', 'Trading history too short for these lenders']]);
  });

  it('a submitted selection cannot be rejected or returned (409)', async () => {
    const { selectionId } = await waitingSelection();
    await db().reviewSelection.update({ where: { id: selectionId }, data: { state: 'SUBMITTED' } });
    const res = await graphql(app.url, REJECT, { s: selectionId, r: 'too late' }, staff);
    expect(res.errors?.[0]).toMatchObject({
      message: expect.stringContaining('already sent to lenders (SUBMITTED): it cannot be rejected'),
      extensions: { code: 'CONFLICT' },
    });
    expect((await graphql(app.url, RETURN, { s: selectionId }, staff)).errors?.[0]?.extensions?.code).toBe('CONFLICT');
  });

  it('return to client: the page shows the reason and the form again; the new choice waits for review alone', async () => {
    const { selectionId, continueUrl, choices, profileId } = await waitingSelection();
    const returned = await graphql(app.url, RETURN, { s: selectionId, r: 'Please choose lenders for invoice finance' }, staff);
    expect(returned.data?.returnReviewSelection).toEqual({ id: selectionId, state: 'RETURNED', reason: 'Please choose lenders for invoice finance' });
    const page = await (await fetch(continueUrl)).text();
    expect(page).toContain('Returned to you');
    expect(page).toContain('Please choose lenders for invoice finance');
    expect(page).toContain('Proceed with my choice');
    expect((await postChoice(continueUrl, choices.slice(2, 3))).status).toBe(303);
    const rows = await db().reviewSelection.findMany({ where: { profileId } });
    expect(rows.map((r) => r.state).sort()).toEqual(['CLOSED', 'PENDING_REVIEW']);
  });
});

describe('the continue page replaces, never queues a second pending choice', () => {
  it('a second choice is refused until confirmed, then replaces the first', async () => {
    const { continueUrl, choices, profileId } = await waitingSelection();
    const unconfirmed = await postChoice(continueUrl, choices.slice(2, 3));
    expect(unconfirmed.status).toBe(409);
    const asked = await unconfirmed.text();
    expect(asked).toContain('You already sent a choice that is waiting for review');
    expect(asked).toContain(`value="${choices[2]}" id=`); // the tick kept…
    expect(asked).toMatch(new RegExp(`value="${choices[2]}" id="[^"]+" checked`));
    expect(await db().reviewSelection.count({ where: { profileId, state: 'PENDING_REVIEW' } })).toBe(1);
    expect((await postChoice(continueUrl, choices.slice(2, 3), true)).status).toBe(303);
    const rows = await db().reviewSelection.findMany({ where: { profileId }, include: { actions: true } });
    expect(rows.filter((r) => r.state === 'PENDING_REVIEW')).toHaveLength(1);
    expect(rows.find((r) => r.state === 'CLOSED')?.actions.map((a) => a.kind)).toEqual(['REPLACED']);
  });

  it('two different choices posted at once leave one pending selection', async () => {
    for (let round = 0; round < 3; round++) {
      const { continueUrl, choices, profileId } = await applicationWithLink(app, integrator);
      const answers = await Promise.all([
        postChoice(continueUrl, choices.slice(0, 1), true),
        postChoice(continueUrl, choices.slice(1, 2), true),
        postChoice(continueUrl, choices.slice(2, 4), true),
      ]);
      for (const res of answers) expect([303, 409]).toContain(res.status);
      expect(await db().reviewSelection.count({ where: { profileId, state: { in: ['PENDING_REVIEW', 'IN_REVIEW'] } } })).toBe(1);
    }
  });

  it('the server still refuses more than four lenders, and says so keeping the ticks', async () => {
    const { continueUrl, choices, profileId } = await applicationWithLink(app, integrator);
    expect(choices.length).toBeGreaterThanOrEqual(5);
    const res = await postChoice(continueUrl, choices.slice(0, 5));
    expect(res.status).toBe(400);
    const page = await res.text();
    expect(page).toContain('must select at most 4 lenders');
    expect((page.match(/ checked>/g) ?? []).length).toBe(5);
    expect(await db().reviewSelection.count({ where: { profileId } })).toBe(0);
  });
});
