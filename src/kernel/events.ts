/**
 * Typed domain event topics, published after commit and delivered to GraphQL subscriptions.
 * In one process the bus is in memory; across processes it is backed by Redis (infra/event-bus.ts).
 *
 * Each module declares its own topics by declaration merging into `ModuleEventTopics`, each
 * `[channel, payload]` (lender applications: `applicationStatusChanged`, `offerStatusChanged`;
 * tenants: `tenantCreated`), so the kernel names no module's types and a payload is declared once,
 * beside the module that publishes it.
 */
import type { PubSub } from '@graphql-yoga/subscription';

// Filled by the modules (see above).
/** @public Exported for the modules' declaration merging, which knip does not see as a use. */
export interface ModuleEventTopics {}

export type EventTopics = { [Topic in keyof ModuleEventTopics]: ModuleEventTopics[Topic] };

export type EventBus = PubSub<EventTopics> & {
  /**
   * Across processes (Redis) only: resolves once every event this process published so far has
   * reached the bus (Redis answered its PUBLISH): tests wait on it before looking in Redis.
   */
  published?(): Promise<void>;
  /**
   * Across processes (Redis) only: `listener` is called each time the bus is connected again after
   * an outage, during which other processes' events went unheard: a holder of something derived
   * from events (the product catalogue) catches up then.
   */
  afterReconnect?(listener: () => void): void;
};
