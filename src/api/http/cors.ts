/**
 * CORS for /graphql, the REST APIs and /oauth/token from the CORS_ALLOWED_ORIGINS allowlist: a
 * listed origin is answered with its own name and never with credentials (callers use bearer
 * tokens, not cookies). An unlisted origin gets no CORS headers here and passes on untouched, so a
 * route-level policy further on (the widget's embedding origins) still answers for its own paths.
 */
import cors from 'cors';
import type { RequestHandler } from 'express';
import { GRAPHQL_PATH } from '../graphql/graphql-path.js';

/** The paths this allowlist answers for. */
export const CORS_PATHS = [GRAPHQL_PATH, '/api', '/oauth/token'];

export function corsAllowlist(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin) ? origin : false),
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type', 'service-tenant-id', 'x-api-key', 'idempotency-key', 'accept'],
    exposedHeaders: ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'Location', 'Link'],
    maxAge: 600,
  });
}
