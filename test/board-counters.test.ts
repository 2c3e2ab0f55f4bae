/**
 * The board's total and counts per status are counters kept in the statement of every write
 * (migration 20261208070000_board_counters, board-counts-store.ts): after a random mix of
 * submissions (single and several in one statement), status changes through the lender API (offers,
 * failures, rejections), moves to another lender, deletions, and after concurrent changes, every
 * counter equals a COUNT of the rows, and the board answers those counts to staff (everything of the
 * environment) and to a member (its account's profiles only), by lender and by status too.
 */
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser, type LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { graphql } from './support/graphql-client.js';
import { CredentialFactory, UNRELATED_LOGIN_SCOPE } from './support/credentials.js';
import { bearer, leastPrivilegedLender, lenderCredentials, signUpIntegrator, type Integrator } from './support/identities.js';
import { LENDER_API, storedApplicationDocument, termLoanOffer } from './support/lender-applications.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';
import { createTestDatabase } from './support/test-database.js';

let app: TestApp;
let lenders: Array<{ credentials: LenderCredentials; auth: Record<string, string> }>;
let accountA: Integrator;
let accountB: Integrator;
let staff: Record<string, string>;
let memberA: Record<string, string>;
let profiles: Array<{ id: string; account: 'A' | 'B' }>;
const db = () => app.runtime.database.prisma;

const COUNTS = `query($f: LenderApplicationFilter) { lenderApplicationBoard(filter: $f, first: 1) { totalCount statusCounts { status count } } }`;

/** A small deterministic generator (mulberry32), so a failing mix can be replayed from its seed. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every counter row against a COUNT of the rows it stands for (zero counters and missing ones alike). */
async function expectCountersEqualCounts(): Promise<void> {
  const byLender = await db().$queryRawUnsafe<Array<{ key: string; counted: bigint; kept: bigint }>>(`
    WITH counted AS (SELECT environment::text || '/' || "lenderId" || '/' || status AS key, count(*) AS n FROM lender_application GROUP BY 1),
         kept AS (SELECT environment::text || '/' || "lenderId" || '/' || status AS key, count AS n FROM application_count_by_lender)
    SELECT COALESCE(counted.key, kept.key) AS key, COALESCE(counted.n, 0) AS counted, COALESCE(kept.n, 0) AS kept
    FROM counted FULL JOIN kept ON kept.key = counted.key WHERE COALESCE(counted.n, 0) <> COALESCE(kept.n, 0)`);
  expect(byLender).toEqual([]);
  const byProfile = await db().$queryRawUnsafe<Array<{ key: string; counted: bigint; kept: bigint }>>(`
    WITH counted AS (SELECT "profileId" || '/' || environment::text || '/' || "lenderId" || '/' || status AS key, count(*) AS n FROM lender_application GROUP BY 1),
         kept AS (SELECT "profileId" || '/' || environment::text || '/' || "lenderId" || '/' || status AS key, count AS n FROM application_count_by_profile)
    SELECT COALESCE(counted.key, kept.key) AS key, COALESCE(counted.n, 0) AS counted, COALESCE(kept.n, 0) AS kept
    FROM counted FULL JOIN kept ON kept.key = counted.key WHERE COALESCE(counted.n, 0) <> COALESCE(kept.n, 0)`);
  expect(byProfile).toEqual([]);
}

/** What the board must answer: COUNT of the rows the caller sees under the filter, per status (the filter's status left out) and in total. */
async function countedOnRows(who: 'staff' | 'A', filter: { lenderId?: number; status?: string }) {
  const ids = profiles.filter((p) => p.account === 'A').map((p) => p.id);
  const rows = await db().lenderApplication.groupBy({
    by: ['status'],
    where: { environment: 'demo', ...(who === 'A' ? { profileId: { in: ids } } : {}), ...(filter.lenderId ? { lenderId: filter.lenderId } : {}) },
    _count: { _all: true },
  });
  const byStatus = new Map(rows.map((r) => [r.status, r._count._all]));
  const total = filter.status ? (byStatus.get(filter.status) ?? 0) : [...byStatus.values()].reduce((a, b) => a + b, 0);
  return { byStatus, total };
}

async function expectBoardCountsTrue(): Promise<void> {
  const filters = [
    {},
    { lenderId: lenders[0]!.credentials.lenderId },
    { status: 'Offered' },
    { lenderId: lenders[1]!.credentials.lenderId, status: 'In Review' },
  ];
  for (const [who, headers] of [
    ['staff', staff],
    ['A', memberA],
  ] as const) {
    for (const filter of filters) {
      const res = await graphql(app.url, COUNTS, { f: filter }, headers);
      expect(res.errors).toBeUndefined();
      const answered = res.data!.lenderApplicationBoard as { totalCount: number; statusCounts: Array<{ status: string; count: number }> };
      const expected = await countedOnRows(who, filter);
      expect({ who, filter, total: answered.totalCount }).toEqual({ who, filter, total: expected.total });
      for (const { status, count } of answered.statusCounts)
        expect({ who, filter, status, count }).toEqual({ who, filter, status, count: expected.byStatus.get(status) ?? 0 });
    }
  }
}

async function submit(profile: { id: string }, lenderId: number, count = 1): Promise<number[]> {
  const payload = storedApplicationDocument({ lenderId });
  // Several in one statement, as a bulk import would write them.
  const made = await db().lenderApplication.createManyAndReturn({
    data: Array.from({ length: count }, () => ({ lenderId, profileId: profile.id, status: 'In Review', payload: payload as never })),
    select: { id: true },
  });
  return made.map((m) => m.id);
}

async function respond(id: number, lender: (typeof lenders)[number], kind: 'offer' | 'fail' | 'reject'): Promise<number> {
  const [path, body] = kind === 'offer' ? ['offer', termLoanOffer()] : ['rejection', { reason: kind === 'fail' ? 'Failed' : 'Ineligible' }];
  const res = await postJson(`${app.url}${LENDER_API}/applications/${id}/${path}`, body, lender.auth);
  await res.arrayBuffer();
  return res.status;
}

beforeAll(async () => {
  app = await startTestApp();
  const demoLenders = await db().lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 2 });
  lenders = [];
  for (const l of demoLenders) {
    const credentials = await lenderCredentials(app, l.id);
    lenders.push({ credentials, auth: await leastPrivilegedLender(app, credentials) });
  }
  accountA = await signUpIntegrator(app, 'counters-a');
  accountB = await signUpIntegrator(app, 'counters-b');
  const userA = (await db().platformUser.findFirstOrThrow({ where: { accountId: accountA.accountId } })).id;
  const staffUser = await createAccountWithUser(db(), {
    environment: 'demo',
    accountName: 'ops',
    email: 'counters-staff@example.test',
    password: 'counters-staff-pw-1',
    role: 'STAFF',
  });
  const factory = new CredentialFactory(app, accountA.loginToken, { accountId: accountA.accountId, userId: userA }, staffUser);
  staff = bearer((await factory.login(['staff'])).token);
  memberA = bearer((await factory.login([UNRELATED_LOGIN_SCOPE])).token);
  // Account A: a profile owned by its key and a tenant's; account B: one profile.
  const tenant = await db().tenant.create({ data: { accountId: accountA.accountId, referenceId: 'counters-tenant' } });
  profiles = [
    { id: (await db().profile.create({ data: { environment: 'demo', ownerAccountId: accountA.accountId } })).id, account: 'A' },
    { id: (await db().profile.create({ data: { environment: 'demo', tenantId: tenant.id } })).id, account: 'A' },
    { id: (await db().profile.create({ data: { environment: 'demo', ownerAccountId: accountB.accountId } })).id, account: 'B' },
  ];
}, 120_000);
afterAll(() => app?.close());

describe('board counters', () => {
  it('the migration counts the applications written before it, then keeps counting', async () => {
    // A database as it was before the migration (its tables and triggers dropped), holding applications.
    const scratch = await createTestDatabase();
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      await client.query(
        'DROP TABLE application_count_by_lender, application_count_by_profile; DROP FUNCTION count_lender_applications, clear_lender_application_counts CASCADE',
      );
      const profile = (
        await client.query<{ id: string }>(`INSERT INTO profile (id, environment, "updatedAt") VALUES (gen_random_uuid(), 'demo', now()) RETURNING id`)
      ).rows[0]!.id;
      await client.query(
        `INSERT INTO lender_application ("lenderId", "profileId", status, "updatedAt")
         SELECT l.id, $1, (ARRAY['In Review', 'Offered', 'Failed'])[1 + n % 3], now() FROM generate_series(1, 40) n JOIN LATERAL (SELECT id FROM lender ORDER BY id OFFSET n % 2 LIMIT 1) l ON true`,
        [profile],
      );
      await client.query(await readFile(new URL('../prisma/migrations/20261208070000_board_counters/migration.sql', import.meta.url), 'utf8'));
      await client.query(`UPDATE lender_application SET status = 'Rejected' WHERE id IN (SELECT id FROM lender_application WHERE status = 'Failed' LIMIT 5)`);
      const differences = await client.query(`
        SELECT * FROM (SELECT environment, "lenderId", status, count(*) AS n FROM lender_application GROUP BY 1, 2, 3) counted
        FULL JOIN application_count_by_lender kept USING (environment, "lenderId", status) WHERE counted.n IS DISTINCT FROM kept.count`);
      expect(differences.rows).toEqual([]);
      const kept = await client.query<{ status: string; count: string }>(
        'SELECT status, sum(count)::text AS count FROM application_count_by_profile WHERE "profileId" = $1 GROUP BY status ORDER BY status',
        [profile],
      );
      expect(kept.rows).toEqual([
        { status: 'Failed', count: '8' },
        { status: 'In Review', count: '13' },
        { status: 'Offered', count: '14' },
        { status: 'Rejected', count: '5' },
      ]);
    } finally {
      await client.end();
      await scratch.drop();
    }
  });

  it('after a random mix of submissions, status changes, moves to another lender and deletions, every counter equals a COUNT and the board answers it', async () => {
    const random = generator(45);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const live: Array<{ id: number; lender: number }> = [];
    const statuses: number[] = [];
    for (let step = 0; step < 120; step++) {
      const roll = random();
      if (roll < 0.3 || live.length < 3) {
        const lender = Math.floor(random() * lenders.length);
        for (const id of await submit(pick(profiles), lenders[lender]!.credentials.lenderId, 1 + Math.floor(random() * 3))) live.push({ id, lender });
      } else if (roll < 0.8) {
        const target = pick(live);
        // Illegal moves (a 409) are part of the mix: they must change nothing.
        statuses.push(await respond(target.id, lenders[target.lender]!, pick(['offer', 'offer', 'fail', 'reject'] as const)));
      } else if (roll < 0.9) {
        const target = pick(live);
        const to = (target.lender + 1) % lenders.length;
        await db().lenderApplication.update({ where: { id: target.id }, data: { lenderId: lenders[to]!.credentials.lenderId } });
        target.lender = to;
      } else {
        const target = live.splice(Math.floor(random() * live.length), 1)[0]!;
        await db().lenderApplication.delete({ where: { id: target.id } });
      }
    }
    // The mix did move applications, and also tried moves the status machine refuses.
    expect(statuses).toContain(200);
    expect(statuses).toContain(409);
    await expectCountersEqualCounts();
    await expectBoardCountsTrue();
  }, 120_000);

  it('under concurrent changes (offers and rejections of one lender, submissions, races on one application) the counters equal a COUNT', async () => {
    const lender = lenders[0]!;
    const ids = await submit(profiles[0]!, lender.credentials.lenderId, 24);
    const contested = ids.slice(0, 4);
    const results = await Promise.all([
      ...ids.map((id, n) => respond(id, lender, n % 3 === 0 ? 'reject' : 'offer')),
      // A second answer to the same applications at the same time: decided one after the other.
      ...contested.map((id) => respond(id, lender, 'offer')),
      ...profiles.map((p) => submit(p, lender.credentials.lenderId, 2).then(() => 200)),
    ]);
    expect(results.every((status) => status === 200 || status === 409)).toBe(true);
    await expectCountersEqualCounts();
    await expectBoardCountsTrue();
  }, 120_000);

  it('a truncated table leaves no counts behind', async () => {
    // In a transaction rolled back: the other tests' rows stay.
    await expect(
      db().$transaction(async (tx) => {
        await tx.$executeRawUnsafe('TRUNCATE lender_application CASCADE');
        const [left] = await tx.$queryRawUnsafe<Array<{ n: bigint }>>(
          'SELECT (SELECT count(*) FROM application_count_by_lender) + (SELECT count(*) FROM application_count_by_profile) AS n',
        );
        expect(Number(left!.n)).toBe(0);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await expectCountersEqualCounts();
  });
});
