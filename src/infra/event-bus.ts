/** The event bus: in memory for one process; Redis-backed when REDIS_URL is set, so events cross processes. */
import { createPubSub } from '@graphql-yoga/subscription';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import type { Redis } from 'ioredis';
import type { EventBus, EventTopics } from '../kernel/events.js';
import type { Logger } from './logger.js';
import { channelName, connectRedis, DEFAULT_REDIS_KEY_PREFIX, keyPrefixOf, loggerOf, subscriberOf } from './redis.js';

export interface EventBusHandle {
  bus: EventBus;
  /** For readiness: 'in-process' in memory, 'ready' once Redis answers a PING (throws otherwise). */
  ping(): Promise<string>;
  close(): Promise<void>;
}

export interface EventBusOptions {
  /** REDIS_KEY_PREFIX: the bus's channels are `<prefix><topic>[:<id>]` (default `fg:`). */
  keyPrefix?: string;
  /** Where the connections' errors are logged. */
  logger?: Logger;
}

export function createEventBus(redisUrl?: string, options: EventBusOptions = {}): EventBusHandle {
  if (!redisUrl) return { bus: createPubSub<EventTopics>(), ping: async () => 'in-process', close: async () => {} };
  const keyPrefix = options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX;
  const publishClient = connectRedis({ url: redisUrl, keyPrefix, logger: options.logger }, 'event bus', { maxRetriesPerRequest: 3 });
  const subscribeClient = subscriberOf(publishClient, 'event bus subscriber');
  // The PUBLISHes under way, so `published()` can wait for them (the event target does not return them).
  const publishing = new Set<Promise<unknown>>();
  const trackedPublisher = {
    publish(topic: string, message: string) {
      const sent = publishClient.publish(channelName(publishClient, topic), message);
      publishing.add(sent);
      const done = () => publishing.delete(sent);
      sent.then(done, done);
      return sent;
    },
  } as unknown as Redis;
  const eventTarget = createRedisEventTarget<CustomEvent>({ publishClient: trackedPublisher, subscribeClient: namespacedSubscriber(subscribeClient) });
  const bus: EventBus = Object.assign(createPubSub<EventTopics>({ eventTarget }), {
    async published() {
      await Promise.allSettled([...publishing]);
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

/**
 * The subscriber as the event target uses it (subscribe, unsubscribe, on 'message'), in the
 * deployment's namespace: topics go out prefixed, and only messages of the namespace come back,
 * without the prefix. A failed SUBSCRIBE (Redis away) is logged rather than left unhandled.
 */
function namespacedSubscriber(subscriber: Redis): Redis {
  const prefix = keyPrefixOf(subscriber);
  const failed = (topic: string) => (err: unknown) => loggerOf(subscriber).warn({ err, topic }, 'event bus subscription change failed');
  return {
    subscribe: (topic: string) => subscriber.subscribe(prefix + topic).catch(failed(topic)),
    unsubscribe: (topic: string) => subscriber.unsubscribe(prefix + topic).catch(failed(topic)),
    on(event: string, listener: (channel: string, message: string) => void) {
      if (event !== 'message') throw new Error(`the event bus listens to messages only, not ${event}`);
      subscriber.on('message', (channel: string, message: string) => {
        if (channel.startsWith(prefix)) listener(channel.slice(prefix.length), message);
      });
      return this;
    },
  } as unknown as Redis;
}
