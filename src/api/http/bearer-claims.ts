/**
 * The verified claims of a request's bearer token, asked once per request: the rate limiter and
 * the GraphQL body limit both ask before the request reaches its operation (which authenticates on
 * its own, from the headers). The RS256 verification itself happens once per token, not per
 * request: TokenAuthority remembers the tokens that verified, for the operation's context too.
 */
import type { Request } from 'express';
import { bearerTokenOf } from '../../modules/identity/authenticate.js';
import type { TokenAuthority, VerifiedToken } from '../../modules/identity/token-authority.js';

const verified = new WeakMap<Request, Promise<VerifiedToken | null>>();

/** The claims of the request's bearer token, or null without one or when it does not verify. */
export function bearerClaimsOf(req: Request, tokens: TokenAuthority): Promise<VerifiedToken | null> {
  let claims = verified.get(req);
  if (!claims) {
    const token = bearerTokenOf(req.headers.authorization);
    claims = token ? tokens.verify(token).catch(() => null) : Promise.resolve(null);
    verified.set(req, claims);
  }
  return claims;
}
