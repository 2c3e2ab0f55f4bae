/**
 * Single-process mode: one HTTP server on one port with the REST adapter, GraphQL at /graphql over
 * HTTP and graphql-ws (the subgraphs' resolvers as one local schema, no gateway), and /health; and
 * the webhook delivery worker.
 */
import http from 'node:http';
import express from 'express';
import type { AppConfig } from '../kernel/config.js';
import { createLocalGraphQL, plainPostFastPathOf, type LocalContextBuilder, type LocalGraphQL } from '../api/graphql/local-graphql.js';
import { gatewaySecurity } from '../api/graphql/gateway-security.js';
import { installHttpSecurity } from '../api/http/http-security.js';
import { credentialKeyFromTokens } from '../api/http/rate-limits.js';
import { mountGateway } from './gateway-server.js';
import { tokenCredentials, webSocketLimitsOf } from '../api/graphql/websocket-limits.js';
import { graphqlBodyLimit } from '../api/http/graphql-body-limit.js';
import { audienceOfCaller, type FanOutOptions } from '../api/graphql/subscription-fanout.js';
import { toGraphQLError } from '../infra/graphql/graphql-errors.js';
import { identityProviderRouter } from '../api/rest/identity-provider-router.js';
import { webRouter } from '../api/pages/web-router.js';
import { widgetCors, widgetEmbedOrigins } from '../api/pages/widget-cors.js';
import { dashboardRouter } from '../api/pages/dashboard-router.js';
import { apiRequestsOnly, createRestRouter, NO_SUCH_ENDPOINT, sendProblem } from '../api/rest/rest-router.js';
import type { Runtime } from './runtime.js';
import { startDeliveryWorker } from './delivery-worker.js';
import { databaseReadiness, dependencyReadiness, healthRouter } from '../api/http/health.js';
import { mountMetrics, observeRequests } from '../api/http/observability.js';
import { responseCompression } from '../api/http/response-compression.js';
import { apiDocsRouter } from '../api/rest/api-docs-router.js';
import { closeServer, listen, type RunningServer } from '../api/http/listen.js';

/**
 * GraphQL over the local schema (built on its first request). It needs no database to be created,
 * so it can be created while the runtime is still starting: its requests wait for the runtime.
 */
export function createSingleProcessGraphQL(runtime: Runtime | Promise<Runtime>, config: AppConfig): LocalGraphQL {
  const contextFor: LocalContextBuilder = async (headers) => (await runtime).contextForRequest(headers);
  const security = gatewaySecurity(config, async (headers) => (await contextFor(headers)).actor);
  return createLocalGraphQL(contextFor, security);
}

/** Subscribers of one audience share each event's execution; each one's credential is re-checked per event (cached). */
function subscriptionFanOut(runtime: Runtime): FanOutOptions {
  return {
    async audienceOf(headers) {
      const caller = await runtime.contextForRequest(headers);
      return audienceOfCaller(caller, caller.environment, () => runtime.auth.credentialStatus.assertActive(caller.actor));
    },
    toGraphQLError: (err) => toGraphQLError(err, runtime),
  };
}

export async function startSingleProcessServer(
  runtime: Runtime,
  options: { port?: number; graphql?: LocalGraphQL } = {},
): Promise<RunningServer> {
  const port = options.port ?? runtime.config.PORT;
  const app = express();
  app.disable('x-powered-by');
  const server = http.createServer(app);
  observeRequests(app, runtime.logger);
  // Every text answer compressed when the client accepts it (streams and digested downloads excepted).
  app.use(responseCompression());
  const metricsServer = await mountMetrics(app, runtime.config);
  const httpSecurity = installHttpSecurity(app, { config: runtime.config, credentialKeyOf: credentialKeyFromTokens(runtime.auth.tokens), logger: runtime.logger, redis: runtime.sharedCounters });
  // GraphQL right after the HTTP security layers: its requests skip the routers below, none of which serves /graphql.
  const graphql = options.graphql ?? createSingleProcessGraphQL(runtime, runtime.config);
  const mounted = mountGateway(app, server, graphql, {
    webSocket: {
      limits: webSocketLimitsOf(runtime.config),
      credentialOf: tokenCredentials(runtime.auth.tokens, runtime.auth.credentialStatus, runtime.clock),
      rateLimits: httpSecurity,
      logger: runtime.logger,
    },
    bodyLimit: graphqlBodyLimit(runtime.config, runtime.auth.tokens),
    fastPath: plainPostFastPathOf(graphql),
    fanOut: subscriptionFanOut(runtime),
  });
  // The widget's API paths answer cross-origin preflights before the REST router refuses OPTIONS.
  app.use(widgetCors(widgetEmbedOrigins(runtime.config)));
  app.use(apiRequestsOnly(createRestRouter({ contextFor: (req) => runtime.contextForRequest(req.headers), logger: runtime.logger, uploadSpoolDirectory: runtime.config.UPLOAD_SPOOL_DIR })));
  app.use(healthRouter('all-in-one', databaseReadiness(runtime.database.prisma), dependencyReadiness({ db: runtime.database.prisma, clock: runtime.clock, events: runtime.events })));
  app.use(apiDocsRouter({ publicUrl: runtime.config.PUBLIC_URL_CONFIGURED ? runtime.config.PUBLIC_URL : undefined }));
  app.use(identityProviderRouter(runtime));
  app.use(webRouter(runtime));
  app.use(dashboardRouter(runtime));
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
      await metricsServer?.close();
    },
  };
}
