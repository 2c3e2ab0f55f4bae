/**
 * Who is calling: one variant per kind of credential (spec 2.5 and 5). Built from a bearer token by
 * authenticate.ts and carried in the ServiceContext; services never see raw tokens.
 */
import type { AppError } from './errors.js';

export type PlatformRole = 'MEMBER' | 'ADMIN' | 'STAFF';

/** Kinds of bearer token we issue. `login` is the platform user's token (spec 5.8). */
export const TOKEN_KINDS = ['login', 'platform', 'master', 'tenant', 'marketplace_v1', 'lender'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** Tokens minted straight from an API key, acting for its whole account. */
type KeyTokenKind = 'platform' | 'master' | 'marketplace_v1';

interface Scoped {
  scopes: readonly string[];
}

/** Tokens issued with a refresh token carry its family, revoked as a whole on replay. */
interface InRefreshFamily {
  refreshFamilyId?: string;
}

export type Actor =
  /** No credential, or one that failed verification (`rejection` says why: answered on first use). */
  | { kind: 'anonymous'; rejection?: AppError }
  | { kind: 'system'; reason: string }
  /** `sessionEpoch`: the user's at sign-in; the token stops working once the user's moves on (credential-status.ts). */
  | ({ kind: 'login'; accountId: string; userId: string; role: PlatformRole; sessionEpoch: number } & Scoped)
  | { [K in KeyTokenKind]: { kind: K; accountId: string; apiKeyId: string } & Scoped & InRefreshFamily }[KeyTokenKind]
  | ({ kind: 'tenant'; accountId: string; apiKeyId: string; tenantId: string } & Scoped & InRefreshFamily)
  | ({ kind: 'lender'; lenderId: number; clientId: string } & Scoped);

export type AuthenticatedActor = Extract<Actor, Scoped>;
type AccountActor = Extract<Actor, { accountId: string }>;

export const ANONYMOUS: Actor = { kind: 'anonymous' };

export function isAuthenticated(actor: Actor): actor is AuthenticatedActor {
  return 'scopes' in actor;
}

/**
 * What every visibility rule decides on, as one key: two callers with the same key see exactly the
 * same things (so their subscriptions can share one execution). It leaves out only what names the
 * credential itself (API key, refresh family, session epoch, lender client): revocation is checked per credential.
 */
export function visibilityKeyOf(actor: AuthenticatedActor, requestedTenantId: string | null, environment: string): string {
  const {
    apiKeyId: _key,
    refreshFamilyId: _family,
    clientId: _client,
    sessionEpoch: _epoch,
    scopes,
    ...identity
  } = actor as AuthenticatedActor & {
    apiKeyId?: string;
    refreshFamilyId?: string;
    clientId?: string;
    sessionEpoch?: number;
  };
  const fields = Object.entries(identity).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([environment, requestedTenantId, fields, [...scopes].sort()]);
}
