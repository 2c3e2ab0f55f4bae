/**
 * HTTP access log and request metrics, both written once when the response is done: one line per
 * request with what an operator reads (method, route template, path, status, duration, request id,
 * the credential when one was presented), and the route/method/status counter and latency histogram.
 * No header is logged, so no credential can be: the path's API keys and the token-bearing query
 * parameters (the widget's accessToken, signed-link tokens, api_key) are replaced by [redacted], and
 * the credential is named by the rate limiter's key (an API key or user id, or a digest), never its secret.
 */
import type { NextFunction, Request, Response } from 'express';
import { redactSecrets, type Logger } from '../../infra/logger.js';
import { httpRequestDuration, httpRequests } from '../../infra/metrics.js';
import { requestIdOf } from '../../infra/request-id.js';

const SECRET_QUERY_PARAMETERS = ['accesstoken', 'access_token', 'token', 'api_key', 'apikey', 'refresh_token', 'refreshtoken', 'continueurl'];

/** The URL as logged: secret query values and API keys in the path replaced by [redacted]. */
function redactUrl(url: string): string {
  const [path = '', query] = url.split('?', 2);
  if (query === undefined) return redactSecrets(path);
  const params = query.split('&').map((pair) => {
    const [name = '', ...rest] = pair.split('=');
    return SECRET_QUERY_PARAMETERS.includes(safeDecode(name).toLowerCase()) && rest.length > 0 ? `${name}=[redacted]` : pair;
  });
  return `${redactSecrets(path)}?${params.join('&')}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The route template a request matched (`/api/.../:uuid`), so metrics stay low-cardinality. */
export function routeTemplate(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
  if (req.baseUrl) return req.baseUrl;
  return 'unmatched';
}

/** Who the request's credential is (the rate limiter's key), kept on the response for its log line. */
export function noteCredential(res: Response, credential: string | null): void {
  if (credential) (res.locals as { credential?: string }).credential = credential;
}

/** The problem body a failed response sent (sendProblem keeps it), for the account's request log. */
export function keepProblem(res: Response, problem: unknown): void {
  (res.locals as { problem?: unknown }).problem = problem;
}

export function keptProblem(res: Response): unknown {
  return (res.locals as { problem?: unknown }).problem;
}

/**
 * The health paths (src/api/http/health.ts) that orchestrators probe every few seconds. Their
 * successful answers are logged at debug: at info they would be most of an idle deployment's log.
 */
const PROBE_PATHS = new Set(['/health', '/health/ready']);

/** Access log and metrics for every request: nothing is built until the response is done. */
export function accessLogAndMetrics(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    res.once('close', () => {
      const durationMs = performance.now() - started;
      const route = routeTemplate(req);
      const status = res.statusCode;
      const labels = { route, method: req.method, status: String(status) };
      httpRequestDuration.observe(labels, durationMs / 1000);
      httpRequests.inc(labels);
      // A response that never finished was cut off by the client (or the connection failed).
      const aborted = !res.writableFinished;
      const line = {
        requestId: requestIdOf(res),
        method: req.method,
        route,
        path: redactUrl(req.originalUrl),
        status,
        durationMs: Math.round(durationMs * 10) / 10,
        credential: (res.locals as { credential?: string }).credential,
        ...(aborted ? { aborted } : {}),
      };
      const message = `${req.method} ${route} ${status}${aborted ? ' aborted' : ''}`;
      if (status >= 500 || aborted) logger.error(line, message);
      else if (status < 400 && PROBE_PATHS.has(req.originalUrl.split('?', 1)[0]!)) logger.debug(line, message);
      else logger.info(line, message);
    });
    next();
  };
}
