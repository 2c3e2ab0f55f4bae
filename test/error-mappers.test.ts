import { describe, expect, it } from 'vitest';
import { AppError } from '../src/domain/errors.js';
import { problemFor } from '../rest-adapter/problem-details.js';
import { toGraphQLError } from '../subgraphs/shared/graphql-errors.js';
import { createLogger } from '../src/infra/logger.js';

const secret = new Error('connection to db-internal:5432 failed for user app password=hunter2');
const logger = createLogger('silent');

describe('error mappers', () => {
  it('maps every AppError code to its HTTP status', () => {
    const expected = { BAD_REQUEST: 400, UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409, UNPROCESSABLE: 422, INTERNAL: 500 } as const;
    for (const [code, status] of Object.entries(expected)) {
      const problem = problemFor(new AppError(code as keyof typeof expected, 'm'));
      expect(problem.status).toBe(status);
      expect(problem.code).toBe(code);
    }
  });

  it('turns a bug into a 500 problem that leaks nothing of the original error', () => {
    const problem = problemFor(secret);
    expect(problem).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'An unexpected error occurred',
      code: 'INTERNAL',
    });
    expect(JSON.stringify(problem)).not.toContain('hunter2');
  });

  it('maps AppError to GraphQL extensions and hides bugs', () => {
    const mapped = toGraphQLError(AppError.badRequest('bad', [{ pointer: '/a', message: 'wrong' }]), { logger });
    expect(mapped.message).toBe('bad');
    expect(mapped.extensions).toEqual({ code: 'BAD_REQUEST', status: 400, fields: [{ pointer: '/a', message: 'wrong' }] });
    const hidden = toGraphQLError(secret, { logger });
    expect(hidden.message).toBe('Internal server error');
    expect(hidden.extensions).toEqual({ code: 'INTERNAL', status: 500 });
    expect(JSON.stringify(hidden)).not.toContain('hunter2');
  });
});
