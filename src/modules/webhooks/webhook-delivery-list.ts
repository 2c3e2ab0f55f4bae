/**
 * The staff's list of webhook deliveries, newest first, all or by status (DEAD: the dead letters),
 * a keyset page at a time: one statement per page reads the deliveries from the index on
 * (environment, [status,] createdAt DESC, id DESC) and each one's latest attempts beside it, never
 * the documents sent (test/query-plans.test.ts holds its plans to indexes).
 */
import type { ExpressionBuilder } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { DB } from '../../infra/sql-reads.js';
import { z } from 'zod';
import type { ServiceContext } from '../../kernel/context.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { parseInput } from '../../kernel/validation.js';
import { pageOf, parsePageArgs } from '../../kernel/keyset-pages.js';
import { readsOf } from '../../infra/database.js';
import { afterInNewestFirst, isoInstant } from '../../infra/keyset-sql.js';
import { LISTED_ATTEMPTS } from './webhook-delivery.js';
import { deliveryScopeOf, deliverySqlScope, type LenderDeliveryEvent } from './webhook-delivery-visibility.js';
import { DeliveryStatus, type WebhookDelivery, type WebhookDeliveryPage } from './webhook-delivery-schemas.js';

/** A delivery's latest attempts, newest first, as one JSON array beside it: the staff's and the lender's lists read them alike. */
function latestAttempts(eb: ExpressionBuilder<DB & { d: DB['webhook_delivery'] }, 'd'>) {
  return jsonArrayFrom(
    eb
      .selectFrom('webhook_delivery_attempt as a')
      .select(['a.statusCode', 'a.error', 'a.latencyMs', isoInstant('a.attemptedAt').as('attemptedAt')])
      .whereRef('a.deliveryId', '=', 'd.id')
      .orderBy('a.attemptedAt', 'desc')
      .limit(LISTED_ATTEMPTS),
  );
}

const DeliveryFilter = z.strictObject({ status: DeliveryStatus.optional() });

/** Staff: a page of the deliveries to their environment's lenders (the rule of webhook-delivery-visibility.ts, on the row's own environment). */
export async function listDeliveries(ctx: ServiceContext, filter: { status?: string }, page: unknown = {}): Promise<WebhookDeliveryPage> {
  const actor = requireAccess(ctx, 'deliveries.manage');
  const { status } = parseInput(DeliveryFilter, filter, 'Filter');
  const { first, position } = parsePageArgs<string>(page, 'string');
  let query = readsOf(ctx.db)
    .selectFrom('webhook_delivery as d')
    .select((eb) => [
      'd.id',
      'd.lenderApplicationId',
      'd.lenderId',
      'd.event',
      'd.url',
      'd.status',
      'd.attempts',
      'd.lastStatusCode',
      'd.lastError',
      isoInstant('d.nextAttemptAt').as('nextAttemptAt'),
      isoInstant('d.deliveredAt').as('deliveredAt'),
      isoInstant('d.createdAt').as('createdAt'),
      latestAttempts(eb).as('attemptLog'),
    ])
    .where(deliverySqlScope(deliveryScopeOf(ctx, actor)));
  if (status) query = query.where('d.status', '=', status);
  if (position) query = query.where(afterInNewestFirst('d.createdAt', 'd.id', position));
  const rows = await query
    .orderBy('d.createdAt', 'desc')
    .orderBy('d.id', 'desc')
    .limit(first + 1)
    .execute();
  // The staff's scope is the lender audience's (webhook-delivery-visibility.ts): a lender's events only.
  const deliveries = rows.map((row): WebhookDelivery => ({
    ...row,
    event: row.event as LenderDeliveryEvent,
    nextAttemptAt: row.nextAttemptAt as string | null,
    deliveredAt: row.deliveredAt as string | null,
  }));
  return pageOf(deliveries, first, (row) => ({ at: row.createdAt, id: row.id }));
}
