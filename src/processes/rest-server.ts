/**
 * Distributed mode: the REST adapter as its own process, calling the domain services directly. It
 * serves the operations dashboard too, forwarding the page's /graphql (HTTP and graphql-ws) to the
 * gateway process (GRAPHQL_GATEWAY_URL), so the page and the APIs it calls share one origin.
 */
import http from 'node:http';
import express from 'express';
import { databaseReadiness, dependencyReadiness, healthRouter } from '../api/http/health.js';
import { mountMetrics, observeRequests } from '../api/http/observability.js';
import { recordRequests } from '../api/http/request-recording.js';
import { responseCompression } from '../api/http/response-compression.js';
import { apiDocsRouter } from '../api/rest/api-docs-router.js';
import { closeServer, listen, type RunningServer } from '../api/http/listen.js';
import type { Runtime } from './runtime.js';
import { installHttpSecurity } from '../api/http/http-security.js';
import { credentialKeyFromTokens } from '../api/http/rate-limits.js';
import { webRouter } from '../api/pages/web-router.js';
import { widgetCors, widgetEmbedOrigins } from '../api/pages/widget-cors.js';
import { identityProviderRouter } from '../api/rest/identity-provider-router.js';
import { apiRequestsOnly, createRestRouter, NO_SUCH_ENDPOINT, sendProblem } from '../api/rest/rest-router.js';
import { dashboardRouter } from '../api/pages/dashboard-router.js';
import { lenderConsoleRouter } from '../api/pages/lender-console-router.js';
import { forwardGraphQL } from '../api/http/graphql-forwarding.js';

export async function startRestServer(runtime: Runtime, port: number): Promise<RunningServer> {
  const app = express();
  app.disable('x-powered-by');
  observeRequests(app, runtime.logger);
  // Every text answer compressed when the client accepts it (streams and digested downloads excepted).
  app.use(responseCompression());
  const metricsServer = await mountMetrics(app, runtime.config);
  installHttpSecurity(app, {
    config: runtime.config,
    credentialKeyOf: credentialKeyFromTokens(runtime.auth.tokens),
    logger: runtime.logger,
    redis: runtime.sharedCounters,
  });
  // REST only: /graphql is forwarded to the gateway, which has no database to log to.
  const recording = recordRequests(
    app,
    { db: runtime.database.prisma, logger: runtime.logger, environment: runtime.config.DEPLOY_ENV, tokens: runtime.auth.tokens },
    ['/api'],
  );
  const server = http.createServer(app);
  // Before the REST router, which answers every other path under its bases: /graphql is the gateway's.
  const forwarding = forwardGraphQL(app, server, runtime.config.GRAPHQL_GATEWAY_URL, runtime.logger);
  // The widget's API paths answer cross-origin preflights before the REST router refuses OPTIONS.
  app.use(widgetCors(widgetEmbedOrigins(runtime.config)));
  app.use(
    apiRequestsOnly(
      createRestRouter({
        contextFor: (req) => runtime.contextForRequest(req.headers),
        logger: runtime.logger,
        uploadSpoolDirectory: runtime.config.UPLOAD_SPOOL_DIR,
      }),
    ),
  );
  app.use(
    healthRouter(
      'rest-adapter',
      databaseReadiness(runtime.database.prisma),
      dependencyReadiness({ db: runtime.database.prisma, clock: runtime.clock, events: runtime.events }),
    ),
  );
  app.use(apiDocsRouter({ publicUrl: runtime.config.PUBLIC_URL_CONFIGURED ? runtime.config.PUBLIC_URL : undefined }));
  app.use(identityProviderRouter(runtime));
  app.use(webRouter(runtime));
  app.use(dashboardRouter(runtime));
  app.use(lenderConsoleRouter(runtime));
  app.use((_req, res) => sendProblem(res, NO_SUCH_ENDPOINT()));
  const url = await listen(server, port, runtime.config.HOST);
  return {
    url,
    async close() {
      forwarding.close();
      await closeServer(server);
      await recording.close();
      await metricsServer?.close();
    },
  };
}
