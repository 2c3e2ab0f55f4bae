/**
 * The single process's GraphQL: the subgraphs' resolvers as one local schema served by Yoga over
 * HTTP and graphql-ws at /graphql (no gateway). single-process-server.ts loads this module, and with
 * it the GraphQL stack (Yoga, graphql-ws, the resolvers: about a third of the process's module
 * files), on the first GraphQL request or WebSocket upgrade, not at start.
 */
import type { Server } from 'node:http';
import type { Router } from 'express';
import type { AppConfig } from '../kernel/config.js';
import { createLocalGraphQL, plainPostFastPathOf, type LocalContextBuilder, type LocalGraphQL } from '../api/graphql/local-graphql.js';
import { gatewaySecurity } from '../api/graphql/gateway-security.js';
import type { InstalledHttpSecurity } from '../api/http/http-security.js';
import { mountGateway, type MountedGateway } from './gateway-server.js';
import { tokenCredentials, webSocketLimitsOf } from '../api/graphql/websocket-limits.js';
import { graphqlBodyLimit } from '../api/http/graphql-body-limit.js';
import { audienceOfCaller, type FanOutOptions } from '../api/graphql/subscription-fanout.js';
import { toGraphQLError } from '../infra/graphql/graphql-errors.js';
import type { Runtime } from './runtime.js';

/** GraphQL over the local schema (built on its first operation); its requests wait for the runtime while it starts. */
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

/** Serves GraphQL on `routes` (in the app where GraphQL belongs, after the HTTP security layers) and graphql-ws on `server`. */
export function mountSingleProcessGraphQL(routes: Router, server: Server, runtime: Runtime, httpSecurity: InstalledHttpSecurity): MountedGateway {
  const graphql = createSingleProcessGraphQL(runtime, runtime.config);
  return mountGateway(routes, server, graphql, {
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
}
