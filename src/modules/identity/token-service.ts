/**
 * Integrator tokens (spec 4.2, 5.1-5.7): API key → platform, master, tenant or Marketplace V1
 * token, and refresh-token rotation. Each exchange re-checks the API key (revoked or expired keys
 * mint nothing) and the tenant (it must belong to the key's account).
 */
import { z } from 'zod';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import type { MarketplaceV1Tokens, TokenResponse } from './identity-schemas.js';
import { requireAccess } from '../../kernel/access-policy.js';
import type { TokenKind } from '../../kernel/actor.js';
import { issueRefreshToken, RefreshTokenString, useRefreshToken, type RefreshGrant, type RefreshKind } from './refresh-tokens.js';
import { scopeString, TENANT_TOKEN_SCOPES } from '../../kernel/scopes.js';
import { digest, environmentOfSecret } from './secrets.js';
import { findVisibleTenant } from '../tenants/tenant-visibility.js';

/** Lifetimes in seconds (spec 8). */
export const TOKEN_TTL_SECONDS = {
  login: 86_400,
  platform: 36_000,
  master: 36_000,
  tenant: 36_000,
  marketplace_v1: 36_000,
  lender: 120,
} as const satisfies Record<TokenKind, number>;

export type { MarketplaceV1Tokens, TokenResponse };

interface UsableKey {
  id: string;
  accountId: string;
  scopes: readonly string[];
  /** A token minted from the key expires no later than the key. */
  expiresAt: Date | null;
}

/**
 * POST {platform_base}/auth/token: a platform token, or a tenant token with Service-tenant-id.
 * @access token-exchange: the API key presented is the credential being exchanged
 */
export async function issuePlatformToken(ctx: ServiceContext, apiKey: unknown): Promise<TokenResponse> {
  const key = await findUsableApiKey(ctx, apiKey);
  if (ctx.requestedTenantId === null) return tokenPair(ctx, 'platform', key, null);
  const tenantId = (await findVisibleTenant(ctx, { kind: 'api_key', accountId: key.accountId }, ctx.requestedTenantId, 'Service-tenant-id')).id;
  return tokenPair(ctx, 'tenant', key, tenantId);
}

/**
 * POST {marketplace_v2_base}/auth/authorize: the account-wide master token.
 * @access token-exchange: the API key presented is the credential being exchanged
 */
export async function issueMasterToken(ctx: ServiceContext, apiKey: unknown): Promise<TokenResponse> {
  return tokenPair(ctx, 'master', await findUsableApiKey(ctx, apiKey), null);
}

/** POST …/auth/tenants/authorize: a master (or platform) bearer + Service-tenant-id → tenant token. */
export async function issueTenantToken(ctx: ServiceContext): Promise<TokenResponse> {
  const actor = requireAccess(ctx, 'tenantTokens.issue');
  if (ctx.requestedTenantId === null) {
    throw AppError.badRequest('The Service-tenant-id header is required', [{ pointer: 'header:Service-tenant-id', message: 'is required' }]);
  }
  const tenantId = (await findVisibleTenant(ctx, actor, ctx.requestedTenantId, 'Service-tenant-id')).id;
  // The minting token's scopes are its key's: the tenant token is cut down from them like any other.
  const key = { id: actor.apiKeyId, accountId: actor.accountId, scopes: actor.scopes, expiresAt: await expiryOfKey(ctx, actor.apiKeyId) };
  // In the minting token's refresh family, so revoking that family (a replay) ends this token too.
  return accessToken(ctx, 'tenant', key, tenantId, actor.refreshFamilyId);
}

/**
 * POST {marketplace_v1_base}/auth/authorize?api_key=… → { jwt, refreshToken }.
 * @access token-exchange: the API key presented is the credential being exchanged
 */
export async function authorizeMarketplaceV1(ctx: ServiceContext, apiKey: unknown): Promise<MarketplaceV1Tokens> {
  const key = await findUsableApiKey(ctx, apiKey, '/api_key');
  return marketplaceV1Pair(ctx, key);
}

/** Marketplace V1 takes its API key in the query; a missing or unknown one is a 401 (findUsableApiKey), not a 400. */
export const V1AuthorizeQuery = z.object({ api_key: z.string().optional().describe('The API key (fgk_…)') });
export const V1RefreshBody = z.strictObject({ refreshToken: RefreshTokenString });
export const PlatformRefreshBody = z
  .strictObject({ refresh_token: RefreshTokenString.optional(), refreshToken: RefreshTokenString.optional() })
  .refine((b) => (b.refresh_token ?? b.refreshToken) !== undefined, { message: 'is required', path: ['refresh_token'] });

/**
 * POST {marketplace_v1_base}/auth/refresh-token {refreshToken}.
 * @access token-exchange: the refresh token presented is the credential being exchanged
 */
export async function refreshMarketplaceV1(ctx: ServiceContext, { refreshToken }: z.output<typeof V1RefreshBody>): Promise<MarketplaceV1Tokens> {
  const { grant, successor, familyId } = await useRefreshToken(ctx, refreshToken, ['MARKETPLACE_V1']);
  return marketplaceV1Pair(ctx, await keyOfGrant(ctx, grant), { successor, familyId });
}

/**
 * POST {platform_base}/auth/refresh-token (platform and tenant tokens) and
 * POST {marketplace_v2_base}/auth/refresh-token (master tokens): body { refresh_token } or { refreshToken }.
 * @access token-exchange: the refresh token presented is the credential being exchanged
 */
export async function refreshPlatformToken(
  ctx: ServiceContext,
  parsed: z.output<typeof PlatformRefreshBody>,
  kinds: readonly RefreshKind[],
): Promise<TokenResponse> {
  const { grant, successor, familyId } = await useRefreshToken(ctx, (parsed.refresh_token ?? parsed.refreshToken) as string, kinds);
  const key = await keyOfGrant(ctx, grant);
  const kind = grant.kind === 'MASTER' ? 'master' : grant.kind === 'TENANT' ? 'tenant' : 'platform';
  const tenantId =
    grant.tenantId === null ? null : (await findVisibleTenant(ctx, { kind: 'api_key', accountId: key.accountId }, grant.tenantId, 'Service-tenant-id')).id;
  return { ...(await accessToken(ctx, kind, key, tenantId, familyId)), refresh_token: successor };
}

/** @access token-exchange: checks the API key the exchange presents (revoked, expired, other environment) */
async function findUsableApiKey(ctx: ServiceContext, raw: unknown, pointer = 'header:X-API-Key'): Promise<UsableKey> {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw AppError.unauthenticated(`An API key is required (${pointer === '/api_key' ? 'query parameter api_key' : 'header X-API-Key'})`);
  }
  const env = environmentOfSecret(raw);
  if (env !== null && env !== ctx.environment) throw AppError.unauthenticated(`This API key belongs to the ${env} environment`);
  const row = await ctx.db.apiKey.findFirst({ where: { keyHash: digest(raw.trim()), environment: ctx.environment } });
  return assertUsable(ctx, row);
}

async function keyOfGrant(ctx: ServiceContext, grant: RefreshGrant): Promise<UsableKey> {
  const row = await ctx.db.apiKey.findFirst({ where: { id: grant.apiKeyId, environment: ctx.environment } });
  return assertUsable(ctx, row);
}

function assertUsable(ctx: ServiceContext, row: (UsableKey & { revokedAt: Date | null; expiresAt: Date | null }) | null): UsableKey {
  if (!row) throw AppError.unauthenticated('The API key is not valid');
  if (row.revokedAt) throw AppError.unauthenticated('The API key has been revoked');
  if (row.expiresAt && row.expiresAt <= ctx.clock.now()) throw AppError.unauthenticated('The API key has expired');
  return { id: row.id, accountId: row.accountId, scopes: row.scopes, expiresAt: row.expiresAt };
}

async function expiryOfKey(ctx: ServiceContext, id: string): Promise<Date | null> {
  const row = await ctx.db.apiKey.findFirst({ where: { id, environment: ctx.environment }, select: { expiresAt: true } });
  return row?.expiresAt ?? null;
}

/** The kind's lifetime, cut short so that the token expires no later than its key (whole seconds, at least one). */
function tokenLifetimeSeconds(ctx: ServiceContext, kind: keyof typeof TOKEN_TTL_SECONDS, key: Pick<UsableKey, 'expiresAt'>): number {
  const full = TOKEN_TTL_SECONDS[kind];
  if (key.expiresAt === null) return full;
  const untilKeyExpires = Math.floor((key.expiresAt.getTime() - ctx.clock.now().getTime()) / 1000);
  return Math.max(1, Math.min(full, untilKeyExpires));
}

/** The tenant, if it is the account's; another account's tenant is indistinguishable from none (404). */

async function tokenPair(ctx: ServiceContext, kind: 'platform' | 'master' | 'tenant', key: UsableKey, tenantId: string | null): Promise<TokenResponse> {
  const refreshKind: RefreshKind = kind === 'master' ? 'MASTER' : kind === 'tenant' ? 'TENANT' : 'PLATFORM';
  const familyId = crypto.randomUUID();
  const response = await accessToken(ctx, kind, key, tenantId, familyId);
  return { ...response, refresh_token: await issueRefreshToken(ctx, { kind: refreshKind, apiKeyId: key.id, tenantId }, familyId) };
}

async function accessToken(
  ctx: ServiceContext,
  kind: 'platform' | 'master' | 'tenant',
  key: UsableKey,
  tenantId: string | null,
  familyId?: string,
): Promise<TokenResponse> {
  const scopes = kind === 'tenant' ? tenantTokenScopes(key.scopes) : key.scopes;
  const claims = {
    tkn: kind,
    scope: scopeString(scopes),
    acc: key.accountId,
    key: key.id,
    ...(tenantId ? { tid: tenantId } : {}),
    ...(familyId ? { fam: familyId } : {}),
  };
  const ttlSeconds = tokenLifetimeSeconds(ctx, kind, key);
  const access = await ctx.auth.tokens.sign(claims, { subject: tenantId ? `tenant:${tenantId}` : `key:${key.id}`, ttlSeconds });
  await touchKey(ctx, key.id);
  return { access_token: access, expires_in: ttlSeconds, scope: claims.scope, token_type: 'Bearer' };
}

/**
 * A tenant token never holds more than its key: spec 2.5's tenant scopes (profile:read,
 * profile:write) cut down to those the key holds. `sign_up` is kept because the spec names it on
 * every tenant token and it is no API key scope; no rule of the access table grants anything by it.
 */
function tenantTokenScopes(keyScopes: readonly string[]): string[] {
  return TENANT_TOKEN_SCOPES.filter((scope) => scope === 'sign_up' || keyScopes.includes(scope));
}

async function marketplaceV1Pair(ctx: ServiceContext, key: UsableKey, rotated?: { successor: string; familyId: string }): Promise<MarketplaceV1Tokens> {
  const familyId = rotated?.familyId ?? crypto.randomUUID();
  const ttlSeconds = tokenLifetimeSeconds(ctx, 'marketplace_v1', key);
  const jwt = await ctx.auth.tokens.sign(
    { tkn: 'marketplace_v1', scope: scopeString(key.scopes), acc: key.accountId, key: key.id, fam: familyId },
    { subject: `key:${key.id}`, ttlSeconds },
  );
  await touchKey(ctx, key.id);
  const refreshToken = rotated?.successor ?? (await issueRefreshToken(ctx, { kind: 'MARKETPLACE_V1', apiKeyId: key.id, tenantId: null }, familyId));
  return { jwt, refreshToken, expiresIn: ttlSeconds };
}

function touchKey(ctx: ServiceContext, id: string): Promise<unknown> {
  return ctx.db.apiKey.update({ where: { id }, data: { lastUsedAt: ctx.clock.now() } });
}
