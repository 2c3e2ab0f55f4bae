/**
 * Signs and verifies every JWT we issue. Verification pins the algorithm (RS256: `alg: none` and
 * HMAC confusion are refused), and checks issuer, audience, expiry and environment. The environment
 * is both a claim and part of the audience, so a token of the demo deployment fails in production
 * even if the two were mistakenly given the same key material.
 *
 * Signing uses jose; verification uses node:crypto on KeyObjects imported once (rs256-verification.ts).
 * A token that verified is remembered (bounded, by its text) until it expires: the rate limiter,
 * the request's context and each subgraph call of a request ask for the same token, and a client
 * sends it again and again. What the cache remembers depends on nothing but the token's text and the
 * clock (expiry and not-before are re-checked on every use); whether its credential is still in good
 * standing (revocation, session epoch) is not remembered here: credential-status.ts answers that on
 * every request.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import { SIGNING_ALGORITHM, type SigningKeySet } from '../../infra/signing-keys.js';
import { checkTimes, rs256Verifier, TokenRejected, type Rs256Verifier } from './rs256-verification.js';
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
  /** A continue link's generation: its application's when it was made; revoking the links raises the application's. */
  lep?: number;
}

/** What a signed link may carry besides its subject: the API key that made it, and its generation. */
export type LinkClaims = Pick<TokenClaims, 'key' | 'lep'>;

export type VerifiedToken = TokenClaims & { sub: string; exp: number; iat: number; aud: string | string[] };

export interface SignOptions {
  subject: string;
  ttlSeconds: number;
  /** Defaults to this deployment's API audience. */
  audience?: string | string[];
}

/** Verified API tokens remembered at most: enough for every active client of a process, bounded against floods. */
const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

const API_TOKEN_CLAIMS = ['sub', 'exp', 'iat', 'aud'] as const;

export class TokenAuthority {
  readonly apiAudience: string;
  private readonly verifier: Rs256Verifier;
  /** Token text -> its verified claims; insertion order is recency (a hit moves to the end), the oldest goes first. */
  private readonly verified = new Map<string, VerifiedToken>();

  constructor(
    private readonly keys: SigningKeySet,
    readonly issuer: string,
    readonly environment: DeployEnvironment,
    private readonly clock: Clock,
  ) {
    this.apiAudience = `funding-gateway:${environment}`;
    this.verifier = rs256Verifier(keys.publicJwks);
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
    return this.verifySync(token);
  }

  private verifySync(token: string): VerifiedToken {
    const now = this.nowSeconds();
    const remembered = this.verified.get(token);
    if (remembered) {
      try {
        checkTimes(remembered as unknown as Record<string, unknown>, now);
      } catch (err) {
        this.verified.delete(token);
        throw unauthenticated((err as TokenRejected).message);
      }
      this.verified.delete(token);
      this.verified.set(token, remembered);
      return remembered;
    }
    let payload: Record<string, unknown>;
    try {
      payload = this.verifier.verify(token, { issuer: this.issuer, required: API_TOKEN_CLAIMS }, now);
    } catch (err) {
      if (err instanceof TokenRejected) throw unauthenticated(err.message);
      throw err;
    }
    const claims = Object.freeze(payload) as unknown as VerifiedToken;
    if (claims.env !== this.environment) throw unauthenticated(`the token belongs to the ${String(claims.env)} environment, not ${this.environment}`);
    if (!(TOKEN_KINDS as readonly string[]).includes(claims.tkn)) throw unauthenticated('the token is not one of ours');
    if (!this.audienceFits(claims)) throw unauthenticated('the token was issued for another audience');
    if (this.verified.size >= VERIFIED_TOKEN_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, claims);
    return claims;
  }

  /**
   * Signed, expiring links (e.g. the funding-search page): a JWT for one subject with its own
   * audience, so it never passes as an API bearer token, and no API token passes as a link.
   */
  signLink(subject: string, ttlSeconds: number, claims: LinkClaims = {}): Promise<string> {
    return this.sign({ tkn: 'link' as TokenKind, scope: '', ...claims }, { subject, ttlSeconds, audience: this.linkAudience });
  }

  /** The link's own claims once it verified (whether what they name still stands is the caller's to check). */
  async verifyLink(token: string, subject: string): Promise<LinkClaims> {
    try {
      const claims = this.verifier.verify(token, { issuer: this.issuer, audience: this.linkAudience, subject }, this.nowSeconds());
      return {
        ...(typeof claims.key === 'string' ? { key: claims.key } : {}),
        ...(typeof claims.lep === 'number' ? { lep: claims.lep } : {}),
      };
    } catch (err) {
      if (err instanceof TokenRejected) throw new AppError('FORBIDDEN', `This link is not valid: ${err.message}`);
      throw err;
    }
  }

  /** The clock in whole seconds, as JWT times are compared (jose floored it the same way). */
  private nowSeconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
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

function unauthenticated(reason: string): AppError {
  return new AppError('UNAUTHENTICATED', `Invalid token: ${reason}`);
}
