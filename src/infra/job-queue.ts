/**
 * The job queue: pg-boss on the deployment's PostgreSQL (or the embedded one). Jobs are enqueued
 * inside the caller's database transaction (pg-boss's `db` option over the Prisma transaction), so
 * a job exists exactly when the change that asked for it committed: a crash at any moment loses
 * nothing. pg-boss holds each running job and hands it out again when its holder dies (expiry).
 */
import PgBoss from 'pg-boss';
import type { Prisma } from '../generated/prisma/client.js';
import type { Logger } from './logger.js';
import type { JobScheduler } from '../kernel/context.js';

export interface JobQueue extends JobScheduler {
  boss: PgBoss;
  close(): Promise<void>;
}

export const QUEUES = { webhookDelivery: 'webhook-delivery' } as const;

export async function startJobQueue(
  connectionString: string,
  logger: Logger,
  options: { jobExpirySeconds: number },
): Promise<JobQueue> {
  const boss = new PgBoss({
    connectionString,
    max: 4,
    schedule: false,
    application_name: 'funding-gateway-jobs',
    // Expired jobs (their worker died) are noticed by maintenance: run it at half the expiry.
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(options.jobExpirySeconds / 2))),
  });
  boss.on('error', (err) => logger.error({ err }, 'job queue error'));
  await boss.start();
  // Retries are scheduled by the delivery itself (its published schedule, with jitter); pg-boss
  // retries only a job whose worker died (expired), which is what makes delivery at-least-once.
  await boss.createQueue(QUEUES.webhookDelivery, {
    name: QUEUES.webhookDelivery,
    retryLimit: 5,
    retryDelay: 1,
    expireInSeconds: options.jobExpirySeconds,
  });
  return {
    boss,
    async enqueue(queue, data, enqueueOptions = {}) {
      const db = enqueueOptions.tx ? transactionDb(enqueueOptions.tx) : undefined;
      await boss.send(queue, data, { ...(db ? { db } : {}), ...(enqueueOptions.startAfter ? { startAfter: enqueueOptions.startAfter } : {}) });
    },
    async close() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}

function transactionDb(tx: Prisma.TransactionClient) {
  return {
    executeSql: async (text: string, values: unknown[]) => ({ rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values) }),
  };
}
