/**
 * Every Redis connection of the deployment is made here, so that one setting decides its namespace
 * and every connection reports its errors through the project's logger.
 *
 * Namespace (REDIS_KEY_PREFIX, default `fg:`): two deployments, or staging and production, may share
 * one Redis without reading each other's counters or hearing each other's events. Keys and channels
 * are prefixed by two different means, because ioredis prefixes only keys:
 *  - keys: ioredis's `keyPrefix` on each connection prefixes the key of every command, scripts'
 *    KEYS included (rate limits, sign-in and lender-token throttles: rate-limiter-flexible);
 *  - pub/sub channels: ioredis leaves PUBLISH's and SUBSCRIBE's channels (and a message's) as they
 *    are, so `publishOn` and `listenOn` (and the event bus, event-bus.ts) prefix them with the same
 *    connection's prefix: credential-status changes, subscription events, catalogue changes.
 *
 * Subscriber connections (`subscriberOf`) send nothing but subscriber commands. ioredis writes a
 * SUBSCRIBE issued while the connection is still in its handshake (status `connect`: SUBSCRIBE may
 * be sent while Redis loads its data) at once, before its own CLIENT SETINFO and ready check (INFO);
 * Redis has then put the connection in subscriber mode, ioredis rejects its INFO ("Connection in
 * subscriber mode, only subscriber commands may be used"), emits that as an error, and drops and
 * reopens the connection, missing what was published meanwhile. Without the ready check and the
 * client info, the handshake has nothing a subscribed connection refuses.
 *
 * Outages: a request never waits for Redis. Command connections fail fast (`FAIL_FAST`): no offline
 * queue (a command issued while the connection is down is refused at once instead of waiting for a
 * reconnect), no retry of a command whose connection dropped, a short connect timeout and a command
 * timeout; their users fall back at once (rate limits and throttles count in this process's memory,
 * rate-limiter-flexible's insurance limiter; the event bus delivers within the process, event-bus.ts).
 * Subscriber connections keep their queue instead: they send nothing a request waits for, and a
 * SUBSCRIBE made during an outage is sent when Redis returns rather than lost. What a process missed
 * meanwhile is caught up when its connection is ready again (`listenOn`'s `onReconnect`).
 *
 * Errors: an ioredis connection with no 'error' listener prints "[ioredis] Unhandled error event"
 * to stderr on every failed reconnect. Here each connection logs its first error at warn (and
 * repeats only at debug) until it is ready again, which is logged at info.
 */
import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';
import type * as IoRedisModule from 'ioredis';
import { loadOnFirstUse } from '../kernel/load-on-first-use.js';
import { DEFAULT_REDIS_KEY_PREFIX } from '../kernel/config.js';
import { createLogger, type Logger } from './logger.js';

export { DEFAULT_REDIS_KEY_PREFIX };

export interface RedisSettings {
  url: string;
  /** REDIS_KEY_PREFIX: every key and channel of this deployment starts with it. */
  keyPrefix: string;
  /** Where the connection's errors go (default: a warn-level JSON logger of its own). */
  logger?: Logger;
}

const ioredis = loadOnFirstUse(() => createRequire(import.meta.url)('ioredis') as typeof IoRedisModule);

/** What a connection was made for, and where its errors go (kept for the connections made from it). */
const made = new WeakMap<Redis, { logger: Logger; role: string }>();

/** A logger for connections made without one (a test's Redis): warnings and worse, as JSON. */
let fallbackLogger: Logger | undefined;
const defaultLogger = () => (fallbackLogger ??= createLogger('warn', 'funding-gateway:redis'));

/** The connection options a command connection may set. */
export type CommandConnectionOptions = Pick<
  RedisOptions,
  'maxRetriesPerRequest' | 'enableAutoPipelining' | 'enableOfflineQueue' | 'connectTimeout' | 'commandTimeout' | 'retryStrategy'
>;

/**
 * A command connection whose commands never wait for an unreachable Redis (see the top of the file):
 * refused at once while it is down, at most a second for an answer while it is up, and a reconnect
 * attempt at least every second, so a returning Redis is in use again within about a second.
 */
export const FAIL_FAST: CommandConnectionOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 2_000,
  commandTimeout: 1_000,
  retryStrategy: (attempts: number) => Math.min(attempts * 100, 1_000),
};

/** A command connection (counters, PUBLISH) in the deployment's namespace. */
export function connectRedis(settings: RedisSettings, role: string, options: CommandConnectionOptions = {}): Redis {
  return watched(new (ioredis().Redis)(settings.url, { ...options, keyPrefix: settings.keyPrefix }), settings.logger ?? defaultLogger(), role);
}

/** The deployment's counters connection from its configuration, when it has Redis: failing fast (`FAIL_FAST`). */
export function redisOfConfig(
  config: { REDIS_URL?: string | undefined; REDIS_KEY_PREFIX: string },
  logger: Logger,
  role: string,
  options: Pick<RedisOptions, 'enableAutoPipelining'> = {},
): Redis | undefined {
  return config.REDIS_URL ? connectRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, logger }, role, { ...FAIL_FAST, ...options }) : undefined;
}

/**
 * A connection of its own for SUBSCRIBE, in the namespace of `redis` (see the top of the file). It
 * queues what it is asked while Redis is away (a subscription made then is sent when it returns),
 * without a command timeout: no request waits on anything it sends.
 */
export function subscriberOf(redis: Redis, role: string): Redis {
  const subscriber = redis.duplicate({
    enableReadyCheck: false,
    disableClientInfo: true,
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    commandTimeout: undefined,
  });
  return watched(subscriber, loggerOf(redis), role);
}

/** The logger a connection made here reports to. */
export function loggerOf(redis: Redis): Logger {
  return made.get(redis)?.logger ?? defaultLogger();
}

/** The namespace `redis` writes its keys in. */
export function keyPrefixOf(redis: Redis): string {
  return redis.options.keyPrefix ?? '';
}

/** The name of a deployment channel on the wire: channels are not prefixed by ioredis. */
export function channelName(redis: Redis, channel: string): string {
  return `${keyPrefixOf(redis)}${channel}`;
}

/** PUBLISH on a channel of the deployment's namespace. */
export function publishOn(redis: Redis, channel: string, message: string): Promise<number> {
  return redis.publish(channelName(redis, channel), message);
}

/**
 * Listens to a channel of the deployment's namespace on a subscriber connection of its own (ioredis
 * subscribes again after a reconnect). A failed SUBSCRIBE is logged; the caller's own bound (a
 * cache's expiry) covers what is missed. `onReconnect` is called each time the connection is ready
 * again after it was lost: what was published meanwhile was not heard, and the caller catches up.
 */
export function listenOn(redis: Redis, channel: string, role: string, onMessage: (message: string) => void, onReconnect?: () => void): { close(): void } {
  const listener = subscriberOf(redis, role);
  const name = channelName(redis, channel);
  listener.on('message', (heard: string, message: string) => {
    if (heard === name) onMessage(message);
  });
  if (onReconnect) whenReconnected(listener, onReconnect);
  listener.subscribe(name).catch((err: unknown) => loggerOf(listener).warn({ err, redis: role, channel: name }, 'redis subscription failed'));
  return { close: () => listener.disconnect() };
}

/** Calls `then` each time the connection is ready again after it was lost (not at its first connection). */
function whenReconnected(redis: Redis, then: () => void): void {
  let lost = false;
  redis.on('close', () => (lost = true));
  redis.on('ready', () => {
    if (!lost) return;
    lost = false;
    then();
  });
}

/** Logs a connection's errors: the first after each time it was ready at warn, repeats at debug. */
function watched(redis: Redis, logger: Logger, role: string): Redis {
  made.set(redis, { logger, role });
  let failing = false;
  redis.on('error', (err: Error) => {
    if (failing) {
      logger.debug({ err, redis: role }, 'redis connection error (repeated)');
      return;
    }
    failing = true;
    logger.warn({ err, redis: role }, 'redis connection error; reconnecting');
  });
  redis.on('ready', () => {
    if (failing) logger.info({ redis: role }, 'redis connection ready again');
    failing = false;
  });
  return redis;
}
