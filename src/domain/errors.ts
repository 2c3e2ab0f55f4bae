/**
 * The one error vocabulary of the domain. Services throw AppError; the two edge mappers
 * (rest-adapter/problem-details.ts and subgraphs/shared/graphql-errors.ts) translate it.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'UNPROCESSABLE'
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
}

export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNPROCESSABLE: 422,
  INTERNAL: 500,
};
