/**
 * apiProvider.authorizationToken (spec 2.7, 5.10): each lender application has its own token,
 * HMAC-SHA256 of `application:<id>` keyed with the lender's authorization token key, so
 *  - one token names one application: a token seen anywhere else forges nothing about the others;
 *  - nothing stores it: documents are stored and queued without it, and it is added as a document is
 *    sent (webhook) or read (lender API), so re-issuing the lender's credentials re-issues the token
 *    of every pending delivery at once;
 *  - a lender checks it offline with its key (or against GET /applications/{id}).
 * Integrators never see it: their view of an application has no apiProvider at all.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { hmacKeys } from './hmac-keys.js';

const KEY_PREFIX = 'fgak_';

/** A new authorization token key (256 random bits), handed to the lender once with its credentials. */
export function newAuthorizationTokenKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Keyed with the key's UTF-8 bytes, as an HMAC keyed with the string is. */
const tokenKey = hmacKeys((key) => Buffer.from(key, 'utf8'));

/** The application's token, or null while the lender has no key (documents then carry null, as before credentials). */
export function applicationAuthorizationToken(key: string | null, applicationId: number): string | null {
  if (!key) return null;
  return createHmac('sha256', tokenKey(key)).update(`application:${applicationId}`).digest('base64url');
}

/**
 * The document with its application's token in apiProvider (a document without apiProvider is left
 * as it is). Any token already in the payload is replaced: a stored one is never sent again.
 */
export function withAuthorizationToken<T>(document: T, token: string | null): T {
  if (typeof document !== 'object' || document === null) return document;
  const provider = (document as { apiProvider?: unknown }).apiProvider;
  if (typeof provider !== 'object' || provider === null) return document;
  return { ...document, apiProvider: { ...provider, authorizationToken: token } };
}

/** The document as stored and queued: apiProvider without any token. */
export function withoutAuthorizationToken<T>(document: T): T {
  if (typeof document !== 'object' || document === null) return document;
  const provider = (document as { apiProvider?: unknown }).apiProvider;
  if (typeof provider !== 'object' || provider === null) return document;
  const { authorizationToken: _dropped, ...rest } = provider as Record<string, unknown>;
  return { ...document, apiProvider: rest };
}
