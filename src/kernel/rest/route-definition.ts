/**
 * The contract of a REST row: each module declares its documented paths as rows of this shape (its
 * `<subject>.routes.ts`), and the REST router (src/api/rest/rest-router.ts) serves their concatenation.
 * Handlers are adapters of a line or two; what they call is what the GraphQL resolvers call.
 * `surface` says which credentials the path's API recognises (401 for others, before the handler);
 * what each operation then needs is the access table (access-policy.ts).
 */
import type { z } from 'zod';
import type { ServiceContext } from '../context.js';
import type { Readable } from 'node:stream';
import type { Operation, Surface } from '../access-policy.js';
import type { CheckedLater, JsonSchema } from '../validation.js';

export const BASES = {
  marketplaceV1: '/api/marketplace/v1',
  marketplaceV2: '/api/marketplace/v2',
  businessV1: '/api/business/v1',
  platform: '/api/platform/v1',
  lenderApi: '/api/platform/v1/funding',
} as const;

/**
 * Spec 4.5 note 4: the interface listing gives the Marketplace V2 base for the Lender Application
 * API's paths, the guidance {platform_base}/funding. Both answer: a row declares its path at the
 * first base, and is served (and documented, its operation id suffixed) at the second as well.
 */
export const ALTERNATE_BASES: ReadonlyArray<{ base: string; alternate: string; operationSuffix: string }> = [
  { base: BASES.lenderApi, alternate: BASES.marketplaceV2, operationSuffix: '_marketplaceV2' },
];

/** Where a row answers: its own path, then the same path at each alternate base of its base. */
export function servedPaths(route: Pick<RouteDefinition, 'path' | 'operationId'>): Array<{ path: string; operationId: string }> {
  const alternates = ALTERNATE_BASES.filter(({ base }) => route.path.startsWith(`${base}/`)).map(({ base, alternate, operationSuffix }) => ({
    path: `${alternate}${route.path.slice(base.length)}`,
    operationId: `${route.operationId}${operationSuffix}`,
  }));
  return [{ path: route.path, operationId: route.operationId }, ...alternates];
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** Client address (for login throttling). */
  ip: string;
  /** Path and query as requested, for pagination links. */
  originalUrl: string;
  /** The uploaded file of a multipart route (`upload: 'file'`). */
  file?: UploadedFile;
  /** What the route's `authorizeUpload` returned, before the body was read. */
  uploadTarget?: unknown;
}

export interface RouteDefinition {
  method: HttpMethod;
  /** Express path with :params, including its base. */
  path: string;
  operationId: string;
  /** What the operation does, in a line, for the integrator or lender reading the reference. */
  summary: string;
  /**
   * The rest of what a client needs (Markdown): what it does and answers, notable errors, how it
   * differs from the live platform. Who may call it is added from `access` (the access table).
   */
  description: string;
  /** The access table's row the operation decides by (access-policy.ts): the reference names its token kinds and scopes. */
  access?: Operation;
  /**
   * The example request of the reference, sent as it is by test/openapi-examples.test.ts to a
   * started server (path parameters aside, which name objects that test creates): its answer, and
   * the recorded example answer (src/api/rest/openapi-examples.json), must fit `response`.
   */
  example?: RequestExample;
  successStatus: number;
  /** The API whose bearer tokens this path takes; `public` paths authenticate by other means. */
  surface: Surface | 'public';
  /** multipart/form-data with one file in the field "file". */
  upload?: 'file';
  /**
   * Required with `upload`: the operation's access decision and the target's visibility, from the
   * headers and path alone, run before any byte of the body is read (its result reaches `handle`
   * as `req.uploadTarget`).
   */
  authorizeUpload?(ctx: ServiceContext, req: RestRequest): Promise<unknown>;
  /**
   * The schemas the operation validates its input with and shapes its answer by: the OpenAPI
   * document (openapi-document.ts) is generated from them, so it cannot drift from the code.
   */
  query?: z.ZodType;
  /**
   * Who checks the body and query against this row's schemas (rest-router.ts):
   * - `router` (set by `route()`): before `handle`, so the operation takes typed input;
   * - `operation` (set by `routeCheckedInOperation()`): the router hands them over as `CheckedLater`
   *   values, which the operation checks after finding the object it acts on (a foreign object is
   *   a 404 whatever the body).
   * A row without it receives them raw, for an operation that validates its own (the JSON Schema
   * answer variants).
   */
  inputCheckedBy?: 'router' | 'operation';
  /** Request headers the operation reads (credentials aside), documented as header parameters. */
  headers?: Array<{ name: string; description: string; schema: z.ZodType }>;
  body?: z.ZodType;
  /** A body validated by a JSON Schema rather than zod (the answer variants). */
  jsonSchemaBody?: () => JsonSchema;
  /** The JSON answer's schema (the operation's result schema, in its REST form); required of a JSON-answering row. */
  response?: z.ZodType;
  /** The answer is a file (FileDownload) of one of these content types, not JSON. */
  download?: readonly string[];
  /** The route may answer 302 (Redirect). */
  redirects?: true;
  /**
   * A GET that records something (reads never write otherwise): what it records and when, shown in
   * the OpenAPI operation (`x-records` and its description). test/access-table.test.ts holds every
   * other GET to writing nothing.
   */
  records?: { what: string; description: string };
  handle(ctx: ServiceContext, req: RestRequest): Promise<unknown>;
}

/** An example request: realistic UK SME data, consistent with the specification. */
interface RequestExample {
  /** What the example shows, when more than the operation's summary. */
  summary?: string;
  /** Path parameters whose value the example decides (the others name objects the test creates). */
  params?: Record<string, string>;
  query?: Record<string, string | string[] | number | boolean>;
  headers?: Record<string, string>;
  body?: unknown;
}

type Parsed<S, Otherwise> = [S] extends [never] ? Otherwise : S extends z.ZodType ? z.output<S> : Otherwise;

/** A row whose handler is typed by its schemas: the input it is handed (`Input`), the answer its response. */
export interface TypedRoute<B extends z.ZodType, Q extends z.ZodType, R extends z.ZodType, Input extends { body: unknown; query: unknown }> extends Omit<
  RouteDefinition,
  'body' | 'query' | 'response' | 'handle' | 'inputCheckedBy'
> {
  body?: B;
  query?: Q;
  response?: R;
  handle(ctx: ServiceContext, req: Omit<RestRequest, 'body' | 'query'> & Input): Promise<Parsed<R, unknown> | Redirect | FileDownload | void>;
}

type ParsedInput<B, Q> = { body: Parsed<B, unknown>; query: Parsed<Q, Record<string, unknown>> };
type InputCheckedLater<B, Q> = { body: CheckedLater<Parsed<B, unknown>>; query: CheckedLater<Parsed<Q, Record<string, unknown>>> };

/**
 * A row, its handler typed by the row's own schemas: the router (rest-router.ts) parses the body and
 * query with them before `handle`, and the compiler holds the handler's answer to `response`.
 */
export function route<B extends z.ZodType = never, Q extends z.ZodType = never, R extends z.ZodType = never>(
  row: TypedRoute<B, Q, R, ParsedInput<B, Q>>,
): RouteDefinition {
  return { ...(row as unknown as RouteDefinition), inputCheckedBy: 'router' };
}

/**
 * A row of an operation that acts on an object named by the path or a header: the router checks
 * nothing of the body and query itself but hands them, with the row's schemas, to the operation,
 * which checks them once it has found the object among what the caller may see.
 */
export function routeCheckedInOperation<B extends z.ZodType = never, Q extends z.ZodType = never, R extends z.ZodType = never>(
  row: TypedRoute<B, Q, R, InputCheckedLater<B, Q>>,
): RouteDefinition {
  return { ...(row as unknown as RouteDefinition), inputCheckedBy: 'operation' };
}

/** A handler's answer that is a redirect (302) rather than a body. */
export class Redirect {
  constructor(readonly location: string) {}
}

/** An upload as the router hands it to a row: spooled to a file while the request lasts. */
interface UploadedFile {
  fileName: string;
  contentType: string;
  content: { path: string; size: number };
}

/** A file a row answers with, streamed as it is read. */
export interface DownloadableFile {
  fileName: string;
  contentType: string;
  sizeBytes: number;
  content: Readable;
  /** Hex SHA-256 of the content, sent as the Digest header. */
  sha256: string;
}

/** A handler's answer that is a file, streamed with its type and name. */
export class FileDownload {
  constructor(readonly file: DownloadableFile) {}
}

/** The first value of a request header. */
export function header(req: Pick<RestRequest, 'headers'>, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
