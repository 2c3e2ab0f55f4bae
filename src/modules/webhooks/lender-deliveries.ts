/**
 * A recipient's deliveries, for either audience of the engine: a lender (the lender API) or an
 * integrator account (its own endpoints: integrator-deliveries.ts) lists the webhook deliveries made to
 * it, with what each sent (secrets redacted) and its attempts, sends one again, or replays many (every
 * failed one, or those of a time range: bounded, rate-limited, recorded and audited). The public
 * operations here are the lender's; each decides access once and hands its audience's scope
 * (webhook-delivery-visibility.ts) to the use cases both audiences share (`listDeliveriesInScope`,
 * `redeliverDeliveryInScope`, `replayDeliveriesInScope`); sending again is the use case staff
 * redelivery runs too (webhook-delivery.ts `resendDeliveries`).
 */
import { sql, type ExpressionBuilder } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { DB } from '../../infra/sql-reads.js';
import { parseInput } from '../../kernel/validation.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { readsOf } from '../../infra/database.js';
import { afterInNewestFirst, isoInstant } from '../../infra/keyset-sql.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { audit } from '../../kernel/audit-log.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { decodeCursor, pageOf } from '../../kernel/keyset-pages.js';
import { withAuthorizationToken } from './authorization-token.js';
import {
  DETAIL_ATTEMPTS,
  MAX_REPLAY_DELIVERIES,
  type DeliveryReplay,
  type DeliveryReplayResult,
  type LenderDelivery,
  type LenderDeliveryPage,
  type LenderDeliveryQuery,
} from './lender-delivery-schemas.js';
import { redeliverInScope, resendDeliveries } from './webhook-delivery.js';
import { DeliveryIdInput, LISTED_ATTEMPTS } from './webhook-delivery.js';
import { deliveryScopeOf, deliverySqlScope, deliveryWhere, type DeliveryScope, type LenderDeliveryEvent } from './webhook-delivery-visibility.js';
import { REDACTED, shownAttemptHeaders, WEBHOOK_EVENT_TYPES } from './webhook-headers.js';
import type { WebhookEvent } from '../../generated/prisma/enums.js';

/** Replays a lender (or an integrator account) may ask for in an hour (each queues at most MAX_REPLAY_DELIVERIES). */
export const MAX_REPLAYS_PER_HOUR = 10;
const HOUR_MS = 3_600_000;

/** Who asked for a replay: its record and its rate limit are per lender, or per integrator account. */
export type ReplayOwner = { lenderId: number } | { accountId: string };

/** A page of the calling lender's deliveries, newest first, by application and status when asked. */
export async function listLenderDeliveries(ctx: ServiceContext, query: LenderDeliveryQuery): Promise<LenderDeliveryPage> {
  const actor = requireAccess(ctx, 'lenderDeliveries.read');
  return listDeliveriesInScope(ctx, deliveryScopeOf(ctx, actor), query, lenderDeliveryOf);
}

/** One delivery of the calling lender with its attempts (up to DETAIL_ATTEMPTS), each with what was sent and answered; 404 when another's. */
export async function getLenderDelivery(ctx: ServiceContext, deliveryId: unknown): Promise<LenderDelivery> {
  const actor = requireAccess(ctx, 'lenderDeliveries.read');
  const { id } = parseInput(DeliveryIdInput, { id: deliveryId }, 'Path');
  const [delivery] = await readDeliveries(ctx, deliveryScopeOf(ctx, actor), { first: 1, id }, DETAIL_ATTEMPTS);
  if (!delivery) throw AppError.notFound('Delivery');
  return lenderDeliveryOf(delivery);
}

/** One delivery of the calling lender, sent again now (a new attempt of the same webhook-id); answers it. */
export async function redeliverLenderDelivery(ctx: ServiceContext, deliveryId: unknown): Promise<LenderDelivery> {
  const actor = requireAccess(ctx, 'lenderDeliveries.replay');
  return redeliverDeliveryInScope(ctx, { lenderId: actor.lenderId }, deliveryScopeOf(ctx, actor), deliveryId, lenderDeliveryOf);
}

/**
 * The calling lender's failed deliveries, or those created in a time range, sent again (see
 * `replayDeliveriesInScope`).
 */
export async function replayLenderDeliveries(ctx: ServiceContext, replay: DeliveryReplay): Promise<DeliveryReplayResult> {
  const actor = requireAccess(ctx, 'lenderDeliveries.replay');
  return replayDeliveriesInScope(ctx, { lenderId: actor.lenderId }, deliveryScopeOf(ctx, actor), replay);
}

/**
 * A page of the deliveries a scope sees, newest first, each as its audience shows it.
 * @access internal: lists within the scope of the operation that decided access
 */
export async function listDeliveriesInScope<T extends { createdAt: string; id: string }>(
  ctx: ServiceContext,
  scope: DeliveryScope,
  query: Partial<LenderDeliveryQuery> & { first: number; endpointId?: string },
  show: (row: DeliveryRow) => T,
): Promise<{ nodes: T[]; pageInfo: { endCursor: string | null; hasNextPage: boolean } }> {
  const deliveries = (await readDeliveries(ctx, scope, query)).map(show);
  return pageOf(deliveries, query.first, (row) => ({ at: row.createdAt, id: row.id }));
}

/**
 * One delivery the scope sees, sent again now (a new attempt of the same webhook-id), audited; answers it.
 * @access internal: redelivers within the scope of the operation that decided access
 */
export async function redeliverDeliveryInScope<T>(
  ctx: ServiceContext,
  owner: ReplayOwner,
  scope: DeliveryScope,
  deliveryId: unknown,
  show: (row: DeliveryRow) => T,
): Promise<T> {
  const id = await redeliverInScope(ctx, scope, deliveryId);
  audit(ctx.logger, 'deliveries.replayed', { ...owner, deliveryId: id, queued: 1 });
  const [delivery] = await readDeliveries(ctx, scope, { first: 1, id });
  return show(delivery!);
}

/**
 * The scope's failed deliveries, or those created in a time range, sent again, oldest first, at most
 * MAX_REPLAY_DELIVERIES a call and MAX_REPLAYS_PER_HOUR calls an hour per owner (429 beyond, with
 * Retry-After). Each replay is recorded (`webhook_replay`) and audited.
 * @access internal: replays within the scope of the operation that decided access
 */
export async function replayDeliveriesInScope(
  ctx: ServiceContext,
  owner: ReplayOwner,
  scope: DeliveryScope,
  replay: DeliveryReplay,
): Promise<DeliveryReplayResult> {
  const now = ctx.clock.now();
  const result = await ctx.db.$transaction(async (tx) => {
    // One replay of an owner at a time, so concurrent ones cannot both pass the count below.
    const lockKey = 'lenderId' in owner ? `webhook_replay:${owner.lenderId}` : `webhook_replay:account:${owner.accountId}`;
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${lockKey}))::text`;
    const recent = await tx.webhookReplay.findMany({
      where: { ...owner, createdAt: { gt: new Date(now.getTime() - HOUR_MS) } },
      orderBy: { createdAt: 'asc' },
      select: { createdAt: true },
    });
    if (recent.length >= MAX_REPLAYS_PER_HOUR) {
      const retryAfterSeconds = Math.max(1, Math.ceil((recent[0]!.createdAt.getTime() + HOUR_MS - now.getTime()) / 1000));
      throw new AppError('TOO_MANY_REQUESTS', `At most ${MAX_REPLAYS_PER_HOUR} replays an hour; try again in ${retryAfterSeconds} seconds`, [], {
        retryAfterSeconds,
      });
    }
    const matching: Prisma.WebhookDeliveryWhereInput =
      replay.status === 'FAILED'
        ? { status: { in: ['FAILED', 'DEAD'] } }
        : { status: { not: 'PENDING' }, createdAt: { gte: new Date(replay.from!), lt: new Date(replay.to!) } };
    const candidates = await tx.webhookDelivery.findMany({
      where: { AND: [deliveryWhere(scope), matching] },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: MAX_REPLAY_DELIVERIES + 1,
      select: { id: true, createdAt: true },
    });
    const chosen = candidates.slice(0, MAX_REPLAY_DELIVERIES);
    const queued = chosen.length === 0 ? 0 : await resendDeliveries(ctx, tx, { AND: [deliveryWhere(scope), { id: { in: chosen.map((c) => c.id) } }] });
    await tx.webhookReplay.create({ data: { ...owner, filter: replay, queued, requestId: ctx.requestId ?? null } });
    const next = candidates[MAX_REPLAY_DELIVERIES];
    return { queued, more: next !== undefined, nextFrom: next && replay.status === undefined ? next.createdAt.toISOString() : null };
  });
  audit(ctx.logger, 'deliveries.replayed', { ...owner, filter: replay, queued: result.queued });
  return result;
}

/** A delivery as read for either audience, before its audience's view of it. */
export interface DeliveryRow {
  id: string;
  lenderApplicationId: number;
  event: WebhookEvent;
  sequence: number;
  url: string;
  status: LenderDelivery['status'];
  attempts: number;
  payload: unknown;
  requestId: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
  signed: boolean;
  integratorEndpointId: string | null;
  attemptLog: Array<{
    attemptedAt: string;
    statusCode: number | null;
    latencyMs: number;
    error: string | null;
    responseHeaders: Record<string, string> | null;
    responseBody: string | null;
    responseBodyTruncated: boolean | null;
  }>;
}

/** What every audience's view shows of a delivery: all but its event type and body. */
export function deliveryFieldsOf(row: DeliveryRow) {
  const sent = { id: row.id, event: row.event, sequence: row.sequence, requestId: row.requestId };
  return {
    id: row.id,
    applicationId: row.lenderApplicationId,
    sequence: row.sequence,
    url: row.url,
    status: row.status,
    attemptCount: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    deliveredAt: row.deliveredAt,
    createdAt: row.createdAt,
    attempts: row.attemptLog.map((attempt) => ({
      attemptedAt: attempt.attemptedAt,
      statusCode: attempt.statusCode,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
      requestHeaders: shownAttemptHeaders(sent, new Date(attempt.attemptedAt), row.signed),
      response:
        attempt.responseHeaders === null
          ? null
          : { headers: attempt.responseHeaders, body: attempt.responseBody, bodyTruncated: attempt.responseBodyTruncated === true },
    })),
  };
}

/** The lender's view: its own events, the document with its authorization token redacted. */
function lenderDeliveryOf(row: DeliveryRow): LenderDelivery {
  return {
    ...deliveryFieldsOf(row),
    // A lender's scope holds its own deliveries only (webhook-delivery-visibility.ts): a lender's events.
    eventType: WEBHOOK_EVENT_TYPES[row.event as LenderDeliveryEvent],
    requestBody: withAuthorizationToken(row.payload as Record<string, unknown>, REDACTED),
  };
}

/**
 * The deliveries the scope sees, newest first: one statement reads a page (or one delivery) with
 * each one's latest attempts beside it, from the index on (lenderId, createdAt DESC, id DESC), or
 * (accountId, createdAt DESC, id DESC), or the application's when filtered by it.
 */
async function readDeliveries(
  ctx: ServiceContext,
  scope: DeliveryScope,
  query: Partial<LenderDeliveryQuery> & { first: number; id?: string; endpointId?: string },
  attemptsShown = LISTED_ATTEMPTS,
): Promise<DeliveryRow[]> {
  const reads = readsOf(ctx.db);
  let statement = reads
    .selectFrom('webhook_delivery as d')
    .select((eb) => [
      sql<string>`d.id::text`.as('id'),
      'd.lenderApplicationId',
      'd.event',
      'd.sequence',
      'd.url',
      'd.status',
      'd.attempts',
      'd.payload',
      'd.requestId',
      sql<string | null>`d."integratorEndpointId"::text`.as('integratorEndpointId'),
      isoInstant('d.nextAttemptAt').as('nextAttemptAt'),
      isoInstant('d.deliveredAt').as('deliveredAt'),
      isoInstant('d.createdAt').as('createdAt'),
      // An integrator's endpoint always has a secret; a lender signs once it has one.
      eb
        .selectFrom('lender as l')
        .select(sql<boolean>`l."webhookSecret" IS NOT NULL OR d."integratorEndpointId" IS NOT NULL`.as('signed'))
        .whereRef('l.id', '=', 'd.lenderId')
        .as('signed'),
      attemptsWithAnswers(eb, attemptsShown).as('attemptLog'),
    ])
    .where(deliverySqlScope(scope));
  if (query.id !== undefined) statement = statement.where('d.id', '=', query.id);
  if (query.applicationId !== undefined) statement = statement.where('d.lenderApplicationId', '=', query.applicationId);
  if (query.endpointId !== undefined) statement = statement.where('d.integratorEndpointId', '=', query.endpointId);
  if (query.status !== undefined) statement = statement.where('d.status', '=', query.status);
  if (query.after !== undefined) statement = statement.where(afterInNewestFirst('d.createdAt', 'd.id', decodeCursor<string>(query.after, 'string')));
  const rows = await statement
    .orderBy('d.createdAt', 'desc')
    .orderBy('d.id', 'desc')
    .limit(query.first + 1)
    .execute();
  return rows.map((row) => ({
    ...row,
    signed: row.signed === true,
    nextAttemptAt: row.nextAttemptAt as string | null,
    deliveredAt: row.deliveredAt as string | null,
  }));
}

/** A delivery's latest attempts, newest first, with what the receiver answered, as one JSON array beside it. */
function attemptsWithAnswers(eb: ExpressionBuilder<DB & { d: DB['webhook_delivery'] }, 'd'>, limit: number) {
  return jsonArrayFrom(
    eb
      .selectFrom('webhook_delivery_attempt as a')
      .select([
        'a.statusCode',
        'a.error',
        'a.latencyMs',
        isoInstant('a.attemptedAt').as('attemptedAt'),
        sql<Record<string, string> | null>`a."responseHeaders"`.as('responseHeaders'),
        'a.responseBody',
        'a.responseBodyTruncated',
      ])
      .whereRef('a.deliveryId', '=', 'd.id')
      .orderBy('a.attemptedAt', 'desc')
      .limit(limit),
  );
}
