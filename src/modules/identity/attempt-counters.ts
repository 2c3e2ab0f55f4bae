/**
 * Counters of secret-guessing attempts (platform login, lender /oauth/token), shared by both
 * throttles. An attempt takes its point BEFORE the secret is compared, in one atomic step of
 * rate-limiter-flexible (Redis INCR, or memory), so parallel requests are each counted and at most
 * the budget of them ever reaches the comparison; a right secret gives its point back afterwards.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../../kernel/errors.js';

export interface Budget {
  points: number;
  /** Seconds. */
  duration: number;
}

/** Counts in Redis when the deployment has it (shared by every process), else in memory. */
export function attemptCounter(keyPrefix: string, budget: Budget, redis?: Redis): RateLimiterAbstract {
  return redis
    ? // When Redis is unreachable, count in memory at once (without trying Redis while its connection
      // is down) rather than fail or hold every sign-in.
      new RateLimiterRedis({ storeClient: redis, keyPrefix, insuranceLimiter: new RateLimiterMemory(budget), rejectIfRedisNotReady: true, ...budget })
    : new RateLimiterMemory({ keyPrefix, ...budget });
}

/** Takes one point; answers the counter either way (`remainingPoints` 0 and over budget when refused). */
export async function takePoint(counter: RateLimiterAbstract, key: string): Promise<{ refused: boolean; result: RateLimiterRes }> {
  try {
    return { refused: false, result: await counter.consume(key) };
  } catch (err) {
    if (err instanceof RateLimiterRes) return { refused: true, result: err };
    throw err;
  }
}

/** The per-identity slow-down: nothing for the first `afterFailures`, then 0.25 s doubling up to 5 s. */
const SLOW_DOWN = { firstDelayMs: 250, maxDelayMs: 5000 } as const;

export function slowDownDelayMs(failures: number, afterFailures: number): number {
  if (failures <= afterFailures) return 0;
  return Math.min(SLOW_DOWN.maxDelayMs, SLOW_DOWN.firstDelayMs * 2 ** (failures - afterFailures - 1));
}

export function tooManyAttempts(what: string, msBeforeNext: number): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError('TOO_MANY_REQUESTS', `Too many failed ${what}; try again in ${seconds} seconds`, [], { retryAfterSeconds: seconds });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
