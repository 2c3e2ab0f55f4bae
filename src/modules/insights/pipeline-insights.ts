/**
 * The pipeline's aggregates for the dashboard's insights, counted in SQL over the lender
 * applications the caller sees: staff every application of their environment, another platform user
 * its account's, by the lender applications' own visibility rule in its typed SQL form
 * (`lenderApplicationListScope` / `lenderApplicationSqlScope`, lender-application-visibility.ts),
 * so a number here never counts a row the board would not show the same caller.
 *
 * - applications by status: per day or week, the applications that moved into each status (from the
 *   status history), so the chart shows what the pipeline did in each period;
 * - response times per lender: from submission to the lender's first acknowledgement and first offer,
 *   median and 90th percentile (percentile_cont) over the first answers that came in the window —
 *   the same events the time-to-acknowledgement and time-to-offer histograms of /metrics observe.
 */
import { sql } from 'kysely';
import type { ServiceContext } from '../../kernel/context.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { AppError } from '../../kernel/errors.js';
import { parseInput } from '../../kernel/validation.js';
import type { SqlReads } from '../../infra/sql-reads.js';
import { readsOf } from '../../infra/database.js';
import { APPLICATION_STATUSES, type ApplicationStatus } from '../lender-applications/application-status.js';
import { lenderApplicationListScope, lenderApplicationSqlScope, type ApplicationListScope } from '../lender-applications/lender-application-visibility.js';
import { InsightsWindow, MAX_WINDOW_DAYS, type ApplicationsByStatus, type Bucket, type LenderResponseTimes } from './insights-schemas.js';

interface Window {
  bucket: Bucket;
  since: Date;
  until: Date;
}

const DAY_MS = 86_400_000;

/** The window as given, or a 422 naming the field: `until` after `since`, at most a year apart. */
function parseWindow(ctx: ServiceContext, input: unknown): Window {
  const parsed = parseInput(InsightsWindow, input ?? {}, 'Window');
  const since = new Date(parsed.since);
  const until = parsed.until ? new Date(parsed.until) : ctx.clock.now();
  if (until <= since) throw AppError.unprocessable('The window ends before it starts', [{ pointer: '/until', message: 'must be after since' }]);
  if (until.getTime() - since.getTime() > MAX_WINDOW_DAYS * DAY_MS) {
    throw AppError.unprocessable(`The window is longer than ${MAX_WINDOW_DAYS} days`, [
      { pointer: '/since', message: `must be at most ${MAX_WINDOW_DAYS} days before until` },
    ]);
  }
  return { bucket: parsed.bucket, since, until };
}

/** A UTC instant as the `timestamp(3)` columns hold it. */
const at = (instant: Date) => sql<Date>`${instant.toISOString()}::timestamp(3)`;
const UNITS: Record<Bucket, { unit: string; step: string }> = { DAY: { unit: 'day', step: '1 day' }, WEEK: { unit: 'week', step: '1 week' } };
const iso = (column: string) => sql<string>`to_char(${sql.ref(column)}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The ids (and what the aggregates read) of the applications the caller sees: the rule's one SQL form. */
function visibleApplications(reads: SqlReads, scope: ApplicationListScope) {
  return reads
    .selectFrom('lender_application as la')
    .select(['la.id', 'la.lenderId', 'la.createdAt', 'la.updatedAt', 'la.acknowledgedAt'])
    .where(lenderApplicationSqlScope(scope));
}

/** Per day or week of the window, the visible applications that moved into each status. */
export async function applicationsByStatus(ctx: ServiceContext, window: unknown): Promise<ApplicationsByStatus> {
  const actor = requireAccess(ctx, 'insights.read');
  const { bucket, since, until } = parseWindow(ctx, window);
  const reads = readsOf(ctx.db);
  const visible = visibleApplications(reads, lenderApplicationListScope(ctx, actor, reads))
    .clearSelect()
    .select('la.id');
  const { unit, step } = UNITS[bucket];
  // Periods come from generate_series so that a quiet day is a zero, not a gap in the chart.
  const { rows } = await sql<{ start: string; status: ApplicationStatus | null; applications: number | null; acknowledged: number | null }>`
    WITH acks AS (
      SELECT date_trunc(${unit}, la."acknowledgedAt") AS period, count(*)::int AS acknowledged
        FROM lender_application la
       WHERE la.id IN (${visible})
         AND la."acknowledgedAt" >= ${at(since)} AND la."acknowledgedAt" < ${at(until)}
       GROUP BY 1
    ), moves AS (
      SELECT date_trunc(${unit}, sc."createdAt") AS period, sc."toStatus" AS status, count(DISTINCT sc."lenderApplicationId")::int AS applications
        FROM application_status_change sc
       WHERE sc."lenderApplicationId" IN (${visible})
         AND sc."createdAt" >= ${at(since)} AND sc."createdAt" < ${at(until)}
         AND sc."fromStatus" IS DISTINCT FROM sc."toStatus"
       GROUP BY 1, 2
    )
    SELECT ${iso('p.start')} AS start, m.status, m.applications, a.acknowledged
      FROM generate_series(date_trunc(${unit}, ${at(since)}), ${at(until)} - interval '1 millisecond', ${step}::interval) AS p(start)
      LEFT JOIN moves m ON m.period = p.start
      LEFT JOIN acks a ON a.period = p.start
     ORDER BY p.start`.execute(reads);
  const periods = new Map<string, Map<string, number>>();
  const acknowledged = new Map<string, number>();
  for (const row of rows) {
    const counts = periods.get(row.start) ?? new Map<string, number>();
    if (row.status !== null) counts.set(row.status, row.applications ?? 0);
    periods.set(row.start, counts);
    acknowledged.set(row.start, row.acknowledged ?? 0);
  }
  return {
    bucket,
    since: since.toISOString(),
    until: until.toISOString(),
    periods: [...periods].map(([start, counts]) => ({
      start,
      counts: APPLICATION_STATUSES.map((status) => ({ status, applications: counts.get(status) ?? 0 })),
      acknowledged: acknowledged.get(start) ?? 0,
    })),
  };
}

/** Per lender of the visible applications active in the window: times to first acknowledgement and first offer. */
export async function lenderResponseTimes(ctx: ServiceContext, window: unknown): Promise<LenderResponseTimes[]> {
  const actor = requireAccess(ctx, 'insights.read');
  const { since, until } = parseWindow(ctx, window);
  const reads = readsOf(ctx.db);
  // An application answered in the window changed then, so it was last changed at or after `since`:
  // the board's index on (environment, updatedAt) bounds the rows read.
  const active = visibleApplications(reads, lenderApplicationListScope(ctx, actor, reads))
    .where('la.updatedAt', '>=', at(since))
    .where('la.createdAt', '<', at(until));
  const inWindow = (column: string) => sql`${sql.ref(column)} >= ${at(since)} AND ${sql.ref(column)} < ${at(until)}`;
  const { rows } = await sql<{
    lenderId: number;
    lenderName: string;
    acknowledged: number;
    ackMedian: number | null;
    ackP90: number | null;
    offered: number;
    offerMedian: number | null;
    offerP90: number | null;
  }>`
    WITH firsts AS (
      SELECT la."lenderId", ack.at AS ack_at, EXTRACT(EPOCH FROM ack.at - la."createdAt")::float8 AS ack_seconds,
             offer.at AS offer_at, EXTRACT(EPOCH FROM offer.at - la."createdAt")::float8 AS offer_seconds
        FROM (${active}) la
        LEFT JOIN LATERAL (SELECT la."acknowledgedAt" AS at) ack ON true
        LEFT JOIN LATERAL (SELECT min(sc."createdAt") AS at FROM application_status_change sc WHERE sc."lenderApplicationId" = la.id AND sc."toStatus" = 'Offered') offer ON true
    )
    SELECT l.id AS "lenderId", l.name AS "lenderName",
           (count(*) FILTER (WHERE ${inWindow('f.ack_at')}))::int AS acknowledged,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY f.ack_seconds) FILTER (WHERE ${inWindow('f.ack_at')}) AS "ackMedian",
           percentile_cont(0.9) WITHIN GROUP (ORDER BY f.ack_seconds) FILTER (WHERE ${inWindow('f.ack_at')}) AS "ackP90",
           (count(*) FILTER (WHERE ${inWindow('f.offer_at')}))::int AS offered,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY f.offer_seconds) FILTER (WHERE ${inWindow('f.offer_at')}) AS "offerMedian",
           percentile_cont(0.9) WITHIN GROUP (ORDER BY f.offer_seconds) FILTER (WHERE ${inWindow('f.offer_at')}) AS "offerP90"
      FROM firsts f
      JOIN lender l ON l.id = f."lenderId"
     GROUP BY l.id, l.name
     ORDER BY l.name, l.id`.execute(reads);
  return rows.map((row) => ({
    lenderId: row.lenderId,
    lenderName: row.lenderName,
    acknowledgement: { answered: row.acknowledged, medianSeconds: row.ackMedian, p90Seconds: row.ackP90 },
    offer: { answered: row.offered, medianSeconds: row.offerMedian, p90Seconds: row.offerP90 },
  }));
}
