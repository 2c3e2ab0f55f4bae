/**
 * The POST /graphql body ceiling, enforced while the body is read and before anything parses it:
 * callers without a verified bearer token get REST's 1 MiB (GRAPHQL_MAX_BODY_BYTES_ANONYMOUS),
 * callers with one room for attachDocument's 10 MB file in base64 (GRAPHQL_MAX_BODY_BYTES_AUTHENTICATED).
 * A declared Content-Length over the ceiling is refused before a byte is read; a compressed body
 * counts decompressed. Refused the way REST refuses an over-size body: 413 problem details.
 */
import { Readable } from 'node:stream';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { AppConfig } from '../../kernel/config.js';
import { AppError } from '../../kernel/errors.js';
import type { TokenAuthority } from '../../modules/identity/token-authority.js';
import { sendProblem } from '../rest/rest-router.js';
import { bearerClaimsOf } from './bearer-claims.js';

export function graphqlBodyLimit(
  config: Pick<AppConfig, 'GRAPHQL_MAX_BODY_BYTES_ANONYMOUS' | 'GRAPHQL_MAX_BODY_BYTES_AUTHENTICATED'>,
  tokens: TokenAuthority,
): RequestHandler {
  const readers = {
    anonymous: reader(config.GRAPHQL_MAX_BODY_BYTES_ANONYMOUS, 'GRAPHQL_MAX_BODY_BYTES_ANONYMOUS'),
    authenticated: reader(config.GRAPHQL_MAX_BODY_BYTES_AUTHENTICATED, 'GRAPHQL_MAX_BODY_BYTES_AUTHENTICATED'),
  };
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    bearerClaimsOf(req, tokens).then((claims) => (claims ? readers.authenticated : readers.anonymous)(req, res, next), next);
  };
}

function reader(limit: number, configKey: string): RequestHandler {
  // Every content type: the gateway takes JSON, GraphQL multipart and form bodies alike.
  const readRaw = express.raw({ type: () => true, limit });
  return (req: Request, res: Response, next: NextFunction) => {
    readRaw(req, res, (err?: unknown) => {
      if (err) {
        res.setHeader('Connection', 'close'); // the rest of an over-size body is not read
        return sendProblem(res, bodyRefusal(err, limit, configKey));
      }
      if (Buffer.isBuffer(req.body)) {
        // The body is now plain bytes (req.body, a Buffer, for the local schema's fast path), so it
        // no longer names an encoding; bodyAsStream hands it to the gateway.
        req.headers['content-length'] = String(req.body.length);
        delete req.headers['content-encoding'];
      }
      next();
    });
  };
}

/**
 * The body read above, as the stream the gateway (a Yoga server) reads: given as a Buffer, it would
 * be walked key by key. Mounted right before the gateway, after any handler that answers from the Buffer.
 */
export const bodyAsStream: RequestHandler = (req, _res, next) => {
  if (Buffer.isBuffer(req.body)) req.body = Readable.from([req.body], { objectMode: false });
  next();
};

function bodyRefusal(err: unknown, limit: number, configKey: string): AppError {
  const type = (err as { type?: string }).type;
  if (type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${limit} bytes (${configKey})`);
  if (type === 'encoding.unsupported') return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Encoding of the request body');
  return AppError.badRequest('The request body could not be read');
}
