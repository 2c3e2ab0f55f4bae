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
  // The PUBLISHes under way, so `published()` can wait for them (the event target does not return them).
  const publishing = new Set<Promise<unknown>>();
  const trackedPublisher = {
    publish(channel: string, message: string) {
      const sent = publishClient.publish(channel, message);
      publishing.add(sent);
      const done = () => publishing.delete(sent);
      sent.then(done, done);
      return sent;
    },
  } as unknown as Redis;
  const eventTarget = createRedisEventTarget<CustomEvent>({ publishClient: trackedPublisher, subscribeClient });
  const bus: EventBus = Object.assign(createPubSub<EventTopics>({ eventTarget }), {
    async published() {
      await Promise.allSettled([...publishing]);
    },
    // Redis answers a PING on a subscribed connection after the messages it sent that connection
    // before it, and ioredis emits those messages before it settles the PING.
    async caughtUp() {
      // Not connected: nothing to wait for (the periodic refresh covers what a cut loses); no
      // search waits on a reconnecting client.
      if (subscribeClient.status !== 'ready') return;
      await subscribeClient.ping();
    },
  });
  return {
    bus,
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
