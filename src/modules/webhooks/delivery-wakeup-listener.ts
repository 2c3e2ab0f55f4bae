/**
 * A delivery worker's wake-up calls: one PostgreSQL session LISTENs on DELIVERY_WAKEUP_CHANNEL
 * (delivery-wakeups.ts sends a NOTIFY when deliveries become due, delivered at commit to every
 * listening process) and calls `wake`: at once for deliveries due now, at their time for later ones
 * (a retry). A lost session is reconnected (with a growing pause) and, once listening again, wakes
 * the worker once: notifications sent while nobody listened are gone, and the deliveries they
 * announced wait in the outbox. The worker's polling stays the fallback for anything missed.
 */
import pg from 'pg';
import type { Logger } from '../../infra/logger.js';
import { DELIVERY_WAKEUP_CHANNEL, type DeliveryWakeup } from './delivery-wakeups.js';

/** Why a worker is woken: a NOTIFY of deliveries due now, the time of later ones, or its listening session restored. */
export type WakeReason = 'notification' | 'due' | 'reconnected';

export interface DeliveryWakeupListener {
  /** Stops listening and cancels pending wake-ups; the session is closed when this resolves. */
  close(): Promise<void>;
}

/** Pause before reconnecting a lost session, doubling up to the maximum. */
const RECONNECT_FIRST_MS = 200;
const RECONNECT_MAX_MS = 5_000;
/** Delayed wake-ups due within this window share one timer (a burst of retries is one fetch). */
const DUE_WINDOW_MS = 20;

export async function listenForDeliveryWakeups(connectionString: string, logger: Logger, wake: (reason: WakeReason) => void): Promise<DeliveryWakeupListener> {
  let closed = false;
  let client: pg.Client | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let reconnectDelay = RECONNECT_FIRST_MS;
  const dueTimers = new Map<number, NodeJS.Timeout>();

  const wakeAt = (startAfter: number) => {
    const slot = Math.ceil(startAfter / DUE_WINDOW_MS) * DUE_WINDOW_MS;
    if (dueTimers.has(slot)) return;
    const timer = setTimeout(
      () => {
        dueTimers.delete(slot);
        wake('due');
      },
      Math.max(0, slot - Date.now()),
    );
    dueTimers.set(slot, timer);
  };

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== DELIVERY_WAKEUP_CHANNEL || !message.payload) return;
    let wakeup: DeliveryWakeup;
    try {
      wakeup = JSON.parse(message.payload) as DeliveryWakeup;
    } catch {
      return;
    }
    if (typeof wakeup.startAfter !== 'number' || wakeup.startAfter <= Date.now()) wake('notification');
    else wakeAt(wakeup.startAfter);
  };

  const scheduleReconnect = () => {
    if (closed || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void connect().then(
        () => wake('reconnected'),
        (err: unknown) => {
          logger.warn({ err }, 'delivery wake-up session not restored; retrying');
          reconnectDelay = Math.min(RECONNECT_MAX_MS, reconnectDelay * 2);
          scheduleReconnect();
        },
      );
    }, reconnectDelay);
  };

  const connect = async (): Promise<void> => {
    const session = new pg.Client({ connectionString, application_name: 'funding-gateway-delivery-listener' });
    // A session that fails (at connect or later) is dropped and replaced.
    session.on('error', (err) => logger.warn({ err }, 'delivery wake-up session lost'));
    session.on('end', () => {
      if (client === session) client = undefined;
      scheduleReconnect();
    });
    session.on('notification', onNotification);
    try {
      await session.connect();
      await session.query(`LISTEN ${DELIVERY_WAKEUP_CHANNEL}`);
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
