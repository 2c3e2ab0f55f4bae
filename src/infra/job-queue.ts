/**
 * The job queue: pg-boss on the deployment's PostgreSQL (or the embedded one). Jobs are enqueued
 * inside the caller's database transaction (pg-boss's `db` option over the Prisma transaction, or
 * pg-boss's insert placed in a statement of a typed SQL transaction on the same pool), so
 * a job exists exactly when the change that asked for it committed: a crash at any moment loses
 * nothing. pg-boss holds each running job and hands it out again when its holder dies (expiry).
 *
 * pg-boss finds new jobs only by polling. So that a worker starts a job as soon as it commits, every
 * enqueue also sends a PostgreSQL NOTIFY on JOB_READY_CHANNEL in the same transaction: PostgreSQL
 * delivers it to every listening session (any process) at commit, and never for a rolled-back
 * transaction. Workers listen (job-notifications.ts) and poll only as the fallback.
 */
import PgBoss from 'pg-boss';
import { sql, type Compilable, type RawBuilder } from 'kysely';
import type { Prisma } from '../generated/prisma/client.js';
import type { Logger } from './logger.js';
import type { SqlTransaction } from './sql-reads.js';
import type { EnqueueOptions, JobScheduler, QueuedJob } from '../kernel/context.js';

export interface JobQueue extends JobScheduler {
  boss: PgBoss;
  close(): Promise<void>;
}

export const QUEUES = { webhookDelivery: 'webhook-delivery' } as const;

/** The NOTIFY channel that announces new jobs; its payload is a JobReady as JSON. */
export const JOB_READY_CHANNEL = 'fg_job_ready';

/** What a NOTIFY says: jobs of this queue are ready, or are due at `startAfter` (epoch ms). */
export interface JobReady {
  queue: string;
  startAfter: number | null;
}

/** PostgreSQL's deadlock_detected. */
const DEADLOCK = '40P01';

/**
 * Creates the queue unless it exists. Replicas starting together on a new database each create it,
 * and pg-boss's create_queue (a row, then its partition table) can deadlock between them:
 * PostgreSQL aborts one, which tries again and finds the queue there.
 */
async function createQueueOnce(boss: PgBoss, queue: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if (await boss.getQueue(queue.name)) return;
    try {
      await boss.createQueue(queue.name, queue);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== DEADLOCK || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt * Math.random()));
    }
  }
}

export async function startJobQueue(
  connectionString: string,
  logger: Logger,
  options: { jobExpirySeconds: number; /** JOB_QUEUE_POOL_SIZE: pg-boss's own connections, beside DB_POOL_SIZE. */ poolSize?: number },
): Promise<JobQueue> {
  const boss = new PgBoss({
    connectionString,
    max: options.poolSize ?? 4,
    schedule: false,
    application_name: 'funding-gateway-jobs',
    // Expired jobs (their worker died) are noticed by maintenance: run it at half the expiry.
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(options.jobExpirySeconds / 2))),
  });
  boss.on('error', (err) => logger.error({ err }, 'job queue error'));
  await boss.start();
  // Retries are scheduled by the delivery itself (its published schedule, with jitter); pg-boss
  // retries only a job whose worker died (expired), which is what makes delivery at-least-once.
  await createQueueOnce(boss, {
    name: QUEUES.webhookDelivery,
    retryLimit: 5,
    retryDelay: 1,
    expireInSeconds: options.jobExpirySeconds,
  });
  const enqueueMany = async (queue: string, queued: readonly QueuedJob[], enqueueOptions: Pick<EnqueueOptions, 'tx'> = {}): Promise<void> => {
    if (queued.length === 0) return;
    const db = enqueueOptions.tx ? transactionDb(enqueueOptions.tx) : boss.getDb();
    await boss.insert(bossJobs(queue, queued), { db: notifyingWith(db, readyNotifications(queue, queued)) });
  };
  /**
   * pg-boss's own insert (its public `insert`, handed a db that keeps the statement instead of
   * running it) placed in the caller's statement, its $n parameters passed as the statement's own.
   */
  const enqueueManyAlong = async (queue: string, queued: readonly QueuedJob[], tx: SqlTransaction, writes: readonly Compilable[]): Promise<void> => {
    let insert: RawBuilder<unknown> | undefined;
    if (queued.length > 0) {
      await boss.insert(bossJobs(queue, queued), {
        db: {
          executeSql: async (text: string, values: unknown[]) => {
            insert = withParameters(text, values);
            return { rows: [] };
          },
        },
      });
    }
    const ctes = writes.map((write, i) => sql`${sql.raw(`write_${i}`)} AS (${write})`);
    if (insert) ctes.push(sql`inserted_jobs AS (${insert})`);
    if (ctes.length === 0) return;
    const notifications = readyNotifications(queue, queued);
    // The NOTIFYs in the statement's own SELECT: a CTE that only reads would not run unless read.
    await sql`WITH ${sql.join(ctes)}
      SELECT (SELECT count(*)::int FROM unnest(${notifications}::text[]) AS ready(payload), LATERAL pg_notify(${JOB_READY_CHANNEL}, ready.payload)) AS sent`.execute(tx);
  };
  return {
    boss,
    enqueueMany,
    enqueueManyAlong,
    enqueue: (queue, data, { startAfter, ...enqueueOptions } = {}) => enqueueMany(queue, [{ data, ...(startAfter ? { startAfter } : {}) }], enqueueOptions),
    async close() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}

/**
 * Runs pg-boss's job insert with the NOTIFYs in the same statement: a statement more per enqueue
 * would cost a round trip (and Prisma's per-statement work) in the transaction of every request
 * that queues a delivery. The insert becomes a data-modifying CTE, which runs in full whether or
 * not its rows are read; the notifications are sent by the same statement, delivered at commit.
 */
function notifyingWith(db: PgBoss.Db, notifications: string[]): PgBoss.Db {
  return {
    executeSql: (text: string, values: unknown[]) => {
      const channel = values.length + 1;
      return db.executeSql(
        `WITH inserted AS (${text} RETURNING 1)
         SELECT (SELECT count(*)::int FROM inserted) AS jobs,
                (SELECT count(*)::int FROM unnest($${channel + 1}::text[]) AS ready(payload), LATERAL pg_notify($${channel}, ready.payload)) AS sent`,
        [...values, JOB_READY_CHANNEL, notifications],
      );
    },
  };
}

function bossJobs(queue: string, queued: readonly QueuedJob[]) {
  return queued.map(({ data, startAfter }) => ({
    name: queue,
    data,
    ...(startAfter ? { startAfter: startAfter.toISOString() } : {}),
  }));
}

/** One notification per distinct start: jobs ready now wake a worker at commit, later ones when due. */
function readyNotifications(queue: string, queued: readonly QueuedJob[]): string[] {
  const starts = [...new Set(queued.map((job) => job.startAfter?.getTime() ?? null))];
  return starts.map((startAfter) => JSON.stringify({ queue, startAfter } satisfies JobReady));
}

/** SQL text with $1…$n placeholders (pg-boss's, which has no other `$`) as a part of a typed SQL statement. */
function withParameters(text: string, values: readonly unknown[]): RawBuilder<unknown> {
  const pieces = text.split(/\$(\d+)/);
  const parts = pieces.map((piece, i) => (i % 2 === 0 ? sql.raw(piece) : sql`${values[Number(piece) - 1]}`));
  return sql.join(parts, sql.raw(''));
}

function transactionDb(tx: Prisma.TransactionClient): PgBoss.Db {
  return {
    executeSql: async (text: string, values: unknown[]) => ({ rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values) }),
  };
}
