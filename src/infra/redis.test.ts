/**
 * The deployment's Redis connections (redis.ts), on a real Redis:
 *  - a SUBSCRIBE sent while a subscriber connection is still in its handshake (the moment ioredis
 *    writes it at once) costs no error and no reconnect: ioredis used to follow it with its ready
 *    check (INFO), refused in subscriber mode, printed as "[ioredis] Unhandled error event:
 *    Connection in subscriber mode" at the distributed deployment's start, and reconnected;
 *  - a connection that cannot reach Redis says so through the logger (warn once, then debug),
 *    never on stderr as an unhandled error event;
 *  - keys and channels are in the connection's namespace, and a listener hears its own only.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { capturedLogLines } from '../../test/support/log-lines.js';
import { redisAnswers, testRedisUrl as redisUrl } from '../../test/support/redis-availability.js';
import { createLogger } from './logger.js';
import { channelName, connectRedis, listenOn, publishOn, subscriberOf } from './redis.js';

const prefix = () => `fg-test:${randomUUID().slice(0, 8)}:`;

describe.skipIf(!(await redisAnswers(redisUrl)))('Redis connections', () => {
  it('a subscription sent during the handshake neither fails nor reconnects the connection', async () => {
    const logs = capturedLogLines();
    const commands = connectRedis({ url: redisUrl, keyPrefix: prefix(), logger: createLogger('debug', 'redis-test', logs.stream) }, 'commands');
    const subscriber = subscriberOf(commands, 'subscriber');
    const channel = channelName(commands, 'handshake');
    const events: string[] = [];
    for (const event of ['connect', 'ready', 'close', 'reconnecting']) subscriber.on(event, () => events.push(event));
    const heard: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => heard.push(message));
    // 'connect': the socket is open, the handshake under way; ioredis writes a SUBSCRIBE at once then.
    subscriber.once('connect', () => void subscriber.subscribe(channel));
    try {
      await vi.waitFor(async () => expect(await commands.pubsub('NUMSUB', channel)).toEqual([channel, 1]), { timeout: 10_000 });
      await publishOn(commands, 'handshake', 'after the handshake');
      await vi.waitFor(() => expect(heard).toEqual(['after the handshake']), { timeout: 10_000 });
      expect(events).toEqual(['connect', 'ready']);
      expect(logs.lines.filter((l) => l.redis !== undefined)).toEqual([]);
    } finally {
      subscriber.disconnect();
      commands.disconnect();
    }
  });

  it('an unreachable Redis is logged, at warn once and then at debug, not printed as an unhandled error', async () => {
    const logs = capturedLogLines();
    // Port 9 (discard) on loopback: nothing listens, every connection attempt is refused.
    const unreachable = connectRedis({ url: 'redis://127.0.0.1:9', keyPrefix: prefix(), logger: createLogger('debug', 'redis-test', logs.stream) }, 'counters');
    const subscriber = subscriberOf(unreachable, 'subscriber');
    try {
      await vi.waitFor(() => expect(logs.lines.filter((l) => l.redis === 'counters').length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
      await vi.waitFor(() => expect(logs.lines.filter((l) => l.redis === 'subscriber').length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
      for (const role of ['counters', 'subscriber']) {
        const lines = logs.lines.filter((l) => l.redis === role);
        expect(lines[0]).toMatchObject({ level: 40, msg: 'redis connection error; reconnecting', err: { code: 'ECONNREFUSED' } });
        expect(lines.slice(1).every((l) => l.level === 20)).toBe(true);
      }
      // Without a listener of its own, ioredis would have written each to stderr instead.
      expect(unreachable.listenerCount('error')).toBe(1);
      expect(subscriber.listenerCount('error')).toBe(1);
    } finally {
      subscriber.disconnect();
      unreachable.disconnect();
    }
  });

  it('keys and channels carry the namespace; a listener hears its own namespace only', async () => {
    const [mine, theirs] = [prefix(), prefix()];
    const logger = createLogger('silent');
    const here = connectRedis({ url: redisUrl, keyPrefix: mine, logger }, 'here');
    const there = connectRedis({ url: redisUrl, keyPrefix: theirs, logger }, 'there');
    const raw = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    const heard: string[] = [];
    const listener = listenOn(here, 'changes', 'listener', (message) => heard.push(message));
    try {
      await here.set('counter', '1', 'EX', 60);
      expect(await raw.get(`${mine}counter`)).toBe('1');
      expect(await there.get('counter')).toBeNull();
      await vi.waitFor(async () => expect(await raw.pubsub('NUMSUB', `${mine}changes`)).toEqual([`${mine}changes`, 1]), { timeout: 10_000 });
      // Published in order on one connection each; the listener's connection receives them in order.
      await publishOn(there, 'changes', 'theirs');
      await publishOn(here, 'changes', 'mine');
      await vi.waitFor(() => expect(heard).toEqual(['mine']), { timeout: 10_000 });
    } finally {
      listener.close();
      here.disconnect();
      there.disconnect();
      raw.disconnect();
    }
  });
});
