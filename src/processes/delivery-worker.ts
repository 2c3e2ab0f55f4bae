/**
 * The webhook delivery worker: claims due deliveries from the outbox (`webhook_delivery`, see
 * modules/webhooks/delivery-attempt-store.ts) in batches and attempts them. Runs inside `npm start`
 * and as its own process in the distributed deployment (`start:service -- worker`); several workers
 * may run at once (a claim takes disjoint rows, and holds them until recorded or lapsed).
 *
 * A delivery is started as soon as it commits: its wake-up (a NOTIFY, or, for a request served by this
 * process, a direct call: modules/webhooks/delivery-wakeups.ts) wakes one fetch loop (an idle one if
 * there is one, else a busy one fetches again as soon as its batch is done), so bursts are taken in
 * batches and a lone delivery is not left waiting for a poll. Polling
 * (JOB_POLL_SECONDS) remains the fallback for a wake-up that was missed (the listening session was
 * down), and takes up the deliveries of a worker that died mid-attempt once their claims lapse.
 */
import { purgeExpiredAccountEvents } from '../modules/webhooks/integrator-events.js';
import { listenForDeliveryWakeups, type WakeReason } from '../modules/webhooks/delivery-wakeup-listener.js';
import { attemptDueDelivery } from '../modules/webhooks/webhook-delivery.js';
import { CLAIM_MARGIN_MS, claimDueDeliveries, earliestClaimLapse, type DueDelivery } from '../modules/webhooks/delivery-attempt-store.js';
import { closeLenderConnections } from '../modules/webhooks/lender-connections.js';
import { wakeLocally } from '../modules/webhooks/delivery-wakeups.js';
import type { Runtime } from './runtime.js';
import { measureDeliveryAttempt } from '../infra/metrics.js';

export interface DeliveryWorker {
  stop(): Promise<void>;
}

/** Deliveries claimed per fetch, by one statement, and attempted concurrently. */
export const DELIVERY_BATCH_SIZE = 50;
/**
 * Fetch loops per worker process. A loop waits for its whole batch, so one lender that does not
 * answer holds only its own loop's batch until the timeout while the others keep delivering.
 */
export const DELIVERY_LOOPS = 4;
/** Attempts in flight at most, per worker process. */
export const DELIVERY_CONCURRENCY = DELIVERY_BATCH_SIZE * DELIVERY_LOOPS;

/** Stopping waits this long for the attempts under way to finish and be recorded; any still out then is left to its claim's lapse. */
const STOP_WAIT_MS = 2_000;
/** After a failed fetch (the database unreachable), a loop waits this long before the next, unless woken. */
const FAILED_FETCH_PAUSE_MS = 1_000;

/**
 * What made a loop fetch the batch it runs: a wake-up (delivery-wakeup-listener.ts), the fallback poll, or
 * `backlog`: its previous batch was full, so more were waiting.
 */
export type WakeCause = WakeReason | 'poll' | 'backlog';

interface FetchLoop {
  busy: boolean;
  /** A wake-up sent to the loop and not yet acted on: its next fetch is due to it, without sleeping. */
  wokenBy: WakeReason | null;
  /** Ends the loop's sleep, while it sleeps. */
  wake: (() => void) | null;
  done: Promise<void>;
}

/** How often the worker deletes integrator events past their retention. */
const PURGE_EVENTS_EVERY_MS = 3_600_000;

export async function startDeliveryWorker(runtime: Runtime, options: { pollingIntervalSeconds?: number } = {}): Promise<DeliveryWorker> {
  const pollMs = (options.pollingIntervalSeconds ?? runtime.config.JOB_POLL_SECONDS) * 1000;
  // A claim outlives any attempt: the webhook timeout, and the attempt's own writes after it.
  const lapseMs = runtime.config.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS;
  const ctx = runtime.contextFor();
  const loops: FetchLoop[] = [];
  let stopping = false;
  let nextBusyLoop = 0;
  /**
   * One loop per wake-up: an idle one not yet woken fetches now (a burst of commits spreads over the
   * loops), else any idle one, else a busy one fetches again right after its batch.
   */
  const wakeOneLoop = (reason: WakeReason) => {
    const idle = loops.find((loop) => !loop.busy && loop.wokenBy === null) ?? loops.find((loop) => !loop.busy);
    const loop = idle ?? loops[nextBusyLoop++ % loops.length];
    if (!loop || stopping) return;
    loop.wokenBy ??= reason;
    loop.wake?.();
  };
  const wakeups = await listenForDeliveryWakeups(runtime.database.connectionString, runtime.logger, wakeOneLoop);
  // Deliveries committed by this process's own requests wake it directly, without a NOTIFY.
  const stopWakingLocally = wakeLocally(ctx.db, () => wakeOneLoop('notification'));

  const attempt = async (delivery: DueDelivery, wokenBy: WakeCause) => {
    // The request that queued the delivery names its log lines and the lender's request.
    const attemptCtx = delivery.requestId === null ? ctx : runtime.contextFor({}, delivery.requestId);
    try {
      const outcome = await measureDeliveryAttempt(delivery.lenderSlug, () => attemptDueDelivery(attemptCtx, delivery));
      attemptCtx.logger.info({ deliveryId: delivery.id, outcome, wokenBy }, 'webhook delivery attempt');
    } catch (err) {
      // Its record failed (the database): the claim lapses and the delivery is attempted again.
      attemptCtx.logger.error({ err, deliveryId: delivery.id }, 'webhook delivery attempt not recorded');
    }
  };

  /** Resolves with why the loop fetches next: a wake-up (perhaps one that came while it was busy), or the poll. */
  const sleep = (loop: FetchLoop, ms: number) =>
    new Promise<WakeCause>((resolve) => {
      const wakeUp = () => {
        clearTimeout(timer);
        loop.wake = null;
        const cause = loop.wokenBy ?? 'poll';
        loop.wokenBy = null;
        resolve(cause);
      };
      const timer = setTimeout(wakeUp, ms);
      loop.wake = wakeUp;
      if (loop.wokenBy !== null || stopping) wakeUp();
    });

  const run = async (loop: FetchLoop) => {
    let cause: WakeCause = 'poll';
    while (!stopping) {
      loop.busy = true;
      let claimed = 0;
      let failed = false;
      try {
        const batch = await claimDueDeliveries(ctx.db, { now: runtime.clock.now(), lapseMs, limit: DELIVERY_BATCH_SIZE });
        claimed = batch.length;
        await Promise.all(batch.map((delivery) => attempt(delivery, cause)));
      } catch (err) {
        failed = true;
        runtime.logger.error({ err }, 'claiming webhook deliveries failed');
      } finally {
        loop.busy = false;
      }
      if (claimed === DELIVERY_BATCH_SIZE) {
        // A full batch means more are waiting: fetch again at once instead of after the polling interval.
        cause = loop.wokenBy ?? 'backlog';
        loop.wokenBy = null;
      } else {
        cause = await sleep(loop, failed ? FAILED_FETCH_PAUSE_MS : pollMs);
      }
    }
  };

  for (let i = 0; i < DELIVERY_LOOPS; i++) {
    const loop: FetchLoop = { busy: false, wokenBy: null, wake: null, done: Promise.resolve() };
    loops.push(loop);
    loop.done = run(loop);
  }
  // Claims held now belong to attempts of a worker that stopped or died (a restart) or of another
  // live one: fetch when the oldest lapses, rather than at the next poll after it.
  const lapse = await earliestClaimLapse(ctx.db, lapseMs);
  // (A moment after it: a timer may fire a millisecond early.)
  const lapseTimer = lapse ? setTimeout(() => wakeOneLoop('due'), Math.max(0, lapse.getTime() - runtime.clock.now().getTime()) + 20).unref() : undefined;
  // Integrator accounts' events are kept EVENT_RETENTION_DAYS days: the older ones are deleted hourly.
  const purgeEvents = () => void purgeExpiredAccountEvents(ctx).catch((err) => ctx.logger.warn({ err }, 'expired integrator events not purged'));
  const purgeTimer = setInterval(purgeEvents, PURGE_EVENTS_EVERY_MS).unref();
  return {
    async stop() {
      // No more fetches once stopping: the loops finish their batches and end.
      stopping = true;
      stopWakingLocally();
      clearTimeout(lapseTimer);
      clearInterval(purgeTimer);
      await wakeups.close();
      for (const loop of loops) loop.wake?.();
      const finished = Promise.all(loops.map((loop) => loop.done)).then(() => closeLenderConnections());
      await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
    },
  };
}
