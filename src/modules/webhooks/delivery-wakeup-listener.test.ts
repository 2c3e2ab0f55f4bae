/**
 * Delivery wake-ups on a real PostgreSQL: a wake-up sent in a transaction (Prisma's, or a typed SQL
 * one) wakes a listener in another session when the transaction commits, never for one rolled back;
 * one sent after a commit (`wakeDeliveryWorkers`, in a process without a worker) wakes it too; a
 * wake-up for later wakes it when due; a listening session that is killed is replaced and still
 * wakes its worker; closing leaves no session behind.
 */
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, readsOf, type Database } from '../../infra/database.js';
import { createLogger } from '../../infra/logger.js';
import type { ServiceContext } from '../../kernel/context.js';
import { DELIVERY_WAKEUP_CHANNEL, deliveryWakeup, wakeDeliveryWorkers, wakeWorkersAtCommit } from './delivery-wakeups.js';
import { listenForDeliveryWakeups, type DeliveryWakeupListener } from './delivery-wakeup-listener.js';
import { eventually } from '../../../test/support/lender-receiver.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';

const LISTENER_SESSION = 'funding-gateway-delivery-listener';
const logger = createLogger('silent');

let database: TestDatabase;
let db: Database;
let admin: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: 'unused', poolSize: 2, migrate: false });
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await db?.close();
  await database?.drop();
});

/** The listening sessions on this test's database (their backend pids). */
async function listenerSessions(): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [
    LISTENER_SESSION,
  ]);
  return rows.map((r) => r.pid);
}

describe('delivery wake-ups', () => {
  let listener: DeliveryWakeupListener | undefined;
  /** Wake-ups by a NOTIFY (`due` ones counted apart: a reconnection's own wake-up is neither). */
  let wakes = 0;
  let dueWakes = 0;
  /** When the last `due` wake-up came (Date.now()). */
  let lastDueAt = 0;
  beforeAll(async () => {
    listener = await listenForDeliveryWakeups(database.url, logger, (reason) => {
      if (reason === 'notification') wakes++;
      if (reason === 'due') {
        dueWakes++;
        lastDueAt = Date.now();
      }
    });
  });
  afterAll(async () => {
    await listener?.close();
  });

  it('wakes the listener when a Prisma transaction that queued deliveries commits, not for one rolled back', async () => {
    const before = wakes;
    await expect(
      db.prisma.$transaction(async (tx) => {
        await wakeWorkersAtCommit(tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await db.prisma.$transaction((tx) => wakeWorkersAtCommit(tx));
    await eventually(
      async () => wakes,
      (n) => n > before,
    );
    // Notifications arrive in commit order: had the rolled-back one been sent, it would have come first.
    expect(wakes).toBe(before + 1);
  });

  it('wakes the listener at the commit of a typed SQL transaction (the worker’s records), not for one rolled back', async () => {
    const reads = readsOf(db.prisma);
    const notify = sql`SELECT pg_notify(${DELIVERY_WAKEUP_CHANNEL}, ${deliveryWakeup(null)})`;
    const before = wakes;
    await expect(
      reads.transaction().execute(async (trx) => {
        await notify.execute(trx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await reads.transaction().execute((trx) => notify.execute(trx));
    await eventually(
      async () => wakes,
      (n) => n > before,
    );
    expect(wakes).toBe(before + 1);
  });

  it('is woken after a commit by a process that runs no worker', async () => {
    const before = wakes;
    wakeDeliveryWorkers({ db: db.prisma, logger } as unknown as ServiceContext);
    // One call, one notification (eventually throws if none comes).
    expect(
      await eventually(
        async () => wakes,
        (n) => n > before,
      ),
    ).toBe(before + 1);
    expect(dueWakes).toBe(0);
  });

  it('wakes the listener for deliveries due later when they are due, and ignores payloads it cannot read', async () => {
    const before = wakes;
    const due = Date.now() + 300;
    await admin.query('SELECT pg_notify($1, $2)', [DELIVERY_WAKEUP_CHANNEL, 'not json']);
    await admin.query('SELECT pg_notify($1, $2)', [DELIVERY_WAKEUP_CHANNEL, deliveryWakeup(due)]);
    await eventually(
      async () => dueWakes,
      (n) => n === 1,
    );
    // Woken when due, not when told; neither payload woke it at once (they arrive in the order sent).
    expect(lastDueAt).toBeGreaterThanOrEqual(due);
    expect(wakes).toBe(before);
  });

  it('replaces a listening session that is terminated, and hears notifications on the new one', async () => {
    const [lost] = await listenerSessions();
    expect(lost).toBeDefined();
    await admin.query('SELECT pg_terminate_backend($1)', [lost]);
    const [replacement] = await eventually(listenerSessions, (pids) => pids.length === 1 && pids[0] !== lost);
    expect(replacement).not.toBe(lost);
    // Until the new session's LISTEN has run, a notification reaches nobody: notify until one is heard.
    const before = wakes;
    await eventually(
      async () => {
        await admin.query('SELECT pg_notify($1, $2)', [DELIVERY_WAKEUP_CHANNEL, deliveryWakeup(null)]);
        return wakes;
      },
      (n) => n > before,
    );
  });

  it('closes its session on close', async () => {
    await listener!.close();
    listener = undefined;
    expect(await eventually(listenerSessions, (pids) => pids.length === 0)).toEqual([]);
  });
});
