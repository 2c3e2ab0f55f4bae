/**
 * The HTTP error mapper: every failure leaves as RFC 9457 problem details
 * (application/problem+json) with the domain code and the failing fields as JSON pointers.
 * A database constraint no service anticipated is the client error it stands for (constraintError);
 * bugs become a 500 that carries no message or stack.
 */
import { STATUS_CODES } from 'node:http';
import { AppError, HTTP_STATUS_BY_CODE, type ErrorCode, type FieldError } from '../src/domain/errors.js';
import { constraintError } from '../src/infra/prisma-errors.js';

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldError[];
  retryAfterSeconds?: number;
}

export function problemFor(err: unknown): ProblemDetails {
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
  return problem;
}
