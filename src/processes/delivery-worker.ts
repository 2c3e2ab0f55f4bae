/**
 * The webhook delivery worker: takes delivery jobs from the queue and attempts them. Runs inside
 * `npm start` and as its own process in the distributed deployment (`start:service -- worker`);
 * several workers may run at once (pg-boss hands each job to one).
 *
 * A job is started as soon as it commits: the enqueue's NOTIFY wakes one fetch loop (an idle one
 * if there is one, else a busy one fetches again as soon as its batch is done), so bursts are taken
 * in batches and a lone job is not left waiting for a poll. Polling (JOB_POLL_SECONDS) remains the
 * fallback for a wake-up that was missed (the listening session was down).
 */
import { QUEUES } from '../infra/job-queue.js';
import { startJobLeases } from '../infra/job-leases.js';
import { listenForJobs, type WakeReason } from '../infra/job-notifications.js';
import { attemptDueDelivery } from '../modules/webhooks/webhook-delivery.js';
import { loadDueDeliveries } from '../modules/webhooks/delivery-attempt-store.js';
import { closeLenderConnections } from '../modules/webhooks/lender-connections.js';
import type { Runtime } from './runtime.js';
import { measureDeliveryAttempt, UNKNOWN_LENDER } from '../infra/metrics.js';

export interface DeliveryWorker {
  stop(): Promise<void>;
}

/** Jobs taken per fetch: their deliveries are read by one query and attempted concurrently. */
export const DELIVERY_BATCH_SIZE = 50;
/**
 * Fetch loops per worker process. A loop waits for its whole batch, so one lender that does not
 * answer holds only its own loop's batch until the timeout while the others keep delivering.
 */
export const DELIVERY_LOOPS = 4;
/** Attempts in flight at most, per worker process. */
export const DELIVERY_CONCURRENCY = DELIVERY_BATCH_SIZE * DELIVERY_LOOPS;

/** What made a loop fetch the batch it runs: a wake-up (job-notifications.ts), or the fallback poll. */
export type WakeCause = WakeReason | 'poll';

interface FetchLoop {
  id: string;
  busy: boolean;
  /** Set when a wake-up was sent to the loop: its next fetch is due to it. */
  wokenBy: WakeReason | null;
}

export async function startDeliveryWorker(runtime: Runtime, options: { pollingIntervalSeconds?: number } = {}): Promise<DeliveryWorker> {
  const { boss } = runtime.jobs;
  // Jobs left running by a worker that died are handed out again at once (see job-leases.ts).
  const leases = await startJobLeases(runtime.database.connectionString, boss, QUEUES.webhookDelivery, runtime.logger);
  const loops: FetchLoop[] = [];
  let nextBusyLoop = 0;
  /**
   * One loop per wake-up: an idle one not yet woken fetches now (a burst of commits spreads over the
   * loops), else any idle one, else a busy one fetches again right after its batch.
   */
  const wakeOneLoop = (reason: WakeReason) => {
    const idle = loops.find((loop) => !loop.busy && loop.wokenBy === null) ?? loops.find((loop) => !loop.busy);
    const loop = idle ?? loops[nextBusyLoop++ % loops.length];
    if (!loop) return;
    loop.wokenBy = reason;
    boss.notifyWorker(loop.id);
  };
  const notifications = await listenForJobs(runtime.database.connectionString, QUEUES.webhookDelivery, runtime.logger, wakeOneLoop);

  const startLoop = async (): Promise<void> => {
    const loop: FetchLoop = { id: '', busy: false, wokenBy: null };
    loop.id = await boss.work<{ deliveryId: string; requestId?: string }>(
      QUEUES.webhookDelivery,
      { batchSize: DELIVERY_BATCH_SIZE, pollingIntervalSeconds: options.pollingIntervalSeconds ?? runtime.config.JOB_POLL_SECONDS },
      async (jobs) => {
        const wokenBy: WakeCause = loop.wokenBy ?? 'poll';
        loop.busy = true;
        loop.wokenBy = null;
        const ids = jobs.map((job) => job.id);
        try {
          await leases.take(ids);
          try {
            const ctx = runtime.contextFor();
            const due = await loadDueDeliveries(ctx.db, jobs.map((job) => job.data.deliveryId));
            await Promise.all(
              jobs.map(async (job) => {
                const { requestId, deliveryId } = job.data;
                const jobCtx = requestId === undefined ? ctx : runtime.contextFor({}, requestId);
                const delivery = due.get(deliveryId);
                const outcome = await measureDeliveryAttempt(delivery?.lenderSlug ?? UNKNOWN_LENDER, () => attemptDueDelivery(jobCtx, deliveryId, delivery));
                jobCtx.logger.info({ deliveryId, outcome, wokenBy }, 'webhook delivery attempt');
              }),
            );
          } finally {
            await leases.release(ids);
          }
        } finally {
          loop.busy = false;
        }
        // A full batch means more are waiting: fetch again at once instead of after the polling interval.
        if (jobs.length === DELIVERY_BATCH_SIZE) boss.notifyWorker(loop.id);
      },
    );
    loops.push(loop);
  };
  for (let loop = 0; loop < DELIVERY_LOOPS; loop++) await startLoop();
  return {
    async stop() {
      // No more wake-ups once stopping: the loops finish their batches and stop.
      await notifications.close();
      await boss.offWork(QUEUES.webhookDelivery);
      await leases.close();
      await closeLenderConnections();
    },
  };
}
