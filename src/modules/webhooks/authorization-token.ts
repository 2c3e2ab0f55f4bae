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

/**
 * `withAuthorizationToken` on JSON text, as the delivery worker reads a stored document: `document`
 * without its apiProvider, and that `apiProvider` object (without a token), or null when the document
 * has none (then it is sent as it is). The same JSON as stringifying `withAuthorizationToken` of the
 * parsed document, apiProvider last, with no parse and no second serialisation of the document.
 */
export function sentDocument(document: string, apiProvider: string | null, token: string | null): string {
  if (apiProvider === null) return document;
  const provider = `${withMember(apiProvider)}"authorizationToken": ${JSON.stringify(token)}}`;
  return `${withMember(document)}"apiProvider": ${provider}}`;
}

/** A JSON object's text opened for one more member at its end. */
function withMember(object: string): string {
  const body = object.trimEnd().slice(0, -1);
  return /^\s*\{\s*$/.test(body) ? body : `${body}, `;
}

/** The document as stored and queued: apiProvider without any token. */
export function withoutAuthorizationToken<T>(document: T): T {
  if (typeof document !== 'object' || document === null) return document;
  const provider = (document as { apiProvider?: unknown }).apiProvider;
  if (typeof provider !== 'object' || provider === null) return document;
  const { authorizationToken: _dropped, ...rest } = provider as Record<string, unknown>;
  return { ...document, apiProvider: rest };
}
