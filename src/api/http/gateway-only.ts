/**
 * A distributed subgraph answers the gateway only: every request but the liveness and readiness
 * probes, and every graphql-ws upgrade, must carry the deployment's subgraph secret (SUBGRAPH_SECRET)
 * in GATEWAY_SECRET_HEADER. It is checked before anything reads the body, compared in constant time,
 * and a request without it is answered 401 (a wrong one 403) without a byte of its body parsed.
 *
 * A shared secret rather than a signed header: the gateway runtime adds headers per subgraph call
 * without seeing the body it sends, so a signature could cover only a timestamp, which is a secret
 * with a lifetime and a clock to agree on, and no more than that against a party that can read the
 * traffic (who would also read the callers' bearer tokens).
 */
import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import { AppError } from '../../kernel/errors.js';
import { sendProblem } from '../rest/rest-router.js';

export const GATEWAY_SECRET_HEADER = 'x-gateway-secret';

export type GatewayCredentialCheck = 'accepted' | 'missing' | 'wrong';

/** Digests of equal length compared with timingSafeEqual: neither the secret nor its length leaks through timing. */
export function gatewayCredentialCheck(secret: string): (headers: IncomingHttpHeaders) => GatewayCredentialCheck {
  const expected = hash('sha256', secret, 'buffer');
  return (headers) => {
    const presented = headers[GATEWAY_SECRET_HEADER];
    if (typeof presented !== 'string' || presented === '') return 'missing';
    return timingSafeEqual(hash('sha256', presented, 'buffer'), expected) ? 'accepted' : 'wrong';
  };
}

export function gatewayCredentialRefusal(check: Exclude<GatewayCredentialCheck, 'accepted'>): AppError {
  return check === 'missing'
    ? AppError.unauthenticated(`This subgraph answers the gateway only: the ${GATEWAY_SECRET_HEADER} header is missing`)
    : AppError.forbidden(`This subgraph answers the gateway only: the ${GATEWAY_SECRET_HEADER} header is not the deployment's subgraph secret`);
}

/** Mounted before every route that reads a body (after the health probes). */
export function gatewayOnly(secret: string): RequestHandler {
  const check = gatewayCredentialCheck(secret);
  return (req, res, next) => {
    const verdict = check(req.headers);
    if (verdict === 'accepted') return next();
    // The body is not read: the connection closes after the answer instead of draining it.
    res.setHeader('Connection', 'close');
    sendProblem(res, gatewayCredentialRefusal(verdict));
  };
}
