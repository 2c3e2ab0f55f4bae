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
      return AppError.badRequest(
        'A required value is missing',
        failure.fields.map((f) => ({ pointer: `/${f}`, message: 'is required' })),
      );
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

/**
 * How long a client is told to wait when the database cannot be reached: about what a restart or a
 * failover takes, after which the pool's next connection reaches the server again.
 */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** PostgreSQL's own words for a server going away or not yet taking sessions (classes 08 and 57P, and 53300). */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-3]$|53300$)/;
/** The Node socket errors of a server that is not there, or went away. */
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);
/** The driver adapter's kinds for the same. */
const UNAVAILABLE_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** pg's messages for a connection lost mid-query or a pool that could not connect in time (they carry no code). */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable/;

/**
 * Whether a failure is the database being unreachable (restarting, failing over, refusing
 * connections), rather than anything about the request: looked for in the error and the causes it
 * wraps (Prisma wraps the driver adapter's error, which wraps pg's).
 */
function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [err];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    const e = current as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    if (typeof e.code === 'string' && (UNAVAILABLE_SOCKET_CODES.has(e.code) || UNAVAILABLE_SQLSTATE.test(e.code))) return true;
    if (typeof e.kind === 'string' && UNAVAILABLE_ADAPTER_KINDS.has(e.kind)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
    pending.push(e.cause, e.meta?.driverAdapterError);
    if (current instanceof AggregateError) pending.push(...current.errors);
  }
  return false;
}

/**
 * A failure that is the database's, as the client error or the 503 it stands for: a constraint no
 * service anticipated (constraintError), or the database unreachable for a moment. Null for
 * anything else, which is a fault of ours.
 */
export function databaseError(err: unknown): AppError | null {
  const constraint = constraintError(err);
  if (constraint) return constraint;
  if (!isDatabaseUnavailable(err)) return null;
  return new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable for a moment; nothing was changed, retry', [], {
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  });
}
