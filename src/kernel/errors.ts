/**
 * The one error vocabulary of the domain. Services throw AppError; the two edge mappers
 * (src/api/rest/problem-details.ts and src/infra/graphql/graphql-errors.ts) translate it.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNPROCESSABLE'
  | 'TOO_MANY_REQUESTS'
  | 'INTERNAL';

/** One failing input field, located by an RFC 6901 JSON pointer into the request body. */
export interface FieldError {
  pointer: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields: FieldError[] = [],
    /** Safe extra facts for the client (e.g. retryAfterSeconds); never secrets. */
    readonly details: { retryAfterSeconds?: number; allow?: string[] } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  static notFound(what: string): AppError {
    return new AppError('NOT_FOUND', `${what} was not found`);
  }

  static conflict(message: string, fields: FieldError[] = []): AppError {
    return new AppError('CONFLICT', message, fields);
  }

  static badRequest(message: string, fields: FieldError[] = []): AppError {
    return new AppError('BAD_REQUEST', message, fields);
  }

  static unauthenticated(message: string): AppError {
    return new AppError('UNAUTHENTICATED', message);
  }

  static forbidden(message: string): AppError {
    return new AppError('FORBIDDEN', message);
  }

  static unprocessable(message: string, fields: FieldError[] = []): AppError {
    return new AppError('UNPROCESSABLE', message, fields);
  }
}

export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
};
