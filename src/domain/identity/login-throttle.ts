/**
 * Throttles failed platform logins (rate-limiter-flexible): per email, 5 failures in 15 minutes
 * lock that email for 15 minutes; per client address, 50 failures in an hour. Counters live in
 * Redis when the deployment has it (shared by every process), else in memory.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';

export const LOGIN_LIMITS = {
  perEmail: { points: 5, duration: 15 * 60 },
  perAddress: { points: 50, duration: 60 * 60 },
} as const;

export interface LoginThrottle {
  /** Throws 429 (with retryAfterSeconds) while either counter is exhausted. */
  assertAllowed(email: string, address: string): Promise<void>;
  recordFailure(email: string, address: string): Promise<void>;
  recordSuccess(email: string): Promise<void>;
}

export function createLoginThrottle(redis?: Redis): LoginThrottle {
  const limiter = (name: string, opts: { points: number; duration: number }): RateLimiterAbstract =>
    redis
      ? // When Redis is unreachable, count in memory rather than fail every login.
        new RateLimiterRedis({ storeClient: redis, keyPrefix: `login:${name}`, insuranceLimiter: new RateLimiterMemory(opts), ...opts })
      : new RateLimiterMemory({ keyPrefix: name, ...opts });
  const byEmail = limiter('email', LOGIN_LIMITS.perEmail);
  const byAddress = limiter('address', LOGIN_LIMITS.perAddress);
  const emailKey = (email: string) => email.trim().toLowerCase();

  return {
    async assertAllowed(email, address) {
      const [e, a] = await Promise.all([byEmail.get(emailKey(email)), byAddress.get(address)]);
      const blocked = [e, a].filter((r): r is RateLimiterRes => r !== null && r.remainingPoints <= 0);
      if (blocked.length > 0) throw tooManyAttempts(Math.max(...blocked.map((r) => r.msBeforeNext)));
    },
    async recordFailure(email, address) {
      await Promise.all([byEmail.penalty(emailKey(email), 1), byAddress.penalty(address, 1)]);
    },
    async recordSuccess(email) {
      await byEmail.delete(emailKey(email));
    },
  };
}

function tooManyAttempts(msBeforeNext: number): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError('TOO_MANY_REQUESTS', `Too many failed sign-in attempts; try again in ${seconds} seconds`, [], { retryAfterSeconds: seconds });
}
