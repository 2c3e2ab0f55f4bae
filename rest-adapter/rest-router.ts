/** Turns the route table into an Express router, with JSON parsing and problem-details errors. */
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import type { ServiceContext } from '../src/domain/context.js';
import { AppError } from '../src/domain/errors.js';
import { requireSurface } from '../src/domain/identity/access-policy.js';
import { redactSecrets, type Logger } from '../src/infra/logger.js';
import { constraintError } from '../src/infra/prisma-errors.js';
import { problemFor } from './problem-details.js';
import multer from 'multer';
import { MAX_DOCUMENT_BYTES } from '../src/domain/documents/document-service.js';
import { FileDownload, Redirect, ROUTES, type RestRequest, type RouteDefinition } from './route-table.js';

export interface RestRouterOptions {
  /** Builds the ServiceContext of one request (identity arrives through its headers). */
  contextFor(req: Request): Promise<ServiceContext>;
  logger: Logger;
  routes?: RouteDefinition[];
}

export function sendProblem(res: Response, err: unknown): void {
  const problem = problemFor(err);
  if (err instanceof AppError && err.details.allow) res.setHeader('Allow', err.details.allow.join(', '));
  if (problem.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(problem.retryAfterSeconds));
  if (problem.status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
  res.status(problem.status).type('application/problem+json').json(problem);
}

export function createRestRouter(options: RestRouterOptions): Router {
  const router = express.Router();
  router.use(express.json({ limit: '1mb', type: JSON_TYPES }));
  // Uploads are spooled to temporary files (removed after the request) and streamed into the database
  // from there: never whole in memory, and no transaction waits on a slow client.
  const upload = multer({ storage: multer.diskStorage({}), limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1 } });
  async function respond(route: RouteDefinition, req: Request, res: Response): Promise<void> {
    const ctx = await options.contextFor(req);
    if (route.surface !== 'public') requireSurface(ctx.actor, route.surface);
    const result = await route.handle(ctx, toRestRequest(req));
    if (result instanceof Redirect) return res.redirect(302, result.location);
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
  for (const route of options.routes ?? ROUTES) {
    const middleware = route.upload === 'file' ? [upload.single('file')] : [];
    router[route.method](route.path, requireJsonBody(route), ...middleware, async (req: Request, res: Response) => {
      try {
        await respond(route, req, res);
      } finally {
        if (req.file?.path) await rm(req.file.path, { force: true });
      }
    });
  }
  const routes = (options.routes ?? ROUTES).map((route) => ({ method: route.method.toUpperCase(), pattern: pathPattern(route.path) }));
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

const JSON_TYPES = ['application/json', 'application/*+json'];

export const NO_SUCH_ENDPOINT = () => new AppError('NOT_FOUND', 'No such endpoint');

function pathPattern(expressPath: string): RegExp {
  const escaped = expressPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

/**
 * A body in another format than JSON (e.g. JSON sent as text/plain) is a 415 before anything runs,
 * rather than reaching the operation as an empty body; upload routes take multipart/form-data.
 */
function requireJsonBody(route: RouteDefinition) {
  const accepted = route.upload === 'file' ? ['multipart/form-data'] : JSON_TYPES;
  return (req: Request, res: Response, next: () => void) => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody || req.is(accepted)) return next();
    sendProblem(res, new AppError('UNSUPPORTED_MEDIA_TYPE', `The request body must be ${accepted.join(' or ')}, not ${req.headers['content-type'] ?? 'untyped'}`, [{ pointer: 'header:content-type', message: `must be ${accepted.join(' or ')}` }]));
  };
}

function toRestRequest(req: Request): RestRequest {
  return {
    params: req.params as Record<string, string>,
    query: req.query as Record<string, unknown>,
    body: req.body,
    headers: req.headers,
    ip: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    originalUrl: req.originalUrl,
    ...(req.file ? { file: { fileName: req.file.originalname, contentType: req.file.mimetype, content: { path: req.file.path, size: req.file.size } } } : {}),
  };
}

function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const parseFailure = err as { type?: string; status?: number };
    if (parseFailure.type === 'entity.parse.failed') {
      return sendProblem(res, AppError.badRequest('Request body is not valid JSON', [{ pointer: '', message: 'malformed JSON' }]));
    }
    if (parseFailure.type === 'entity.too.large') {
      return sendProblem(res, AppError.badRequest('Request body is larger than 1 MB'));
    }
    if (err instanceof multer.MulterError) {
      const tooLarge = err.code === 'LIMIT_FILE_SIZE';
      return sendProblem(res, new AppError(tooLarge ? 'UNPROCESSABLE' : 'BAD_REQUEST', tooLarge ? 'The file is too large' : 'Invalid upload', [{ pointer: 'file', message: tooLarge ? 'must be at most 10 MB' : err.message }]));
    }
    if (!(err instanceof AppError)) {
      if (constraintError(err)) logger.warn({ err, method: req.method, path: redactSecrets(req.path) }, 'a database constraint refused a REST request');
      else logger.error({ err, method: req.method, path: redactSecrets(req.path) }, 'unhandled error in REST route');
    }
    sendProblem(res, err);
  };
}
