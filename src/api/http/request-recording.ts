/**
 * What the HTTP layer records of an account's API requests once each response is done: a request
 * log entry (modules/request-log) and the use of its API key (modules/identity/key-last-use.ts).
 * Nothing happens on the request path: the entry is built on the response's `close` from what the
 * request already computed (its verified token's claims, asked once per request; the route; the
 * problem body `sendProblem` kept), handed to an in-memory queue, and a timer writes the queue in
 * batches. A request without an account's token (anonymous, unverifiable, a lender's) is not an
 * account's, and is not logged. A success's body is never kept; a failure keeps its problem body.
 */
import type { Express, Request, Response } from 'express';
import type { DeployEnvironment } from '../../kernel/context.js';
import type { Db } from '../../kernel/context.js';
import type { Logger } from '../../infra/logger.js';
import { requestIdOf } from '../../infra/request-id.js';
import type { TokenAuthority } from '../../modules/identity/token-authority.js';
import { KeyLastUse } from '../../modules/identity/key-last-use.js';
import { RequestLogRecorder } from '../../modules/request-log/request-log-recorder.js';
import { LOGGED_CREDENTIAL_KINDS } from '../../modules/request-log/request-log-schemas.js';
import { GRAPHQL_PATH } from '../graphql/graphql-path.js';
import { bearerClaimsOf } from './bearer-claims.js';
import { keptProblem, routeTemplate } from './access-log.js';

/** How often queued entries and key uses are written. */
const REQUEST_RECORDING_FLUSH_MS = 1_000;

export interface RequestRecording {
  readonly log: RequestLogRecorder;
  readonly keyUses: KeyLastUse;
  /** Writes what is queued now (tests; shutdown). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is queued. */
  close(): Promise<void>;
}

export interface RequestRecordingServices {
  db: Db;
  logger: Logger;
  environment: DeployEnvironment;
  tokens: TokenAuthority;
}

/** The paths of the APIs: REST under /api, and GraphQL where the process answers it itself. */
const RECORDED_PATHS = ['/api', GRAPHQL_PATH];

/** Mounts the recording on `paths` (before their routers, so every answer is seen). */
export function recordRequests(app: Express, services: RequestRecordingServices, paths: string[] = RECORDED_PATHS): RequestRecording {
  const log = new RequestLogRecorder(services.db, services.logger);
  const keyUses = new KeyLastUse();
  const flush = async () => {
    await Promise.all([log.flush(), keyUses.flush(services.db).catch((err: unknown) => services.logger.warn({ err }, 'API key last use not written'))]);
  };
  const timer = setInterval(() => void flush(), REQUEST_RECORDING_FLUSH_MS);
  timer.unref();
  app.use(paths, (req: Request, res: Response, next) => {
    const started = performance.now();
    const at = new Date();
    res.once('close', () => {
      const latencyMs = Math.round((performance.now() - started) * 10) / 10;
      // The claims were verified for the rate limiter before the request went on: this reads that answer.
      void bearerClaimsOf(req, services.tokens).then((claims) => {
        if (!claims?.acc || !(LOGGED_CREDENTIAL_KINDS as readonly string[]).includes(claims.tkn)) return;
        if (claims.key) keyUses.note(claims.key, at);
        const status = res.statusCode;
        log.record({
          accountId: claims.acc,
          environment: services.environment,
          requestId: requestIdOf(res) ?? '',
          method: req.method,
          route: routeOf(req),
          status,
          latencyMs,
          credentialKind: claims.tkn,
          apiKeyId: claims.key ?? null,
          userId: claims.tkn === 'login' ? claims.sub : null,
          tenantId: claims.tid ?? null,
          problem: status >= 400 ? (keptProblem(res) ?? null) : null,
          createdAt: at,
        });
      });
    });
    next();
  });
  return {
    log,
    keyUses,
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** The route template; a GraphQL request is named by its operation name when it gives one. */
function routeOf(req: Request): string {
  const route = routeTemplate(req);
  if (!req.originalUrl.startsWith(GRAPHQL_PATH)) return route;
  const name = (req.body as { operationName?: unknown } | undefined)?.operationName;
  return typeof name === 'string' && /^[_A-Za-z][_0-9A-Za-z]{0,99}$/.test(name) ? `${GRAPHQL_PATH} ${name}` : GRAPHQL_PATH;
}
