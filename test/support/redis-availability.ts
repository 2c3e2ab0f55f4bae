/**
 * Whether Redis answers at a URL: the tests of the distributed deployment run whenever it does
 * (CI starts one) and are skipped, by name, on a machine without it.
 */
import { Redis } from 'ioredis';

export const testRedisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether Redis answers PING at that URL (one short-lived connection, no retries). */
export async function redisAnswers(url: string = testRedisUrl): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}
