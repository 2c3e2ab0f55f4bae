/**
 * RS256 JWT verification on node:crypto with the public keys imported once as KeyObjects. It makes
 * the checks jose's jwtVerify made for us (the WebCrypto path cost 3-10 times as much per token):
 * compact form, protected header a JSON object, no critical extension but `b64: true`, `alg` RS256
 * only, the key chosen by `kid` from our key set (a key of under 2048 bits is refused), the
 * signature, then the claims set a JSON object with the required claims present, the issuer, the
 * audience and subject when asked, and iat/nbf/exp numeric with nbf and exp against the clock (no
 * tolerance, as before). A failure says why in the words callers have always shown.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { SIGNING_ALGORITHM } from '../../infra/signing-keys.js';

/** Why a token was refused, in the words of the 401 (or a link's 403). */
export class TokenRejected extends Error {}

const TOKEN_EXPIRED = 'it has expired';
const MALFORMED = 'it is not a well-formed signed JWT';
const MINIMUM_RSA_BITS = 2048;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

interface ClaimRequirements {
  issuer: string;
  /** Claims that must be present (iss is always required). */
  required?: readonly string[];
  audience?: string;
  subject?: string;
}

interface VerificationKey {
  kid: string | undefined;
  key: KeyObject;
  /** Too short a modulus to be trusted for RS256: refused as jose refused it. */
  tooShort: boolean;
}

export interface Rs256Verifier {
  /** The verified claims set; throws TokenRejected. `now` is in seconds since the epoch. */
  verify(token: string, requirements: ClaimRequirements, now: number): Record<string, unknown>;
}

export function rs256Verifier(jwks: { keys: JWK[] }): Rs256Verifier {
  const keys: VerificationKey[] = jwks.keys.filter(usableForRs256).map((jwk) => {
    const key = createPublicKey({ key: { kty: jwk.kty, n: jwk.n, e: jwk.e } as import('node:crypto').JsonWebKey, format: 'jwk' });
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    return { kid: jwk.kid, key, tooShort: bits < MINIMUM_RSA_BITS };
  });

  function keyFor(kid: unknown): VerificationKey {
    if (kid !== undefined && typeof kid !== 'string') throw new TokenRejected('it was not signed by any of our keys');
    const candidates = kid === undefined ? keys : keys.filter((k) => k.kid === kid);
    if (candidates.length === 0) throw new TokenRejected('it was not signed by any of our keys');
    // Without a kid, several keys would each have to be tried: jose refused that, and so do we.
    if (candidates.length > 1) throw new TokenRejected(MALFORMED);
    return candidates[0]!;
  }

  return {
    verify(token, requirements, now) {
      const parts = token.split('.');
      if (parts.length !== 3) throw new TokenRejected(MALFORMED);
      const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
      if (!BASE64URL.test(encodedHeader) || !BASE64URL.test(encodedPayload) || !BASE64URL.test(encodedSignature)) throw new TokenRejected(MALFORMED);
      const header = jsonObjectOf(encodedHeader);
      assertNoUnknownCriticalExtension(header);
      if (typeof header.alg !== 'string' || header.alg === '') throw new TokenRejected(MALFORMED);
      if (header.alg !== SIGNING_ALGORITHM) throw new TokenRejected('its signing algorithm is not accepted');
      const { key, tooShort } = keyFor(header.kid);
      if (tooShort) throw new TokenRejected(MALFORMED);
      let valid = false;
      try {
        valid = verify('sha256', Buffer.from(`${encodedHeader}.${encodedPayload}`, 'ascii'), key, Buffer.from(encodedSignature, 'base64url'));
      } catch {
        valid = false;
      }
      if (!valid) throw new TokenRejected('its signature does not verify');
      if (header.b64 === false) throw new TokenRejected(MALFORMED);
      const claims = jsonObjectOf(encodedPayload);
      checkClaims(claims, requirements, now);
      return claims;
    },
  };
}

/** The member checks of jose's local key set for RS256 signatures. */
function usableForRs256(jwk: JWK): boolean {
  return (
    jwk.kty === 'RSA' &&
    (jwk.alg === undefined || jwk.alg === SIGNING_ALGORITHM) &&
    (jwk.use === undefined || jwk.use === 'sig') &&
    (jwk.key_ops === undefined || jwk.key_ops.includes('verify'))
  );
}

function jsonObjectOf(encoded: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8.decode(Buffer.from(encoded, 'base64url')));
  } catch {
    throw new TokenRejected(MALFORMED);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new TokenRejected(MALFORMED);
  return parsed as Record<string, unknown>;
}

/** `crit` may name only extensions we understand (b64, and then only as a boolean present in the header). */
function assertNoUnknownCriticalExtension(header: Record<string, unknown>): void {
  if (header.crit === undefined) return;
  const crit = header.crit;
  if (!Array.isArray(crit) || crit.length === 0 || crit.some((name) => typeof name !== 'string' || name === '')) throw new TokenRejected(MALFORMED);
  for (const name of crit) {
    if (name !== 'b64' || typeof header.b64 !== 'boolean') throw new TokenRejected(MALFORMED);
  }
}

const claimInvalid = (claim: string) => new TokenRejected(`claim ${claim} is not valid`);

/** jose's claims-set validation for the options we use, in its order (so the first failure named is the same). */
function checkClaims(claims: Record<string, unknown>, requirements: ClaimRequirements, now: number): void {
  const presence = [...(requirements.required ?? [])];
  if (requirements.audience !== undefined) presence.push('aud');
  if (requirements.subject !== undefined) presence.push('sub');
  presence.push('iss');
  for (const claim of new Set(presence.reverse())) {
    if (!Object.hasOwn(claims, claim)) throw claimInvalid(claim);
  }
  if (claims.iss !== requirements.issuer) throw claimInvalid('iss');
  if (requirements.subject !== undefined && claims.sub !== requirements.subject) throw claimInvalid('sub');
  if (requirements.audience !== undefined && !audienceIncludes(claims.aud, requirements.audience)) throw claimInvalid('aud');
  if (claims.iat !== undefined && typeof claims.iat !== 'number') throw claimInvalid('iat');
  checkTimes(claims, now);
}

/** nbf and exp against the clock: also re-checked on every use of a cached verification. */
export function checkTimes(claims: Record<string, unknown>, now: number): void {
  if (claims.nbf !== undefined) {
    if (typeof claims.nbf !== 'number') throw claimInvalid('nbf');
    if (claims.nbf > now) throw claimInvalid('nbf');
  }
  if (claims.exp !== undefined) {
    if (typeof claims.exp !== 'number') throw claimInvalid('exp');
    if (claims.exp <= now) throw new TokenRejected(TOKEN_EXPIRED);
  }
}

function audienceIncludes(aud: unknown, audience: string): boolean {
  if (typeof aud === 'string') return aud === audience;
  return Array.isArray(aud) && aud.includes(audience);
}
