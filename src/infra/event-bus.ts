/** The event bus: in memory for one process; Redis-backed when REDIS_URL is set, so events cross processes. */
import { createPubSub } from '@graphql-yoga/subscription';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import type { EventBus, EventTopics } from '../kernel/events.js';

export interface EventBusHandle {
  bus: EventBus;
  /** For readiness: 'in-process' in memory, 'ready' once Redis answers a PING (throws otherwise). */
  ping(): Promise<string>;
  close(): Promise<void>;
}

export function createEventBus(redisUrl?: string): EventBusHandle {
  if (!redisUrl) return { bus: createPubSub<EventTopics>(), ping: async () => 'in-process', close: async () => {} };
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const eventTarget = createRedisEventTarget<CustomEvent>({ publishClient, subscribeClient });
  return {
    bus: createPubSub<EventTopics>({ eventTarget }),
    async ping() {
      await publishClient.ping();
      return 'ready';
    },
    async close() {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
