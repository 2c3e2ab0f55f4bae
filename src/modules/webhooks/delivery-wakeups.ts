/**
 * Waking the delivery workers: a statement that makes a delivery due (a new delivery, a redelivery,
 * a retry's time, an application's next delivery once the one before it is settled) also sends a
 * PostgreSQL NOTIFY, delivered to every listening worker process when its transaction commits (and
 * never for a rolled-back one). The workers listen through infra/job-notifications.ts, which wakes a
 * fetch loop at once, or at `startAfter` for a later time; their polling (JOB_POLL_SECONDS) is only
 * the fallback for a wake-up missed, and for a claim that lapsed (its worker died mid-attempt).
 */
import { sql, type Compilable, type RawBuilder } from 'kysely';
import type { Prisma } from '../../generated/prisma/client.js';
import { JOB_READY_CHANNEL, QUEUES, type JobReady } from '../../infra/job-queue.js';

export const DELIVERY_WAKEUP_CHANNEL = JOB_READY_CHANNEL;

/** The NOTIFY payload: deliveries are due now (null) or at `startAfter` (epoch ms). */
export function deliveryWakeup(startAfter: number | null): string {
  return JSON.stringify({ queue: QUEUES.webhookDelivery, startAfter } satisfies JobReady);
}

/** Wakes a worker when the caller's Prisma transaction commits: deliveries it wrote are due now. */
export async function wakeWorkersAtCommit(tx: Prisma.TransactionClient): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${DELIVERY_WAKEUP_CHANNEL}, ${deliveryWakeup(null)})`;
}

/**
 * The caller's writes as one statement (each a data-modifying CTE: all run in full, on one
 * snapshot) that also wakes a worker at commit when `wake` is set: a change and the deliveries it
 * queues in one round trip.
 */
export function writesWithWakeup(writes: ReadonlyArray<Compilable | RawBuilder<unknown>>, wake: boolean): RawBuilder<unknown> {
  const ctes = writes.map((write, i) => sql`${sql.raw(`write_${i}`)} AS (${write})`);
  const notify = wake ? sql`pg_notify(${DELIVERY_WAKEUP_CHANNEL}, ${deliveryWakeup(null)})` : sql`NULL`;
  return ctes.length === 0 ? sql`SELECT ${notify} AS woken` : sql`WITH ${sql.join(ctes)} SELECT ${notify} AS woken`;
}
