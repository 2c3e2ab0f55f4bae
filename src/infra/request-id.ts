/**
 * Request ids: each HTTP request carries one (the caller's `X-Request-Id` when it is a sane token,
 * else a new UUID), returned in the response, written on its access log line, put in problem
 * details, forwarded to the subgraphs, and stored with the webhook deliveries the request
 * queues. The id travels explicitly: in the request's headers (so every ServiceContext built from
 * them has it, ctx.requestId) and the response's; AsyncLocalStorage would do it implicitly, but on
 * Node 20 it taxes every promise of the process.
 */
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What we accept from a caller: short, printable, no separators that could split a log line. */
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function acceptedRequestId(given: string | string[] | undefined): string {
  const value = Array.isArray(given) ? given[0] : given;
  return value && ACCEPTABLE_ID.test(value) ? value : randomUUID();
}

/** The request id of a request's headers (Node's record or Fetch Headers), once the middleware below has set it. */
export function requestIdOfHeaders(headers: Headers | Record<string, string | string[] | undefined>): string | undefined {
  const value = headers instanceof Headers ? headers.get(REQUEST_ID_HEADER) : headers[REQUEST_ID_HEADER];
  const id = Array.isArray(value) ? value[0] : value;
  return id ?? undefined;
}

/** The id of the request a response answers. */
export function requestIdOf(res: Response): string | undefined {
  return (res.locals as { requestId?: string }).requestId;
}

export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const id = acceptedRequestId(req.headers[REQUEST_ID_HEADER]);
  // Set on the request too: contexts are built from the headers, and the gateway forwards them to the subgraphs.
  req.headers[REQUEST_ID_HEADER] = id;
  res.setHeader('X-Request-Id', id);
  (res.locals as { requestId?: string }).requestId = id;
  next();
}
