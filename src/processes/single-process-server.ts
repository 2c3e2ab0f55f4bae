/**
 * Single-process mode: one HTTP server on one port with the REST adapter, the gateway
 * (subgraphs executed in-process) at /graphql over HTTP and graphql-ws, and /health; and the
 * webhook delivery worker.
 */
import http from 'node:http';
import express from 'express';
import { createGateway, type GatewayRequestInfo } from '../../gateway/gateway-runtime.js';
import { gatewaySecurity } from '../../gateway/gateway-security.js';
import { installHttpSecurity } from '../http/http-security.js';
import { credentialKeyFromTokens } from '../http/rate-limits.js';
import { mountGateway } from './gateway-server.js';
import { identityProviderRouter } from '../../rest-adapter/identity-provider-router.js';
import { webRouter } from '../web/web-router.js';
import { dashboardRouter } from '../web/dashboard-router.js';
import { createRestRouter, NO_SUCH_ENDPOINT, sendProblem } from '../../rest-adapter/rest-router.js';
import type { Runtime } from './runtime.js';
import { startDeliveryWorker } from './delivery-worker.js';
import { databaseReadiness, dependencyReadiness, healthRouter } from '../http/health.js';
import { mountMetrics, observeRequests } from '../http/observability.js';
import { apiDocsRouter } from '../../rest-adapter/api-docs-router.js';
import { closeServer, listen, type RunningServer } from '../http/listen.js';

export async function startSingleProcessServer(runtime: Runtime, port = runtime.config.PORT): Promise<RunningServer> {
  const app = express();
  app.disable('x-powered-by');
  const server = http.createServer(app);
  observeRequests(app, runtime.logger);
  const metricsServer = await mountMetrics(app, runtime.config);
  installHttpSecurity(app, { config: runtime.config, credentialKeyOf: credentialKeyFromTokens(runtime.auth.tokens), logger: runtime.logger, redis: runtime.sharedCounters });
  app.use(healthRouter('all-in-one', databaseReadiness(runtime.database.prisma), dependencyReadiness({ db: runtime.database.prisma, jobs: runtime.jobs, events: runtime.events })));
  app.use(apiDocsRouter());
  const contextFor = (request: GatewayRequestInfo) => runtime.contextForRequest(request.headers);
  const security = gatewaySecurity(runtime.config, async (headers) => (await runtime.contextForRequest(headers)).actor);
  const gateway = await createGateway({ mode: 'in-process', contextFor }, security);
  const mounted = mountGateway(app, server, gateway);
  app.use(identityProviderRouter(runtime));
  app.use(webRouter(runtime));
  app.use(dashboardRouter(runtime));
  app.use(createRestRouter({ contextFor: (req) => runtime.contextForRequest(req.headers), logger: runtime.logger }));
  app.use((_req, res) => sendProblem(res, NO_SUCH_ENDPOINT()));
  const url = await listen(server, port, runtime.config.HOST);
  const worker = await startDeliveryWorker(runtime);
  return {
    url,
    async close() {
      await worker.stop();
      await mounted.close();
      await closeServer(server);
      await metricsServer?.close();
    },
  };
}
