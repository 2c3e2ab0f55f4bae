/**
 * The HTTP error mapper: every failure leaves as RFC 9457 problem details
 * (application/problem+json) with the domain code and the failing fields as JSON pointers.
 * A database constraint no service anticipated is the client error it stands for (constraintError);
 * bugs become a 500 that carries no message or stack.
 */
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { AppError, HTTP_STATUS_BY_CODE, type ErrorCode, type FieldError } from '../../kernel/errors.js';
import { constraintError } from '../../infra/prisma-errors.js';

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldError[];
  retryAfterSeconds?: number;
  /** The request's id (urn:request:<X-Request-Id>), to find its log lines. */
  instance?: string;
}

/** The same shape as a schema, for the OpenAPI document. */
export const ProblemDetailsSchema = z
  .strictObject({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(Object.keys(HTTP_STATUS_BY_CODE) as [ErrorCode, ...ErrorCode[]]),
    errors: z.array(z.strictObject({ pointer: z.string(), message: z.string() })).optional(),
    retryAfterSeconds: z.number().optional(),
    instance: z.string().optional(),
  })
  .meta({ id: 'ProblemDetails', description: 'RFC 9457 problem details' });

/** `requestId`: the id of the request that failed, given as the problem's `instance`. */
export function problemFor(err: unknown, requestId?: string): ProblemDetails {
  const appError = err instanceof AppError ? err : (constraintError(err) ?? new AppError('INTERNAL', 'An unexpected error occurred'));
  const status = HTTP_STATUS_BY_CODE[appError.code];
  const problem: ProblemDetails = {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail: appError.message,
    code: appError.code,
  };
  if (appError.fields.length > 0) problem.errors = appError.fields;
  if (appError.details.retryAfterSeconds !== undefined) problem.retryAfterSeconds = appError.details.retryAfterSeconds;
  if (requestId) problem.instance = `urn:request:${requestId}`;
  return problem;
}
