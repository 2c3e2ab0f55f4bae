/**
 * The lenders' identity provider at {auth_url} (= PUBLIC_URL): POST /oauth/token (spec 5.9),
 * OpenID discovery and the JWKS with which lenders and our own services verify our tokens.
 * Errors here follow RFC 6749 ({ error, error_description }), which OAuth client libraries expect.
 */
import express, { type Request, type Router } from 'express';
import { ProblemDetailsSchema } from './problem-details.js';
import { lenderPasswordGrant, OAuthError, openIdConfiguration } from '../../modules/identity/lender-oauth-service.js';
import type { EdgeServices } from '../http/edge-services.js';
import { requestIdOf } from '../../infra/request-id.js';
import { AppError } from '../../kernel/errors.js';
import { audit } from '../../kernel/audit-log.js';
import type { OperationResponse, OperationServedElsewhere } from '../../kernel/rest/openapi-declarations.js';
import { JsonWebKeySet, LenderTokenRequest, LenderTokenResponse, OAuthErrorBody, OpenIdConfiguration } from '../../modules/identity/lender-oauth-schemas.js';

const TOKEN_ERRORS = (what: string): OperationResponse => ({ description: what, content: { 'application/json': OAuthErrorBody } });
/** The rate limit every API entry point spends (http-security.ts), which answers problem details. */
const RATE_LIMITED: OperationResponse = {
  description: 'Too many requests from this address (code TOO_MANY_REQUESTS); `Retry-After` says when to try again',
  content: { 'application/problem+json': ProblemDetailsSchema },
};

/** This router's operations as the OpenAPI document declares them (openapi-document.ts): their paths are served from here. */
export const IDENTITY_PROVIDER_OPERATIONS = {
  token: {
    method: 'post',
    path: '/oauth/token',
    operationId: 'OAuthController_token',
    summary: "Exchange a lender's credentials for tokens",
    description:
      "The OAuth 2.0 resource-owner password grant of spec 5.9: the lender's client credentials (in the body, or in HTTP Basic as RFC 6749 2.3.1 has it), username and password, for an `id_token`, the bearer of every lender API request, and an `access_token`. Both expire in 120 s: sign in before each request. JSON as the specification shows it, or the standard form encoding. Errors are RFC 6749's `{error, error_description}`, not problem details.",
    body: { schema: LenderTokenRequest, mediaTypes: ['application/json', 'application/x-www-form-urlencoded'] },
    responses: {
      '200': { description: 'The tokens', content: { 'application/json': LenderTokenResponse } },
      '400': TOKEN_ERRORS(
        '`invalid_request` (a field missing or malformed, an audience not ours), `invalid_grant` (wrong username or password), `unsupported_grant_type` (not `password`) or `invalid_scope` (an unknown scope, or no `openid`)',
      ),
      '401': TOKEN_ERRORS('`invalid_client`: unknown client, wrong client secret, or a lender not active (with `WWW-Authenticate: Basic`)'),
      '429': {
        description:
          '`slow_down` (`application/json`): too many failed attempts from this address or for this client; or, as problem details, too many requests from this address. `Retry-After` says when to try again',
        content: { 'application/json': OAuthErrorBody, 'application/problem+json': ProblemDetailsSchema },
      },
      '500': TOKEN_ERRORS('`server_error`: the token could not be issued'),
    },
  },
  discovery: {
    method: 'get',
    path: '/.well-known/openid-configuration',
    operationId: 'OpenIdController_configuration',
    summary: 'OpenID Connect discovery',
    description:
      "The identity provider's metadata (OpenID Connect Discovery 1.0): the issuer, the token endpoint, the key set that verifies id_tokens and what the provider supports, so a stock OpenID client needs only the issuer URL. No credentials; cacheable for five minutes.",
    responses: { '200': { description: 'The provider metadata', content: { 'application/json': OpenIdConfiguration } }, '429': RATE_LIMITED },
  },
  keys: {
    method: 'get',
    path: '/.well-known/jwks.json',
    operationId: 'OpenIdController_keys',
    summary: "The keys that verify the gateway's tokens",
    description:
      'The public RS256 keys (RFC 7517) that verify every token this gateway issues, id_tokens included, by `kid`: more than one while a signing key is being rotated. No credentials; cacheable for five minutes.',
    responses: { '200': { description: 'The key set', content: { 'application/json': JsonWebKeySet } }, '429': RATE_LIMITED },
  },
} as const satisfies Record<string, OperationServedElsewhere>;

export function identityProviderRouter(runtime: EdgeServices): Router {
  const router = express.Router();
  const { tokens } = runtime.auth;
  const { token, discovery, keys } = IDENTITY_PROVIDER_OPERATIONS;

  router.get(discovery.path, (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(openIdConfiguration(tokens.issuer));
  });
  router.get(keys.path, (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(tokens.jwks);
  });

  router.post(token.path, express.json({ limit: '16kb' }), express.urlencoded({ extended: false, limit: '16kb' }), async (req, res) => {
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    try {
      res.json(
        await lenderPasswordGrant(
          runtime.contextFor(undefined, requestIdOf(res)),
          req.body,
          basicClientCredentials(req),
          req.ip ?? req.socket.remoteAddress ?? 'unknown',
        ),
      );
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
  });
  router.use(token.path, ((err, _req, res, _next) => {
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
