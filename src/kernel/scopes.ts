/** Scope vocabulary (spec 2.5) and the scopes each kind of token carries. */

/** The ten scopes an API key may hold (spec 2.5). */
export const API_KEY_SCOPES = [
  'profile:multiples',
  'profile:read',
  'profile:write',
  'questionnaire:read',
  'questionnaire:write',
  'funding:read',
  'funding:write',
  'insights:read',
  'scoring:read',
  'offline_access',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** A tenant token's fixed scopes (spec 2.5, 5.5). */
export const TENANT_TOKEN_SCOPES = ['profile:read', 'profile:write', 'sign_up'] as const;

/** Scopes of a platform login token, by role: managing the account, never integration data. */
export const LOGIN_SCOPES_BY_ROLE = {
  /** `tenants:read`: the integrator console's view of the account's tenants (their profiles and applications). */
  MEMBER: ['account:read', 'api_keys:read', 'api_keys:write', 'users:read', 'tenants:read'],
  /** `request_log:read`: the account's request log, whose failures' problem bodies name any key's or user's inputs. */
  ADMIN: ['account:read', 'api_keys:read', 'api_keys:write', 'users:read', 'tenants:read', 'users:write', 'request_log:read'],
  /** Internal funding specialists and operators (dashboards, lender management). */
  STAFF: ['account:read', 'api_keys:read', 'api_keys:write', 'users:read', 'tenants:read', 'users:write', 'request_log:read', 'staff', 'admin'],
} as const;

/** OpenID scopes a lender asks for (spec 5.9), and the one our lender API needs. */
export const LENDER_TOKEN_SCOPES = ['openid', 'email', 'profile'] as const;
const LENDER_API_SCOPE = 'openid';

export function scopeString(scopes: readonly string[]): string {
  return scopes.join(' ');
}
