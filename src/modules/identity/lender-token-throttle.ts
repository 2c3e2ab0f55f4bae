/**
 * Throttles lender token requests (POST /oauth/token) without letting a stranger lock a lender out.
 * Every request is counted before any secret is compared or password hashed (attempt-counters.ts),
 * so parallel guesses are counted too; a request that gets a token gives its points back.
 * - per (client address, client id) and per (client address, username): RATE_LIMIT_LENDER_TOKEN_FAILURES
 *   (10) attempts that were not successes in 15 minutes; further ones from that address naming
 *   that client id or username are refused (429) unchecked;
 * - per client id and per username, from any address: past that many, each further attempt waits
 *   longer before it is checked (0.25 s doubling, at most 5 s), never a refusal. So guesses from
 *   elsewhere slow the lender's own requests by at most 5 s and never refuse them.
 * Client addresses come from Express's req.ip (X-Forwarded-For only from TRUST_PROXY proxies).
 * Counters live in Redis when the deployment has it, else in memory.
 */
import type { Redis } from 'ioredis';
import { attemptCounter, sleep as realSleep, slowDownDelayMs, takePoint, tooManyAttempts } from './attempt-counters.js';

const LENDER_TOKEN_WINDOW_SECONDS = 15 * 60;

export interface LenderTokenThrottle {
  /** Counts this request before its credentials are checked: 429 once this address has spent the budget for either name. */
  beginAttempt(address: string, clientId: string, username: string): Promise<void>;
  /** A token was issued: this address starts afresh for both names, and the request is not a failure. */
  recordSuccess(address: string, clientId: string, username: string): Promise<void>;
}

export function createLenderTokenThrottle(failuresAllowed: number, redis?: Redis, sleep: (ms: number) => Promise<void> = realSleep): LenderTokenThrottle {
  const perAddress = { points: failuresAllowed, duration: LENDER_TOKEN_WINDOW_SECONDS };
  const anywhere = { points: 1_000_000, duration: LENDER_TOKEN_WINDOW_SECONDS };
  const clientFromAddress = attemptCounter('lender-token:address-client', perAddress, redis);
  const usernameFromAddress = attemptCounter('lender-token:address-username', perAddress, redis);
  const client = attemptCounter('lender-token:client', anywhere, redis);
  const username = attemptCounter('lender-token:username', anywhere, redis);
  const pair = (address: string, name: string) => `${address}|${name}`;

  return {
    async beginAttempt(address, clientId, user) {
      const taken = await Promise.all([takePoint(clientFromAddress, pair(address, clientId)), takePoint(usernameFromAddress, pair(address, user))]);
      const refused = taken.filter((t) => t.refused);
      if (refused.length > 0) throw tooManyAttempts('token requests', Math.max(...refused.map((t) => t.result.msBeforeNext)));
      const counts = await Promise.all([takePoint(client, clientId), takePoint(username, user)]);
      const delay = slowDownDelayMs(Math.max(...counts.map((c) => c.result.consumedPoints)) - 1, failuresAllowed);
      if (delay > 0) await sleep(delay);
    },
    async recordSuccess(address, clientId, user) {
      await Promise.all([
        clientFromAddress.delete(pair(address, clientId)),
        usernameFromAddress.delete(pair(address, user)),
        client.reward(clientId, 1),
        username.reward(user, 1),
      ]);
    },
  };
}
