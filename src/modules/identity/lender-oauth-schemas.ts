/**
 * The lenders' identity provider's documents (spec 5.9), declared once: the token request and answer,
 * its RFC 6749 errors, OpenID discovery and the key set. The token endpoint parses with them and the
 * OpenAPI document describes /oauth/token and /.well-known/* from them
 * (src/api/rest/identity-provider-router.ts), so a generated lender client types its token call.
 */
import { z } from 'zod';
import { LENDER_TOKEN_SCOPES, scopeString } from '../../kernel/scopes.js';

const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unsupported_grant_type',
  'invalid_scope',
  'slow_down',
  'server_error',
] as const;

/** Spec 5.9's JSON body; the same fields form-encoded (RFC 6749), the client credentials in the body or in HTTP Basic. */
export const LenderTokenRequest = z
  .object({
    grant_type: z.literal('password'),
    client_id: z.string().optional().describe("The lender's client id; required unless sent in HTTP Basic (client_secret_basic)"),
    client_secret: z.string().optional().describe("The lender's client secret; required unless sent in HTTP Basic"),
    username: z.string(),
    password: z.string(),
    audience: z
      .string()
      .optional()
      .describe(
        "The lender API's URL, `{PUBLIC_URL}/api/platform/v1/funding` (the `audience` issued with the credentials), or an accepted alias; when left out, that URL",
      ),
    scope: z
      .string()
      .optional()
      .describe(`Space-separated, including \`openid\`; when left out, \`${scopeString(LENDER_TOKEN_SCOPES)}\``),
  })
  .meta({ id: 'LenderTokenRequest', description: "A lender's password grant (spec 5.9)" });

/** What the endpoint reads before deciding which RFC 6749 error a request earns: each field a string, if present. */
export const LenderTokenRequestFields = LenderTokenRequest.partial().extend({ grant_type: z.string().optional() });

export const LenderTokenResponse = z
  .strictObject({
    access_token: z.string().describe('A JWT for this gateway'),
    id_token: z.string().describe('The OpenID id_token (a JWT naming the lender): the bearer of every lender API request'),
    scope: z.string().describe('The scopes granted, space-separated'),
    expires_in: z.number().int().describe('Seconds until both tokens expire (120): sign in before each request'),
    token_type: z.literal('Bearer'),
  })
  .meta({ id: 'LenderTokenResponse', description: 'The tokens of a password grant (spec 5.9)' });
export type LenderTokenResponse = z.infer<typeof LenderTokenResponse>;

export const OAuthErrorBody = z
  .strictObject({
    error: z.enum(OAUTH_ERROR_CODES).describe('The RFC 6749 section 5.2 code (`slow_down`: too many attempts; `server_error`: a failure of ours)'),
    error_description: z.string().describe('What was wrong, for the developer'),
  })
  .meta({ id: 'OAuthError', description: 'An RFC 6749 error, as OAuth client libraries read it' });

export const OpenIdConfiguration = z
  .object({
    issuer: z.string(),
    token_endpoint: z.string(),
    jwks_uri: z.string(),
    grant_types_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    subject_types_supported: z.array(z.string()),
    id_token_signing_alg_values_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    claims_supported: z.array(z.string()),
  })
  .meta({
    id: 'OpenIdConfiguration',
    description: 'OpenID Connect Discovery 1.0 provider metadata: what a stock client needs to find the token endpoint and verify id_tokens',
  });
export type OpenIdConfiguration = z.infer<typeof OpenIdConfiguration>;

export const JsonWebKeySet = z
  .object({
    keys: z.array(
      z
        .object({
          kty: z.literal('RSA'),
          kid: z.string(),
          n: z.string(),
          e: z.string(),
          alg: z.literal('RS256').optional(),
          use: z.literal('sig').optional(),
        })
        .meta({ id: 'JsonWebKey', description: 'An RSA public key (RFC 7517)' }),
    ),
  })
  .meta({
    id: 'JsonWebKeySet',
    description: "The public keys that verify this gateway's tokens, the signing key first (RFC 7517): more than one during a key rotation",
  });
