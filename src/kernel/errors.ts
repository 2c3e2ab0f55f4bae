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
  | 'INTERNAL'
  | 'SERVICE_UNAVAILABLE';

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

/**
 * What each code means to a client: its HTTP status, what happened and what to do about it. The one
 * place these are written: the problem-details mapper takes the status from here, and the problems
 * page (GET /docs/problems, each problem's `type`) and docs/api.md's table are generated from it.
 */
export const ERROR_VOCABULARY: Record<ErrorCode, { status: number; meaning: string; whatToDo: string }> = {
  BAD_REQUEST: {
    status: 400,
    meaning:
      'The body, a query or path parameter, or a header breaks the schema: an additional property, a wrong type, an empty body where one is required, a value outside its enumeration, malformed JSON, a JSON body (or GraphQL variables) nesting deeper than 64 levels or holding more than 20,000 members, or text that is not storable (a NUL character U+0000, a lone UTF-16 surrogate) anywhere in the request.',
    whatToDo:
      'Read `errors`: each entry names a failing field by JSON pointer (`/referenceId`, `query:limit`, `path:uuid`, `header:content-type`) and says what it must be. Fix those fields and send again; the request changed nothing.',
  },
  UNAUTHENTICATED: {
    status: 401,
    meaning:
      'No credential, an expired, revoked or malformed one, or a token of a kind this API does not take (the answer carries `WWW-Authenticate: Bearer`).',
    whatToDo:
      "Send `Authorization: Bearer <token>` with a token this surface takes (the operation's security names it), or get a new one: refresh it, or exchange the API key again.",
  },
  FORBIDDEN: {
    status: 403,
    meaning:
      'The credential is valid but may not do this: its token kind or its scopes do not allow the operation, or it acts for another tenant (`Service-tenant-id`).',
    whatToDo:
      "Use a token of the kind and with the scope the operation's description names (an API key holding that scope, exchanged again), or the tenant the token belongs to.",
  },
  NOT_FOUND: {
    status: 404,
    meaning:
      'The resource does not exist, or the caller may not see it (another account, tenant or lender), or there is no such endpoint (`detail: "No such endpoint"`).',
    whatToDo: 'Check the id and the path, and that the credential belongs to the account, tenant or lender that owns the resource.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    meaning: 'The path exists, but not with this HTTP method.',
    whatToDo: 'Use one of the methods the `Allow` header lists.',
  },
  CONFLICT: {
    status: 409,
    meaning:
      'The request clashes with the current state: a duplicate (a referenceId, an API key name, an offer reference already used), a move its status does not allow (a second decision on an offer, a second profile set-up), or a concurrent change.',
    whatToDo:
      'Read the current state (GET the resource) and decide again: change the duplicate value, or act on what is there now. A concurrent change may simply be retried.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    meaning:
      'The body is over the limit: a JSON body over 1 MB, a GraphQL body over its limit, or an uploaded file over 10 MB. It was refused while being read; nothing was kept.',
    whatToDo: 'Send a smaller body or file (split a large upload into several documents).',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    meaning:
      'The body is not in a format the operation takes: JSON sent as `text/plain`, an upload that is not `multipart/form-data`, or a file whose content is not what its declared type says.',
    whatToDo:
      'Send `Content-Type: application/json` with a JSON body, or `multipart/form-data` with the file in the field `file` (PDF, PNG, JPEG, CSV, XLSX or DOCX).',
  },
  UNPROCESSABLE: {
    status: 422,
    meaning:
      'The request is well formed, but a business rule refuses it (for example a credit report for a company that is not a limited company, an API key whose expiry has passed, a lender that no longer matches).',
    whatToDo: '`detail` (and `errors`, when a field is at fault) says which rule; change the data the rule is about, then try again.',
  },
  TOO_MANY_REQUESTS: {
    status: 429,
    meaning: 'Too many requests from this address or credential, or too many failed sign-ins.',
    whatToDo: 'Wait the number of seconds in `Retry-After` (also `retryAfterSeconds` in the body) before trying again.',
  },
  INTERNAL: {
    status: 500,
    meaning: 'A fault on our side. It was logged; the answer carries no message or stack.',
    whatToDo: 'Try again later. If it persists, report it with the `instance` (urn:request:…) of the answer, which finds its log lines.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    meaning:
      'A dependency the request needs (the database) cannot be reached for a moment, for example while it restarts or fails over. The request was not carried out: a write was rolled back whole.',
    whatToDo: 'Wait the number of seconds in `Retry-After` (also `retryAfterSeconds` in the body) and send the same request again.',
  },
};

export const HTTP_STATUS_BY_CODE = Object.fromEntries(Object.entries(ERROR_VOCABULARY).map(([code, entry]) => [code, entry.status])) as Record<
  ErrorCode,
  number
>;

export const ERROR_CODES = Object.keys(ERROR_VOCABULARY) as [ErrorCode, ...ErrorCode[]];
