/**
 * The federation gateway: The Guild's Hive gateway runtime over the committed supergraph.
 * It carries subscriptions through federation (Apollo's gateway refuses them).
 *
 * - in-process: every subgraph executes inside this process through a custom transport
 *   (no HTTP hop); each subgraph call gets a ServiceContext built from the gateway request.
 * - remote: subgraphs are reached over HTTP, subscriptions over graphql-ws, at configured URLs.
 */
import { createGatewayRuntime, type GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { createDefaultExecutor, type Transport } from '@graphql-mesh/transport-common';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { ServiceContext } from '../src/domain/context.js';
import { buildSubgraphSchemas, isSubgraphName, type SubgraphName } from '../subgraphs/index.js';
import { readCommittedSupergraph } from './compose.js';

/** What the gateway knows of a request: its headers (identity arrives through them). */
export interface GatewayRequestInfo {
  headers: Headers;
}

export type SubgraphPlacement =
  | { mode: 'in-process'; contextFor: (request: GatewayRequestInfo) => Promise<ServiceContext> }
  | { mode: 'remote'; urls: Record<SubgraphName, string> };

export async function createGateway(placement: SubgraphPlacement): Promise<GatewayRuntime> {
  return warmUp(await createRuntime(placement));
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

async function createRuntime(placement: SubgraphPlacement): Promise<GatewayRuntime> {
  const common = {
    supergraph: await readCommittedSupergraph(),
    graphqlEndpoint: '/graphql',
    logging: false,
    maskedErrors: { maskError: maskUnexpectedErrors },
  } as const;
  if (placement.mode === 'in-process') {
    const schemas = await buildSubgraphSchemas();
    return createGatewayRuntime({ ...common, transports: { http: inProcessTransport(schemas, placement.contextFor) } });
  }
  return createGatewayRuntime({
    ...common,
    // Subgraphs authenticate each request themselves: the caller's credentials travel with it.
    propagateHeaders: { fromClientToSubgraphs: ({ request }) => forwardedCredentials(request.headers) },
    transportEntries: {
      // Without the ws kind the gateway tries SSE, which Apollo Server's CSRF guard refuses.
      // Over graphql-ws the credentials go in connection_init, from the context gateway-server.ts builds.
      '*.http': { options: { subscriptions: { kind: 'ws', location: '/graphql', options: { connectionParams: WS_CREDENTIAL_PARAMS } } } },
      ...Object.fromEntries(Object.entries(placement.urls).map(([name, location]) => [name, { location }])),
    },
  });
}

/** The request headers that carry identity (spec 4.2, 4.4) and go from gateway to subgraph. */
export const CREDENTIAL_HEADERS = ['authorization', 'service-tenant-id'] as const;

export function forwardedCredentials(headers: Headers): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers.get(name);
    if (value) forwarded[name] = value;
  }
  return forwarded;
}

const WS_CREDENTIAL_PARAMS = Object.fromEntries(CREDENTIAL_HEADERS.map((name) => [name, `{context.credentials.${name}}`]));

function inProcessTransport(
  schemas: Record<SubgraphName, GraphQLSchema>,
  contextFor: (request: GatewayRequestInfo) => Promise<ServiceContext>,
): Transport {
  // One ServiceContext per HTTP request (its JWT verified once), shared by every subgraph call the
  // plan makes for it; keyed by the gateway's own context object, so it goes with the request.
  // A graphql-ws operation lives as long as its subscription: each event is still authenticated
  // afresh (a revoked credential stops receiving).
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

/**
 * Errors the subgraphs raised on purpose (GraphQL errors, e.g. mapped AppErrors) pass through;
 * anything else is masked. Recognised by name rather than `instanceof`, because graphql's ESM and
 * CJS builds can both be loaded (Apollo's subgraph library is CJS) and their classes differ.
 */
export function maskUnexpectedErrors(error: unknown): Error {
  if (isIntendedGraphQLError(error)) return error as Error;
  return new GraphQLError('Unexpected error.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

function isIntendedGraphQLError(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'GraphQLError') return false;
  const original = (error as { originalError?: unknown }).originalError;
  return original == null || isIntendedGraphQLError(original);
}
