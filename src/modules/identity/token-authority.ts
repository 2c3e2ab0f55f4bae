/**
 * Signs and verifies every JWT we issue. Verification pins the algorithm (RS256: `alg: none` and
 * HMAC confusion are refused), and checks issuer, audience, expiry and environment. The environment
 * is both a claim and part of the audience, so a token of the demo deployment fails in production
 * even if the two were mistakenly given the same key material.
 */
import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { SIGNING_ALGORITHM, type SigningKeySet } from '../../infra/signing-keys.js';
import type { Clock, DeployEnvironment } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { TOKEN_KINDS, type TokenKind } from '../../kernel/actor.js';

/** Claims of our own tokens beyond the registered ones. */
export interface TokenClaims {
  /** What kind of token this is. */
  tkn: TokenKind;
  env: DeployEnvironment;
  scope: string;
  /** Account, API key, tenant, platform user role, lender (as the kind needs). */
  acc?: string;
  key?: string;
  tid?: string;
  role?: string;
  lid?: number;
  azp?: string;
  email?: string;
  name?: string;
  /** The refresh-token family the token was issued with: a replay in that family revokes it. */
  fam?: string;
  /** A login token's session epoch: the user's at sign-in; a role or password change raises the user's. */
  sep?: number;
}

export type VerifiedToken = TokenClaims & { sub: string; exp: number; iat: number; aud: string | string[] };

export interface SignOptions {
  subject: string;
  ttlSeconds: number;
  /** Defaults to this deployment's API audience. */
  audience?: string | string[];
}

export class TokenAuthority {
  readonly apiAudience: string;
  private readonly verifyKeys: ReturnType<typeof createLocalJWKSet>;

  constructor(
    private readonly keys: SigningKeySet,
    readonly issuer: string,
    readonly environment: DeployEnvironment,
    private readonly clock: Clock,
  ) {
    this.apiAudience = `funding-gateway:${environment}`;
    this.verifyKeys = createLocalJWKSet(keys.publicJwks);
  }

  get jwks(): SigningKeySet['publicJwks'] {
    return this.keys.publicJwks;
  }

  async sign(claims: Omit<TokenClaims, 'env'>, options: SignOptions): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({ ...claims, env: this.environment } as unknown as JWTPayload)
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: this.keys.active.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setSubject(options.subject)
      .setAudience(options.audience ?? this.apiAudience)
      .setIssuedAt(now)
      .setExpirationTime(now + options.ttlSeconds)
      .setJti(randomUUID())
      .sign(this.keys.active.key);
  }

  /** Verifies a bearer token; any failure is a 401 saying why, never echoing the token. */
  async verify(token: string): Promise<VerifiedToken> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.verifyKeys, {
        algorithms: [SIGNING_ALGORITHM],
        issuer: this.issuer,
        currentDate: this.clock.now(),
        requiredClaims: ['sub', 'exp', 'iat', 'aud'],
      }));
    } catch (err) {
      throw unauthenticated(describeJoseFailure(err));
    }
    const claims = payload as unknown as VerifiedToken;
    if (claims.env !== this.environment) throw unauthenticated(`the token belongs to the ${String(claims.env)} environment, not ${this.environment}`);
    if (!(TOKEN_KINDS as readonly string[]).includes(claims.tkn)) throw unauthenticated('the token is not one of ours');
    if (!this.audienceFits(claims)) throw unauthenticated('the token was issued for another audience');
    return claims;
  }

  /**
   * Signed, expiring links (e.g. the funding-search page): a JWT for one subject with its own
   * audience, so it never passes as an API bearer token, and no API token passes as a link.
   */
  signLink(subject: string, ttlSeconds: number): Promise<string> {
    return this.sign({ tkn: 'link' as TokenKind, scope: '' }, { subject, ttlSeconds, audience: this.linkAudience });
  }

  async verifyLink(token: string, subject: string): Promise<void> {
    try {
      await jwtVerify(token, this.verifyKeys, {
        algorithms: [SIGNING_ALGORITHM],
        issuer: this.issuer,
        audience: this.linkAudience,
        subject,
        currentDate: this.clock.now(),
      });
    } catch (err) {
      throw new AppError('FORBIDDEN', `This link is not valid: ${describeJoseFailure(err)}`);
    }
  }

  private get linkAudience(): string {
    return `${this.apiAudience}:link`;
  }

  /** API tokens name this deployment's audience; a lender's id_token names the lender's client id. */
  private audienceFits(claims: VerifiedToken): boolean {
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (audiences.includes(this.apiAudience)) return true;
    return claims.tkn === 'lender' && typeof claims.azp === 'string' && audiences.includes(claims.azp);
  }
}

export function unauthenticated(reason: string): AppError {
  return new AppError('UNAUTHENTICATED', `Invalid token: ${reason}`);
}

function describeJoseFailure(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return 'it has expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `claim ${err.claim} is not valid`;
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'its signing algorithm is not accepted';
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'its signature does not verify';
  if (err instanceof joseErrors.JWKSNoMatchingKey) return 'it was not signed by any of our keys';
  return 'it is not a well-formed signed JWT';
}
