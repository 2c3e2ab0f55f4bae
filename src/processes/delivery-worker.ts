/**
 * The webhook delivery worker: takes delivery jobs from the queue and attempts them. Runs inside
 * `npm start` and as its own process in the distributed deployment (`start:service -- worker`);
 * several workers may run at once (pg-boss hands each job to one).
 */
import { QUEUES } from '../infra/job-queue.js';
import { startJobLeases } from '../infra/job-leases.js';
import { attemptDueDelivery } from '../modules/webhooks/webhook-delivery.js';
import { loadDueDeliveries } from '../modules/webhooks/delivery-attempt-store.js';
import { closeLenderConnections } from '../modules/webhooks/lender-connections.js';
import type { Runtime } from './runtime.js';
import { measureDeliveryAttempt } from '../infra/metrics.js';

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

export async function startDeliveryWorker(runtime: Runtime, options: { pollingIntervalSeconds?: number } = {}): Promise<DeliveryWorker> {
  const { boss } = runtime.jobs;
  // Jobs left running by a worker that died are handed out again at once (see job-leases.ts).
  const leases = await startJobLeases(runtime.database.connectionString, boss, QUEUES.webhookDelivery, runtime.logger);
  const startLoop = async (): Promise<void> => {
    let loopId = '';
    loopId = await boss.work<{ deliveryId: string; requestId?: string }>(
      QUEUES.webhookDelivery,
      { batchSize: DELIVERY_BATCH_SIZE, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5 },
      async (jobs) => {
        const ids = jobs.map((job) => job.id);
        await leases.take(ids);
        try {
          const ctx = runtime.contextFor();
          const due = await loadDueDeliveries(ctx.db, jobs.map((job) => job.data.deliveryId));
          await Promise.all(
            jobs.map(async (job) => {
              // The attempt logs under the id of the request that caused the delivery, and tells the lender it.
              const { requestId, deliveryId } = job.data;
              const jobCtx = requestId === undefined ? ctx : runtime.contextFor({}, requestId);
              const outcome = await measureDeliveryAttempt(() => attemptDueDelivery(jobCtx, deliveryId, due.get(deliveryId)));
              jobCtx.logger.info({ deliveryId, outcome }, 'webhook delivery attempt');
            }),
          );
        } finally {
          await leases.release(ids);
        }
        // A full batch means more are waiting: fetch again at once instead of after the polling interval.
        if (jobs.length === DELIVERY_BATCH_SIZE) boss.notifyWorker(loopId);
      },
    );
  };
  for (let loop = 0; loop < DELIVERY_LOOPS; loop++) await startLoop();
  return {
    async stop() {
      await boss.offWork(QUEUES.webhookDelivery);
      await leases.close();
      await closeLenderConnections();
    },
  };
}
