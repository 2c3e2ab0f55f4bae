/**
 * The delivery worker's reads and writes as typed SQL: every attempt runs them, and a Prisma model
 * query costs several times the CPU of the same SQL. One statement reads a batch of deliveries with
 * what an attempt needs (lender secrets, whether an earlier delivery of the same application is still
 * on its way); successful attempts that finish together are recorded by one statement, and failed
 * ones that will be retried by one transaction (their status, attempt rows and retry jobs).
 */
import type { Db } from '../../infra/database.js';
import { QUEUES } from '../../infra/job-queue.js';
import type { JobScheduler } from '../../kernel/context.js';

/** What one attempt needs of its delivery. */
export interface DueDelivery {
  id: string;
  status: 'PENDING' | 'FAILED' | 'DELIVERED' | 'DEAD';
  attempts: number;
  url: string;
  payload: unknown;
  lenderApplicationId: number;
  /** The lender's slug: the `lender` label of the delivery metrics and the failure log lines. */
  lenderSlug: string;
  webhookSecret: string | null;
  /** The secret rotated out, and until when it signs too (the overlap window). */
  previousWebhookSecret: string | null;
  previousWebhookSecretExpiresAt: Date | null;
  /** Key of the application's apiProvider.authorizationToken, added as the document is sent. */
  authorizationTokenKey: string | null;
  /** An earlier delivery of the same application is still pending or failing. */
  waitsBehindEarlier: boolean;
  /** That earlier delivery's next attempt (the latest of them, a null one first, as before). */
  earlierNextAttemptAt: Date | null;
}

interface DueDeliveryRow extends Omit<DueDelivery, 'earlierNextAttemptAt' | 'previousWebhookSecretExpiresAt'> {
  earlierNextAttemptAt: Date | string | null;
  previousWebhookSecretExpiresAt: Date | string | null;
}

/** The deliveries of a batch of jobs, by id (a deleted one is absent). */
export async function loadDueDeliveries(db: Db, ids: readonly string[]): Promise<Map<string, DueDelivery>> {
  const rows = await db.$queryRaw<DueDeliveryRow[]>`
    SELECT d.id::text AS id, d.status::text AS status, d.attempts, d.url, d.payload, d."lenderApplicationId", l.slug AS "lenderSlug", l."webhookSecret",
           l."previousWebhookSecret", l."previousWebhookSecretExpiresAt", l."authorizationTokenKey",
           earlier.id IS NOT NULL AS "waitsBehindEarlier", earlier."nextAttemptAt" AS "earlierNextAttemptAt"
      FROM webhook_delivery d
      JOIN lender l ON l.id = d."lenderId"
      LEFT JOIN LATERAL (
        SELECT e.id, e."nextAttemptAt" FROM webhook_delivery e
         WHERE e."lenderApplicationId" = d."lenderApplicationId" AND e."createdAt" < d."createdAt" AND e.status IN ('PENDING', 'FAILED')
         ORDER BY e."nextAttemptAt" DESC
         LIMIT 1
      ) earlier ON true
     WHERE d.id = ANY(${ids as string[]}::uuid[])`;
  return new Map(
    rows.map((row) => [
      row.id,
      { ...row, earlierNextAttemptAt: asUtcDate(row.earlierNextAttemptAt), previousWebhookSecretExpiresAt: asUtcDate(row.previousWebhookSecretExpiresAt) },
    ]),
  );
}

/** A `timestamp(3)` column holds UTC (as Prisma writes it); raw reads may hand it back as text. */
function asUtcDate(value: Date | string | null): Date | null {
  if (value === null || value instanceof Date) return value;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}

/** What claiming a delivery for an attempt found: taken, already finished, or under way elsewhere until `lapsesAt`. */
export type DeliveryClaim = { taken: true } | { taken: false; finished: true } | { taken: false; finished: false; lapsesAt: Date };

/**
 * Takes a delivery for one attempt, unless another attempt has it: two jobs of one delivery can
 * exist at once (a dead worker's job handed back beside the retry or deferral it had already
 * queued), and without this both could send it. A claim older than `lapseMs` (longer than any
 * attempt: the webhook timeout and a margin) belongs to an attempt that died and is taken over.
 * The attempt's record (delivered, retrying) ends the claim.
 */
export async function claimDelivery(db: Db, deliveryId: string, now: Date, lapseMs: number): Promise<DeliveryClaim> {
  const taken = await db.$queryRaw<Array<{ id: string }>>`
    UPDATE webhook_delivery SET "attemptStartedAt" = ${now.toISOString()}::timestamp(3)
     WHERE id = ${deliveryId}::uuid AND status IN ('PENDING', 'FAILED')
       AND ("attemptStartedAt" IS NULL OR "attemptStartedAt" <= ${new Date(now.getTime() - lapseMs).toISOString()}::timestamp(3))
    RETURNING id::text AS id`;
  if (taken.length > 0) return { taken: true };
  const [row] = await db.$queryRaw<Array<{ status: string; attemptStartedAt: Date | string | null }>>`
    SELECT status::text AS status, "attemptStartedAt" FROM webhook_delivery WHERE id = ${deliveryId}::uuid`;
  if (!row || row.status === 'DELIVERED' || row.status === 'DEAD' || row.attemptStartedAt === null) return { taken: false, finished: true };
  return { taken: false, finished: false, lapsesAt: new Date(asUtcDate(row.attemptStartedAt)!.getTime() + lapseMs) };
}

export interface DeliveredAttempt {
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
  let record = deliveredRecorders.get(db);
  if (!record) {
    record = deliveredRecorder(db);
    deliveredRecorders.set(db, record);
  }
  return record(attempt);
}

const deliveredRecorders = new WeakMap<Db, (attempt: DeliveredAttempt) => Promise<void>>();

function deliveredRecorder(db: Db): (attempt: DeliveredAttempt) => Promise<void> {
  return groupCommit(async (attempts: DeliveredAttempt[]) => {
    const ids = attempts.map((a) => a.deliveryId);
    const counts = attempts.map((a) => a.attempts);
    const attemptedAt = attempts.map((a) => a.attemptedAt.toISOString());
    const latencies = attempts.map((a) => a.latencyMs);
    // updatedAt as Prisma's @updatedAt sets it: the writer's clock, in UTC.
    const updatedAt = new Date().toISOString();
    await db.$executeRaw`
      WITH done AS (
        SELECT * FROM unnest(${ids}::uuid[], ${counts}::int[], ${attemptedAt}::timestamp(3)[], ${latencies}::int[]) AS t(id, attempts, "attemptedAt", "latencyMs")
      ), updated AS (
        UPDATE webhook_delivery d
           SET status = 'DELIVERED', attempts = done.attempts, "lastStatusCode" = 204, "lastError" = NULL,
               "deliveredAt" = done."attemptedAt", "nextAttemptAt" = NULL, "updatedAt" = ${updatedAt}::timestamp(3)
          FROM done WHERE d.id = done.id
        RETURNING d.id
      )
      INSERT INTO webhook_delivery_attempt (id, "deliveryId", "statusCode", error, "latencyMs", "attemptedAt")
      SELECT gen_random_uuid(), done.id, 204, NULL, done."latencyMs", done."attemptedAt" FROM done JOIN updated ON updated.id = done.id`;
  });
}

export interface RetriedAttempt {
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
 * log row (one statement for the group), and its retry job, due at that time, in the same
 * transaction (one statement): a retry is scheduled exactly when its failure is recorded.
 */
export function recordRetrying(db: Db, jobs: JobScheduler, attempt: RetriedAttempt): Promise<void> {
  let record = retryingRecorders.get(db);
  if (!record) {
    record = retryingRecorder(db, jobs);
    retryingRecorders.set(db, record);
  }
  return record(attempt);
}

const retryingRecorders = new WeakMap<Db, (attempt: RetriedAttempt) => Promise<void>>();

function retryingRecorder(db: Db, jobs: JobScheduler): (attempt: RetriedAttempt) => Promise<void> {
  return groupCommit(async (attempts: RetriedAttempt[]) => {
    const ids = attempts.map((a) => a.deliveryId);
    const counts = attempts.map((a) => a.attempts);
    const attemptedAt = attempts.map((a) => a.attemptedAt.toISOString());
    const latencies = attempts.map((a) => a.latencyMs);
    const statusCodes = attempts.map((a) => a.statusCode);
    const errors = attempts.map((a) => a.error);
    const nextAttemptAt = attempts.map((a) => a.nextAttemptAt.toISOString());
    const updatedAt = new Date().toISOString();
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`
        WITH failed AS (
          SELECT * FROM unnest(${ids}::uuid[], ${counts}::int[], ${attemptedAt}::timestamp(3)[], ${latencies}::int[], ${statusCodes}::int[], ${errors}::text[], ${nextAttemptAt}::timestamp(3)[])
            AS t(id, attempts, "attemptedAt", "latencyMs", "statusCode", error, "nextAttemptAt")
        ), updated AS (
          UPDATE webhook_delivery d
             SET status = 'FAILED', attempts = failed.attempts, "lastStatusCode" = failed."statusCode", "lastError" = failed.error,
                 "nextAttemptAt" = failed."nextAttemptAt", "attemptStartedAt" = NULL, "updatedAt" = ${updatedAt}::timestamp(3)
            FROM failed WHERE d.id = failed.id
          RETURNING d.id
        )
        INSERT INTO webhook_delivery_attempt (id, "deliveryId", "statusCode", error, "latencyMs", "attemptedAt")
        SELECT gen_random_uuid(), failed.id, failed."statusCode", failed.error, failed."latencyMs", failed."attemptedAt" FROM failed JOIN updated ON updated.id = failed.id`;
      await jobs.enqueueMany(QUEUES.webhookDelivery, attempts.map((a) => ({ data: { deliveryId: a.deliveryId }, startAfter: a.nextAttemptAt })), { tx });
    });
  });
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
