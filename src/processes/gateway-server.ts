/**
 * Serves a GraphQL server at /graphql over HTTP and graphql-ws (same path) on an existing HTTP
 * server: the Hive gateway (distributed mode) or the local schema's Yoga server (single process);
 * the gateway runtime is a Yoga server too.
 */
import type { Server } from 'node:http';
import type { IRouter, RequestHandler } from 'express';
import { Kind, OperationTypeNode, type DocumentNode, type ExecutionArgs } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import type { Context as WsServerContext, ServerOptions as WsServerOptions } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import { connectionHeaders } from '../api/http/connection-headers.js';
import { bodyAsStream } from '../api/http/graphql-body-limit.js';
import { forwardedCredentials } from '../api/graphql/forwarded-credentials.js';
import { liveSubscriptions } from '../infra/metrics.js';
import { fanOutSubscriptions, type FanOutOptions } from '../api/graphql/subscription-fanout.js';
import { limitedWebSocketServer, withWebSocketLimits, type WebSocketGuard } from '../api/graphql/websocket-limits.js';

export interface MountedGateway {
  close(): Promise<void>;
}

export interface GatewayMountOptions {
  /** The graphql-ws limits (src/api/graphql/websocket-limits.ts). */
  webSocket: WebSocketGuard;
  /** The POST body ceiling, checked before the gateway reads the body (src/api/http/graphql-body-limit.ts). */
  bodyLimit: RequestHandler;
  /** Answers some POSTs itself from the body the limit read, before the gateway (the local schema's plain-post-fast-path.ts). */
  fastPath?: RequestHandler;
  /**
   * Live subscriptions of one audience share their executions (src/api/graphql/subscription-fanout.ts):
   * in the single process and in the distributed gateway, each telling the caller's audience its way.
   */
  fanOut?: FanOutOptions;
}

/** A Yoga server: the Hive gateway runtime or the local schema's (src/api/graphql/local-graphql.ts). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the two servers' contexts differ; only the request pipeline is used here
export type GraphQLServer = YogaServerInstance<any, any>;

/** `app`: the Express app, or the router the app keeps GraphQL's place with (single-process-server.ts). */
export function mountGateway(
  app: IRouter,
  server: Server,
  gateway: GraphQLServer,
  { webSocket, bodyLimit, fastPath, fanOut }: GatewayMountOptions,
): MountedGateway {
  app.use(gateway.graphqlEndpoint, bodyLimit, ...(fastPath ? [fastPath] : []), bodyAsStream, gateway);
  const wss = limitedWebSocketServer(server, gateway.graphqlEndpoint, webSocket);
  const options = graphqlWsOptions(gateway, (ctx) => {
    const headers = connectionHeaders((ctx.extra as Extra).request.headers, ctx.connectionParams);
    // `credentials` is a plain object so remote subgraph transports can interpolate it (gateway-runtime.ts).
    return { headers, credentials: forwardedCredentials(headers) };
  });
  // Live: from the moment an operation answers with a stream until it completes (client, server or socket close).
  const live = new WeakMap<object, Set<string>>();
  const ws = useServer(
    withWebSocketLimits(
      {
        ...options,
        ...(fanOut && options.subscribe ? { subscribe: fanOutSubscriptions(options.subscribe, fanOut) } : {}),
        onOperation: async (ctx, id, payload, args, result) => {
          const replaced = await options.onOperation?.(ctx, id, payload, args, result);
          if (Symbol.asyncIterator in Object(replaced ?? result)) {
            if (!live.has(ctx)) live.set(ctx, new Set());
            live.get(ctx)!.add(id);
            liveSubscriptions.inc();
          }
          return replaced;
        },
        onComplete: async (ctx, id, payload) => {
          if (live.get(ctx)?.delete(id)) liveSubscriptions.dec();
          await options.onComplete?.(ctx, id, payload);
        },
      },
      webSocket,
    ),
    wss,
  );
  return {
    async close() {
      await ws.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await gateway.dispose();
    },
  };
}

/** graphql-ws hands the document to the server's own pipeline, which parses and validates it: this placeholder only passes graphql-ws's check. */
const PARSED_BY_THE_SERVER: DocumentNode = {
  kind: Kind.DOCUMENT,
  definitions: [{ kind: Kind.OPERATION_DEFINITION, operation: OperationTypeNode.SUBSCRIPTION, selectionSet: { kind: Kind.SELECTION_SET, selections: [] } }],
};

/**
 * Every graphql-ws operation goes through the server's whole request pipeline (its plugins: limits,
 * introspection access, metrics; its schema, loaded on first use), as an HTTP request would; the
 * same bridge as the Hive runtime's `getGraphQLWSOptions`, which would load the whole runtime.
 */
function graphqlWsOptions(
  yoga: GraphQLServer,
  onContext: (ctx: WsServerContext) => Record<string, unknown>,
): Required<Pick<WsServerOptions, 'execute' | 'subscribe' | 'onSubscribe'>> & Pick<WsServerOptions, 'onOperation' | 'onComplete'> {
  const run = (args: ExecutionArgs) => {
    const context = args.contextValue as { params: never; request?: never };
    return yoga.getResultForParams({ params: context.params, request: context.request as never }, context) as never;
  };
  return {
    execute: run,
    subscribe: run,
    // No schema: the server's pipeline brings its own.
    onSubscribe: (ctx, _id, params) =>
      ({
        document: PARSED_BY_THE_SERVER,
        contextValue: { connectionParams: ctx.connectionParams, waitUntil: yoga.waitUntil, params, ...onContext(ctx) },
      }) as unknown as ExecutionArgs,
  };
}
