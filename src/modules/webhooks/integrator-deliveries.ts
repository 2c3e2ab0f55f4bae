/**
 * The deliveries to an integrator account's own endpoints: the same use cases as a lender's
 * (lender-deliveries.ts: list with what each sent and its attempts, redeliver one, replay the failed
 * ones or a time range, bounded, rate-limited, recorded and audited), on the account's scope of the
 * deliveries' one visibility rule (webhook-delivery-visibility.ts). Every user of the account reads
 * them; account admins send them again.
 */
import { requireAccess } from '../../kernel/access-policy.js';
import type { ServiceContext } from '../../kernel/context.js';
import type { IntegratorDelivery, IntegratorDeliveryPage, IntegratorDeliveryQuery } from './integrator-webhook-schemas.js';
import type { DeliveryReplay, DeliveryReplayResult } from './lender-delivery-schemas.js';
import { deliveryFieldsOf, listDeliveriesInScope, redeliverDeliveryInScope, replayDeliveriesInScope, type DeliveryRow } from './lender-deliveries.js';
import { accountDeliveryScope } from './webhook-delivery-visibility.js';
import { WEBHOOK_EVENT_TYPES, type IntegratorEvent } from './webhook-headers.js';

/** A page of the deliveries to the account's endpoints, newest first, by endpoint, application and status when asked. */
export async function listAccountDeliveries(ctx: ServiceContext, query: IntegratorDeliveryQuery): Promise<IntegratorDeliveryPage> {
  const actor = requireAccess(ctx, 'integratorDeliveries.read');
  return listDeliveriesInScope(ctx, accountDeliveryScope(ctx, actor), query, integratorDeliveryOf);
}

/** One delivery to the account's endpoints, sent again now (a new attempt of the same webhook-id); answers it. */
export async function redeliverAccountDelivery(ctx: ServiceContext, deliveryId: unknown): Promise<IntegratorDelivery> {
  const actor = requireAccess(ctx, 'integratorDeliveries.replay');
  return redeliverDeliveryInScope(ctx, { accountId: actor.accountId }, accountDeliveryScope(ctx, actor), deliveryId, integratorDeliveryOf);
}

/** The account's failed deliveries, or those created in a time range, sent again (the lender's replay, per account). */
export async function replayAccountDeliveries(ctx: ServiceContext, replay: DeliveryReplay): Promise<DeliveryReplayResult> {
  const actor = requireAccess(ctx, 'integratorDeliveries.replay');
  return replayDeliveriesInScope(ctx, { accountId: actor.accountId }, accountDeliveryScope(ctx, actor), replay);
}

/** The account's view: the event as sent (it holds no secret). */
function integratorDeliveryOf(row: DeliveryRow): IntegratorDelivery {
  return {
    ...deliveryFieldsOf(row),
    // The account's scope holds deliveries to its endpoints only (webhook-delivery-visibility.ts): integrator events.
    eventType: WEBHOOK_EVENT_TYPES[row.event as IntegratorEvent],
    endpointId: row.integratorEndpointId!,
    requestBody: row.payload as Record<string, unknown>,
  };
}
