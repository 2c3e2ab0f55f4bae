/** Distributed mode: one subgraph served alone, Apollo Server over HTTP and graphql-ws on one port. */
import http, { type IncomingHttpHeaders } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { useServer } from 'graphql-ws/use/ws';
import { getOperationAST } from 'graphql';
import { subscriptionEventExecutions } from '../infra/metrics.js';
import {
  CREDENTIAL_STATUS_PATH,
  limitedWebSocketServer,
  tokenCredentials,
  webSocketLimitsOf,
  withWebSocketLimits,
  type CredentialStatusRefusal,
  type WebSocketGuard,
} from '../api/graphql/websocket-limits.js';
import { isAuthenticated } from '../kernel/actor.js';
import { AppError } from '../kernel/errors.js';
import { authenticate, credentialHeaders } from '../modules/identity/authenticate.js';
import type { ServiceContext } from '../kernel/context.js';
import { connectionHeaders } from '../api/http/connection-headers.js';
import { databaseReadiness, dependencyReadiness, healthRouter } from '../api/http/health.js';
import { mountMetrics, observeRequests } from '../api/http/observability.js';
import { closeServer, listen, type RunningServer } from '../api/http/listen.js';
import type { Runtime } from './runtime.js';
import { buildSubgraphSchemas, type SubgraphName } from '../api/graphql/subgraphs/index.js';
import { AnsweredQueries, subgraphFastPath } from '../api/graphql/subgraph-fast-path.js';
import { contextHandedOn } from '../api/graphql/plain-graphql-request.js';
import { GRAPHQL_PATH } from '../api/graphql/graphql-path.js';
import { gatewayCredentialCheck, gatewayCredentialRefusal, gatewayOnly } from '../api/http/gateway-only.js';
import { loadSubgraphSecret } from '../infra/subgraph-secret.js';
import { subgraphOperationLimits } from '../api/graphql/subgraph-operation-limits.js';
import { operationLimitsOf } from '../api/graphql/gateway-security.js';

export async function startSubgraphServer(name: SubgraphName, runtime: Runtime, port: number): Promise<RunningServer> {
  const schema = (await buildSubgraphSchemas())[name];
  // Everything but the probes answers the gateway only (its secret checked before a body is read).
  const secret = await loadSubgraphSecret(runtime.config);
  const fromGateway = gatewayCredentialCheck(secret);
  const app = express();
  app.disable('x-powered-by');
  const server = http.createServer(app);
  // The same socket limits as the gateway's; the gateway in front already charged the rate limits.
  const webSocket: WebSocketGuard = {
    limits: webSocketLimitsOf(runtime.config),
    credentialOf: tokenCredentials(runtime.auth.tokens, runtime.auth.credentialStatus, runtime.clock),
    logger: runtime.logger,
    upgradeRefusal: (request) => {
      const verdict = fromGateway(request.headers);
      return verdict === 'accepted' ? null : gatewayCredentialRefusal(verdict);
    },
  };
  // The gateway's operation limits, on what the gateway sends and on anything else that gets here.
  const limits = subgraphOperationLimits(schema, operationLimitsOf(runtime.config));
  const wss = limitedWebSocketServer(server, GRAPHQL_PATH, webSocket);
  const ws = useServer(
    withWebSocketLimits(
      {
        schema,
        onSubscribe: (_ctx, _id, payload) => limits.onWebSocketSubscribe(payload),
        context: (ctx) => runtime.contextForRequest(connectionHeaders(ctx.extra.request.headers, ctx.connectionParams)),
        // Each event this subgraph executes for a subscription: with the gateway's fan-out, one per audience group.
        onNext: (_ctx, _id, _payload, args) => {
          const operation = getOperationAST(args.document, args.operationName ?? undefined);
          if (operation?.operation === 'subscription')
            subscriptionEventExecutions.inc({ operation: args.operationName || operation.name?.value || 'anonymous' });
        },
      },
      webSocket,
    ),
    wss,
  );
  // The gateway's plain POSTs of queries Apollo has answered once take a leaner route (subgraph-fast-path.ts).
  const answered = new AnsweredQueries();
  const apollo = new ApolloServer<ServiceContext>({
    schema,
    parseOptions: limits.parseOptions,
    // The process's own shutdown (shutdown.ts) stops it: Apollo's signal handlers would stop it a
    // second time, concurrently, and that stop never finishes.
    stopOnTerminationSignals: false,
    // Requests in flight get a second to finish; a gateway's idle keep-alive connections are then closed.
    plugins: [ApolloServerPluginDrainHttpServer({ httpServer: server, stopGracePeriodMillis: 1_000 }), answered.plugin(), limits.plugin],
  });
  await apollo.start();
  observeRequests(app, runtime.logger);
  const metricsServer = await mountMetrics(app, runtime.config);
  app.use(
    healthRouter(
      `subgraph:${name}`,
      databaseReadiness(runtime.database.prisma),
      dependencyReadiness({ db: runtime.database.prisma, clock: runtime.clock, events: runtime.events }),
    ),
  );
  app.use(gatewayOnly(secret));
  // The gateway holds no data: it asks here whether a graphql-ws connection's credential is in good
  // standing, at connection_init and at each re-check (websocket-limits.ts, subgraphCheckedCredentials).
  app.get(CREDENTIAL_STATUS_PATH, (req, res, next) => {
    authenticate(runtime.auth.tokens, runtime.auth.credentialStatus, credentialHeaders(req.headers)).then(({ actor }) => {
      if (isAuthenticated(actor)) return void res.status(204).end();
      const rejection = (actor.kind === 'anonymous' && actor.rejection) || AppError.unauthenticated('A bearer token is required');
      const refusal: CredentialStatusRefusal = { code: rejection.code === 'FORBIDDEN' ? 'FORBIDDEN' : 'UNAUTHENTICATED', message: rejection.message };
      res.status(refusal.code === 'FORBIDDEN' ? 403 : 401).json(refusal);
    }, next);
  });
  const contextFor = (headers: IncomingHttpHeaders) => runtime.contextForRequest(headers);
  app.use(
    GRAPHQL_PATH,
    express.json({ limit: '1mb' }),
    limits.beforeApollo,
    subgraphFastPath(schema, answered, contextFor, limits.cost),
    // A request the fast path began and handed on keeps the context it built (one verification per request).
    expressMiddleware(apollo, { context: ({ req }) => contextHandedOn(req) ?? contextFor(req.headers) }),
  );
  const url = await listen(server, port, runtime.config.HOST);
  return {
    url,
    async close() {
      await ws.dispose();
      await apollo.stop();
      await closeServer(server);
      await metricsServer?.close();
    },
  };
}
