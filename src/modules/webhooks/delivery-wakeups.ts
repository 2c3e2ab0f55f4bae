/**
 * Waking the delivery workers when deliveries become due, so that none waits for a poll. Workers
 * listen on PostgreSQL's NOTIFY channel (delivery-wakeup-listener.ts, which wakes a fetch loop at
 * once, or at `startAfter` for a later time); their polling (JOB_POLL_SECONDS) is only the fallback
 * for a wake-up missed, and for a claim that lapsed (its worker died mid-attempt).
 *
 * Two ways to wake them, by how hot the path is:
 *  - `wakeWorkersAtCommit`: a NOTIFY inside the caller's transaction, delivered when it commits and
 *    never for a rolled back one. PostgreSQL serialises the commits of notifying transactions (a
 *    cluster-wide lock, held until after the commit, so through its WAL flush): fine for
 *    submissions, redeliveries and the worker's own records, a ceiling for a request path. Measured
 *    with pgbench, 16 clients inserting a row each: 3,000 commits/s plain, 600/s with a NOTIFY in
 *    the transaction, 2,000/s with the NOTIFY sent after the commit.
 *  - `wakeDeliveryWorkers`, called once the caller's transaction has committed (a status change):
 *    a worker running in this process is woken directly, with no statement at all; otherwise one
 *    NOTIFY is sent on its own (it writes nothing, so it holds that lock only for an instant),
 *    and calls arriving while it is on its way share the next one. A crash between the commit and
 *    the wake-up leaves the delivery to the workers' poll.
 */
import { sql } from 'kysely';
import type { Prisma } from '../../generated/prisma/client.js';
import { readsOf, type Db } from '../../infra/database.js';
import type { ServiceContext } from '../../kernel/context.js';

/** The NOTIFY channel that wakes the delivery workers; its payload is a DeliveryWakeup as JSON. */
export const DELIVERY_WAKEUP_CHANNEL = 'fg_delivery_due';

/** What a wake-up says: deliveries are due now (`startAfter` null) or at `startAfter` (epoch ms). */
export interface DeliveryWakeup {
  startAfter: number | null;
}

/** The NOTIFY payload: deliveries are due now (null) or at `startAfter` (epoch ms). */
export function deliveryWakeup(startAfter: number | null): string {
  return JSON.stringify({ startAfter } satisfies DeliveryWakeup);
}

/** Wakes a worker when the caller's Prisma transaction commits: deliveries it wrote are due now. */
export async function wakeWorkersAtCommit(tx: Prisma.TransactionClient): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${DELIVERY_WAKEUP_CHANNEL}, ${deliveryWakeup(null)})`;
}

/** Workers running in this process, by the database client they claim with. */
const localWorkers = new WeakMap<Db, Set<() => void>>();

/** A worker of this process asks to be woken directly by `wakeDeliveryWorkers`; returns how to stop. */
export function wakeLocally(db: Db, wake: () => void): () => void {
  let workers = localWorkers.get(db);
  if (!workers) localWorkers.set(db, (workers = new Set()));
  workers.add(wake);
  return () => void workers.delete(wake);
}

/**
 * Once the caller's transaction committed deliveries due now: wakes this process's worker, or, in a
 * process without one (a REST adapter of the distributed deployment), the workers listening anywhere.
 * @access internal: after a use case that decided access committed deliveries
 */
export function wakeDeliveryWorkers(ctx: ServiceContext): void {
  const workers = localWorkers.get(ctx.db);
  if (workers && workers.size > 0) {
    for (const wake of workers) wake();
    return;
  }
  let notify = notifiers.get(ctx.db);
  if (!notify) notifiers.set(ctx.db, (notify = coalescedNotify(ctx)));
  notify();
}

const notifiers = new WeakMap<Db, () => void>();

/** One NOTIFY at a time; calls made while it is on its way are answered by one more after it (a commit may have followed its send). */
function coalescedNotify(ctx: ServiceContext): () => void {
  let sending = false;
  let again = false;
  const send = async () => {
    sending = true;
    do {
      again = false;
      try {
        await sql`SELECT pg_notify(${DELIVERY_WAKEUP_CHANNEL}, ${deliveryWakeup(null)})`.execute(readsOf(ctx.db));
      } catch (err) {
        ctx.logger.warn({ err }, 'waking the webhook workers failed: their poll takes the deliveries up');
      }
    } while (again);
    sending = false;
  };
  return () => {
    if (sending) again = true;
    else void send();
  };
}
