/**
 * What every HTTP process mounts first: request ids, and request metrics with the access log; and
 * /metrics, on the main port behind METRICS_TOKEN, or alone on METRICS_PORT (no token: keep that
 * port private), or open on the main port in demo when neither is configured.
 */
import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import express, { type Express, type RequestHandler } from 'express';
import type { AppConfig } from '../../kernel/config.js';
import type { Logger } from '../../infra/logger.js';
import { metricsRegistry } from '../../infra/metrics.js';
import { accessLogAndMetrics } from './access-log.js';
import { closeServer, listen, type RunningServer } from './listen.js';
import { requestIdMiddleware } from '../../infra/request-id.js';

export type MetricsConfig = Pick<AppConfig, 'METRICS_TOKEN' | 'METRICS_PORT' | 'DEPLOY_ENV' | 'HOST'>;

export function observeRequests(app: Express, logger: Logger): void {
  app.use(requestIdMiddleware, accessLogAndMetrics(logger));
}

const serveMetrics: RequestHandler = async (_req, res) => {
  res.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
};

function tokenMatches(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(`Bearer ${expected}`);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Mounts /metrics on `app` as configured; with METRICS_PORT, starts its own listener (closed by the result). */
export async function mountMetrics(app: Express, config: MetricsConfig): Promise<RunningServer | undefined> {
  if (config.METRICS_TOKEN) {
    const token = config.METRICS_TOKEN;
    app.get(
      '/metrics',
      (req, res, next) => {
        if (!tokenMatches(req.headers.authorization, token)) {
          res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
          return res.status(401).type('text/plain').send('metrics need the METRICS_TOKEN bearer token\n');
        }
        next();
      },
      serveMetrics,
    );
  } else if (config.METRICS_PORT === undefined && config.DEPLOY_ENV === 'demo') {
    app.get('/metrics', serveMetrics);
  }
  if (config.METRICS_PORT === undefined) return undefined;
  const metricsApp = express();
  metricsApp.disable('x-powered-by');
  metricsApp.get('/metrics', serveMetrics);
  const server = http.createServer(metricsApp);
  const url = await listen(server, config.METRICS_PORT, config.HOST);
  return { url, close: () => closeServer(server) };
}
