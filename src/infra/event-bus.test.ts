/**
 * The Redis-backed event bus through a Redis outage (a redis-server of the test's own, stopped and
 * started again): readiness says `degraded` at once instead of failing or waiting, an event published
 * meanwhile reaches the publishing process's own subscribers and nobody else's, the log says so once,
 * and when Redis returns the bus tells its catch-up listeners, reports `ready`, and events cross
 * processes again on the subscriptions made before the outage.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { capturedLogLines } from '../../test/support/log-lines.js';
import { redisServerInstalled, startThrowawayRedis, type ThrowawayRedis } from '../../test/support/throwaway-redis.js';
import type { EventBus } from '../kernel/events.js';
import { createEventBus, type EventBusHandle } from './event-bus.js';
import { createLogger } from './logger.js';

/** Everything a bus delivers on one channel of a topic (the catalogue's, with a channel no one else uses), in order. */
function heardOn(bus: EventBus, channel: string): string[] {
  const heard: string[] = [];
  void (async () => {
    for await (const event of bus.subscribe('lenderCatalogueChanged', channel)) heard.push(event.environment);
  })();
  return heard;
}

const publish = (bus: EventBus, channel: string, marker: string) => bus.publish('lenderCatalogueChanged', channel, { environment: marker });

describe.skipIf(!redisServerInstalled())('the event bus through a Redis outage', () => {
  let redis: ThrowawayRedis;
  const buses: EventBusHandle[] = [];
  beforeAll(async () => {
    redis = await startThrowawayRedis();
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
    await redis?.stop();
  });

  it('degrades to this process while Redis is away, and catches up when it returns', async () => {
    const logs = capturedLogLines();
    const keyPrefix = `fg-test:${randomUUID().slice(0, 8)}:`;
    const here = createEventBus(redis.url, { keyPrefix, logger: createLogger('info', 'bus-here', logs.stream) });
    const there = createEventBus(redis.url, { keyPrefix, logger: createLogger('silent') });
    buses.push(here, there);
    const channel = randomUUID();
    const heardHere = heardOn(here.bus, channel);
    const heardThere = heardOn(there.bus, channel);
    let caughtUp = 0;
    there.bus.afterReconnect!(() => caughtUp++);
    // Across processes while Redis answers.
    await vi.waitFor(
      async () => {
        publish(here.bus, channel, 'event 0');
        expect(heardThere).toContain('event 0');
      },
      { timeout: 10_000, interval: 200 },
    );
    expect([await here.ping(), await there.ping()]).toEqual(['ready', 'ready']);

    await redis.stop();
    await vi.waitFor(async () => expect([await here.ping(), await there.ping()]).toEqual(['degraded', 'degraded']), { timeout: 10_000 });
    // Readiness asks without waiting for Redis.
    const asked = performance.now();
    await here.ping();
    expect(performance.now() - asked).toBeLessThan(500);
    publish(here.bus, channel, 'event 1');
    await vi.waitFor(() => expect(heardHere).toContain('event 1'), { timeout: 5_000 });
    expect(heardThere).not.toContain('event 1');
    expect(logs.lines.filter((l) => l.msg === 'cross-process events degraded: Redis unreachable; events published here reach this process only')).toHaveLength(
      1,
    );
    expect(caughtUp).toBe(0);

    await redis.start();
    await vi.waitFor(async () => expect([await here.ping(), await there.ping()]).toEqual(['ready', 'ready']), { timeout: 20_000 });
    await vi.waitFor(() => expect(caughtUp).toBe(1), { timeout: 10_000 });
    expect(logs.lines.some((l) => l.msg === 'cross-process events restored; catching up on what was missed')).toBe(true);
    // The subscriptions made before the outage are made again: events cross processes as before.
    await vi.waitFor(
      async () => {
        publish(here.bus, channel, 'event 2');
        expect(heardThere).toContain('event 2');
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(heardThere).not.toContain('event 1');
  }, 60_000);
});
