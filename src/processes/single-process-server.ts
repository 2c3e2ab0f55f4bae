/**
 * Single-process mode: one HTTP server on one port with the REST adapter, GraphQL at /graphql over
 * HTTP and graphql-ws (the subgraphs' resolvers as one local schema, no gateway: single-process-graphql.ts,
 * loaded on first use), and /health; and the webhook delivery worker.
 */
import http, { type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type Express } from 'express';
import { installHttpSecurity, type InstalledHttpSecurity } from '../api/http/http-security.js';
import { credentialKeyFromTokens } from '../api/http/rate-limits.js';
import type { MountedGateway } from './gateway-server.js';
import { GRAPHQL_PATH } from '../api/graphql/graphql-path.js';
import { identityProviderRouter } from '../api/rest/identity-provider-router.js';
import { webRouter } from '../api/pages/web-router.js';
import { widgetCors, widgetEmbedOrigins } from '../api/pages/widget-cors.js';
import { dashboardRouter } from '../api/pages/dashboard-router.js';
import { lenderConsoleRouter } from '../api/pages/lender-console-router.js';
import { apiRequestsOnly, createRestRouter, NO_SUCH_ENDPOINT, sendProblem } from '../api/rest/rest-router.js';
import type { Runtime } from './runtime.js';
import { startDeliveryWorker } from './delivery-worker.js';
import { databaseReadiness, dependencyReadiness, healthRouter } from '../api/http/health.js';
import { mountMetrics, observeRequests } from '../api/http/observability.js';
import { recordRequests } from '../api/http/request-recording.js';
import { startRequestLogPurge } from './request-log-purge.js';
import { responseCompression } from '../api/http/response-compression.js';
import { apiDocsRouter } from '../api/rest/api-docs-router.js';
import { closeServer, listen, type RunningServer } from '../api/http/listen.js';

/**
 * GraphQL, mounted where it belongs in the app (after the HTTP security layers) but loaded on the
 * first GraphQL request or WebSocket upgrade: its stack is about a third of the process's module
 * files, which a start would otherwise load before the port opens. A request or upgrade that comes
 * while it loads waits for it; afterwards requests pass straight through to it.
 */
function mountGraphQLOnFirstUse(app: Express, server: Server, runtime: Runtime, httpSecurity: InstalledHttpSecurity): { close(): Promise<void> } {
  const routes = express.Router();
  let mounted: MountedGateway | undefined;
  let loading: Promise<void> | undefined;
  const load = () => {
    if (loading) return loading;
    const started = performance.now();
    loading = import('./single-process-graphql.js').then(({ mountSingleProcessGraphQL }) => {
      // In one step: from here on, graphql-ws's own listener takes the upgrades.
      server.off('upgrade', upgradeOnceLoaded);
      mounted = mountSingleProcessGraphQL(routes, server, runtime, httpSecurity);
      // Says why the process's first GraphQL request took longer than the others.
      runtime.logger.info({ ms: Math.round(performance.now() - started) }, 'GraphQL loaded for its first request');
    });
    return loading;
  };
  function upgradeOnceLoaded(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    load().then(
      () => server.emit('upgrade', req, socket, head),
      (err: unknown) => {
        runtime.logger.error({ err }, 'GraphQL did not load');
        socket.destroy();
      },
    );
  }
  server.on('upgrade', upgradeOnceLoaded);
  app.use(GRAPHQL_PATH, (_req, _res, next) => (mounted ? next() : load().then(() => next(), next)));
  app.use(routes);
  return {
    async close() {
      server.off('upgrade', upgradeOnceLoaded);
      await loading?.catch(() => {});
      await mounted?.close();
    },
  };
}

export async function startSingleProcessServer(runtime: Runtime, options: { port?: number } = {}): Promise<RunningServer> {
  const port = options.port ?? runtime.config.PORT;
  const app = express();
  app.disable('x-powered-by');
  const server = http.createServer(app);
  observeRequests(app, runtime.logger);
  // Every text answer compressed when the client accepts it (streams and digested downloads excepted).
  app.use(responseCompression());
  const metricsServer = await mountMetrics(app, runtime.config);
  const httpSecurity = installHttpSecurity(app, {
    config: runtime.config,
    credentialKeyOf: credentialKeyFromTokens(runtime.auth.tokens),
    logger: runtime.logger,
    redis: runtime.sharedCounters,
  });
  const recording = recordRequests(app, {
    db: runtime.database.prisma,
    logger: runtime.logger,
    environment: runtime.config.DEPLOY_ENV,
    tokens: runtime.auth.tokens,
  });
  // GraphQL right after the HTTP security layers: its requests skip the routers below, none of which serves /graphql.
  const graphql = mountGraphQLOnFirstUse(app, server, runtime, httpSecurity);
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
      'all-in-one',
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
  // Everything is running before the port opens (GraphQL's stack loads on its first request): a
  // healthy answer means the whole process is up, and nothing awaited after listening lies between
  // it and the caller registering its shutdown.
  const worker = await startDeliveryWorker(runtime);
  const purge = startRequestLogPurge(runtime);
  const url = await listen(server, port, runtime.config.HOST);
  return {
    url,
    async close() {
      await worker.stop();
      await purge.stop();
      await graphql.close();
      await closeServer(server);
      await recording.close();
      await metricsServer?.close();
    },
  };
}
