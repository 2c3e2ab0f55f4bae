/**
 * The funding specialists' review queue now (staff): how many selections wait (pending review or in
 * review), how long the oldest has waited, and how the waiting ones are spread by age. One statement
 * from the review queue's index on (environment, state, createdAt). The same statement, for every
 * environment at once, feeds the review_queue_* gauges of /metrics at scrape time.
 */
import { sql } from 'kysely';
import type { ServiceContext } from '../../kernel/context.js';
import { requireAccess } from '../../kernel/access-policy.js';
import type { SqlReads } from '../../infra/sql-reads.js';
import { readsOf } from '../../infra/database.js';
import type { ReviewQueueStanding as ReviewQueueGauges } from '../../infra/metrics.js';
import type { ReviewQueueStanding } from './insights-schemas.js';

/** The states in which a selection waits for a funding specialist. */
const WAITING_STATES = ['PENDING_REVIEW', 'IN_REVIEW'] as const;

const HOUR = 3600;
/** Upper bounds (seconds) of the age bands, and their labels; the last band is open. */
const AGE_BANDS = [
  { label: 'Under 1 hour', below: HOUR },
  { label: '1 to 24 hours', below: 24 * HOUR },
  { label: '1 to 3 days', below: 72 * HOUR },
  { label: 'Over 3 days', below: null },
] as const;

interface StandingRow {
  environment: string;
  waiting: number;
  pendingReview: number;
  inReview: number;
  oldestCreatedAt: string | null;
  oldestAgeSeconds: number | null;
  band0: number;
  band1: number;
  band2: number;
  band3: number;
}

/** Every environment's standing, by one statement (environments without a waiting selection give zeros). */
function readStanding(reads: SqlReads, now: Date, environment?: string): Promise<StandingRow[]> {
  const nowAt = sql<Date>`${now.toISOString()}::timestamp(3)`;
  const age = sql`EXTRACT(EPOCH FROM ${nowAt} - s."createdAt")`;
  const [b0, b1, b2] = AGE_BANDS.map((band) => band.below);
  return sql<StandingRow>`
    SELECT e.environment::text AS environment,
           count(s.id)::int AS waiting,
           (count(s.id) FILTER (WHERE s.state = 'PENDING_REVIEW'))::int AS "pendingReview",
           (count(s.id) FILTER (WHERE s.state = 'IN_REVIEW'))::int AS "inReview",
           to_char(min(s."createdAt"), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "oldestCreatedAt",
           EXTRACT(EPOCH FROM ${nowAt} - min(s."createdAt"))::float8 AS "oldestAgeSeconds",
           (count(s.id) FILTER (WHERE ${age} < ${b0}))::int AS band0,
           (count(s.id) FILTER (WHERE ${age} >= ${b0} AND ${age} < ${b1}))::int AS band1,
           (count(s.id) FILTER (WHERE ${age} >= ${b1} AND ${age} < ${b2}))::int AS band2,
           (count(s.id) FILTER (WHERE ${age} >= ${b2}))::int AS band3
      FROM unnest(enum_range(NULL::"Environment")) AS e(environment)
      LEFT JOIN review_selection s ON s.environment = e.environment AND s.state IN (${sql.join(WAITING_STATES.map((state) => sql`${state}::"ReviewState"`))})
     WHERE ${environment === undefined ? sql`true` : sql`e.environment = ${environment}::"Environment"`}
     GROUP BY e.environment
     ORDER BY e.environment`
    .execute(reads)
    .then((result) => result.rows);
}

/** Staff: the review queue of their environment as it stands. */
export async function getReviewQueueStanding(ctx: ServiceContext): Promise<ReviewQueueStanding> {
  requireAccess(ctx, 'reviews.read');
  const [row] = await readStanding(readsOf(ctx.db), ctx.clock.now(), ctx.environment);
  const bands = row ? [row.band0, row.band1, row.band2, row.band3] : [0, 0, 0, 0];
  return {
    waiting: row?.waiting ?? 0,
    pendingReview: row?.pendingReview ?? 0,
    inReview: row?.inReview ?? 0,
    oldestCreatedAt: row?.oldestCreatedAt ?? null,
    oldestAgeSeconds: Math.max(0, row?.oldestAgeSeconds ?? 0),
    ageBands: AGE_BANDS.map((band, index) => ({ label: band.label, selections: bands[index] ?? 0 })),
  };
}

/**
 * The gauges' reading: every environment's depth and oldest age, by the same statement.
 * @access internal: read by the metrics scrape, acting for no caller and showing no row
 */
export async function reviewQueueGauges(reads: SqlReads, now: Date): Promise<ReviewQueueGauges[]> {
  const rows = await readStanding(reads, now);
  return rows.map((row) => ({ environment: row.environment, waiting: row.waiting, oldestAgeSeconds: Math.max(0, row.oldestAgeSeconds ?? 0) }));
}
