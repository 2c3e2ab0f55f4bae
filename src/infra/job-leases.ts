/**
 * Prompt crash recovery for queue jobs. pg-boss hands a job out again only when it expires
 * (JOB_EXPIRY_SECONDS, which must exceed the longest attempt), so a worker killed mid-attempt would
 * leave its jobs stuck for that long. Here each worker process holds one database session named
 * after it (application_name `fg-worker:<id>`) for its whole life and records a lease on every job it
 * runs (`job_lease`). A session ends with its process, so an active job whose lease names a worker
 * with no session left belongs to a dead worker: it is failed back to pg-boss, which retries it at
 * once. Every worker checks at start and then every few seconds, so a restarted worker (or any other
 * live one) takes such jobs back without waiting for their expiry; expiry remains the fallback for a
 * crash between taking a job and recording its lease.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type PgBoss from 'pg-boss';
import type { Logger } from './logger.js';

export interface JobLeases {
  /** Records that this worker runs these jobs (before running them). */
  take(jobIds: string[]): Promise<void>;
  release(jobIds: string[]): Promise<void>;
  /** Hands the jobs of dead workers back to the queue; returns their ids. */
  reclaim(): Promise<string[]>;
  close(): Promise<void>;
}

const WORKER_PREFIX = 'fg-worker:';
/** One reclaimer at a time, across processes (transaction-scoped advisory lock). */
const RECLAIM_LOCK = 727_274_002;
export const RECLAIM_INTERVAL_MS = 2_000;

export async function startJobLeases(connectionString: string, boss: PgBoss, queue: string, logger: Logger): Promise<JobLeases> {
  const workerId = randomUUID();
  let closed = false;
  let presence: pg.Client | undefined;
  const connectPresence = async (): Promise<void> => {
    const client = new pg.Client({ connectionString, application_name: `${WORKER_PREFIX}${workerId}` });
    client.on('error', (err) => logger.warn({ err }, 'job lease session lost'));
    client.on('end', () => {
      // Without its session this worker counts as dead and its jobs may run twice (at least once still holds).
      if (!closed) setTimeout(() => void connectPresence().catch((err: unknown) => logger.error({ err }, 'job lease session not restored')), 1_000);
    });
    await client.connect();
    presence = client;
  };
  await connectPresence();
  const pool = new pg.Pool({ connectionString, max: 2, application_name: 'funding-gateway-leases' });
  pool.on('error', (err) => logger.warn({ err }, 'job lease connection error'));

  const reclaim = async (): Promise<string[]> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows: [lock] } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [RECLAIM_LOCK]);
      if (!lock!.locked) return [];
      const { rows } = await client.query<{ id: string }>(
        `SELECT l."jobId" AS id FROM job_lease l
           JOIN pgboss.job j ON j.id = l."jobId" AND j.name = $1 AND j.state = 'active'
          WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                             WHERE a.datname = current_database() AND a.application_name = $2 || l."workerId")`,
        [queue, WORKER_PREFIX],
      );
      const ids = rows.map((r) => r.id);
      if (ids.length > 0) {
        await boss.fail(queue, ids);
        logger.info({ queue, jobs: ids.length }, 'jobs of a worker that died handed out again');
      }
      await client.query(`DELETE FROM job_lease l WHERE NOT EXISTS (SELECT 1 FROM pgboss.job j WHERE j.id = l."jobId" AND j.state = 'active')`);
      return ids;
    } finally {
      await client.query('COMMIT').catch(() => {});
      client.release();
    }
  };

  const timer = setInterval(() => {
    reclaim().catch((err: unknown) => logger.warn({ err }, 'reclaiming the jobs of dead workers failed'));
  }, RECLAIM_INTERVAL_MS);
  timer.unref();
  await reclaim();

  return {
    async take(jobIds) {
      await pool.query(
        `INSERT INTO job_lease ("jobId", "workerId") SELECT unnest($1::uuid[]), $2
         ON CONFLICT ("jobId") DO UPDATE SET "workerId" = EXCLUDED."workerId", "takenAt" = now()`,
        [jobIds, workerId],
      );
    },
    async release(jobIds) {
      await pool.query('DELETE FROM job_lease WHERE "jobId" = ANY($1::uuid[]) AND "workerId" = $2', [jobIds, workerId]);
    },
    reclaim,
    async close() {
      closed = true;
      clearInterval(timer);
      await pool.end();
      await presence?.end();
    },
  };
}
