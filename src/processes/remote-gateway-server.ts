/** Distributed mode: the gateway as its own process, reaching the subgraphs over HTTP and graphql-ws. */
import http from 'node:http';
import express from 'express';
import type { SubgraphName } from '../api/graphql/subgraphs/index.js';
import { healthRouter } from '../api/http/health.js';
import { closeServer, listen, type RunningServer } from '../api/http/listen.js';
import { createGateway } from '../api/graphql/gateway-runtime.js';
import type { GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { mountGateway } from './gateway-server.js';
import {
  cachedSubgraphStanding,
  credentialHeadersOnly,
  subgraphCheckedCredentials,
  webSocketLimitsOf,
  type SubgraphEndpoints,
} from '../api/graphql/websocket-limits.js';
import { loadSubgraphSecret } from '../infra/subgraph-secret.js';
import { audienceOfCaller, type FanOutOptions } from '../api/graphql/subscription-fanout.js';
import { toGraphQLError } from '../infra/graphql/graphql-errors.js';
import { graphqlBodyLimit } from '../api/http/graphql-body-limit.js';
import { redisOfConfig } from '../infra/redis.js';
import type { AppConfig } from '../kernel/config.js';
import type { Logger } from '../infra/logger.js';
import { mountMetrics, observeRequests } from '../api/http/observability.js';
import { responseCompression } from '../api/http/response-compression.js';
import { systemClock } from '../kernel/context.js';
import { authenticate, credentialHeaders } from '../modules/identity/authenticate.js';
import { TokenAuthority } from '../modules/identity/token-authority.js';
import { loadSigningKeys } from '../infra/signing-keys.js';
import { gatewaySecurity } from '../api/graphql/gateway-security.js';
import { installHttpSecurity } from '../api/http/http-security.js';
import { credentialKeyFromTokens } from '../api/http/rate-limits.js';

export async function startRemoteGatewayServer(urls: Record<SubgraphName, string>, config: AppConfig, logger: Logger): Promise<RunningServer> {
  const app = express();
  app.disable('x-powered-by');
  const server = http.createServer(app);
  observeRequests(app, logger);
  // Every text answer compressed when the client accepts it (streams and digested downloads excepted).
  app.use(responseCompression());
  const metricsServer = await mountMetrics(app, config);
  // The gateway verifies tokens to count requests, to decide on introspection and to group
  // subscribers; the subgraphs authenticate every call themselves (revocation included), and answer
  // the gateway's questions about a credential's standing (CREDENTIAL_STATUS_PATH).
  const tokens = new TokenAuthority(await loadSigningKeys(config), config.PUBLIC_URL, config.DEPLOY_ENV, systemClock);
  // Rate-limit counters and credential changes, in the deployment's Redis namespace (infra/redis.ts).
  // Auto-pipelined: the counters charged by requests arriving together go out in one write.
  const redis = redisOfConfig(config, logger, 'gateway counters', { enableAutoPipelining: true });
  const httpSecurity = installHttpSecurity(app, { config, credentialKeyOf: credentialKeyFromTokens(tokens), logger, redis });
  const everyCredentialActive = { assertActive: async () => {}, forget: () => {}, close: () => {} };
  const callerOf = (headers: Headers) => authenticate(tokens, everyCredentialActive, credentialHeaders(headers));
  const actorOf = async (headers: Headers) => (await callerOf(headers)).actor;
  // The subgraphs answer this gateway only: it presents the deployment's subgraph secret to them.
  const subgraphs: SubgraphEndpoints = { urls: Object.values(urls), secret: await loadSubgraphSecret(config) };
  const standing = cachedSubgraphStanding(subgraphs, redis);
  // Subscribers are grouped by the single process's audience rule (subscription-fanout.ts): the
  // token verified here says who they are, a subgraph whether they are still in good standing.
  const fanOut: FanOutOptions = {
    async audienceOf(headers) {
      // The credentials as they are now: the runtime may later replace the context's headers.
      const credentials = credentialHeadersOnly(headers);
      return audienceOfCaller(await callerOf(credentials), config.DEPLOY_ENV, () => standing.assertActive(credentials));
    },
    toGraphQLError: (err) => toGraphQLError(err, { logger }),
  };
  // Liveness (/health) is this process alone: it answers over HTTP (a TCP probe is accepted by the
  // kernel even while the event loop is stuck) with its supergraph loaded (createGateway loads it
  // before the server listens). A subgraph outage must not restart every gateway, so the subgraphs
  // are in readiness (/health/ready) only: the gateway serves when it holds its supergraph's schema and
  // every subgraph answers its own /health (under Kubernetes, through its Service: some ready pod).
  let gateway: GatewayRuntime | undefined;
  const alive = async () => {
    if (!gateway) throw new Error('the supergraph is not loaded yet');
    return { supergraph: 'loaded' };
  };
  app.use(healthRouter('gateway', alive, { supergraph: () => supergraphServing(gateway), ...subgraphReadiness(urls) }));
  gateway = await createGateway({ mode: 'remote', urls, secret: subgraphs.secret }, gatewaySecurity(config, actorOf));
  const mounted = mountGateway(app, server, gateway, {
    // A socket needs a valid token in good standing (asked of a subgraph: revocation is refused at
    // connection_init and closes the socket on re-check), ends when it expires, and counts against its credential.
    webSocket: {
      limits: webSocketLimitsOf(config),
      credentialOf: subgraphCheckedCredentials(tokens, systemClock, subgraphs),
      rateLimits: httpSecurity,
      logger,
    },
    bodyLimit: graphqlBodyLimit(config, tokens),
    fanOut,
  });
  const url = await listen(server, config.PORT, config.HOST);
  return {
    url,
    async close() {
      await mounted.close();
      standing.close();
      await closeServer(server);
      await metricsServer?.close();
      redis?.disconnect();
    },
  };
}

/** Each subgraph's check: its /health answers (the subgraph's process and its database). */
function subgraphReadiness(urls: Record<SubgraphName, string>): Record<string, () => Promise<string>> {
  return Object.fromEntries(
    Object.entries(urls).map(([name, url]) => [
      name,
      async () => {
        const res = await fetch(new URL('/health', url), { signal: AbortSignal.timeout(2000) });
        await res.body?.cancel();
        if (!res.ok) throw new Error(`subgraph ${name} is not ready`);
        return 'ready';
      },
    ]),
  );
}

/** The gateway holds its supergraph's schema (loaded at start; answered without calling a subgraph). */
async function supergraphServing(gateway: GatewayRuntime | undefined): Promise<string> {
  const schema = gateway && (await gateway.getSchema());
  if (!schema?.getQueryType()) throw new Error('the supergraph is not loaded');
  return 'ready';
}
