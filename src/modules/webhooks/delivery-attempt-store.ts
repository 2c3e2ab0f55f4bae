/**
 * The outbox as the delivery queue: `webhook_delivery` rows are the work, and a worker takes them
 * straight from the table (no queue job per delivery). Every statement here is typed SQL on the pg
 * pool (infra/sql-reads.ts), run on every attempt: a Prisma query, raw ones included, costs several
 * times its CPU.
 *
 *  - One statement claims a batch: it picks the due deliveries (oldest due first) that no live
 *    attempt holds and that wait behind no earlier undelivered delivery of their application, marks
 *    them taken (`attemptStartedAt`) and returns what their attempts need (lender secrets included).
 *    `FOR UPDATE SKIP LOCKED`: workers claiming at once take disjoint rows, without waiting.
 *  - A claim holds until the attempt is recorded, or lapses (`lapseMs`: the webhook timeout and a
 *    margin) when the worker died mid-attempt: then any worker takes the delivery again.
 *  - Successful attempts that finish together are recorded by one statement, failed ones that will
 *    be retried by another, and dead-lettered ones by a third; each also wakes the workers (NOTIFY,
 *    delivery-wakeups.ts) for what it makes due: a retry at its time, and an application's next
 *    delivery once the one before it is settled.
 */
import { sql } from 'kysely';
import type { WebhookEvent } from '../../generated/prisma/enums.js';
import type { Db } from '../../infra/database.js';
import { readsOf } from '../../infra/database.js';
import { DELIVERY_WAKEUP_CHANNEL, deliveryWakeup } from './delivery-wakeups.js';
import type { ReceiverResponse } from './receiver-answer.js';

/** What the receiver answered, kept with the attempt (null: no answer came). */
interface AnsweredAttempt {
  response?: ReceiverResponse | null;
}

/** An attempt's answer as the three columns it is kept in, one array each for a group's unnest. */
function answerColumns(attempts: readonly AnsweredAttempt[]) {
  return {
    headers: attempts.map((a) => (a.response ? JSON.stringify(a.response.headers) : null)),
    bodies: attempts.map((a) => a.response?.body ?? null),
    truncated: attempts.map((a) => (a.response ? a.response.bodyTruncated : null)),
  };
}

/** What one attempt needs of a delivery it claimed. */
export interface DueDelivery {
  id: string;
  attempts: number;
  url: string;
  /**
   * The stored document as JSON text, without its apiProvider when it has one as an object: that is
   * `apiProvider`, as JSON text without any token. The worker sends them joined with the token of the
   * moment (authorization-token.ts `sentDocument`), without parsing the document and writing it again.
   */
  document: string;
  apiProvider: string | null;
  lenderApplicationId: number;
  event: WebhookEvent;
  /** Its number among its application's deliveries (set by a trigger as it is inserted). */
  sequence: number;
  /** The request that queued it: the attempt logs under it and tells the lender. */
  requestId: string | null;
  /** The lender's slug: the `lender` label of the delivery metrics and the failure log lines. */
  lenderSlug: string;
  webhookSecret: string | null;
  /** The secret rotated out, and until when it signs too (the overlap window). */
  previousWebhookSecret: string | null;
  previousWebhookSecretExpiresAt: Date | null;
  /** Key of the application's apiProvider.authorizationToken, added as the document is sent (null for an integrator's endpoint). */
  authorizationTokenKey: string | null;
  /** The recipient when it is an integrator account's endpoint (null: the application's lender). */
  integratorEndpointId: string | null;
}

/** How much longer than the webhook timeout a claim holds (the attempt's own writes after its request). */
export const CLAIM_MARGIN_MS = 5_000;

/** Instants as UTC text: the columns are `timestamp(3)` holding UTC, and pg would send a Date in the local zone. */
const utc = (date: Date) => date.toISOString();

/**
 * Ends a correlated `EXISTS` over undelivered deliveries so that it runs as one probe of
 * `webhook_delivery_undelivered_order_idx` (application, sequence number) per outer row. Without it the
 * planner may turn the `EXISTS` into a join, and where the table's statistics lag behind its growth
 * (a queue that filled since the last ANALYZE) it chose to read the whole partial index, dead
 * entries included, for every candidate: 11 ms claims at 6,000 deliveries. PostgreSQL keeps an
 * `EXISTS` with an OFFSET as a subplan, which it plans with the outer row's values as index keys.
 */
const ONE_PROBE_PER_ROW = sql`OFFSET 0`;

/**
 * A delivery to a lender that disabled the endpoint of its event (lender-endpoints.ts): it waits,
 * unclaimed, neither attempted nor dead-lettered, until the endpoint is enabled again. A delivery to
 * an integrator's endpoint is never held by its application's lender.
 */
const heldByDisabledEndpoint = sql`
  SELECT 1 FROM lender h
   WHERE h.id = d."lenderId" AND d."integratorEndpointId" IS NULL AND NOT (CASE d.event WHEN 'APPLICATION_CREATED' THEN h."applicationUrlEnabled" ELSE h."updateUrlEnabled" END)`;

/**
 * Claims up to `limit` due deliveries for attempts starting `now`, in one statement; returns them
 * (fewer, or none, when fewer are due). A delivery is due when its next attempt time has come, no
 * claim younger than `lapseMs` holds it, and no earlier delivery (by sequence number) of the same
 * application is still pending or failing (a lender sees an application's changes in order; a dead-lettered one no
 * longer holds the others back), and the lender has not disabled the endpoint of its event.
 */
export async function claimDueDeliveries(db: Db, options: { now: Date; lapseMs: number; limit: number }): Promise<DueDelivery[]> {
  const { now, lapseMs, limit } = options;
  const { rows } = await sql<DueDelivery>`
    WITH due AS (
      SELECT d.id FROM webhook_delivery d
       WHERE d.status IN ('PENDING', 'FAILED') AND d."nextAttemptAt" <= ${utc(now)}::timestamp(3)
         AND (d."attemptStartedAt" IS NULL OR d."attemptStartedAt" <= ${utc(new Date(now.getTime() - lapseMs))}::timestamp(3))
         AND NOT EXISTS (
           SELECT 1 FROM webhook_delivery e
            WHERE e."lenderApplicationId" = d."lenderApplicationId" AND e.sequence < d.sequence AND e.status IN ('PENDING', 'FAILED')
              AND e."integratorEndpointId" IS NOT DISTINCT FROM d."integratorEndpointId"
           ${ONE_PROBE_PER_ROW})
         AND NOT EXISTS (${heldByDisabledEndpoint})
       ORDER BY d."nextAttemptAt"
       LIMIT ${limit}
       FOR UPDATE OF d SKIP LOCKED
    ), claimed AS (
      UPDATE webhook_delivery d SET "attemptStartedAt" = ${utc(now)}::timestamp(3)
        FROM due WHERE d.id = due.id
      RETURNING d.id, d.attempts, d.url, d.payload, d."lenderApplicationId", d.event, d.sequence, d."lenderId", d."requestId", d."nextAttemptAt", d."integratorEndpointId"
    )
    SELECT c.id::text AS id, c.attempts, c.url, c."lenderApplicationId", c.event, c.sequence, c."requestId", c."integratorEndpointId"::text AS "integratorEndpointId",
           CASE WHEN jsonb_typeof(c.payload -> 'apiProvider') = 'object' THEN (c.payload - 'apiProvider')::text ELSE c.payload::text END AS document,
           CASE WHEN jsonb_typeof(c.payload -> 'apiProvider') = 'object' THEN ((c.payload -> 'apiProvider') - 'authorizationToken')::text END AS "apiProvider",
           ${recipientColumns}
      FROM claimed c JOIN lender l ON l.id = c."lenderId"
      LEFT JOIN integrator_webhook_endpoint ie ON ie.id = c."integratorEndpointId"
     ORDER BY c."nextAttemptAt"`.execute(readsOf(db));
  return rows;
}

/**
 * Who a claimed delivery goes to, and with what secrets: the application's lender, or an integrator
 * account's endpoint (its own secret; no rotation window, no authorization token; `integrator` as the
 * metrics' lender label, which stays one value however many accounts there are).
 */
const recipientColumns = sql`
  CASE WHEN ie.id IS NULL THEN l.slug ELSE 'integrator' END AS "lenderSlug",
  CASE WHEN ie.id IS NULL THEN l."webhookSecret" ELSE ie.secret END AS "webhookSecret",
  CASE WHEN ie.id IS NULL THEN l."previousWebhookSecret" END AS "previousWebhookSecret",
  CASE WHEN ie.id IS NULL THEN l."previousWebhookSecretExpiresAt" END AS "previousWebhookSecretExpiresAt",
  CASE WHEN ie.id IS NULL THEN l."authorizationTokenKey" END AS "authorizationTokenKey"`;

/**
 * When the oldest claim on an undelivered delivery lapses (null when none is held): a worker starting
 * after another died mid-attempt takes that attempt's delivery up then, not at a later poll.
 */
export async function earliestClaimLapse(db: Db, lapseMs: number): Promise<Date | null> {
  const {
    rows: [row],
  } = await sql<{ startedAt: Date | null }>`
    SELECT min("attemptStartedAt") AS "startedAt" FROM webhook_delivery
     WHERE status IN ('PENDING', 'FAILED') AND "nextAttemptAt" IS NOT NULL AND "attemptStartedAt" IS NOT NULL`.execute(readsOf(db));
  return row?.startedAt ? new Date(row.startedAt.getTime() + lapseMs) : null;
}

/**
 * The NOTIFY, in the recording statement's own SELECT, for an application's next delivery once
 * `settled` (the CTE of the rows just recorded as delivered or dead) leaves it due: without it that
 * delivery would wait for a worker's poll. Read on the statement's snapshot, so a delivery committed
 * while it runs is not seen here; its own NOTIFY, or the poll, starts it.
 */
const wakeForLaterDeliveries = sql`
  SELECT pg_notify(${DELIVERY_WAKEUP_CHANNEL}, ${deliveryWakeup(null)})
   WHERE EXISTS (
     SELECT 1 FROM settled s
      WHERE EXISTS (
        SELECT 1 FROM webhook_delivery e
         WHERE e."lenderApplicationId" = s."lenderApplicationId" AND e.sequence > s.sequence AND e.status IN ('PENDING', 'FAILED')
           AND e."integratorEndpointId" IS NOT DISTINCT FROM s."integratorEndpointId"
        ${ONE_PROBE_PER_ROW}))`;

export interface DeliveredAttempt extends AnsweredAttempt {
  deliveryId: string;
  attempts: number;
  attemptedAt: Date;
  latencyMs: number;
}

/**
 * Records delivered attempts: the delivery's status and its attempt log row, in one statement for
 * all attempts that finished while the previous write ran (group commit), so a delivery is recorded
 * as soon as one write can take it and a busy worker writes once per group, not once per delivery.
 */
export function recordDelivered(db: Db, attempt: DeliveredAttempt): Promise<void> {
  return recorderOf(deliveredRecorders, db, deliveredRecorder)(attempt);
}

const deliveredRecorders = new WeakMap<Db, (attempt: DeliveredAttempt) => Promise<void>>();

function deliveredRecorder(db: Db): (attempt: DeliveredAttempt) => Promise<void> {
  return groupCommit(async (attempts: DeliveredAttempt[]) => {
    const ids = attempts.map((a) => a.deliveryId);
    const counts = attempts.map((a) => a.attempts);
    const attemptedAt = attempts.map((a) => utc(a.attemptedAt));
    const latencies = attempts.map((a) => a.latencyMs);
    const answers = answerColumns(attempts);
    // updatedAt as Prisma's @updatedAt sets it: the writer's clock, in UTC.
    const updatedAt = utc(new Date());
    // `d.id = ANY(ids)` beside the join: the rows are found through the primary key whatever the
    // statistics say (with them lagging, the planner hashed the group and read the whole table).
    await sql`
      WITH done AS (
        SELECT * FROM unnest(${ids}::uuid[], ${counts}::int[], ${attemptedAt}::timestamp(3)[], ${latencies}::int[], ${answers.headers}::jsonb[], ${answers.bodies}::text[], ${answers.truncated}::boolean[])
          AS t(id, attempts, "attemptedAt", "latencyMs", "responseHeaders", "responseBody", "responseBodyTruncated")
      ), settled AS (
        UPDATE webhook_delivery d
           SET status = 'DELIVERED', attempts = done.attempts, "lastStatusCode" = 204, "lastError" = NULL,
               "deliveredAt" = done."attemptedAt", "nextAttemptAt" = NULL, "attemptStartedAt" = NULL, "updatedAt" = ${updatedAt}::timestamp(3)
          FROM done WHERE d.id = done.id AND d.id = ANY(${ids}::uuid[])
        RETURNING d.id, d."lenderApplicationId", d.sequence, d."integratorEndpointId"
      ), logged AS (
        INSERT INTO webhook_delivery_attempt (id, "deliveryId", "statusCode", error, "latencyMs", "attemptedAt", "responseHeaders", "responseBody", "responseBodyTruncated")
        SELECT gen_random_uuid(), done.id, 204, NULL, done."latencyMs", done."attemptedAt", done."responseHeaders", done."responseBody", done."responseBodyTruncated"
          FROM done JOIN settled ON settled.id = done.id
      )
      ${wakeForLaterDeliveries}`.execute(readsOf(db));
  });
}

export interface RetriedAttempt extends AnsweredAttempt {
  deliveryId: string;
  attempts: number;
  attemptedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: Date;
}

/**
 * Records failed attempts that will be retried: the delivery's status, next attempt time and attempt
 * log row, its claim released, and a NOTIFY per retry time (a worker wakes then), one statement for
 * the group: a retry is scheduled exactly when its failure is recorded.
 */
export function recordRetrying(db: Db, attempt: RetriedAttempt): Promise<void> {
  return recorderOf(retryingRecorders, db, retryingRecorder)(attempt);
}

const retryingRecorders = new WeakMap<Db, (attempt: RetriedAttempt) => Promise<void>>();

function retryingRecorder(db: Db): (attempt: RetriedAttempt) => Promise<void> {
  return groupCommit(async (attempts: RetriedAttempt[]) => {
    const ids = attempts.map((a) => a.deliveryId);
    const counts = attempts.map((a) => a.attempts);
    const attemptedAt = attempts.map((a) => utc(a.attemptedAt));
    const latencies = attempts.map((a) => a.latencyMs);
    const statusCodes = attempts.map((a) => a.statusCode);
    const errors = attempts.map((a) => a.error);
    const nextAttemptAt = attempts.map((a) => utc(a.nextAttemptAt));
    const answers = answerColumns(attempts);
    const wakeups = [...new Set(attempts.map((a) => a.nextAttemptAt.getTime()))].map((at) => deliveryWakeup(at));
    const updatedAt = utc(new Date());
    await sql`
      WITH failed AS (
        SELECT * FROM unnest(${ids}::uuid[], ${counts}::int[], ${attemptedAt}::timestamp(3)[], ${latencies}::int[], ${statusCodes}::int[], ${errors}::text[], ${nextAttemptAt}::timestamp(3)[],
                             ${answers.headers}::jsonb[], ${answers.bodies}::text[], ${answers.truncated}::boolean[])
          AS t(id, attempts, "attemptedAt", "latencyMs", "statusCode", error, "nextAttemptAt", "responseHeaders", "responseBody", "responseBodyTruncated")
      ), updated AS (
        UPDATE webhook_delivery d
           SET status = 'FAILED', attempts = failed.attempts, "lastStatusCode" = failed."statusCode", "lastError" = failed.error,
               "nextAttemptAt" = failed."nextAttemptAt", "attemptStartedAt" = NULL, "updatedAt" = ${updatedAt}::timestamp(3)
          FROM failed WHERE d.id = failed.id AND d.id = ANY(${ids}::uuid[])
        RETURNING d.id
      ), logged AS (
        INSERT INTO webhook_delivery_attempt (id, "deliveryId", "statusCode", error, "latencyMs", "attemptedAt", "responseHeaders", "responseBody", "responseBodyTruncated")
        SELECT gen_random_uuid(), failed.id, failed."statusCode", failed.error, failed."latencyMs", failed."attemptedAt", failed."responseHeaders", failed."responseBody", failed."responseBodyTruncated"
          FROM failed JOIN updated ON updated.id = failed.id
      )
      SELECT count(*)::int AS sent FROM unnest(${wakeups}::text[]) AS w(wakeup), LATERAL pg_notify(${DELIVERY_WAKEUP_CHANNEL}, w.wakeup)`.execute(readsOf(db));
  });
}

export interface DeadAttempt extends AnsweredAttempt {
  deliveryId: string;
  attempts: number;
  attemptedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  error: string;
}

/**
 * Records an attempt after which the delivery is dead-lettered (its schedule exhausted, or its URL
 * refused): status, attempt log row and the wake-up for a later delivery of the application, which
 * no longer waits behind it. Rare: one statement per attempt.
 */
export async function recordDead(db: Db, attempt: DeadAttempt): Promise<void> {
  const answer = answerColumns([attempt]);
  await sql`
    WITH settled AS (
      UPDATE webhook_delivery
         SET status = 'DEAD', attempts = ${attempt.attempts}, "lastStatusCode" = ${attempt.statusCode}::int, "lastError" = ${attempt.error},
             "nextAttemptAt" = NULL, "attemptStartedAt" = NULL, "updatedAt" = ${utc(new Date())}::timestamp(3)
       WHERE id = ${attempt.deliveryId}::uuid
      RETURNING id, "lenderApplicationId", sequence, "integratorEndpointId"
    ), logged AS (
      INSERT INTO webhook_delivery_attempt (id, "deliveryId", "statusCode", error, "latencyMs", "attemptedAt", "responseHeaders", "responseBody", "responseBodyTruncated")
      SELECT gen_random_uuid(), settled.id, ${attempt.statusCode}::int, ${attempt.error}, ${attempt.latencyMs}::int, ${utc(attempt.attemptedAt)}::timestamp(3),
             ${answer.headers[0]}::jsonb, ${answer.bodies[0]}::text, ${answer.truncated[0]}::boolean FROM settled
    )
    ${wakeForLaterDeliveries}`.execute(readsOf(db));
}

function recorderOf<T>(recorders: WeakMap<Db, (item: T) => Promise<void>>, db: Db, make: (db: Db) => (item: T) => Promise<void>): (item: T) => Promise<void> {
  let record = recorders.get(db);
  if (!record) {
    record = make(db);
    recorders.set(db, record);
  }
  return record;
}

/** Calls `write` with every item that arrived while the previous call ran; each caller waits for its own item's write. */
function groupCommit<T>(write: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  let waiting: Array<{ item: T; done: (err?: unknown) => void }> = [];
  let writing = false;
  const drain = async () => {
    writing = true;
    while (waiting.length > 0) {
      const group = waiting;
      waiting = [];
      try {
        await write(group.map((entry) => entry.item));
        for (const entry of group) entry.done();
      } catch (err) {
        for (const entry of group) entry.done(err);
      }
    }
    writing = false;
  };
  return (item) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ item, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!writing) void drain();
    });
}
