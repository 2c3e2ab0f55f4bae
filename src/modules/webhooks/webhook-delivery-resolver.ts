/** Thin adapters: the staff's view of webhook deliveries and redelivery. */
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import type { ServiceContext } from '../../kernel/context.js';
import { listDeliveries, redeliver } from './webhook-delivery.js';
import { WebhookDelivery as WebhookDeliverySchema, type WebhookDelivery as WebhookDeliveryResult } from './webhook-delivery-schemas.js';

export const WebhookDelivery = objectTypeFrom(WebhookDeliverySchema);

@Resolver(() => WebhookDelivery)
export class WebhookDeliveryResolver {
  @Query(() => [WebhookDelivery], { description: 'Webhook deliveries, newest first (staff); status DEAD lists the dead letters' })
  webhookDeliveries(@Arg('status', () => String, { nullable: true }) status: string | undefined, @Ctx() ctx: ServiceContext): Promise<WebhookDeliveryResult[]> {
    return listDeliveries(ctx, status);
  }

  @Mutation(() => WebhookDelivery, { description: 'Send a dead-lettered or failing delivery again, on a fresh schedule (staff)' })
  redeliverWebhook(@Arg('deliveryId', () => ID) deliveryId: string, @Ctx() ctx: ServiceContext): Promise<WebhookDeliveryResult> {
    return redeliver(ctx, deliveryId);
  }
}
