/** Distributed mode: the gateway as its own process, reaching the subgraphs over HTTP and graphql-ws. */
import http from 'node:http';
import express from 'express';
import type { SubgraphName } from '../api/graphql/subgraphs/index.js';
import { healthRouter } from '../api/http/health.js';
import { closeServer, listen, type RunningServer } from '../api/http/listen.js';
import { createGateway } from '../api/graphql/gateway-runtime.js';
import { mountGateway } from './gateway-server.js';
import { cachedSubgraphStanding, credentialHeadersOnly, subgraphCheckedCredentials, webSocketLimitsOf } from '../api/graphql/websocket-limits.js';
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
  const redis = redisOfConfig(config, logger, 'gateway counters', { maxRetriesPerRequest: 1 });
  const httpSecurity = installHttpSecurity(app, { config, credentialKeyOf: credentialKeyFromTokens(tokens), logger, redis });
  const everyCredentialActive = { assertActive: async () => {}, forget: () => {}, close: () => {} };
  const callerOf = (headers: Headers) => authenticate(tokens, everyCredentialActive, credentialHeaders(headers));
  const actorOf = async (headers: Headers) => (await callerOf(headers)).actor;
  const standing = cachedSubgraphStanding(Object.values(urls), redis);
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
  // The gateway holds no data: it is ready when every subgraph answers its own /health.
  app.use(healthRouter('gateway', () => subgraphReadiness(urls)));
  const mounted = mountGateway(app, server, await createGateway({ mode: 'remote', urls }, gatewaySecurity(config, actorOf)), {
    // A socket needs a valid token in good standing (asked of a subgraph: revocation is refused at
    // connection_init and closes the socket on re-check), ends when it expires, and counts against its credential.
    webSocket: { limits: webSocketLimitsOf(config), credentialOf: subgraphCheckedCredentials(tokens, systemClock, Object.values(urls)), rateLimits: httpSecurity, logger },
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
