/**
 * Throttles platform logins (rate-limiter-flexible) without a lockout anyone could trigger. Every
 * attempt is counted before the password is checked (attempt-counters.ts), so parallel guesses
 * are counted too; a right password gives its points back.
 * - per (email, client address): 5 attempts that were not successes in 15 minutes; further ones
 *   are refused for that pair (429) without checking the password;
 * - per client address: 50 such attempts in an hour, whatever the emails (429);
 * - per email, from any address: past 5 such attempts each further one waits longer before the
 *   password is checked (0.25 s doubling, at most 5 s). Never a refusal: guessing from many
 *   addresses stays slow while the real user, from their own address, still signs in.
 * Client addresses come from Express's req.ip, which honours X-Forwarded-For only from proxies
 * trusted by TRUST_PROXY. Counters live in Redis when the deployment has it, else in memory.
 */
import type { Redis } from 'ioredis';
import { attemptCounter, sleep as realSleep, slowDownDelayMs, takePoint, tooManyAttempts } from './attempt-counters.js';

export const LOGIN_LIMITS = {
  perEmailAndAddress: { points: 5, duration: 15 * 60 },
  perAddress: { points: 50, duration: 60 * 60 },
  /** Attempts per email (any address) counted for the slow-down; never a refusal. */
  perEmail: { points: 1_000_000, duration: 15 * 60 },
} as const;

const SLOW_DOWN_AFTER_FAILURES = 5;

export interface LoginThrottle {
  /**
   * Counts this attempt before the password is checked: 429 (with retryAfterSeconds) when the
   * pair's or the address's budget is spent; else waits the email's slow-down.
   */
  beginAttempt(email: string, address: string): Promise<void>;
  /** The password was right: the pair starts afresh and the attempt is not a failure anywhere. */
  recordSuccess(email: string, address: string): Promise<void>;
}

export function slowDownMs(failures: number): number {
  return slowDownDelayMs(failures, SLOW_DOWN_AFTER_FAILURES);
}

export function createLoginThrottle(redis?: Redis, sleep: (ms: number) => Promise<void> = realSleep): LoginThrottle {
  const byPair = attemptCounter('login:email-address', LOGIN_LIMITS.perEmailAndAddress, redis);
  const byAddress = attemptCounter('login:address', LOGIN_LIMITS.perAddress, redis);
  const byEmail = attemptCounter('login:email', LOGIN_LIMITS.perEmail, redis);
  const emailKey = (email: string) => email.trim().toLowerCase();
  const pairKey = (email: string, address: string) => `${emailKey(email)}|${address}`;

  return {
    async beginAttempt(email, address) {
      const pair = await takePoint(byPair, pairKey(email, address));
      if (pair.refused) throw tooManyAttempts('sign-in attempts', pair.result.msBeforeNext);
      const fromAddress = await takePoint(byAddress, address);
      if (fromAddress.refused) {
        // Not checked, so not one of the pair's guesses.
        await byPair.reward(pairKey(email, address), 1);
        throw tooManyAttempts('sign-in attempts', fromAddress.result.msBeforeNext);
      }
      const { result } = await takePoint(byEmail, emailKey(email));
      // Attempts before this one, in flight or failed (successes gave theirs back).
      const delay = slowDownMs(result.consumedPoints - 1);
      if (delay > 0) await sleep(delay);
    },
    async recordSuccess(email, address) {
      await Promise.all([byPair.delete(pairKey(email, address)), byAddress.reward(address, 1), byEmail.reward(emailKey(email), 1)]);
    },
  };
}
