/**
 * The event bus: in memory for one process; Redis-backed when REDIS_URL is set, so events cross processes.
 *
 * A Redis outage degrades the bus rather than the requests: while either of its connections is down,
 * an event published here is delivered to this process's own subscribers at once, without Redis
 * (other processes do not hear it), no publish waits for Redis, the log says so once (`cross-process
 * events degraded`) and readiness reports `eventBus: "degraded"` (health.ts) while still answering
 * 200. When both connections are back (`cross-process events restored`), the bus tells those that keep
 * something derived from events (`afterReconnect`) to catch up on what they may have missed.
 */
import { createPubSub } from '@graphql-yoga/subscription';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import type { Redis } from 'ioredis';
import type { EventBus, EventTopics } from '../kernel/events.js';
import type { Logger } from './logger.js';
import { channelName, connectRedis, DEFAULT_REDIS_KEY_PREFIX, FAIL_FAST, keyPrefixOf, loggerOf, subscriberOf } from './redis.js';

export interface EventBusHandle {
  bus: EventBus;
  /**
   * For readiness: 'in-process' in memory; across processes 'ready' once Redis answers a PING, and
   * 'degraded' at once while it does not (never throws: the process serves on).
   */
  ping(): Promise<string>;
  close(): Promise<void>;
}

export interface EventBusOptions {
  /** REDIS_KEY_PREFIX: the bus's channels are `<prefix><topic>[:<id>]` (default `fg:`). */
  keyPrefix?: string;
  /** Where the connections' errors, and the bus's degraded and restored states, are logged. */
  logger?: Logger;
}

export function createEventBus(redisUrl?: string, options: EventBusOptions = {}): EventBusHandle {
  if (!redisUrl) return { bus: createPubSub<EventTopics>(), ping: async () => 'in-process', close: async () => {} };
  const keyPrefix = options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX;
  // Its first PUBLISHes may wait for the first connection (a process publishing as it starts); once
  // connected, a publish while Redis is away is delivered here instead (below).
  const publishClient = connectRedis({ url: redisUrl, keyPrefix, logger: options.logger }, 'event bus', { ...FAIL_FAST, enableOfflineQueue: true });
  const subscribeClient = subscriberOf(publishClient, 'event bus subscriber');
  const logger = loggerOf(publishClient);
  const subscriber = namespacedSubscriber(subscribeClient);
  const connection = busConnection(publishClient, subscribeClient, logger);

  // The PUBLISHes under way, so `published()` can wait for them (the event target does not return them).
  const publishing = new Set<Promise<unknown>>();
  const trackedPublisher = {
    publish(topic: string, message: string) {
      if (connection.degraded()) {
        // Redis away: this process's subscribers hear it now; the others catch up (afterReconnect).
        subscriber.deliverHere(topic, message);
        if (publishClient.status !== 'ready') return Promise.resolve(0);
      }
      const sent = publishClient.publish(channelName(publishClient, topic), message);
      publishing.add(sent);
      const done = () => publishing.delete(sent);
      sent.then(done, done);
      return sent;
    },
  } as unknown as Redis;
  const eventTarget = createRedisEventTarget<CustomEvent>({ publishClient: trackedPublisher, subscribeClient: subscriber.client });
  const bus: EventBus = Object.assign(createPubSub<EventTopics>({ eventTarget }), {
    async published() {
      await Promise.allSettled([...publishing]);
    },
    afterReconnect: connection.afterReconnect,
  });
  return {
    bus,
    async ping() {
      if (connection.degraded() || publishClient.status !== 'ready') return 'degraded';
      try {
        await publishClient.ping();
        return 'ready';
      } catch {
        return 'degraded';
      }
    },
    async close() {
      connection.closing();
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}

/**
 * Whether both of the bus's connections are up, since each was first connected: degraded from the
 * moment either is lost until both are ready again, when the catch-up listeners are called.
 */
function busConnection(publishClient: Redis, subscribeClient: Redis, logger: Logger) {
  const lost = new Set<string>();
  const everReady = new Set<string>();
  const catchUp = new Set<() => void>();
  let closing = false;
  const follow = (redis: Redis, role: string) => {
    redis.on('close', () => {
      // Never connected yet: the bus is starting (its publishes wait in the queue), not degraded.
      if (closing || !everReady.has(role)) return;
      if (lost.size === 0) logger.warn({ redis: role }, 'cross-process events degraded: Redis unreachable; events published here reach this process only');
      lost.add(role);
    });
    redis.on('ready', () => {
      everReady.add(role);
      if (!lost.delete(role) || lost.size > 0) return;
      logger.info('cross-process events restored; catching up on what was missed');
      for (const listener of catchUp) {
        try {
          listener();
        } catch (err) {
          logger.warn({ err }, 'event bus catch-up failed');
        }
      }
    });
  };
  follow(publishClient, 'event bus');
  follow(subscribeClient, 'event bus subscriber');
  return {
    degraded: () => lost.size > 0,
    afterReconnect(listener: () => void) {
      catchUp.add(listener);
    },
    closing() {
      closing = true;
    },
  };
}

/**
 * The subscriber as the event target uses it (subscribe, unsubscribe, on 'message'), in the
 * deployment's namespace: topics go out prefixed, and only messages of the namespace come back,
 * without the prefix. A failed SUBSCRIBE is logged rather than left unhandled. `deliverHere` hands
 * a message to this process's subscribers as if Redis had sent it (the bus while Redis is away).
 */
function namespacedSubscriber(subscriber: Redis): { client: Redis; deliverHere(topic: string, message: string): void } {
  const prefix = keyPrefixOf(subscriber);
  const failed = (topic: string) => (err: unknown) => loggerOf(subscriber).warn({ err, topic }, 'event bus subscription change failed');
  const listeners: Array<(topic: string, message: string) => void> = [];
  const client = {
    subscribe: (topic: string) => subscriber.subscribe(prefix + topic).catch(failed(topic)),
    unsubscribe: (topic: string) => subscriber.unsubscribe(prefix + topic).catch(failed(topic)),
    on(event: string, listener: (channel: string, message: string) => void) {
      if (event !== 'message') throw new Error(`the event bus listens to messages only, not ${event}`);
      listeners.push(listener);
      subscriber.on('message', (channel: string, message: string) => {
        if (channel.startsWith(prefix)) listener(channel.slice(prefix.length), message);
      });
      return this;
    },
  } as unknown as Redis;
  return {
    client,
    deliverHere(topic, message) {
      for (const listener of listeners) listener(topic, message);
    },
  };
}
