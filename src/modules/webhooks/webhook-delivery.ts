/**
 * Webhook delivery to lenders (spec 6): each delivery is a `webhook_delivery` row written in the
 * transaction that caused it (the outbox, which is also the queue: delivery-attempt-store.ts), and a
 * worker is woken when it commits (delivery-wakeups.ts). The worker POSTs
 * the funding application document with its application's authorizationToken added as it is sent,
 * signed the Standard Webhooks way (during a secret rotation's overlap window, with the old secret
 * as well as the new), with its event type and its number among its application's deliveries
 * (webhook-headers.ts); only HTTP 204 counts as delivered. Anything else (status, timeout, refused connection) is retried on the published
 * schedule (WEBHOOK_RETRY_DELAYS, ±20% jitter), then the delivery is dead-lettered for staff, who
 * can redeliver. The delivery id is stable across attempts (webhook-id): lenders de-duplicate on it.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Compilable, type RawBuilder } from 'kysely';
import type { Prisma } from '../../generated/prisma/client.js';
import type { SqlReads } from '../../infra/sql-reads.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { deliveryHeaders, FIXED_HEADERS, WEBHOOK_EVENT_TYPES, type IntegratorEvent } from './webhook-headers.js';
import { applicationAuthorizationToken, sentDocument, withoutAuthorizationToken } from './authorization-token.js';
import { resolveWebhookTarget } from './webhook-url-policy.js';
import { lenderAgent, undici } from './lender-connections.js';
import { recordDead, recordDelivered, recordRetrying, type DueDelivery } from './delivery-attempt-store.js';
import { wakeWorkersAtCommit } from './delivery-wakeups.js';
import { readReceiverAnswer, type ReceiverAnswer, type ReceiverResponse } from './receiver-answer.js';
import { StatementTemplates, type PlaceholderOf, type StatementPart } from '../../infra/statement-templates.js';
export { wakeDeliveryWorkers } from './delivery-wakeups.js';
import type { WebhookDelivery } from './webhook-delivery-schemas.js';
import { deliveryScopeOf, deliveryWhere, type DeliveryScope, type LenderDeliveryEvent } from './webhook-delivery-visibility.js';
import { z } from 'zod';
import { parseInput } from '../../kernel/validation.js';

const JITTER = 0.2;

/** Milliseconds before attempt number `attempt + 1`, or null when the schedule is exhausted. */
function nextAttemptDelayMs(delaysSeconds: readonly number[], attempt: number, random: () => number = Math.random): number | null {
  const base = delaysSeconds[attempt];
  if (base === undefined) return null;
  return Math.round(base * 1000 * (1 - JITTER + 2 * JITTER * random()));
}

export interface NewDelivery {
  lenderApplicationId: number;
  lenderId: number;
  event: 'APPLICATION_CREATED' | 'APPLICATION_UPDATED';
  url: string;
  payload: unknown;
}

/**
 * An event of an integrator account about one of its clients' applications: recorded in the account's
 * event log (integrator_event) and queued, as the same outbox rows as a lender's deliveries, to each
 * of the account's enabled endpoints subscribed to its type. The body is Standard Webhooks' shape,
 * `{ type, timestamp, data }`, the same in the log and in every delivery.
 */
export interface NewIntegratorEvent {
  accountId: string;
  lenderApplicationId: number;
  lenderId: number;
  event: IntegratorEvent;
  data: unknown;
}

/** The body an integrator event's webhooks carry and its log shows. */
function integratorEventBody(event: Pick<NewIntegratorEvent, 'event' | 'data'>, at: Date) {
  return { type: WEBHOOK_EVENT_TYPES[event.event], timestamp: at.toISOString(), data: event.data };
}

/**
 * Records a delivery and queues its first attempt, inside the caller's transaction.
 * @access internal: records a delivery inside the transaction of the operation that decided access
 */
export async function queueDelivery(ctx: ServiceContext, tx: Prisma.TransactionClient, delivery: NewDelivery): Promise<string> {
  const [id] = await queueDeliveries(ctx, tx, [delivery]);
  return id!;
}

/**
 * Records the deliveries one operation causes, due now, inside the caller's transaction: one
 * statement for the rows however many there are, and one for the NOTIFY that wakes a worker when
 * the transaction commits. Returns their ids, in order.
 * @access internal: records deliveries inside the transaction of the operation that decided access
 */
export async function queueDeliveries(ctx: ServiceContext, tx: Prisma.TransactionClient, deliveries: readonly NewDelivery[]): Promise<string[]> {
  if (deliveries.length === 0) return [];
  const rows = deliveryRows(ctx, deliveries);
  await tx.webhookDelivery.createMany({ data: rows.map((row) => ({ ...row, payload: row.payload as Prisma.InputJsonValue })) });
  await wakeWorkersAtCommit(tx);
  return rows.map((row) => row.id);
}

/**
 * `queueDeliveries` on the typed SQL pool (infra/sql-reads.ts), for a request path: the caller's
 * own writes and the delivery rows are one statement (data-modifying CTEs, each run in full on the
 * same snapshot), compiled once per shape of the caller's writes and number of deliveries
 * (infra/statement-templates.ts), and no NOTIFY goes with it (delivery-wakeups.ts says why): once it
 * has committed, the caller calls `wakeDeliveryWorkers(ctx)`. Runs in the caller's transaction, or
 * alone as its own: when the writes have a guard (a compare-and-set), the deliveries are written only
 * if it held, and `written` says whether it did. Returns the deliveries' ids, in order.
 * @access internal: records deliveries for the operation that decided access
 */
export async function queueDeliveriesWith(
  ctx: ServiceContext,
  typedSql: SqlReads,
  deliveries: readonly NewDelivery[],
  writes: StatementPart = NO_WRITES,
  events: readonly NewIntegratorEvent[] = [],
): Promise<{ written: boolean; deliveryIds: string[] }> {
  const rows = deliveryRows(ctx, deliveries);
  // The instants as UTC text: a Date parameter would be sent in the process's local zone. createdAt
  // and updatedAt are Prisma's @default(now()) and @updatedAt, which the Prisma path leaves to it: the wall clock.
  const values: Record<string, unknown> = { ...writes.values, deliveriesWritten: new Date().toISOString() };
  rows.forEach((row, i) => {
    Object.assign(values, {
      [`delivery${i}Id`]: row.id,
      [`delivery${i}ApplicationId`]: row.lenderApplicationId,
      [`delivery${i}LenderId`]: row.lenderId,
      [`delivery${i}Event`]: row.event,
      [`delivery${i}Url`]: row.url,
      [`delivery${i}Payload`]: JSON.stringify(row.payload),
      [`delivery${i}Due`]: row.nextAttemptAt.toISOString(),
      [`delivery${i}RequestId`]: row.requestId,
    });
  });
  const now = ctx.clock.now();
  events.forEach((event, i) => {
    Object.assign(values, {
      [`event${i}Id`]: randomUUID(),
      [`event${i}AccountId`]: event.accountId,
      [`event${i}Event`]: event.event,
      [`event${i}Type`]: WEBHOOK_EVENT_TYPES[event.event],
      [`event${i}ApplicationId`]: event.lenderApplicationId,
      [`event${i}LenderId`]: event.lenderId,
      [`event${i}Payload`]: JSON.stringify(integratorEventBody(event, now)),
    });
  });
  if (events.length > 0) Object.assign(values, { eventsDue: now.toISOString(), eventsRequestId: ctx.requestId ?? null });
  const { guard } = writes;
  const inserts = (value: PlaceholderOf) => [
    ...(rows.length === 0 ? [] : [deliveryInsert(rows.length, value, guard)]),
    ...(events.length === 0 ? [] : integratorEventInserts(events.length, value, guard)),
  ];
  const statement = deliveryStatements.bind(
    `${writes.shape}|${guard ?? ''}|${rows.length}|${events.length}`,
    (value) => ({ compile: () => writesTogether([...writes.build(value), ...inserts(value)], guard).compile(typedSql) }),
    values,
  );
  const [result] = (await typedSql.executeQuery(statement)).rows as { written: number }[];
  return { written: result!.written > 0, deliveryIds: rows.map((row) => row.id) };
}

const NO_WRITES: StatementPart = { shape: '', values: {}, build: () => [] };

/**
 * The INSERT of `count` deliveries, their values as placeholders named as queueDeliveriesWith binds
 * them; with a guard, written only if it returned a row. Plain SQL rather than Kysely's insert
 * builder: the text is the same, with less to build the first time.
 */
function deliveryInsert(count: number, value: PlaceholderOf, guard: string | undefined): RawBuilder<unknown> {
  const rows = sql`VALUES ${sql.join(
    Array.from(
      { length: count },
      (
        _,
        i,
      ) => sql`(${value(`delivery${i}Id`)}::uuid, ${value(`delivery${i}ApplicationId`)}::int, ${value(`delivery${i}LenderId`)}::int, ${value(`delivery${i}Event`)}::"WebhookEvent", ${value(`delivery${i}Url`)}::text,
      ${value(`delivery${i}Payload`)}::jsonb, ${value(`delivery${i}Due`)}::timestamp(3), ${value(`delivery${i}RequestId`)}::text, ${value('deliveriesWritten')}::timestamp(3), ${value('deliveriesWritten')}::timestamp(3))`,
    ),
  )}`;
  return sql`INSERT INTO webhook_delivery (id, "lenderApplicationId", "lenderId", event, url, payload, "nextAttemptAt", "requestId", "createdAt", "updatedAt")
    ${guard ? sql`SELECT * FROM (${rows}) AS delivery WHERE EXISTS (SELECT 1 FROM ${sql.table(guard)})` : rows}`;
}

/**
 * The INSERTs of `count` integrator events: each into the account's event log, and one delivery of
 * it to each of the account's enabled endpoints subscribed to its type, in one INSERT (the sequence
 * trigger numbers an endpoint's deliveries of the application in the events' order); with a guard,
 * written only if it returned a row.
 */
function integratorEventInserts(count: number, value: PlaceholderOf, guard: string | undefined): RawBuilder<unknown>[] {
  const events = sql`(VALUES ${sql.join(
    Array.from(
      { length: count },
      (
        _,
        i,
      ) => sql`(${i}::int, ${value(`event${i}Id`)}::uuid, ${value(`event${i}AccountId`)}::uuid, ${value(`event${i}Event`)}::"WebhookEvent", ${value(`event${i}Type`)}::text,
      ${value(`event${i}ApplicationId`)}::int, ${value(`event${i}LenderId`)}::int, ${value(`event${i}Payload`)}::jsonb)`,
    ),
  )}) AS e(ord, id, "accountId", event, type, "applicationId", "lenderId", payload)`;
  const guarded = guard ? sql`WHERE EXISTS (SELECT 1 FROM ${sql.table(guard)})` : sql``;
  const at = sql`${value('eventsDue')}::timestamp(3)`;
  return [
    sql`INSERT INTO integrator_event (id, "accountId", type, "lenderApplicationId", payload, "createdAt")
      SELECT e.id, e."accountId", e.event, e."applicationId", e.payload, ${at} FROM ${events} ${guarded} ORDER BY e.ord`,
    sql`INSERT INTO webhook_delivery (id, "lenderApplicationId", "lenderId", event, url, payload, "nextAttemptAt", "requestId", "createdAt", "updatedAt", "integratorEndpointId", "accountId")
      SELECT gen_random_uuid(), e."applicationId", e."lenderId", e.event, ep.url, e.payload, ${at}, ${value('eventsRequestId')}::text, ${at}, ${at}, ep.id, ep."accountId"
        FROM ${events} JOIN integrator_webhook_endpoint ep ON ep."accountId" = e."accountId" AND ep.enabled AND e.type = ANY(ep."eventTypes")
       ${guarded}
       ORDER BY e.ord, ep."createdAt", ep.id`,
  ];
}

/**
 * The caller's writes as one statement: each a data-modifying CTE, all run in full, on one snapshot.
 * With a guard, the first is given its name and the statement returns how many rows it returned.
 */
function writesTogether(writes: ReadonlyArray<Compilable | RawBuilder<unknown>>, guard: string | undefined): RawBuilder<unknown> {
  const ctes = writes.map((write, i) => sql`${sql.table(i === 0 && guard ? guard : `write_${i}`)} AS (${write})`);
  if (ctes.length === 0) return sql`SELECT 1 AS written`;
  return guard ? sql`WITH ${sql.join(ctes)} SELECT count(*)::int AS written FROM ${sql.table(guard)}` : sql`WITH ${sql.join(ctes)} SELECT 1 AS written`;
}

/** The statements of queueDeliveriesWith, by the shape of the caller's writes and the number of deliveries. */
const deliveryStatements = new StatementTemplates<unknown>();

/** The rows of new deliveries, first attempt due now, each naming the request that caused it; ids chosen here, so none is read back. */
function deliveryRows(ctx: ServiceContext, deliveries: readonly NewDelivery[]) {
  const now = ctx.clock.now();
  return deliveries.map((delivery) => ({
    ...delivery,
    id: randomUUID(),
    // Stored without any authorizationToken: the one of the lender's key at sending time is added then.
    payload: withoutAuthorizationToken(delivery.payload),
    nextAttemptAt: now,
    requestId: ctx.requestId ?? null,
  }));
}

export type AttemptOutcome = 'delivered' | 'retrying' | 'dead';

/**
 * One attempt of a delivery the worker claimed (claimDueDeliveries), recorded before it returns.
 * Never throws for a lender's failure.
 * @access worker: the delivery worker's job, acting for no caller
 */
export async function attemptDueDelivery(ctx: ServiceContext, delivery: DueDelivery): Promise<AttemptOutcome> {
  const deliveryId = delivery.id;
  const now = ctx.clock.now();
  // The application's token as of now: a re-issued key reaches deliveries queued before it.
  const body = sentDocument(
    delivery.document,
    delivery.apiProvider,
    applicationAuthorizationToken(delivery.authorizationTokenKey, delivery.lenderApplicationId),
  );
  let statusCode: number | null = null;
  let response: ReceiverResponse | null = null;
  let error: string | null = null;
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);
  try {
    // webhook-id and webhook-timestamp always (lenders de-duplicate on the id); the signature once the lender has a secret.
    const headers = deliveryHeaders({ ...delivery, requestId: ctx.requestId ?? null }, signingSecrets(delivery, now), now, body);
    ({ statusCode, response } = await postToLender(ctx, delivery.url, body, headers));
    if (statusCode !== 204) error = `answered ${statusCode}, not 204`;
  } catch (err) {
    error = err instanceof AppError ? `${err.message}: ${err.fields[0]?.message ?? ''}` : err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    if (err instanceof AppError) {
      await recordDead(ctx.db, { deliveryId, attempts: delivery.attempts + 1, attemptedAt: now, latencyMs: latencyMs(), statusCode: null, error });
      ctx.logger.warn({ deliveryId, lender: delivery.lenderSlug, url: delivery.url, error }, 'webhook URL refused: dead-lettered');
      return 'dead';
    }
  }
  const attempts = delivery.attempts + 1;
  if (statusCode === 204) {
    await recordDelivered(ctx.db, { deliveryId: delivery.id, attempts, attemptedAt: now, latencyMs: latencyMs(), response });
    return 'delivered';
  }
  // Every failed attempt at warn, with what an operator needs to find the failing lender.
  ctx.logger.warn({ deliveryId, lender: delivery.lenderSlug, url: delivery.url, statusCode, error, attempts }, 'webhook delivery attempt failed');
  const delay = nextAttemptDelayMs(ctx.webhooks.retryDelaysSeconds, attempts);
  if (delay === null) {
    await recordDead(ctx.db, {
      deliveryId,
      attempts,
      attemptedAt: now,
      latencyMs: latencyMs(),
      statusCode,
      error: error ?? `answered ${statusCode}`,
      response,
    });
    ctx.logger.warn({ deliveryId, lender: delivery.lenderSlug, url: delivery.url, statusCode, attempts }, 'webhook delivery dead-lettered');
    return 'dead';
  }
  const nextAttemptAt = new Date(now.getTime() + delay);
  await recordRetrying(ctx.db, { deliveryId: delivery.id, attempts, attemptedAt: now, latencyMs: latencyMs(), statusCode, error, nextAttemptAt, response });
  return 'retrying';
}

/**
 * POSTs a webhook body to a lender's URL and answers the status with what the receiver said
 * (receiver-answer.ts): the URL checked by the webhook URL
 * policy first (a refused one throws its AppError), no redirect followed, within the webhook
 * timeout (a timeout or a refused connection throws). Deliveries and test events both go through it.
 * @access internal: sends for the operation or worker that decided what to send
 */
export async function postToLender(ctx: ServiceContext, url: string, body: string, headers: Record<string, string>): Promise<ReceiverAnswer> {
  const target = await resolveWebhookTarget(url, { environment: ctx.environment, allowPrivateAddresses: ctx.webhooks.allowPrivateAddresses });
  // undici's request rather than fetch: no redirects followed, and a fraction of fetch's CPU per call.
  const res = await undici().request(target.url, {
    method: 'POST',
    body,
    // Connects only to the addresses just checked, never to a fresh DNS answer (kept alive per lender host).
    dispatcher: lenderAgent(target),
    signal: AbortSignal.timeout(ctx.webhooks.timeoutMs),
    headers: { ...FIXED_HEADERS, ...headers },
  });
  // Read (a bounded amount of) the answer, so the connection can serve the next request, keeping an excerpt.
  return readReceiverAnswer(res);
}

/** The lender's current webhook secret, and the one it replaced while the rotation's overlap window lasts. */
export function signingSecrets(lender: Pick<DueDelivery, 'webhookSecret' | 'previousWebhookSecret' | 'previousWebhookSecretExpiresAt'>, now: Date): string[] {
  const previousValid = lender.previousWebhookSecret && lender.previousWebhookSecretExpiresAt && lender.previousWebhookSecretExpiresAt > now;
  return [lender.webhookSecret, previousValid ? lender.previousWebhookSecret : null].filter((s): s is string => !!s);
}

/** The attempts a listed or redelivered delivery shows (webhook-delivery-list.ts too). */
export const LISTED_ATTEMPTS = 10;
const ATTEMPTS_INCLUDE = { attemptLog: { orderBy: { attemptedAt: 'desc' as const }, take: LISTED_ATTEMPTS } } as const;

function toWebhookDelivery(row: Prisma.WebhookDeliveryGetPayload<{ include: typeof ATTEMPTS_INCLUDE }>): WebhookDelivery {
  return {
    id: row.id,
    lenderApplicationId: row.lenderApplicationId,
    lenderId: row.lenderId,
    // Staff read through the lender audience's scope (webhook-delivery-visibility.ts): a lender's events only.
    event: row.event as LenderDeliveryEvent,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    attemptLog: row.attemptLog.map((a) => ({ statusCode: a.statusCode, error: a.error, latencyMs: a.latencyMs, attemptedAt: a.attemptedAt.toISOString() })),
  };
}

/** What a redelivery or a replay may send again: every delivery but one already waiting for its attempt (PENDING) or in it. */
const RESENDABLE_STATUSES = ['DEAD', 'FAILED', 'DELIVERED'] as const;

/**
 * Sends deliveries again, now, from a fresh schedule: each the same row, so the same webhook-id,
 * sequence number and body, its attempt log kept. The one use case behind staff redelivery, lender
 * redelivery and lender replay; the caller's operation has decided access and `where` holds its
 * visibility rule. Answers how many were queued (those still resendable when written).
 * @access internal: resends deliveries within the scope of the operation that decided access
 */
export async function resendDeliveries(ctx: ServiceContext, tx: Prisma.TransactionClient, where: Prisma.WebhookDeliveryWhereInput): Promise<number> {
  const reset = await tx.webhookDelivery.updateMany({
    // Not one a worker is attempting right now (its claim is set until the attempt is recorded): that
    // attempt's record would follow, and a second worker could send it at the same time.
    where: { AND: [where, { status: { in: [...RESENDABLE_STATUSES] }, attemptStartedAt: null }] },
    data: { status: 'PENDING', attempts: 0, nextAttemptAt: ctx.clock.now(), attemptStartedAt: null },
  });
  if (reset.count > 0) await wakeWorkersAtCommit(tx);
  return reset.count;
}

export const DeliveryIdInput = z.strictObject({ id: z.uuid({ message: 'must be a delivery id (the webhook-id, a UUID)' }) });

/**
 * One delivery the scope sees, sent again (`resendDeliveries`): 404 when the scope does not see it,
 * 409 when it is already waiting for its attempt or in it.
 * @access internal: redelivers within the scope of the operation that decided access
 */
export async function redeliverInScope(ctx: ServiceContext, scope: DeliveryScope, deliveryId: unknown): Promise<string> {
  const { id } = parseInput(DeliveryIdInput, { id: deliveryId }, 'Path');
  await ctx.db.$transaction(async (tx) => {
    const found = await tx.webhookDelivery.findFirst({ where: { AND: [{ id }, deliveryWhere(scope)] }, select: { id: true } });
    if (!found) throw AppError.notFound('Delivery');
    if ((await resendDeliveries(ctx, tx, { id })) === 0)
      throw AppError.conflict('The delivery is already waiting for its attempt (PENDING) or being attempted');
  });
  return id;
}

/** Staff: send a delivery of their environment again, from a fresh schedule. */
export async function redeliver(ctx: ServiceContext, deliveryId: string): Promise<WebhookDelivery> {
  const actor = requireAccess(ctx, 'deliveries.manage');
  const id = await redeliverInScope(ctx, deliveryScopeOf(ctx, actor), deliveryId);
  return toWebhookDelivery(await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id }, include: ATTEMPTS_INCLUDE }));
}
