/**
 * The federation gateway: The Guild's Hive gateway runtime over the committed supergraph.
 * It carries subscriptions through federation (Apollo's gateway refuses them).
 *
 * - in-process: every subgraph executes inside this process through a custom transport
 *   (no HTTP hop); each subgraph call gets a ServiceContext built from the gateway request.
 * - remote: subgraphs are reached over HTTP, subscriptions over graphql-ws, at configured URLs.
 */
import { graphqlMetricsPlugin } from '../http/graphql-metrics.js';
import { CREDENTIAL_HEADERS } from '../http/connection-headers.js';
import { forwardedCredentials } from './forwarded-credentials.js';
import { maskUnexpectedErrors } from './error-masking.js';
import { REQUEST_ID_HEADER } from '../../infra/request-id.js';
import { GATEWAY_SECRET_HEADER } from '../http/gateway-only.js';
import { createGatewayRuntime, type GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { createDefaultExecutor, type Transport } from '@graphql-mesh/transport-common';
import type { GraphQLSchema } from 'graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { buildSubgraphSchemas, isSubgraphName, type SubgraphName } from './subgraphs/index.js';
import { readCommittedSupergraph } from './compose.js';
import { blockFieldSuggestionsPlugin, graphiqlOptions, introspectionPlugin, type SchemaAccess } from './graphql-access.js';
import { operationLimitPlugins, type OperationLimits } from './operation-limits.js';
import { GRAPHQL_PATH } from './graphql-path.js';

/** What the gateway knows of a request: its headers (identity arrives through them). */
interface GatewayRequestInfo {
  headers: Headers;
}

export type SubgraphPlacement =
  | { mode: 'in-process'; contextFor: (request: GatewayRequestInfo) => Promise<ServiceContext> }
  | { mode: 'remote'; urls: Record<SubgraphName, string>; /** Sent with every subgraph request and upgrade (src/api/http/gateway-only.ts). */ secret: string };

/** Operation limits and schema access (GraphiQL, introspection), from configuration. */
export interface GatewaySecurity {
  /** Always set by the servers; left out only by bench/graphql-limits.ts to measure what they cost. */
  limits?: OperationLimits;
  schemaAccess: SchemaAccess;
}

export async function createGateway(placement: SubgraphPlacement, security: GatewaySecurity): Promise<GatewayRuntime> {
  return warmUp(await createRuntime(placement, security));
}

/**
 * The runtime loads the supergraph on its first HTTP request; a graphql-ws subscription arriving
 * first would find no schema ("Expected null to be a GraphQL schema"). One introspection-free
 * request at start loads it (answered by the gateway itself, no subgraph is called).
 */
async function warmUp(gateway: GatewayRuntime): Promise<GatewayRuntime> {
  const res = await gateway.fetch('http://gateway.local/graphql?query=%7B__typename%7D', { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`gateway failed to load the supergraph: ${res.status} ${await res.text()}`);
  return gateway;
}

async function createRuntime(placement: SubgraphPlacement, security: GatewaySecurity): Promise<GatewayRuntime> {
  const common = {
    supergraph: await readCommittedSupergraph(),
    graphqlEndpoint: GRAPHQL_PATH,
    logging: false,
    maskedErrors: { maskError: maskUnexpectedErrors },
    // CORS is answered by the HTTP layer from the allowlist (src/api/http/cors.ts), never reflected here.
    cors: false,
    ...graphiqlOptions(security.schemaAccess),
    plugins: () => [
      ...(security.limits ? operationLimitPlugins(security.limits) : []),
      introspectionPlugin(security.schemaAccess),
      ...(security.schemaAccess.introspection === 'everyone' ? [] : [blockFieldSuggestionsPlugin()]),
      graphqlMetricsPlugin(),
    ],
  } as const;
  if (placement.mode === 'in-process') {
    const schemas = await buildSubgraphSchemas();
    return createGatewayRuntime({ ...common, transports: { http: inProcessTransport(schemas, placement.contextFor) } });
  }
  // The subgraphs answer the gateway only: its secret goes with every request and every upgrade.
  const asGateway: Array<[string, string]> = [[GATEWAY_SECRET_HEADER, placement.secret]];
  return createGatewayRuntime({
    ...common,
    // Subgraphs authenticate each request themselves: the caller's credentials travel with it.
    propagateHeaders: { fromClientToSubgraphs: ({ request }) => ({ ...forwardedCredentials(request.headers), ...forwardedRequestId(request.headers) }) },
    transportEntries: {
      // Without the ws kind the gateway tries SSE, which Apollo Server's CSRF guard refuses.
      // Over graphql-ws the credentials go in connection_init, from the context gateway-server.ts
      // builds; the gateway's secret in the upgrade request's headers.
      '*.http': {
        headers: asGateway,
        options: { subscriptions: { kind: 'ws', location: GRAPHQL_PATH, headers: asGateway, options: { connectionParams: WS_CREDENTIAL_PARAMS } } },
      },
      ...Object.fromEntries(Object.entries(placement.urls).map(([name, location]) => [name, { location }])),
    },
  });
}

/** The request id travels to the subgraphs, so their log lines carry it too. */
function forwardedRequestId(headers: Headers): Record<string, string> {
  const id = headers.get(REQUEST_ID_HEADER);
  return id ? { [REQUEST_ID_HEADER]: id } : {};
}

const WS_CREDENTIAL_PARAMS = Object.fromEntries(CREDENTIAL_HEADERS.map((name) => [name, `{context.credentials.${name}}`]));

function inProcessTransport(schemas: Record<SubgraphName, GraphQLSchema>, contextFor: (request: GatewayRequestInfo) => Promise<ServiceContext>): Transport {
  // One ServiceContext per HTTP request (its JWT verified once), shared by every subgraph call the
  // plan makes for it; keyed by the gateway's own context object, so it goes with the request.
  // A graphql-ws operation lives as long as its subscription, so its subgraph calls each build their
  // own context; a revoked credential stops receiving through the fan-out's per-event check
  // (src/api/graphql/subscription-fanout.ts).
  const contexts = new WeakMap<object, Promise<ServiceContext>>();
  const sharedContextFor = (gatewayContext: unknown): Promise<ServiceContext> => {
    const isHttpRequest = typeof gatewayContext === 'object' && gatewayContext !== null && 'request' in gatewayContext;
    if (!isHttpRequest) return contextFor(requestInfoOf(gatewayContext));
    let context = contexts.get(gatewayContext);
    if (!context) {
      context = contextFor(requestInfoOf(gatewayContext));
      contexts.set(gatewayContext, context);
    }
    return context;
  };
  return {
    getSubgraphExecutor({ subgraphName }) {
      if (!isSubgraphName(subgraphName)) throw new Error(`Unknown subgraph ${subgraphName}`);
      const execute = createDefaultExecutor(schemas[subgraphName]);
      return async (request) => execute({ ...request, context: await sharedContextFor(request.context) });
    },
  };
}

/**
 * For graphql-ws the gateway context carries the `headers` we derive on connect (gateway-server.ts);
 * for HTTP it carries the Fetch Request.
 */
function requestInfoOf(gatewayContext: unknown): GatewayRequestInfo {
  const ctx = (gatewayContext ?? {}) as { request?: { headers?: Headers }; headers?: Headers };
  return { headers: ctx.headers ?? ctx.request?.headers ?? new Headers() };
}
