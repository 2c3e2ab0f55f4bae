/**
 * The HTTP layer's protections, installed first on every server that answers clients: trusted
 * proxies, security headers, the CORS allowlist, rate limits, and GraphiQL's own page policy.
 */
import type { IncomingMessage } from 'node:http';
import type { Express, Request } from 'express';
import proxyAddr from 'proxy-addr';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../../kernel/config.js';
import type { Logger } from '../../infra/logger.js';
import { CORS_PATHS, corsAllowlist } from './cors.js';
import { rateLimits, requestBudget, type RequestBudget } from './rate-limits.js';
import { GRAPHIQL_CSP, securityHeaders } from './security-headers.js';
import { GRAPHQL_PATH } from '../graphql/graphql-path.js';

export interface HttpSecurityOptions {
  config: AppConfig;
  credentialKeyOf(req: Request): Promise<string | null>;
  logger: Logger;
  /** Shared counters in the distributed deployment. */
  redis?: Redis;
}

/** What the WebSocket side needs to apply the same protections (src/api/graphql/websocket-limits.ts). */
export interface InstalledHttpSecurity {
  /** The rate-limit budgets the HTTP requests spend, for graphql-ws to spend too. */
  budget: RequestBudget;
  /** The client address of a request Express does not see (a WebSocket upgrade), as `req.ip` would give it. */
  clientAddressOf(request: IncomingMessage): string;
}

export function installHttpSecurity(app: Express, { config, credentialKeyOf, logger, redis }: HttpSecurityOptions): InstalledHttpSecurity {
  app.set('trust proxy', trustProxySetting(config.TRUST_PROXY));
  app.use(securityHeaders(config.DEPLOY_ENV));
  app.use(CORS_PATHS, corsAllowlist(config.CORS_ALLOWED_ORIGINS));
  const budget = requestBudget({ perAddress: config.RATE_LIMIT_PER_ADDRESS, perCredential: config.RATE_LIMIT_PER_CREDENTIAL }, redis);
  // Every API entry point, the identity provider's public documents included, spends the budgets.
  app.use([GRAPHQL_PATH, '/api', '/oauth/token', '/.well-known'], rateLimits(budget, credentialKeyOf, logger));
  if (config.GRAPHIQL_ENABLED) {
    app.get(GRAPHQL_PATH, (req, res, next) => {
      if (req.accepts(['application/json', 'text/html']) === 'text/html') res.setHeader('Content-Security-Policy', GRAPHIQL_CSP);
      next();
    });
  }
  const trust = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  // proxy-addr is what Express's req.ip is computed with: the same client address for a WebSocket upgrade.
  return { budget, clientAddressOf: (request) => proxyAddr(request, trust) };
}

/** TRUST_PROXY as Express takes it: false, true, a hop count, or a list of proxy addresses/subnets. */
export function trustProxySetting(value: string): boolean | number | string[] {
  const trimmed = value.trim();
  if (trimmed === 'false' || trimmed === '') return false;
  if (trimmed === 'true') return true;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  return trimmed
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
