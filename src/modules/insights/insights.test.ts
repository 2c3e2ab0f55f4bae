/**
 * The insights' aggregate queries over GraphQL, against seeded applications: their numbers equal
 * what the test counts in its own SQL (and the percentiles what it computes from the seeded times),
 * under the access table and the accounts' isolation — staff (a login holding only `staff`) see
 * every application, a user of account A exactly A's and never B's, other token kinds are refused,
 * and the review queue's standing is staff's only.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser } from '../identity/bootstrap.js';
import { CredentialFactory, UNRELATED_LOGIN_SCOPE } from '../../../test/support/credentials.js';
import { graphql } from '../../../test/support/graphql-client.js';
import { bearer, signUpIntegrator, type Integrator } from '../../../test/support/identities.js';
import { countedMoves, percentileCont, seedInsightsWorld, type InsightsWorld } from '../../../test/support/insights-seed.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { APPLICATION_STATUSES } from '../lender-applications/application-status.js';

let app: TestApp;
let accountA: Integrator;
let accountB: Integrator;
let world: InsightsWorld;
let staff: Record<string, string>;
let userOfA: Record<string, string>;
let userOfB: Record<string, string>;
const db = () => app.runtime.database.prisma;

/** Two ISO weeks from Monday 2 March 2026; the seeded applications start on the Monday and run 8 days. */
const SINCE = new Date('2026-03-02T00:00:00Z');
const UNTIL = new Date('2026-03-16T00:00:00Z');
const WINDOW = { since: SINCE.toISOString(), until: UNTIL.toISOString() };
const HOUR = 3600;

const BY_STATUS =
  'query($w: InsightsWindow!) { applicationsByStatus(window: $w) { bucket since until periods { start counts { status applications } acknowledged } } }';
const RESPONSE_TIMES =
  'query($w: InsightsWindow!) { lenderResponseTimes(window: $w) { lenderId lenderName acknowledgement { answered medianSeconds p90Seconds } offer { answered medianSeconds p90Seconds } } }';
const QUEUE = '{ reviewQueueStanding { waiting pendingReview inReview oldestCreatedAt oldestAgeSeconds ageBands { label selections } } }';

beforeAll(async () => {
  app = await startTestApp();
  accountA = await signUpIntegrator(app, `insights-a-${randomUUID().slice(0, 6)}`);
  accountB = await signUpIntegrator(app, `insights-b-${randomUUID().slice(0, 6)}`);
  const staffUser = await createAccountWithUser(db(), {
    environment: 'demo',
    accountName: 'insights staff',
    email: `staff-${randomUUID()}@example.test`,
    password: `pw-${randomUUID()}`,
    role: 'STAFF',
  });
  const userA = await db().platformUser.findFirstOrThrow({ where: { accountId: accountA.accountId } });
  const userB = await db().platformUser.findFirstOrThrow({ where: { accountId: accountB.accountId } });
  // Least privilege: staff hold only `staff`; the accounts' users a scope no rule names.
  staff = bearer(
    (await new CredentialFactory(app, accountA.loginToken, { accountId: accountA.accountId, userId: userA.id }, staffUser).login(['staff'])).token,
  );
  userOfA = bearer(
    (await new CredentialFactory(app, accountA.loginToken, { accountId: accountA.accountId, userId: userA.id }, staffUser).login([UNRELATED_LOGIN_SCOPE]))
      .token,
  );
  userOfB = bearer(
    (await new CredentialFactory(app, accountB.loginToken, { accountId: accountB.accountId, userId: userB.id }, staffUser).login([UNRELATED_LOGIN_SCOPE]))
      .token,
  );
  world = await seedInsightsWorld(db(), { accounts: [accountA.accountId, accountB.accountId], start: new Date('2026-03-02T03:00:00Z'), count: 27 });
  // One submitted before the window and acknowledged inside it: its acknowledgement counts, its submission does not.
  const early = await db().lenderApplication.create({
    data: {
      lenderId: world.lenders[0]!.id,
      profileId: (await db().profile.findFirstOrThrow({ where: { ownerAccountId: accountA.accountId } })).id,
      status: 'In Review',
      acknowledgedAt: new Date('2026-03-02T12:00:00Z'),
      createdAt: new Date('2026-02-27T12:00:00Z'),
      updatedAt: new Date('2026-03-02T12:00:00Z'),
    },
  });
  await db().applicationStatusChange.createMany({
    data: [
      { lenderApplicationId: early.id, fromStatus: null, toStatus: 'In Review', createdAt: new Date('2026-02-27T12:00:00Z') },
      { lenderApplicationId: early.id, fromStatus: 'In Review', toStatus: 'In Review', createdAt: new Date('2026-03-02T12:00:00Z') },
    ],
  });
  world.applications.push({
    id: early.id,
    accountId: accountA.accountId,
    lenderId: world.lenders[0]!.id,
    submittedAt: new Date('2026-02-27T12:00:00Z'),
    acknowledgedAfterHours: 72,
    offeredAfterHours: null,
    rejectedAfterHours: null,
  });
}, 120_000);
afterAll(async () => {
  await app?.close();
});

type Pipeline = {
  bucket: string;
  since: string;
  until: string;
  periods: Array<{ start: string; counts: Array<{ status: string; applications: number }>; acknowledged: number }>;
};

function asMap(pipeline: Pipeline): Map<string, Map<string, number>> {
  return new Map(pipeline.periods.map((p) => [p.start, new Map(p.counts.filter((c) => c.applications > 0).map((c) => [c.status, c.applications]))]));
}
const withoutEmpty = (counted: Map<string, Map<string, number>>) => new Map([...counted].filter(([, m]) => m.size > 0));

describe('applications by status', () => {
  it('per day: every day of the window, each status counted as the test counts it in SQL (staff: all; account A: its own)', async () => {
    const asStaff = await graphql<{ applicationsByStatus: Pipeline }>(app.url, BY_STATUS, { w: { ...WINDOW, bucket: 'DAY' } }, staff);
    expect(asStaff.errors).toBeUndefined();
    const staffPipeline = asStaff.data!.applicationsByStatus;
    expect(staffPipeline.periods).toHaveLength(14);
    expect(staffPipeline.periods[0]!.start).toBe('2026-03-02T00:00:00.000Z');
    expect(staffPipeline.periods[0]!.counts.map((c) => c.status)).toEqual([...APPLICATION_STATUSES]);
    expect(withoutEmpty(asMap(staffPipeline))).toEqual(await countedMoves(db(), { since: SINCE, until: UNTIL, bucket: 'day' }));

    const asA = (await graphql<{ applicationsByStatus: Pipeline }>(app.url, BY_STATUS, { w: { ...WINDOW, bucket: 'DAY' } }, userOfA)).data!
      .applicationsByStatus;
    const countedA = await countedMoves(db(), { since: SINCE, until: UNTIL, bucket: 'day', accountId: accountA.accountId });
    expect(withoutEmpty(asMap(asA))).toEqual(countedA);
    // And by hand: A's submissions in the window are its seeded ones (the early one was submitted before).
    const submittedA = asA.periods.reduce((n, p) => n + p.counts.find((c) => c.status === 'In Review')!.applications, 0);
    expect(submittedA).toBe(world.applications.filter((a) => a.accountId === accountA.accountId && a.submittedAt >= SINCE).length);
    // An acknowledgement is no status (spec 3) but counted beside them, once per application at its first time.
    expect(asA.periods[0]!.counts.map((c) => c.status)).not.toContain('Acknowledged');
    const acknowledgedA = asA.periods.reduce((n, p) => n + p.acknowledged, 0);
    expect(acknowledgedA).toBe(world.applications.filter((a) => a.accountId === accountA.accountId && a.acknowledgedAfterHours !== null).length);
    const firstAcknowledged = (a: (typeof world.applications)[number]) =>
      new Date(a.submittedAt.getTime() + a.acknowledgedAfterHours! * 3_600_000).toISOString().slice(0, 10);
    for (const period of asA.periods) {
      const day = period.start.slice(0, 10);
      expect(period.acknowledged, day).toBe(
        world.applications.filter((a) => a.accountId === accountA.accountId && a.acknowledgedAfterHours !== null && firstAcknowledged(a) === day).length,
      );
    }
  });

  it("per week: ISO weeks from Monday; account B sees only B's numbers, never A's", async () => {
    const asB = (await graphql<{ applicationsByStatus: Pipeline }>(app.url, BY_STATUS, { w: { ...WINDOW, bucket: 'WEEK' } }, userOfB)).data!
      .applicationsByStatus;
    expect(asB.periods.map((p) => p.start)).toEqual(['2026-03-02T00:00:00.000Z', '2026-03-09T00:00:00.000Z']);
    expect(withoutEmpty(asMap(asB))).toEqual(await countedMoves(db(), { since: SINCE, until: UNTIL, bucket: 'week', accountId: accountB.accountId }));
    const submittedB = asB.periods.reduce((n, p) => n + p.counts.find((c) => c.status === 'In Review')!.applications, 0);
    expect(submittedB).toBe(world.applications.filter((a) => a.accountId === accountB.accountId).length);
    expect(submittedB).toBeLessThan(world.applications.length - 1);
  });

  it('a bad window is a 422 naming the field', async () => {
    const backwards = await graphql(app.url, BY_STATUS, { w: { since: UNTIL.toISOString(), until: SINCE.toISOString() } }, staff);
    expect(backwards.errors?.[0]?.extensions).toMatchObject({ code: 'UNPROCESSABLE', fields: [{ pointer: '/until' }] });
    const tooLong = await graphql(app.url, BY_STATUS, { w: { since: '2024-01-01T00:00:00Z', until: UNTIL.toISOString() } }, staff);
    expect(tooLong.errors?.[0]?.extensions).toMatchObject({ code: 'UNPROCESSABLE', fields: [{ pointer: '/since' }] });
    const badBucket = await graphql(app.url, BY_STATUS, { w: { ...WINDOW, bucket: 'MONTH' } }, staff);
    expect(JSON.stringify(badBucket.errors?.[0]?.extensions)).toContain('/bucket');
  });
});

describe('lender response times', () => {
  type Times = {
    lenderId: number;
    lenderName: string;
    acknowledgement: { answered: number; medianSeconds: number | null; p90Seconds: number | null };
    offer: { answered: number; medianSeconds: number | null; p90Seconds: number | null };
  };

  /** What the seeded times give for `accountId`'s applications (all when none), lender by lender. */
  function expected(accountId?: string) {
    return world.lenders.map((lender) => {
      const mine = world.applications.filter((a) => a.lenderId === lender.id && (!accountId || a.accountId === accountId));
      const ack = mine.filter((a) => a.acknowledgedAfterHours !== null).map((a) => a.acknowledgedAfterHours! * HOUR);
      const offer = mine.filter((a) => a.offeredAfterHours !== null).map((a) => a.offeredAfterHours! * HOUR);
      return {
        lenderId: lender.id,
        lenderName: lender.name,
        acknowledgement: { answered: ack.length, medianSeconds: percentileCont(ack, 0.5), p90Seconds: percentileCont(ack, 0.9) },
        offer: { answered: offer.length, medianSeconds: percentileCont(offer, 0.5), p90Seconds: percentileCont(offer, 0.9) },
      };
    });
  }
  const ours = (rows: Times[]) => rows.filter((r) => world.lenders.some((l) => l.id === r.lenderId));
  const close = (rows: Times[]) => rows.map((r) => ({ ...r, acknowledgement: rounded(r.acknowledgement), offer: rounded(r.offer) }));
  const rounded = (t: Times['offer']) => ({
    answered: t.answered,
    medianSeconds: t.medianSeconds === null ? null : Math.round(t.medianSeconds),
    p90Seconds: t.p90Seconds === null ? null : Math.round(t.p90Seconds),
  });

  it('median and 90th percentile per lender equal percentile_cont over the seeded times; each account its own', async () => {
    const asStaff = await graphql<{ lenderResponseTimes: Times[] }>(app.url, RESPONSE_TIMES, { w: WINDOW }, staff);
    expect(asStaff.errors).toBeUndefined();
    expect(close(ours(asStaff.data!.lenderResponseTimes))).toEqual(close(expected()));
    const asA = (await graphql<{ lenderResponseTimes: Times[] }>(app.url, RESPONSE_TIMES, { w: WINDOW }, userOfA)).data!.lenderResponseTimes;
    expect(close(asA)).toEqual(close(expected(accountA.accountId)));
    const asB = (await graphql<{ lenderResponseTimes: Times[] }>(app.url, RESPONSE_TIMES, { w: WINDOW }, userOfB)).data!.lenderResponseTimes;
    expect(close(asB)).toEqual(close(expected(accountB.accountId)));
    expect(asB).not.toEqual(asA);
  });

  it('an answer before the window is not counted in it', async () => {
    const late = (
      await graphql<{ lenderResponseTimes: Times[] }>(app.url, RESPONSE_TIMES, { w: { since: '2026-03-20T00:00:00Z', until: '2026-03-27T00:00:00Z' } }, staff)
    ).data!.lenderResponseTimes;
    expect(ours(late)).toEqual([]);
  });
});

describe('access', () => {
  it('refuses another token kind (a platform token of account A) and no credential', async () => {
    for (const headers of [bearer(accountA.platformToken)]) {
      for (const query of [BY_STATUS, RESPONSE_TIMES]) {
        const refused = await graphql(app.url, query, { w: WINDOW }, headers);
        expect(refused.data).toBeNull();
        expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      }
    }
    const anonymous = await graphql(app.url, BY_STATUS, { w: WINDOW });
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it("the review queue's standing is staff's only, and counts the waiting selections", async () => {
    const refused = await graphql(app.url, QUEUE, {}, userOfA);
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const before = (await graphql<{ reviewQueueStanding: { waiting: number } }>(app.url, QUEUE, {}, staff)).data!.reviewQueueStanding.waiting;
    const profile = await db().profile.findFirstOrThrow({ where: { ownerAccountId: accountA.accountId } });
    const search = await db().fundingSearch.create({ data: { profileId: profile.id, amount: 1000 } });
    const twoDaysAgo = new Date(Date.now() - 49 * HOUR * 1000);
    await db().reviewSelection.create({
      data: { profileId: profile.id, fundingSearchId: search.id, selection: [], contentHash: randomUUID(), createdAt: twoDaysAgo },
    });
    const counted = await db().reviewSelection.count({ where: { environment: 'demo', state: { in: ['PENDING_REVIEW', 'IN_REVIEW'] } } });
    const standing = (
      await graphql<{ reviewQueueStanding: { waiting: number; oldestAgeSeconds: number; ageBands: Array<{ label: string; selections: number }> } }>(
        app.url,
        QUEUE,
        {},
        staff,
      )
    ).data!.reviewQueueStanding;
    expect(standing.waiting).toBe(before + 1);
    expect(standing.waiting).toBe(counted);
    expect(standing.oldestAgeSeconds).toBeGreaterThanOrEqual(49 * HOUR - 60);
    expect(standing.ageBands.reduce((n, b) => n + b.selections, 0)).toBe(counted);
    expect(standing.ageBands.find((b) => b.label === '1 to 3 days')!.selections).toBeGreaterThanOrEqual(1);
  });
});
