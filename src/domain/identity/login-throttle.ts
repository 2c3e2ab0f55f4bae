/**
 * Throttles failed platform logins (rate-limiter-flexible) without a lockout anyone could trigger:
 * - per (email, client address): 5 failures in 15 minutes refuse that pair for 15 minutes (429);
 * - per client address: 50 failures in an hour refuse that address (429);
 * - per email, from any address: past 5 failures each further attempt waits longer before it is
 *   answered (0.25 s doubling, at most 5 s), so guessing from many addresses stays slow while the
 *   real user, from their own address, still signs in.
 * Client addresses come from Express's req.ip, which honours X-Forwarded-For only from proxies
 * trusted by TRUST_PROXY. Counters live in Redis when the deployment has it, else in memory.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';

export const LOGIN_LIMITS = {
  perEmailAndAddress: { points: 5, duration: 15 * 60 },
  perAddress: { points: 50, duration: 60 * 60 },
  /** Failures per email (any address) counted for the slow-down; never a refusal. */
  perEmail: { points: 1_000_000, duration: 15 * 60 },
} as const;

export const SLOW_DOWN = { afterFailures: 5, firstDelayMs: 250, maxDelayMs: 5000 } as const;

export interface LoginThrottle {
  /** Throws 429 (with retryAfterSeconds) while a counter is exhausted; else waits the email's slow-down. */
  assertAllowed(email: string, address: string): Promise<void>;
  recordFailure(email: string, address: string): Promise<void>;
  recordSuccess(email: string, address: string): Promise<void>;
}

export function slowDownMs(failures: number): number {
  if (failures <= SLOW_DOWN.afterFailures) return 0;
  return Math.min(SLOW_DOWN.maxDelayMs, SLOW_DOWN.firstDelayMs * 2 ** (failures - SLOW_DOWN.afterFailures - 1));
}

export function createLoginThrottle(redis?: Redis, sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms))): LoginThrottle {
  const limiter = (name: string, opts: { points: number; duration: number }): RateLimiterAbstract =>
    redis
      ? // When Redis is unreachable, count in memory rather than fail every login.
        new RateLimiterRedis({ storeClient: redis, keyPrefix: `login:${name}`, insuranceLimiter: new RateLimiterMemory(opts), ...opts })
      : new RateLimiterMemory({ keyPrefix: `login:${name}`, ...opts });
  const byPair = limiter('email-address', LOGIN_LIMITS.perEmailAndAddress);
  const byAddress = limiter('address', LOGIN_LIMITS.perAddress);
  const byEmail = limiter('email', LOGIN_LIMITS.perEmail);
  const emailKey = (email: string) => email.trim().toLowerCase();
  const pairKey = (email: string, address: string) => `${emailKey(email)}|${address}`;

  return {
    async assertAllowed(email, address) {
      const [pair, byAddr, mail] = await Promise.all([byPair.get(pairKey(email, address)), byAddress.get(address), byEmail.get(emailKey(email))]);
      const blocked = [pair, byAddr].filter((r): r is RateLimiterRes => r !== null && r.remainingPoints <= 0);
      if (blocked.length > 0) throw tooManyAttempts(Math.max(...blocked.map((r) => r.msBeforeNext)));
      const delay = slowDownMs(mail?.consumedPoints ?? 0);
      if (delay > 0) await sleep(delay);
    },
    async recordFailure(email, address) {
      await Promise.all([byPair.penalty(pairKey(email, address), 1), byAddress.penalty(address, 1), byEmail.penalty(emailKey(email), 1)]);
    },
    async recordSuccess(email, address) {
      await Promise.all([byPair.delete(pairKey(email, address)), byEmail.delete(emailKey(email))]);
    },
  };
}

function tooManyAttempts(msBeforeNext: number): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError('TOO_MANY_REQUESTS', `Too many failed sign-in attempts; try again in ${seconds} seconds`, [], { retryAfterSeconds: seconds });
}
