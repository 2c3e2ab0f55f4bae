/** Turns the route table into an Express router, with JSON parsing and problem-details errors. */
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError, type FieldError } from '../../kernel/errors.js';
import { checkLater, parseInput } from '../../kernel/validation.js';
import { inspectJson, unstorableTextProblem, unstorableTextRefusal, type JsonInspection } from '../../kernel/json-inspection.js';
import { requireSurface } from '../../kernel/access-policy.js';
import { redactSecrets, type Logger } from '../../infra/logger.js';
import { databaseError } from '../../infra/prisma-errors.js';
import { problemFor } from './problem-details.js';
import { MAX_DOCUMENT_BYTES } from '../../modules/documents/document-service.js';
import { MULTIPART_OVERHEAD_BYTES, receiveFile, removeStaleSpoolFiles, UploadAbandoned, uploadTooLarge, type ReceivedFile } from './multipart-upload.js';
import { FileDownload, Redirect, ROUTES, servedRoutes, type RestRequest, type RouteDefinition } from './route-table.js';
import { requestIdOf } from '../../infra/request-id.js';
import { keepProblem } from '../http/access-log.js';

export interface RestRouterOptions {
  /** Builds the ServiceContext of one request (identity arrives through its headers). */
  contextFor(req: Request): Promise<ServiceContext>;
  logger: Logger;
  routes?: RouteDefinition[];
  /** Where multipart uploads are spooled while their request is read (config UPLOAD_SPOOL_DIR). */
  uploadSpoolDirectory: string;
}

export function sendProblem(res: Response, err: unknown): void {
  const problem = problemFor(err, requestIdOf(res));
  if (err instanceof AppError && err.details.allow) res.setHeader('Allow', err.details.allow.join(', '));
  if (problem.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(problem.retryAfterSeconds));
  if (problem.status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
  keepProblem(res, problem);
  res.status(problem.status).type('application/problem+json').json(problem);
}

/**
 * The REST router for requests under /api only (every REST path is there), mounted right after the
 * protections: an API request reaches its route without walking the health, docs, gateway and page
 * layers mounted after it, and other requests skip the REST routes. Case-insensitive, as Express routes.
 */
export function apiRequestsOnly(router: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const path = req.path;
    const underApi = path.length >= 4 && path.slice(0, 4).toLowerCase() === '/api' && (path.length === 4 || path[4] === '/');
    if (underApi) router(req, res, next);
    else next();
  };
}

export function createRestRouter(options: RestRouterOptions): Router {
  const router = express.Router();
  router.use(express.json({ limit: '1mb', type: JSON_TYPES }), inspectJsonBody);
  removeStaleSpoolFiles(options.uploadSpoolDirectory, STALE_SPOOL_FILE_MS).then(
    (removed) =>
      removed > 0 && options.logger.warn({ removed, directory: options.uploadSpoolDirectory }, 'removed upload spool files left by an earlier process'),
    (err) => options.logger.warn({ err, directory: options.uploadSpoolDirectory }, 'could not clean the upload spool directory'),
  );
  async function respond(route: RouteDefinition, req: Request, res: Response): Promise<void> {
    const ctx = await options.contextFor(req);
    if (route.surface !== 'public') requireSurface(ctx.actor, route.surface);
    refuseUnstorableText(req);
    if (route.upload !== 'file') return send(route, res, await route.handle(ctx, parsedRequest(route, req)));
    // Who may upload, and to what, is decided from the headers and the path alone: a caller refused
    // here has no byte of its body parsed or written anywhere.
    const target = await route.authorizeUpload!(ctx, toRestRequest(req));
    refuseUnreadableUpload(req);
    // Spooled to a file (removed when the request ends, whatever the outcome) and streamed into the
    // database from there: never whole in memory, and no transaction waits on a slow client.
    let file: ReceivedFile | undefined;
    let result: unknown;
    try {
      if (hasBody(req)) file = await receiveFile(req, { field: 'file', maxBytes: MAX_DOCUMENT_BYTES, directory: options.uploadSpoolDirectory });
      const uploaded = file && { fileName: file.fileName, contentType: file.contentType, content: { path: file.path, size: file.size } };
      result = await route.handle(ctx, { ...toRestRequest(req), uploadTarget: target, ...(uploaded ? { file: uploaded } : {}) });
    } finally {
      // Before answering, so that an answered upload never has a file left on disk.
      if (file) await rm(file.path, { force: true });
    }
    await send(route, res, result);
  }
  const served = servedRoutes(options.routes ?? ROUTES);
  for (const { route, path } of served) {
    if (route.upload === 'file' && !route.authorizeUpload)
      throw new Error(`${route.operationId}: an upload route must authorise before its body is read (authorizeUpload)`);
    const checks = route.upload === 'file' ? [] : [requireJsonBody];
    router[route.method](path, ...checks, (req: Request, res: Response) => respond(route, req, res));
  }
  const routes = served.map(({ route, path }) => ({ method: route.method.toUpperCase(), pattern: pathPattern(path) }));
  router.use('/api', (req, res) => {
    // A known path asked with another method is a 405 naming the methods it has, not a 404.
    const path = `/api${req.path}`.replace(/\/+$/, '') || '/';
    const allow = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allow.length > 0) {
      if (allow.includes('GET')) allow.push('HEAD');
      return sendProblem(res, new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use ${allow.join(', ')}`, [], { allow }));
    }
    sendProblem(res, NO_SUCH_ENDPOINT());
  });
  router.use(errorHandler(options.logger));
  return router;
}

function send(route: RouteDefinition, res: Response, result: unknown): void | Promise<void> {
  // No body: the document declares a 302 without content (Express's redirect() would add a text one).
  if (result instanceof Redirect) return void res.status(302).location(result.location).end();
  if (result instanceof FileDownload) {
    // RFC 6266 through Express (content-disposition): an ASCII fallback and filename*=UTF-8''…,
    // from a name without control characters, so no header can be split or spoofed.
    res.attachment(result.file.fileName.replace(/[\u0000-\u001f\u007f]/g, '_'));
    res.setHeader('Digest', `sha-256=${Buffer.from(result.file.sha256, 'hex').toString('base64')}`);
    res.status(200).type(result.file.contentType).setHeader('Content-Length', String(result.file.sizeBytes));
    return pipeline(result.file.content, res);
  }
  if (route.successStatus === 204 || result === undefined) res.status(route.successStatus).end();
  else res.status(route.successStatus).json(result);
}

const hasBody = (req: Request) => Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;

/** Refusals an upload gets from its headers, before its body is read: not multipart (415), or declared too large (413). */
function refuseUnreadableUpload(req: Request): void {
  if (!hasBody(req)) return;
  if (!req.is('multipart/form-data')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `The request body must be multipart/form-data, not ${req.headers['content-type'] ?? 'untyped'}`, [
      { pointer: 'header:content-type', message: 'must be multipart/form-data' },
    ]);
  }
  if (Number(req.headers['content-length'] ?? 0) > MAX_DOCUMENT_BYTES + MULTIPART_OVERHEAD_BYTES) throw uploadTooLarge(MAX_DOCUMENT_BYTES);
}

const JSON_TYPES = ['application/json', 'application/*+json'];
/** A spool file this old belongs to no running request (Node's server requestTimeout is 5 minutes). */
const STALE_SPOOL_FILE_MS = 60 * 60 * 1000;

export const NO_SUCH_ENDPOINT = () => new AppError('NOT_FOUND', 'No such endpoint');

function pathPattern(expressPath: string): RegExp {
  const escaped = expressPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

/**
 * A body in another format than JSON (e.g. JSON sent as text/plain) is a 415 before anything runs,
 * rather than reaching the operation as an empty body (upload routes check theirs once authorised).
 */
function requireJsonBody(req: Request, res: Response, next: () => void): void {
  if (!hasBody(req) || req.is(JSON_TYPES)) return next();
  sendProblem(
    res,
    new AppError('UNSUPPORTED_MEDIA_TYPE', `The request body must be ${JSON_TYPES.join(' or ')}, not ${req.headers['content-type'] ?? 'untyped'}`, [
      { pointer: 'header:content-type', message: `must be ${JSON_TYPES.join(' or ')}` },
    ]),
  );
}

/**
 * The JSON body's shape, looked at as soon as it is parsed and before anything else walks it (the
 * caller is not yet known): a body nesting too deep or too large is refused here. Where it holds
 * text PostgreSQL cannot store is kept for refuseUnstorableText, which refuses it once the caller
 * has passed the surface check.
 */
const bodyInspections = new WeakMap<Request, JsonInspection>();

function inspectJsonBody(req: Request, _res: Response, next: (err?: unknown) => void): void {
  if (req.body !== undefined) bodyInspections.set(req, inspectJson(req.body));
  next();
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000 or a lone surrogate: input carrying one (in a path
 * segment, a query parameter, a JSON key or string) is a 400 naming where, rather than a database
 * failure (a 500).
 */
function refuseUnstorableText(req: Request): void {
  const found: FieldError[] = [...(bodyInspections.get(req)?.unstorableText ?? [])];
  for (const [name, value] of Object.entries(req.params ?? {})) {
    const problem = typeof value === 'string' ? unstorableTextProblem(value) : undefined;
    if (problem) found.push({ pointer: `path:${name}`, message: problem });
  }
  for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    const problem = unstorableTextProblem(name);
    if (problem) found.push({ pointer: 'query:', message: `a parameter name ${problem}` });
    else found.push(...inspectJson(value, `query:${name}`, `The query parameter ${name}`).unstorableText);
  }
  if (found.length > 0) throw unstorableTextRefusal(found);
}

/**
 * The request with its body and query parsed by the row's own schemas (the objects the OpenAPI
 * document is generated from), so the handler receives typed values and the operation does not
 * parse a copy: a REST request is validated here once, a GraphQL one by its resolver with the same
 * schema object. Query schemas may also name path parameters (e.g. a search term): those are
 * parsed with the query, so one schema checks every input of the operation.
 *
 * This runs after the surface check (401) but before the operation's own access decision, so a
 * request that is both malformed and refused by a scope rule is answered 400, not 403: the rule
 * still decides before anything is read or written, and what is validated is public (/openapi.json).
 * Rows of operations that act on an object named by the path or a header (routeCheckedInOperation)
 * get their body and query as CheckedLater values instead, checked by the operation once it has
 * found the object among what the caller may see: a foreign object is a 404 whatever the body.
 */
function parsedRequest(route: RouteDefinition, req: Request): RestRequest {
  const request = toRestRequest(req);
  // Rows not made with route() belong to operations that still parse their own input: parsing it
  // here too would hand them parsed values to parse again.
  if (!route.inputCheckedBy) return request;
  // Checked now, or handed over to be checked once the operation has found its object.
  const check = route.inputCheckedBy === 'operation' ? checkLater : parseInput;
  if (route.query) {
    const shape = route.query instanceof z.ZodObject ? (route.query.shape as Record<string, unknown>) : {};
    const fromPath = Object.fromEntries(Object.entries(request.params).filter(([name]) => name in shape));
    request.query = check(route.query, { ...request.query, ...fromPath }, 'Query') as Record<string, unknown>;
  }
  // An absent body is an empty object: a body whose fields are all optional (POST /tenants) may be left out.
  if (route.body) request.body = check(route.body, request.body ?? {});
  return request;
}

function toRestRequest(req: Request): RestRequest {
  return {
    params: req.params as Record<string, string>,
    query: req.query as Record<string, unknown>,
    body: req.body,
    headers: req.headers,
    ip: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    originalUrl: req.originalUrl,
  };
}

function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const parseFailure = err as { type?: string; status?: number };
    if (parseFailure.type === 'entity.parse.failed') {
      return sendProblem(res, AppError.badRequest('Request body is not valid JSON', [{ pointer: '', message: 'malformed JSON' }]));
    }
    if (parseFailure.type === 'entity.too.large') {
      return sendProblem(res, new AppError('PAYLOAD_TOO_LARGE', 'Request body is larger than 1 MB'));
    }
    if (err instanceof UploadAbandoned) {
      // Nobody is left to answer; its spool file is already gone.
      logger.info({ requestId: requestIdOf(res), method: req.method, path: redactSecrets(req.path) }, err.message);
      return void req.socket.destroy();
    }
    if (!(err instanceof AppError)) {
      const fromDatabase = databaseError(err);
      if (fromDatabase)
        logger.warn(
          { err, requestId: requestIdOf(res), method: req.method, path: redactSecrets(req.path) },
          fromDatabase.code === 'SERVICE_UNAVAILABLE' ? 'the database was unavailable to a REST request' : 'a database constraint refused a REST request',
        );
      else logger.error({ err, requestId: requestIdOf(res), method: req.method, path: redactSecrets(req.path) }, 'unhandled error in REST route');
    }
    sendProblem(res, err);
  };
}
