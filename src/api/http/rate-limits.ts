/**
 * Request rate limits (rate-limiter-flexible) per client address and per credential, on REST and
 * GraphQL, with the IETF RateLimit / RateLimit-Policy headers and 429 + Retry-After. Counters live
 * in Redis when the deployment has it (every process shares them), else in this process's memory.
 *
 * The credential is the verified token's API key, lender or user (so a forged token cannot spend
 * someone else's budget), or the digest of an X-API-Key header; an unverifiable token counts
 * against its address only. graphql-ws upgrades and subscribe messages spend the same budgets.
 */
import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../../kernel/errors.js';
import type { TokenAuthority, VerifiedToken } from '../../modules/identity/token-authority.js';
import { sendProblem } from '../rest/rest-router.js';
import { bearerClaimsOf } from './bearer-claims.js';
import { audit } from '../../kernel/audit-log.js';
import type { Logger } from '../../infra/logger.js';
import { requestIdOf } from '../../infra/request-id.js';
import { noteCredential } from './access-log.js';

const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateLimitSettings {
  perAddress: number;
  perCredential: number;
}

/**
 * A limiter in Redis or in memory. While Redis is unreachable it counts in memory at once (the
 * insurance limiter, asked without trying Redis while the connection is not ready): a request never
 * waits for Redis (infra/redis.ts).
 */
export function rateLimiter(name: string, points: number, durationSeconds: number, redis?: Redis): RateLimiterAbstract {
  const options = { points, duration: durationSeconds };
  return redis
    ? new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `rl:${name}`,
        insuranceLimiter: new RateLimiterMemory(options),
        rejectIfRedisNotReady: true,
        ...options,
      })
    : new RateLimiterMemory({ keyPrefix: name, ...options });
}

/** The rate-limit key of a verified token's credential: its API key, lender or user. */
export function credentialKeyOfClaims(claims: VerifiedToken): string {
  if (claims.key) return `key:${claims.key}`;
  if (claims.lid !== undefined) return `lender:${claims.lid}`;
  return `sub:${claims.sub}`;
}

/** Who is calling, for counting: a stable id of the credential, or null when there is none. */
export function credentialKeyFromTokens(tokens: TokenAuthority): (req: Request) => Promise<string | null> {
  return async (req) => {
    const apiKey = req.headers['x-api-key'];
    if (typeof apiKey === 'string' && apiKey !== '') return `apikey:${createHash('sha256').update(apiKey).digest('hex').slice(0, 32)}`;
    const claims = await bearerClaimsOf(req, tokens);
    return claims ? credentialKeyOfClaims(claims) : null;
  };
}

/** What charging one request found: the budget closest to running out, and whether any ran out. */
export interface BudgetCharge {
  refused: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * The per-address and per-credential budgets, shared by every way in: HTTP requests (below) and
 * graphql-ws upgrades and subscribe messages (src/api/graphql/websocket-limits.ts) spend the same points.
 */
export interface RequestBudget {
  charge(address: string, credential: string | null): Promise<BudgetCharge>;
}

export function requestBudget(settings: RateLimitSettings, redis?: Redis): RequestBudget {
  const byAddress = rateLimiter('address', settings.perAddress, RATE_LIMIT_WINDOW_SECONDS, redis);
  const byCredential = rateLimiter('credential', settings.perCredential, RATE_LIMIT_WINDOW_SECONDS, redis);
  return {
    async charge(address, credential) {
      const charges = [{ limiter: byAddress, key: address, limit: settings.perAddress }];
      if (credential) charges.push({ limiter: byCredential, key: credential, limit: settings.perCredential });
      const outcomes = await Promise.all(
        charges.map((c) =>
          c.limiter.consume(c.key).then(
            (r) => ({ ...c, result: r, refused: false }),
            (r: unknown) => {
              if (r instanceof RateLimiterRes) return { ...c, result: r, refused: true };
              throw r;
            },
          ),
        ),
      );
      // The answer describes the budget closest to running out.
      const tightest = outcomes.reduce((a, b) => (b.refused || b.result.remainingPoints < a.result.remainingPoints ? b : a));
      return {
        refused: outcomes.some((o) => o.refused),
        limit: tightest.limit,
        remaining: Math.max(0, tightest.result.remainingPoints),
        resetSeconds: Math.max(1, Math.ceil(tightest.result.msBeforeNext / 1000)),
      };
    },
  };
}

/** The AppError of a refused charge (429 + Retry-After over HTTP, TOO_MANY_REQUESTS in GraphQL). */
export function tooManyRequests(charge: BudgetCharge): AppError {
  return new AppError('TOO_MANY_REQUESTS', `Too many requests; try again in ${charge.resetSeconds} seconds`, [], { retryAfterSeconds: charge.resetSeconds });
}

export function rateLimits(budget: RequestBudget, credentialKeyOf: (req: Request) => Promise<string | null>, logger: Logger): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    void (async () => {
      const credential = await credentialKeyOf(req);
      noteCredential(res, credential);
      const charge = await budget.charge(req.ip ?? 'unknown', credential);
      res.setHeader('RateLimit-Policy', `${charge.limit};w=${RATE_LIMIT_WINDOW_SECONDS}`);
      res.setHeader('RateLimit', `limit=${charge.limit}, remaining=${charge.remaining}, reset=${charge.resetSeconds}`);
      if (!charge.refused) return next();
      audit(logger, 'rate_limit.exceeded', { requestId: requestIdOf(res), ip: req.ip, credential, path: req.baseUrl || req.path, limit: charge.limit });
      sendProblem(res, tooManyRequests(charge));
    })().catch(next);
  };
}
