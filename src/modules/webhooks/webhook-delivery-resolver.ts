/** Thin adapters: the staff's view of webhook deliveries and redelivery. */
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import type { ServiceContext } from '../../kernel/context.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../kernel/keyset-pages.js';
import { redeliver } from './webhook-delivery.js';
import { listDeliveries } from './webhook-delivery-list.js';
import { summariseDeliveriesByLender } from './webhook-delivery-summary.js';
import {
  LenderDeliverySummary as LenderDeliverySummarySchema,
  type LenderDeliverySummary as LenderDeliverySummaryResult,
} from './webhook-delivery-summary-schemas.js';
import {
  WebhookDelivery as WebhookDeliverySchema,
  WebhookDeliveryPage as WebhookDeliveryPageSchema,
  type WebhookDelivery as WebhookDeliveryResult,
  type WebhookDeliveryPage as WebhookDeliveryPageResult,
} from './webhook-delivery-schemas.js';

const WebhookDelivery = objectTypeFrom(WebhookDeliverySchema);
const WebhookDeliveryPage = objectTypeFrom(WebhookDeliveryPageSchema);
const LenderDeliverySummary = objectTypeFrom(LenderDeliverySummarySchema);

@Resolver(() => WebhookDelivery)
export class WebhookDeliveryResolver {
  @Query(() => WebhookDeliveryPage, { description: 'A page of webhook deliveries, newest first (staff); status DEAD lists the dead letters' })
  webhookDeliveries(
    @Arg('status', () => String, { nullable: true }) status: string | undefined,
    @Arg('first', () => Int, { nullable: true, description: `Deliveries in the page: ${DEFAULT_PAGE_SIZE} unless given, at most ${MAX_PAGE_SIZE}` })
    first: number | undefined,
    @Arg('after', () => String, { nullable: true, description: "The previous page's pageInfo.endCursor" }) after: string | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<WebhookDeliveryPageResult> {
    return listDeliveries(ctx, { status: status ?? undefined }, { first: first ?? undefined, after: after ?? undefined });
  }

  @Query(() => [LenderDeliverySummary], {
    description:
      "Each lender's webhook deliveries created in the last `hours` (a week unless given), counted by status with the success rate; failing lenders first (staff)",
  })
  webhookDeliverySummary(
    @Arg('hours', () => Int, { nullable: true, description: 'The window: deliveries created in the last this many hours (1 to 2160; 168 unless given)' })
    hours: number | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<LenderDeliverySummaryResult[]> {
    return summariseDeliveriesByLender(ctx, { hours: hours ?? undefined });
  }

  @Mutation(() => WebhookDelivery, {
    description: 'Send a delivery again (dead-lettered, failing or delivered), on a fresh schedule, with the same webhook-id (staff)',
  })
  redeliverWebhook(@Arg('deliveryId', () => ID) deliveryId: string, @Ctx() ctx: ServiceContext): Promise<WebhookDeliveryResult> {
    return redeliver(ctx, deliveryId);
  }
}
