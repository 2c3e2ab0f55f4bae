import { describe, expect, it } from 'vitest';
import { AppError } from '../src/kernel/errors.js';
import { problemFor } from '../src/api/rest/problem-details.js';
import { toGraphQLError } from '../src/infra/graphql/graphql-errors.js';
import { createLogger, redactSecrets } from '../src/infra/logger.js';
import { constraintFailure } from '../src/infra/prisma-errors.js';

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
      type: '/docs/problems#INTERNAL',
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

  it('reads a constraint failure from a Prisma code, the driver adapter kind, or a raw SQLSTATE', () => {
    expect(constraintFailure({ code: 'P2002', meta: { target: ['referenceId'] } })).toEqual({ kind: 'unique', fields: ['referenceId'] });
    expect(
      constraintFailure({
        code: 'P2002',
        meta: { driverAdapterError: { cause: { kind: 'UniqueConstraintViolation', constraint: { fields: ['"reference"'] } } } },
      }),
    ).toEqual({ kind: 'unique', fields: ['"reference"'] });
    expect(constraintFailure({ code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'postgres', code: '23503' } } } })).toEqual({ kind: 'foreignKey' });
    expect(constraintFailure({ code: '40001' })).toEqual({ kind: 'writeConflict' });
    expect(constraintFailure(secret)).toBeNull();
    expect(problemFor({ code: 'P2002', meta: { target: ['"reference"'] } })).toMatchObject({
      status: 409,
      errors: [{ pointer: '/reference', message: 'must be unique' }],
    });
    expect(problemFor({ code: 'P2000' })).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(toGraphQLError({ code: 'P2034' }, { logger }).extensions).toMatchObject({ code: 'CONFLICT', status: 409 });
  });

  it('redacts API keys from a logged path (the Marketplace V1 move target)', () => {
    expect(redactSecrets('/api/marketplace/v1/profiles/0b7c/move/fgk_demo_key_0123456789ab_s3cr3t-Tok_en')).toBe(
      '/api/marketplace/v1/profiles/0b7c/move/fgk_[redacted]',
    );
    expect(redactSecrets('/api/marketplace/v1/profiles/0b7c/move/key_0123456789ab')).toBe('/api/marketplace/v1/profiles/0b7c/move/key_0123456789ab');
  });
});
