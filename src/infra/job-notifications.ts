/**
 * A worker's wake-up calls: one PostgreSQL session LISTENs on JOB_READY_CHANNEL (job-queue.ts sends
 * a NOTIFY with every enqueue, delivered at commit to every listening process) and calls `wake` for
 * the jobs of its queue: at once for a job ready now, at its start time for a delayed one (a retry).
 * A lost session is reconnected (with a growing pause) and, once listening again, wakes the worker
 * once: notifications sent while nobody listened are gone, and the jobs they announced wait in the
 * queue. The worker's polling stays the fallback for anything missed.
 */
import pg from 'pg';
import type { Logger } from './logger.js';
import { JOB_READY_CHANNEL, type JobReady } from './job-queue.js';

/** Why a worker is woken: a job's NOTIFY, a delayed job's start time, or its listening session restored. */
export type WakeReason = 'notification' | 'due' | 'reconnected';

export interface JobNotifications {
  /** Stops listening and cancels pending wake-ups; the session is closed when this resolves. */
  close(): Promise<void>;
}

/** Pause before reconnecting a lost session, doubling up to the maximum. */
const RECONNECT_FIRST_MS = 200;
const RECONNECT_MAX_MS = 5_000;
/** Delayed wake-ups due within this window share one timer (a burst of retries is one fetch). */
const DUE_WINDOW_MS = 20;

export async function listenForJobs(connectionString: string, queue: string, logger: Logger, wake: (reason: WakeReason) => void): Promise<JobNotifications> {
  let closed = false;
  let client: pg.Client | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let reconnectDelay = RECONNECT_FIRST_MS;
  const dueTimers = new Map<number, NodeJS.Timeout>();

  const wakeAt = (startAfter: number) => {
    const slot = Math.ceil(startAfter / DUE_WINDOW_MS) * DUE_WINDOW_MS;
    if (dueTimers.has(slot)) return;
    const timer = setTimeout(() => {
      dueTimers.delete(slot);
      wake('due');
    }, Math.max(0, slot - Date.now()));
    dueTimers.set(slot, timer);
  };

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== JOB_READY_CHANNEL || !message.payload) return;
    let ready: JobReady;
    try {
      ready = JSON.parse(message.payload) as JobReady;
    } catch {
      return;
    }
    if (ready.queue !== queue) return;
    if (ready.startAfter === null || ready.startAfter <= Date.now()) wake('notification');
    else wakeAt(ready.startAfter);
  };

  const scheduleReconnect = () => {
    if (closed || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void connect().then(
        () => wake('reconnected'),
        (err: unknown) => {
          logger.warn({ err }, 'job notification session not restored; retrying');
          reconnectDelay = Math.min(RECONNECT_MAX_MS, reconnectDelay * 2);
          scheduleReconnect();
        },
      );
    }, reconnectDelay);
  };

  const connect = async (): Promise<void> => {
    const session = new pg.Client({ connectionString, application_name: 'funding-gateway-job-listener' });
    // A session that fails (at connect or later) is dropped and replaced.
    session.on('error', (err) => logger.warn({ err }, 'job notification session lost'));
    session.on('end', () => {
      if (client === session) client = undefined;
      scheduleReconnect();
    });
    session.on('notification', onNotification);
    try {
      await session.connect();
      await session.query(`LISTEN ${JOB_READY_CHANNEL}`);
    } catch (err) {
      session.removeAllListeners('end');
      await session.end().catch(() => {});
      throw err;
    }
    if (closed) {
      await session.end();
      return;
    }
    client = session;
    reconnectDelay = RECONNECT_FIRST_MS;
  };

  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      for (const timer of dueTimers.values()) clearTimeout(timer);
      dueTimers.clear();
      const session = client;
      client = undefined;
      await session?.end();
    },
  };
}
