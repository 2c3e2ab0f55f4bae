/**
 * The delivery backlog as operators need it (/health/ready, and the webhook_delivery_due gauges of
 * /metrics): how many deliveries are due and not yet delivered (pending, or failed and due for their
 * retry; an attempt under way included), and how long the oldest of them has been due. Steady at a
 * few and a few seconds while the workers keep up; growing when none runs or lenders hold them.
 *
 * One statement, on the partial index of the undelivered rows by due time (webhook_delivery_due_idx,
 * migration 20261127180000), read in index order and cut at BACKLOG_COUNT_LIMIT rows: a probe that
 * runs every few seconds in every process costs the same however large the backlog grows, and a
 * backlog larger than the limit reads as the limit.
 */
import { sql } from 'kysely';
import type { Db } from '../../infra/database.js';
import { readsOf } from '../../infra/database.js';
import type { DeliveryBacklogGauges as DeliveryBacklog } from '../../infra/metrics.js';

export type { DeliveryBacklog };

/** The most due deliveries a reading counts: `due` equal to it means at least that many. */
const BACKLOG_COUNT_LIMIT = 10_000;

/** Reads the backlog as of `now`. */
export async function readDeliveryBacklog(db: Db, now: Date): Promise<DeliveryBacklog> {
  // The columns hold UTC in `timestamp(3)`: `now` goes as UTC text, and the age is computed in SQL.
  const at = now.toISOString();
  const {
    rows: [row],
  } = await sql<{ due: number; oldestDueSeconds: number | null }>`
    SELECT count(*)::int AS due,
           extract(epoch FROM ${at}::timestamp(3) - min(b."nextAttemptAt"))::float8 AS "oldestDueSeconds"
      FROM (SELECT "nextAttemptAt" FROM webhook_delivery
             WHERE status IN ('PENDING', 'FAILED') AND "nextAttemptAt" <= ${at}::timestamp(3)
             ORDER BY "nextAttemptAt"
             LIMIT ${BACKLOG_COUNT_LIMIT}) b`.execute(readsOf(db));
  return { due: row?.due ?? 0, oldestDueSeconds: Math.max(0, Math.round(row?.oldestDueSeconds ?? 0)) };
}
