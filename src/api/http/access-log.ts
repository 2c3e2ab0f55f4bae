/**
 * HTTP access logs (pino-http), one line per request with its request id, route, status and
 * latency, and request metrics (route template, method, status, latency). Credentials never reach
 * the log: Authorization, X-API-Key and cookies are redacted, and so are token-bearing query
 * parameters (the widget's accessToken, signed-link tokens, api_key) and API keys in paths.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import { redactSecrets, type Logger } from '../../infra/logger.js';
import { httpRequestDuration, httpRequests } from '../../infra/metrics.js';
import { REQUEST_ID_HEADER } from '../../infra/request-id.js';

const SECRET_QUERY_PARAMETERS = ['accesstoken', 'access_token', 'token', 'api_key', 'apikey', 'refresh_token', 'refreshtoken', 'continueurl'];
const SECRET_HEADERS = ['authorization', 'x-api-key', 'cookie', 'set-cookie', 'proxy-authorization'];

/** The URL as logged: secret query values and API keys in the path replaced by [redacted]. */
export function redactUrl(url: string): string {
  const [path = '', query] = url.split('?', 2);
  if (query === undefined) return redactSecrets(path);
  const params = query.split('&').map((pair) => {
    const [name = '', ...rest] = pair.split('=');
    return SECRET_QUERY_PARAMETERS.includes(decodeURIComponent(name).toLowerCase()) && rest.length > 0 ? `${name}=[redacted]` : pair;
  });
  return `${redactSecrets(path)}?${params.join('&')}`;
}

function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, SECRET_HEADERS.includes(name.toLowerCase()) ? '[redacted]' : value]));
}

/** The route template a request matched (`/api/.../:uuid`), so metrics stay low-cardinality. */
export function routeTemplate(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
  if (req.baseUrl) return req.baseUrl;
  return 'unmatched';
}

export function accessLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req) => String(req.headers[REQUEST_ID_HEADER] ?? ''),
    customAttributeKeys: { reqId: 'requestId' },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (req, res) => `${req.method} ${routeTemplate(req as Request)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${routeTemplate(req as Request)} ${res.statusCode}`,
    customProps: (req) => ({ route: routeTemplate(req as Request) }),
    serializers: {
      req: (req: { id: unknown; method: string; url: string; headers: Record<string, unknown>; remoteAddress?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        headers: redactHeaders(req.headers),
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number; headers: Record<string, unknown> }) => ({ statusCode: res.statusCode, headers: redactHeaders(res.headers ?? {}) }),
    },
  });
}

export function httpMetrics(req: Request, res: Response, next: NextFunction): void {
  const stop = httpRequestDuration.startTimer();
  res.on('finish', () => {
    const labels = { route: routeTemplate(req), method: req.method, status: String(res.statusCode) };
    stop(labels);
    httpRequests.inc(labels);
  });
  next();
}
