/**
 * The webhook delivery worker: takes delivery jobs from the queue and attempts them. Runs inside
 * `npm start` and as its own process in the distributed deployment (`start:service -- worker`);
 * several workers may run at once (pg-boss hands each job to one).
 */
import { QUEUES } from '../infra/job-queue.js';
import { attemptDelivery } from '../domain/webhooks/webhook-delivery.js';
import type { Runtime } from './runtime.js';

export interface DeliveryWorker {
  stop(): Promise<void>;
}

export async function startDeliveryWorker(runtime: Runtime, options: { pollingIntervalSeconds?: number } = {}): Promise<DeliveryWorker> {
  const { boss } = runtime.jobs;
  await boss.work<{ deliveryId: string }>(
    QUEUES.webhookDelivery,
    { batchSize: 4, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5 },
    async (jobs) => {
      for (const job of jobs) {
        const outcome = await attemptDelivery(runtime.contextFor(), job.data.deliveryId);
        runtime.logger.info({ deliveryId: job.data.deliveryId, outcome }, 'webhook delivery attempt');
      }
    },
  );
  return {
    async stop() {
      await boss.offWork(QUEUES.webhookDelivery);
    },
  };
}
