/**
 * Single-process mode: one HTTP server on one port with the REST adapter, the gateway
 * (subgraphs executed in-process) at /graphql over HTTP and graphql-ws, and /health; and the
 * webhook delivery worker.
 */
import http from 'node:http';
import express from 'express';
import type { GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { createGateway } from '../../gateway/gateway-runtime.js';
import { mountGateway } from './gateway-server.js';
import { identityProviderRouter } from '../../rest-adapter/identity-provider-router.js';
import { webRouter } from '../web/web-router.js';
import { createRestRouter, NO_SUCH_ENDPOINT, sendProblem } from '../../rest-adapter/rest-router.js';
import type { Runtime } from './runtime.js';
import { startDeliveryWorker } from './delivery-worker.js';
import { databaseReadiness, healthRouter } from '../http/health.js';
import { closeServer, listen, type RunningServer } from '../http/listen.js';

/**
 * The gateway with every subgraph in this process. It needs no database to be built, so it can be
 * built while the runtime is still starting: its requests wait for the runtime.
 */
export function createSingleProcessGateway(runtime: Runtime | Promise<Runtime>): Promise<GatewayRuntime> {
  return createGateway({ mode: 'in-process', contextFor: async (request) => (await runtime).contextForRequest(request.headers) });
}

export async function startSingleProcessServer(
  runtime: Runtime,
  options: { port?: number; gateway?: GatewayRuntime } = {},
): Promise<RunningServer> {
  const port = options.port ?? runtime.config.PORT;
  const app = express();
  app.disable('x-powered-by');
  const server = http.createServer(app);
  app.use(healthRouter('all-in-one', databaseReadiness(runtime.database.prisma)));
  const gateway = options.gateway ?? (await createSingleProcessGateway(runtime));
  const mounted = mountGateway(app, server, gateway);
  app.use(identityProviderRouter(runtime));
  app.use(webRouter(runtime));
  app.use(createRestRouter({ contextFor: (req) => runtime.contextForRequest(req.headers), logger: runtime.logger }));
  app.use((_req, res) => sendProblem(res, NO_SUCH_ENDPOINT()));
  // Everything is running before the port opens: a healthy answer means the whole process is up,
  // and nothing awaited after listening lies between it and the caller registering its shutdown.
  const worker = await startDeliveryWorker(runtime);
  const url = await listen(server, port, runtime.config.HOST);
  return {
    url,
    async close() {
      await worker.stop();
      await mounted.close();
      await closeServer(server);
    },
  };
}
