/**
 * The lenders' identity provider (spec 5.9): OAuth 2.0 resource-owner password grant at
 * {auth_url}/oauth/token, JSON (as the spec shows) or form-encoded (RFC 6749, so stock clients
 * work), client credentials in the body or HTTP Basic. Answers with an access_token and an OpenID
 * id_token (2 minutes); the id_token is the lender API bearer. Errors use RFC 6749's shape.
 */
import type { ServiceContext } from '../../kernel/context.js';
import { LENDER_TOKEN_SCOPES, scopeString } from '../../kernel/scopes.js';
import { digest, environmentOfSecret, verifyPassword } from './secrets.js';
import { TOKEN_TTL_SECONDS } from './token-service.js';
import { audit } from '../../kernel/audit-log.js';
import { LenderTokenRequestFields, type LenderTokenResponse, type OpenIdConfiguration } from './lender-oauth-schemas.js';
import { ALTERNATE_BASES, BASES } from '../../kernel/rest/route-definition.js';

export type { LenderTokenResponse };

export const LENDER_API_PATH = BASES.lenderApi;

/** RFC 6749 section 5.2 error, answered as { error, error_description } with its own status. */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope',
    readonly description: string,
    readonly status: 400 | 401 = error === 'invalid_client' ? 401 : 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

/** The audience lenders request tokens for: issued with their credentials, checked at /oauth/token. */
export function lenderApiAudienceOf(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${LENDER_API_PATH}`;
}

/** @access internal: reads this deployment's configuration, no entity. */
function lenderApiAudience(ctx: ServiceContext): string {
  return lenderApiAudienceOf(ctx.auth.tokens.issuer);
}

/**
 * The paths under which the documents name the lender API besides ours ({platform_base}/funding,
 * as spec 4.5 rule 4's guidance gives it): the rule's interface listing gives the Marketplace V2
 * base for the lender paths, where the API answers too. A lender that took its audience from the
 * listing asks for this API.
 */
const DOCUMENTED_LENDER_API_PATHS = ALTERNATE_BASES.filter(({ base }) => base === BASES.lenderApi).map(({ alternate }) => alternate);

const withoutTrailingSlash = (value: string) => value.replace(/\/+$/, '');

/**
 * The audience a token request names, as ours: our own, or an alias of it (a documented address
 * of the lender API under this deployment, or one configured in LENDER_AUDIENCE_ALIASES, e.g. the
 * identifier a lender's existing client copies from the live platform's documents); a trailing
 * slash is ignored. Anything else is null: a request for another API is refused, not re-aimed.
 * @access internal: reads this deployment's configuration, no entity.
 */
function canonicalLenderAudience(ctx: ServiceContext, requested: string): string | null {
  const ours = lenderApiAudience(ctx);
  const issuer = withoutTrailingSlash(ctx.auth.tokens.issuer);
  const accepted = [ours, ...DOCUMENTED_LENDER_API_PATHS.map((path) => `${issuer}${path}`), ...ctx.auth.lenderAudienceAliases].map(withoutTrailingSlash);
  return accepted.includes(withoutTrailingSlash(requested)) ? ours : null;
}

export async function lenderPasswordGrant(
  ctx: ServiceContext,
  input: unknown,
  basicAuth: { clientId: string; clientSecret: string } | null,
  clientAddress: string,
): Promise<LenderTokenResponse> {
  const parsed = LenderTokenRequestFields.safeParse(input ?? {});
  if (!parsed.success) throw new OAuthError('invalid_request', 'The token request body must be a JSON object or form of strings');
  const body = parsed.data;
  if (body.grant_type !== 'password') throw new OAuthError('unsupported_grant_type', 'Only grant_type=password is supported');
  const clientId = basicAuth?.clientId ?? body.client_id;
  const clientSecret = basicAuth?.clientSecret ?? body.client_secret;
  if (!clientId || !clientSecret) throw new OAuthError('invalid_client', 'client_id and client_secret are required');
  if (!body.username || !body.password) throw new OAuthError('invalid_request', 'username and password are required');
  // Tokens always name our own audience, whichever accepted alias was asked for.
  const audience = body.audience === undefined ? lenderApiAudience(ctx) : canonicalLenderAudience(ctx, body.audience);
  if (audience === null) {
    throw new OAuthError(
      'invalid_request',
      `audience must be ${lenderApiAudience(ctx)} (the audience issued with the lender's credentials), not ${body.audience!.slice(0, 200)}`,
    );
  }
  const requested = (body.scope ?? scopeString(LENDER_TOKEN_SCOPES)).split(' ').filter(Boolean);
  const unknown = requested.filter((s) => !(LENDER_TOKEN_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new OAuthError('invalid_scope', `Unknown scope ${unknown.join(' ')}; allowed: ${scopeString(LENDER_TOKEN_SCOPES)}`);
  if (!requested.includes('openid')) throw new OAuthError('invalid_scope', 'scope must include openid: the id_token is the lender API bearer');

  await ctx.auth.lenderTokenThrottle.beginAttempt(clientAddress, clientId, body.username);
  const env = environmentOfSecret(clientId);
  const lender =
    env === null || env === ctx.environment ? await ctx.db.lender.findFirst({ where: { clientId, environment: ctx.environment, active: true } }) : null;
  if (!lender || lender.clientSecretHash !== digest(clientSecret)) {
    audit(ctx.logger, 'lender_token.failed', { clientId, reason: 'invalid_client' });
    throw new OAuthError('invalid_client', 'Client authentication failed');
  }
  const passwordOk = await verifyPassword(lender.passwordHash, body.password);
  if (lender.username !== body.username || !passwordOk) {
    audit(ctx.logger, 'lender_token.failed', { clientId, lenderId: lender.id, reason: 'invalid_grant' });
    throw new OAuthError('invalid_grant', 'Wrong username or password');
  }

  await ctx.auth.lenderTokenThrottle.recordSuccess(clientAddress, clientId, body.username);
  const scope = scopeString(requested);
  const ttlSeconds = TOKEN_TTL_SECONDS.lender;
  const subject = `lender:${lender.id}`;
  const profileClaims = requested.includes('profile') ? { name: lender.name } : {};
  const [accessToken, idToken] = await Promise.all([
    ctx.auth.tokens.sign({ tkn: 'lender', scope, lid: lender.id, azp: clientId }, { subject, ttlSeconds, audience: [audience, ctx.auth.tokens.apiAudience] }),
    ctx.auth.tokens.sign({ tkn: 'lender', scope, lid: lender.id, azp: clientId, ...profileClaims }, { subject, ttlSeconds, audience: clientId }),
  ]);
  audit(ctx.logger, 'lender_token.issued', { lenderId: lender.id, clientId });
  return { access_token: accessToken, id_token: idToken, scope, expires_in: ttlSeconds, token_type: 'Bearer' };
}

/** /.well-known/openid-configuration: what a stock OIDC client needs to find and verify us. */
export function openIdConfiguration(issuer: string): OpenIdConfiguration {
  return {
    issuer,
    token_endpoint: `${issuer}/oauth/token`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    grant_types_supported: ['password'],
    response_types_supported: ['token', 'id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    scopes_supported: [...LENDER_TOKEN_SCOPES],
    claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'azp', 'name', 'lid', 'env'],
  };
}
