/**
 * Typed domain event topics, published after commit and delivered to GraphQL subscriptions.
 * In one process the bus is in memory; across processes it is backed by Redis (infra/event-bus.ts).
 */
import type { PubSub } from '@graphql-yoga/subscription';
import type { TenantDto } from './tenants/tenant-schemas.js';

/** A lender application's status moved (spec 3); published on every channel of lender-application-visibility.ts `eventChannelsOf`. */
export interface ApplicationStatusChanged {
  applicationId: number;
  status: string;
  lenderId: number;
}

/** A lender's offer was made, replaced, accepted or declined; keyed like application events. */
export interface OfferStatusChanged {
  applicationId: number;
  lenderId: number;
  offerId: string;
  reference: string;
  status: string;
  decision: string | null;
}

export type EventTopics = {
  offerStatusChanged: [channel: string, payload: OfferStatusChanged];
  applicationStatusChanged: [channel: string, payload: ApplicationStatusChanged];
  /** On tenant-visibility.ts `tenantChannelsOf`: a subscriber only ever hears of the tenants it sees. */
  tenantCreated: [channel: string, payload: TenantDto];
};

export type EventBus = PubSub<EventTopics>;
