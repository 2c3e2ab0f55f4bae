/** Distributed mode: the webhook delivery worker as its own process, with /health on PORT. */
import http from 'node:http';
import express from 'express';
import { databaseReadiness, dependencyReadiness, healthRouter } from '../api/http/health.js';
import { mountMetrics, observeRequests } from '../api/http/observability.js';
import { closeServer, listen, type RunningServer } from '../api/http/listen.js';
import { startDeliveryWorker } from './delivery-worker.js';
import { startRequestLogPurge } from './request-log-purge.js';
import type { Runtime } from './runtime.js';

export async function startWorkerServer(runtime: Runtime, port: number): Promise<RunningServer> {
  const worker = await startDeliveryWorker(runtime);
  const purge = startRequestLogPurge(runtime);
  const app = express();
  app.disable('x-powered-by');
  observeRequests(app, runtime.logger);
  const metricsServer = await mountMetrics(app, runtime.config);
  app.use(
    healthRouter(
      'worker',
      databaseReadiness(runtime.database.prisma),
      dependencyReadiness({ db: runtime.database.prisma, clock: runtime.clock, events: runtime.events }),
    ),
  );
  const server = http.createServer(app);
  const url = await listen(server, port, runtime.config.HOST);
  return {
    url,
    async close() {
      await worker.stop();
      await purge.stop();
      await closeServer(server);
      await metricsServer?.close();
    },
  };
}
