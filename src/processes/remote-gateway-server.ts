/** Distributed mode: the gateway as its own process, reaching the subgraphs over HTTP and graphql-ws. */
import http from 'node:http';
import express from 'express';
import type { SubgraphName } from '../../subgraphs/index.js';
import { healthRouter } from '../http/health.js';
import { closeServer, listen, type RunningServer } from '../http/listen.js';
import { createGateway } from '../../gateway/gateway-runtime.js';
import { mountGateway } from './gateway-server.js';
import type { Logger } from '../infra/logger.js';
import { mountMetrics, observeRequests, type MetricsConfig } from '../http/observability.js';

export async function startRemoteGatewayServer(
  urls: Record<SubgraphName, string>,
  port: number,
  host: string,
  observability?: { logger: Logger; metrics: MetricsConfig },
): Promise<RunningServer> {
  const app = express();
  app.disable('x-powered-by');
  const server = http.createServer(app);
  if (observability) observeRequests(app, observability.logger);
  const metricsServer = observability ? await mountMetrics(app, observability.metrics) : undefined;
  // The gateway holds no data: it is ready when every subgraph answers its own /health.
  app.use(healthRouter('gateway', () => subgraphReadiness(urls)));
  const mounted = mountGateway(app, server, await createGateway({ mode: 'remote', urls }));
  const url = await listen(server, port, host);
  return {
    url,
    async close() {
      await mounted.close();
      await closeServer(server);
      await metricsServer?.close();
    },
  };
}

async function subgraphReadiness(urls: Record<SubgraphName, string>): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.entries(urls).map(async ([name, url]) => {
      const res = await fetch(new URL('/health', url), { signal: AbortSignal.timeout(2000) });
      if (!res.ok) throw new Error(`subgraph ${name} is not ready`);
      return [name, 'ready'] as const;
    }),
  );
  return Object.fromEntries(entries);
}
