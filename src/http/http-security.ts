/**
 * The HTTP layer's protections, installed first on every server that answers clients: trusted
 * proxies, security headers, the CORS allowlist, rate limits, and GraphiQL's own page policy.
 */
import type { Express, Request } from 'express';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../config.js';
import type { Logger } from '../infra/logger.js';
import { CORS_PATHS, corsAllowlist } from './cors.js';
import { rateLimits } from './rate-limits.js';
import { GRAPHIQL_CSP, securityHeaders } from './security-headers.js';

export interface HttpSecurityOptions {
  config: AppConfig;
  credentialKeyOf(req: Request): Promise<string | null>;
  logger: Logger;
  /** Shared counters in the distributed deployment. */
  redis?: Redis;
}

export function installHttpSecurity(app: Express, { config, credentialKeyOf, logger, redis }: HttpSecurityOptions): void {
  app.set('trust proxy', trustProxySetting(config.TRUST_PROXY));
  app.use(securityHeaders(config.DEPLOY_ENV));
  app.use(CORS_PATHS, corsAllowlist(config.CORS_ALLOWED_ORIGINS));
  app.use(['/graphql', '/api', '/oauth/token'], rateLimits({ perAddress: config.RATE_LIMIT_PER_ADDRESS, perCredential: config.RATE_LIMIT_PER_CREDENTIAL }, credentialKeyOf, logger, redis));
  if (config.GRAPHIQL_ENABLED) {
    app.get('/graphql', (req, res, next) => {
      if (req.accepts(['application/json', 'text/html']) === 'text/html') res.setHeader('Content-Security-Policy', GRAPHIQL_CSP);
      next();
    });
  }
}

/** TRUST_PROXY as Express takes it: false, true, a hop count, or a list of proxy addresses/subnets. */
export function trustProxySetting(value: string): boolean | number | string[] {
  const trimmed = value.trim();
  if (trimmed === 'false' || trimmed === '') return false;
  if (trimmed === 'true') return true;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  return trimmed.split(',').map((s) => s.trim()).filter(Boolean);
}
