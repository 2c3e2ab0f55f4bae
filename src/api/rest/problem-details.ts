/**
 * The HTTP error mapper: every failure leaves as RFC 9457 problem details
 * (application/problem+json) with the domain code and the failing fields as JSON pointers.
 * A database constraint no service anticipated is the client error it stands for (constraintError);
 * bugs become a 500 that carries no message or stack.
 *
 * Each problem's `type` is a root-relative URI, `/docs/problems#<code>`: the problems page this
 * server serves (problems-page.ts) describes every code there, generated from the error vocabulary
 * (src/kernel/errors.ts). Root-relative rather than absolute, because the mapper does not know the
 * deployment's host and a client resolves it against the URL it called (RFC 3986, as RFC 9457 says).
 */
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { AppError, ERROR_CODES, HTTP_STATUS_BY_CODE, type ErrorCode, type FieldError } from '../../kernel/errors.js';
import { databaseError } from '../../infra/prisma-errors.js';

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

/** Where the problems page is served; a problem's `type` is this path and its code as the fragment. */
export const PROBLEMS_PAGE_PATH = '/docs/problems';

const problemTypeUri = (code: ErrorCode): string => `${PROBLEMS_PAGE_PATH}#${code}`;

/** The same shape as a schema, for the OpenAPI document. */
export const ProblemDetailsSchema = z
  .strictObject({
    type: z
      .string()
      .regex(/^\/docs\/problems#[A-Z_]+$/)
      .describe(`A root-relative URI of the page describing this problem's code: ${PROBLEMS_PAGE_PATH}#<code> (status, meaning, what to do)`),
    title: z.string().describe('The HTTP status phrase'),
    status: z.number().int().describe('The HTTP status'),
    detail: z.string().describe('What went wrong with this request, for a developer'),
    code: z.enum(ERROR_CODES).describe(`The error code; ${PROBLEMS_PAGE_PATH} describes each`),
    errors: z
      .array(z.strictObject({ pointer: z.string().describe('JSON pointer into the body, or `path:`, `query:`, `header:` and the name'), message: z.string() }))
      .optional()
      .describe('Each failing field'),
    retryAfterSeconds: z.number().optional().describe('With 429: seconds to wait (also the Retry-After header)'),
    instance: z.string().optional().describe("urn:request:<X-Request-Id>: the request's id, to find its log lines"),
  })
  .meta({
    id: 'ProblemDetails',
    description: `RFC 9457 problem details; \`type\` links to the code's entry on ${PROBLEMS_PAGE_PATH}`,
    examples: [
      {
        type: '/docs/problems#BAD_REQUEST',
        title: 'Bad Request',
        status: 400,
        detail: 'Request body is invalid',
        code: 'BAD_REQUEST',
        errors: [{ pointer: '/referenceId', message: 'Too small: expected string to have >=1 characters' }],
        instance: 'urn:request:9f1c2b7e-4d1a-4c55-9a0e-6b2f3c8d1e47',
      },
    ],
  });

/** `requestId`: the id of the request that failed, given as the problem's `instance`. */
export function problemFor(err: unknown, requestId?: string): ProblemDetails {
  const appError = err instanceof AppError ? err : (databaseError(err) ?? new AppError('INTERNAL', 'An unexpected error occurred'));
  const status = HTTP_STATUS_BY_CODE[appError.code];
  const problem: ProblemDetails = {
    type: problemTypeUri(appError.code),
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
