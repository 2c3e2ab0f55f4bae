/**
 * Job wake-ups on a real PostgreSQL: a job enqueued in a transaction (Prisma's, or a typed SQL one
 * along with its own writes) wakes a listener in another session when the transaction commits
 * (never for one rolled back); a job due later wakes it when due; a listening session that is
 * killed is replaced and still wakes its worker; closing leaves no session behind.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, readsOf, type Database } from './database.js';
import { startJobQueue, type JobQueue } from './job-queue.js';
import { listenForJobs, type JobNotifications } from './job-notifications.js';
import { createLogger } from './logger.js';
import { eventually } from '../../test/support/lender-receiver.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';

const QUEUE = 'webhook-delivery';
const LISTENER_SESSION = 'funding-gateway-job-listener';
const logger = createLogger('silent');

let database: TestDatabase;
let db: Database;
let jobs: JobQueue;
let admin: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: 'unused', poolSize: 2, migrate: false });
  jobs = await startJobQueue(database.url, logger, { jobExpirySeconds: 60 });
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await jobs?.close();
  await db?.close();
  await database?.drop();
});

/** The listening sessions on this test's database (their backend pids). */
async function listenerSessions(): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
    [LISTENER_SESSION],
  );
  return rows.map((r) => r.pid);
}

describe('job wake-ups', () => {
  let listener: JobNotifications | undefined;
  /** Wake-ups by a job's NOTIFY (`due` ones counted apart: a reconnection's own wake-up is neither). */
  let wakes = 0;
  let dueWakes = 0;
  beforeAll(async () => {
    listener = await listenForJobs(database.url, QUEUE, logger, (reason) => {
      if (reason === 'notification') wakes++;
      if (reason === 'due') dueWakes++;
    });
  });
  afterAll(async () => {
    await listener?.close();
  });

  it('wakes the listener when the enqueuing transaction commits, not for one rolled back', async () => {
    const before = wakes;
    await expect(
      db.prisma.$transaction(async (tx) => {
        await jobs.enqueue(QUEUE, { deliveryId: '00000000-0000-4000-8000-000000000001' }, { tx });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await db.prisma.$transaction((tx) => jobs.enqueueMany(QUEUE, [{ data: { deliveryId: '00000000-0000-4000-8000-000000000002' } }, { data: { deliveryId: '00000000-0000-4000-8000-000000000003' } }], { tx }));
    await eventually(async () => wakes, (n) => n > before);
    // Notifications arrive in commit order: had the rolled-back one been sent, it would have come first.
    expect(wakes).toBe(before + 1);
  });

  it('inserts jobs along with a typed SQL transaction’s own writes, waking the listener only at commit', async () => {
    const reads = readsOf(db.prisma);
    const jobsNamed = async (deliveryId: string) =>
      (await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND data->>'deliveryId' = $2`, [QUEUE, deliveryId])).rows[0]!.n;
    const rolledBack = '00000000-0000-4000-8000-000000000011';
    const committed = ['00000000-0000-4000-8000-000000000012', '00000000-0000-4000-8000-000000000013'];
    const before = wakes;
    await expect(
      reads.transaction().execute(async (trx) => {
        await jobs.enqueueManyAlong(QUEUE, [{ data: { deliveryId: rolledBack } }], trx, [trx.updateTable('lender').set({ active: true }).where('id', '=', -1)]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await reads.transaction().execute((trx) =>
      jobs.enqueueManyAlong(QUEUE, committed.map((deliveryId) => ({ data: { deliveryId } })), trx, [trx.updateTable('lender').set({ active: true }).where('id', '=', -1)]),
    );
    await eventually(async () => wakes, (n) => n > before);
    expect(wakes).toBe(before + 1);
    expect(await jobsNamed(rolledBack)).toBe(0);
    expect(await Promise.all(committed.map(jobsNamed))).toEqual([1, 1]);
  });

  it('ignores the jobs of other queues', async () => {
    const before = wakes;
    await jobs.boss.createQueue('another-queue');
    await jobs.enqueue('another-queue', {});
    await jobs.enqueue(QUEUE, { deliveryId: '00000000-0000-4000-8000-000000000004' });
    await eventually(async () => wakes, (n) => n > before);
    expect(wakes).toBe(before + 1);
  });

  it('wakes the listener for a delayed job when it is due', async () => {
    await jobs.enqueue(QUEUE, { deliveryId: '00000000-0000-4000-8000-000000000005' }, { startAfter: new Date(Date.now() + 300) });
    await eventually(async () => dueWakes, (n) => n === 1);
  });

  it('replaces a listening session that is terminated, and hears notifications on the new one', async () => {
    const [lost] = await listenerSessions();
    expect(lost).toBeDefined();
    await admin.query('SELECT pg_terminate_backend($1)', [lost]);
    const [replacement] = await eventually(listenerSessions, (pids) => pids.length === 1 && pids[0] !== lost);
    expect(replacement).not.toBe(lost);
    // Until the new session's LISTEN has run, a notification reaches nobody: enqueue until one is heard.
    const before = wakes;
    await eventually(async () => {
      await jobs.enqueue(QUEUE, { deliveryId: '00000000-0000-4000-8000-000000000006' });
      return wakes;
    }, (n) => n > before);
  });

  it('closes its session on close', async () => {
    await listener!.close();
    listener = undefined;
    expect(await eventually(listenerSessions, (pids) => pids.length === 0)).toEqual([]);
  });
});
