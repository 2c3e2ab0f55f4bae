/**
 * Recognising database constraint failures, so services can turn the ones they expect into
 * precise domain errors, and the edge mappers every other one into a client error instead of a 500.
 * Prisma reports them as P20xx codes, through the pg driver adapter as a `kind`, and from raw
 * queries as PostgreSQL SQLSTATEs: all three are read.
 */
import { AppError } from '../kernel/errors.js';

export type ConstraintFailure =
  | { kind: 'unique'; fields: string[] }
  | { kind: 'foreignKey' }
  | { kind: 'notNull'; fields: string[] }
  | { kind: 'invalidValue' }
  | { kind: 'notAnId' }
  | { kind: 'check' }
  | { kind: 'notFound' }
  | { kind: 'writeConflict' };

interface DriverFailure {
  kind?: string;
  code?: string;
  message?: string;
  constraint?: { fields?: string[] };
}

interface PrismaLikeError {
  name?: unknown;
  code?: unknown;
  /** A DriverAdapterError that Prisma passed on unwrapped (e.g. from a read): the driver's failure itself. */
  message?: unknown;
  cause?: DriverFailure;
  meta?: {
    target?: unknown;
    driverAdapterError?: { cause?: DriverFailure };
  };
}

const INVALID_TEXT_REPRESENTATION = '22P02';

const SQLSTATE: Record<string, ConstraintFailure['kind']> = {
  '23505': 'unique',
  '23503': 'foreignKey',
  '23502': 'notNull',
  '23514': 'check',
  '22001': 'invalidValue',
  '22003': 'invalidValue',
  // Text PostgreSQL cannot store (U+0000 in text, \u0000 in jsonb): the input's fault, not the server's.
  '22021': 'invalidValue',
  '22P05': 'invalidValue',
  '40001': 'writeConflict',
  '40P01': 'writeConflict',
};

const PRISMA_CODE: Record<string, ConstraintFailure['kind']> = {
  P2002: 'unique',
  P2003: 'foreignKey',
  P2014: 'foreignKey',
  P2011: 'notNull',
  P2000: 'invalidValue',
  P2020: 'invalidValue',
  P2004: 'check',
  P2025: 'notFound',
  P2034: 'writeConflict',
};

const ADAPTER_KIND: Record<string, ConstraintFailure['kind']> = {
  UniqueConstraintViolation: 'unique',
  ForeignKeyConstraintViolation: 'foreignKey',
  RestrictViolation: 'foreignKey',
  NullConstraintViolation: 'notNull',
  LengthMismatch: 'invalidValue',
  ValueOutOfRange: 'invalidValue',
  TransactionWriteConflict: 'writeConflict',
};

export function constraintFailure(err: unknown): ConstraintFailure | null {
  if (typeof err !== 'object' || err === null) return null;
  const e = err as PrismaLikeError;
  const cause = e.meta?.driverAdapterError?.cause ?? (e.name === 'DriverAdapterError' ? e.cause : undefined);
  // A uuid column asked for a value that is no UUID (an id from a path or an argument, passed on as
  // it came): wherever a query meets it, it names no object.
  const sqlState = cause?.kind === 'postgres' ? cause.code : e.code;
  const message = cause?.message ?? (typeof e.message === 'string' ? e.message : '');
  if (sqlState === INVALID_TEXT_REPRESENTATION && /for type uuid\b/.test(message)) return { kind: 'notAnId' };
  const kind =
    (typeof e.code === 'string' ? (PRISMA_CODE[e.code] ?? SQLSTATE[e.code]) : undefined) ??
    (cause?.kind === 'postgres' && cause.code ? SQLSTATE[cause.code] : cause?.kind ? ADAPTER_KIND[cause.kind] : undefined);
  if (!kind) return null;
  const fields = cause?.constraint?.fields ?? (Array.isArray(e.meta?.target) ? (e.meta.target as string[]) : []);
  if (kind === 'unique' || kind === 'notNull') return { kind, fields };
  return { kind } as ConstraintFailure;
}

export function isUniqueViolation(err: unknown): boolean {
  return constraintFailure(err)?.kind === 'unique';
}

const pointers = (fields: string[]) => fields.map((f) => ({ pointer: `/${f.replace(/^"|"$/g, '')}`, message: 'must be unique' }));

/**
 * A constraint no service anticipated, as the client error it is (never a 500): a duplicate or a
 * concurrent change is a 409, a value the column cannot hold a 400, a row gone meanwhile a 404, and
 * so is an id that is not a UUID (the mechanism that keeps every uuid id of every operation, REST or
 * GraphQL, from answering 500: test/malformed-ids.test.ts sends one to each).
 */
export function constraintError(err: unknown): AppError | null {
  const failure = constraintFailure(err);
  switch (failure?.kind) {
    case undefined:
      return null;
    case 'unique':
      return AppError.conflict('A record with the same values already exists', pointers(failure.fields));
    case 'foreignKey':
      return AppError.conflict('The change refers to a record that does not exist, or removes one that is still referred to');
    case 'notNull':
      return AppError.badRequest('A required value is missing', failure.fields.map((f) => ({ pointer: `/${f}`, message: 'is required' })));
    case 'invalidValue':
      return AppError.badRequest('A value is too long or out of range for what can be stored');
    case 'check':
      return AppError.unprocessable('The change breaks a rule of the stored data');
    case 'notFound':
      return AppError.notFound('The record');
    case 'notAnId':
      return new AppError('NOT_FOUND', 'No such object: an id in the request is not a UUID, so it names none');
    case 'writeConflict':
      return AppError.conflict('The record changed at the same time; retry');
  }
}
