/**
 * Throttles failed lender token requests (POST /oauth/token): each failure counts against the
 * client id and the username it named; once either has failed too often in 15 minutes, further
 * attempts for it are answered 429 before any secret is compared or password hashed. Counters live
 * in Redis when the deployment has it, else in memory.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';

export const LENDER_TOKEN_WINDOW_SECONDS = 15 * 60;

export interface LenderTokenThrottle {
  assertAllowed(clientId: string, username: string): Promise<void>;
  recordFailure(clientId: string, username: string): Promise<void>;
}

export function createLenderTokenThrottle(failuresAllowed: number, redis?: Redis): LenderTokenThrottle {
  const options = { points: failuresAllowed, duration: LENDER_TOKEN_WINDOW_SECONDS };
  const limiter = (name: string): RateLimiterAbstract =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, keyPrefix: `lender-token:${name}`, insuranceLimiter: new RateLimiterMemory(options), ...options })
      : new RateLimiterMemory({ keyPrefix: `lender-token:${name}`, ...options });
  const byClient = limiter('client');
  const byUsername = limiter('username');
  return {
    async assertAllowed(clientId, username) {
      const counts = await Promise.all([byClient.get(clientId), byUsername.get(username)]);
      const blocked = counts.filter((r) => r !== null && r.remainingPoints <= 0);
      if (blocked.length === 0) return;
      const seconds = Math.max(1, Math.ceil(Math.max(...blocked.map((r) => r!.msBeforeNext)) / 1000));
      throw new AppError('TOO_MANY_REQUESTS', `Too many failed token requests; try again in ${seconds} seconds`, [], { retryAfterSeconds: seconds });
    },
    async recordFailure(clientId, username) {
      await Promise.all([byClient.penalty(clientId, 1), byUsername.penalty(username, 1)]);
    },
  };
}
