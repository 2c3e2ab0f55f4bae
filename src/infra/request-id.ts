/**
 * Request ids: each HTTP request carries one (the caller's `X-Request-Id` when it is a sane token,
 * else a new UUID), returned in the response, bound to every log line written while the request is
 * handled (AsyncLocalStorage, read by the logger's mixin), put in problem details, forwarded to the
 * subgraphs, and carried by the jobs (webhook deliveries) the request enqueues.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What we accept from a caller: short, printable, no separators that could split a log line. */
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const requestIds = new AsyncLocalStorage<string>();

export function currentRequestId(): string | undefined {
  return requestIds.getStore();
}

/** Runs `work` with `requestId` bound (a worker taking a job enqueued during a request). */
export function withRequestId<T>(requestId: string | undefined, work: () => T): T {
  return requestId ? requestIds.run(requestId, work) : work();
}

export function acceptedRequestId(given: string | string[] | undefined): string {
  const value = Array.isArray(given) ? given[0] : given;
  return value && ACCEPTABLE_ID.test(value) ? value : randomUUID();
}

export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const id = acceptedRequestId(req.headers[REQUEST_ID_HEADER]);
  // Set on the request too, so the gateway forwards it to the subgraphs with the credentials.
  req.headers[REQUEST_ID_HEADER] = id;
  res.setHeader('X-Request-Id', id);
  requestIds.run(id, next);
}
