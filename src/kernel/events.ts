/**
 * Typed domain event topics, published after commit and delivered to GraphQL subscriptions.
 * In one process the bus is in memory; across processes it is backed by Redis (infra/event-bus.ts).
 */
import type { PubSub } from '@graphql-yoga/subscription';
import type { ApplicationStatusChanged, OfferStatusChanged } from '../modules/lender-applications/application-event-schemas.js';
import type { TenantDto } from '../modules/tenants/tenant-schemas.js';

/** A lender application's status moved (spec 3), or an offer was made, replaced, accepted or declined; published on every channel of lender-application-visibility.ts `eventChannelsOf`. */
export type { ApplicationStatusChanged, OfferStatusChanged };

export type EventTopics = {
  offerStatusChanged: [channel: string, payload: OfferStatusChanged];
  applicationStatusChanged: [channel: string, payload: ApplicationStatusChanged];
  /** On tenant-visibility.ts `tenantChannelsOf`: a subscriber only ever hears of the tenants it sees. */
  tenantCreated: [channel: string, payload: TenantDto];
};

export type EventBus = PubSub<EventTopics>;
