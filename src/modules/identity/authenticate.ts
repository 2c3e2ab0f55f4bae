/**
 * Turns a request's credentials (Authorization and Service-tenant-id headers) into the caller:
 * the same for REST, GraphQL over HTTP and graphql-ws. A bad token does not fail here: the caller
 * becomes anonymous with the reason attached, answered as a 401 by the first access check.
 */
import type { Actor, PlatformRole } from '../../kernel/actor.js';
import { ANONYMOUS } from '../../kernel/actor.js';
import { AppError } from '../../kernel/errors.js';
import type { CredentialStatus } from './credential-status.js';
import type { TokenAuthority, VerifiedToken } from './token-authority.js';

export interface CredentialHeaders {
  authorization?: string | null;
  serviceTenantId?: string | null;
}

export interface Caller {
  actor: Actor;
  requestedTenantId: string | null;
}

/** The token of an `Authorization: Bearer <token>` header, or null when the header is absent or not of that form. */
export function bearerTokenOf(authorization: string | null | undefined): string | null {
  return /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '')?.[1] ?? null;
}

export async function authenticate(tokens: TokenAuthority, status: CredentialStatus, headers: CredentialHeaders): Promise<Caller> {
  const requestedTenantId = headers.serviceTenantId?.trim() || null;
  const authorization = headers.authorization?.trim();
  if (!authorization) return { actor: ANONYMOUS, requestedTenantId };
  const token = bearerTokenOf(authorization);
  if (!token) {
    const rejection = new AppError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <token>"');
    return { actor: { kind: 'anonymous', rejection }, requestedTenantId };
  }
  try {
    const actor = actorOf(await tokens.verify(token));
    await status.assertActive(actor);
    return { actor, requestedTenantId };
  } catch (err) {
    if (err instanceof AppError) return { actor: { kind: 'anonymous', rejection: err }, requestedTenantId };
    throw err;
  }
}

function actorOf(claims: VerifiedToken): Actor {
  const scopes = claims.scope.split(' ').filter(Boolean);
  const need = (value: string | undefined, name: string): string => {
    if (!value) throw new AppError('UNAUTHENTICATED', `Invalid token: claim ${name} is missing`);
    return value;
  };
  switch (claims.tkn) {
    case 'login':
      // Tokens signed before session epochs existed carry none: the epoch every user starts at.
      return {
        kind: 'login',
        accountId: need(claims.acc, 'acc'),
        userId: claims.sub,
        role: claims.role as PlatformRole,
        sessionEpoch: claims.sep ?? 0,
        scopes,
      };
    case 'tenant':
      return {
        kind: 'tenant',
        accountId: need(claims.acc, 'acc'),
        apiKeyId: need(claims.key, 'key'),
        tenantId: need(claims.tid, 'tid'),
        scopes,
        ...family(claims),
      };
    case 'platform':
    case 'master':
    case 'marketplace_v1':
      return { kind: claims.tkn, accountId: need(claims.acc, 'acc'), apiKeyId: need(claims.key, 'key'), scopes, ...family(claims) };
    case 'lender':
      if (typeof claims.lid !== 'number') throw new AppError('UNAUTHENTICATED', 'Invalid token: claim lid is missing');
      return { kind: 'lender', lenderId: claims.lid, clientId: need(claims.azp, 'azp'), scopes };
  }
}

function family(claims: VerifiedToken): { refreshFamilyId?: string } {
  return claims.fam ? { refreshFamilyId: claims.fam } : {};
}

/** Reads the two credential headers from either a Fetch Headers object or Node's header record. */
export function credentialHeaders(headers: Headers | Record<string, string | string[] | undefined>): CredentialHeaders {
  const read = (name: string): string | null => {
    if (headers instanceof Headers) return headers.get(name);
    const value = headers[name];
    return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
  };
  return { authorization: read('authorization'), serviceTenantId: read('service-tenant-id') };
}
