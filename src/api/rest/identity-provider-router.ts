/**
 * The lenders' identity provider at {auth_url} (= PUBLIC_URL): POST /oauth/token (spec 5.9),
 * OpenID discovery and the JWKS with which lenders and our own services verify our tokens.
 * Errors here follow RFC 6749 ({ error, error_description }), which OAuth client libraries expect.
 */
import express, { type Request, type Router } from 'express';
import { lenderPasswordGrant, OAuthError, openIdConfiguration } from '../../modules/identity/lender-oauth-service.js';
import type { EdgeServices } from '../http/edge-services.js';
import { requestIdOf } from '../../infra/request-id.js';
import { AppError } from '../../kernel/errors.js';
import { audit } from '../../kernel/audit-log.js';

export function identityProviderRouter(runtime: EdgeServices): Router {
  const router = express.Router();
  const { tokens } = runtime.auth;

  router.get('/.well-known/openid-configuration', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(openIdConfiguration(tokens.issuer));
  });
  router.get('/.well-known/jwks.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(tokens.jwks);
  });

  router.post(
    '/oauth/token',
    express.json({ limit: '16kb' }),
    express.urlencoded({ extended: false, limit: '16kb' }),
    async (req, res) => {
      res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
      try {
        res.json(await lenderPasswordGrant(runtime.contextFor(undefined, requestIdOf(res)), req.body, basicClientCredentials(req), req.ip ?? req.socket.remoteAddress ?? 'unknown'));
      } catch (err) {
        if (err instanceof OAuthError) {
          if (err.status === 401) res.set('WWW-Authenticate', 'Basic realm="oauth"');
          res.status(err.status).json({ error: err.error, error_description: err.description });
          return;
        }
        if (err instanceof AppError && err.code === 'TOO_MANY_REQUESTS') {
          audit(runtime.logger, 'lender_token.throttled', { ip: req.ip });
          res.set('Retry-After', String(err.details.retryAfterSeconds ?? 60));
          res.status(429).json({ error: 'slow_down', error_description: err.message });
          return;
        }
        runtime.logger.error({ err }, 'token endpoint failed');
        res.status(500).json({ error: 'server_error', error_description: 'The token could not be issued' });
      }
    },
  );
  router.use('/oauth/token', ((err, _req, res, _next) => {
    res.status(400).json({ error: 'invalid_request', error_description: err?.type === 'entity.too.large' ? 'Body too large' : 'Malformed request body' });
  }) as express.ErrorRequestHandler);
  return router;
}

/** client_secret_basic (RFC 6749 2.3.1): form-urlencoded id and secret in HTTP Basic. */
function basicClientCredentials(req: Request): { clientId: string; clientSecret: string } | null {
  const match = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon)), clientSecret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}
