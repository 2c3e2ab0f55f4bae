/** Serves the gateway at /graphql over HTTP and graphql-ws (same path) on an existing HTTP server. */
import type { Server } from 'node:http';
import type { Express, RequestHandler } from 'express';
import { getGraphQLWSOptions, type GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { useServer } from 'graphql-ws/use/ws';
import type { Extra } from 'graphql-ws/use/ws';
import { connectionHeaders } from '../api/http/connection-headers.js';
import { forwardedCredentials } from '../api/graphql/gateway-runtime.js';
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
  /**
   * Single-process mode, where the gateway knows the caller's identity: live subscriptions of one
   * audience share their executions (src/api/graphql/subscription-fanout.ts).
   */
  fanOut?: FanOutOptions;
}

export function mountGateway(app: Express, server: Server, gateway: GatewayRuntime, { webSocket, bodyLimit, fanOut }: GatewayMountOptions): MountedGateway {
  app.use(gateway.graphqlEndpoint, bodyLimit, gateway);
  const wss = limitedWebSocketServer(server, gateway.graphqlEndpoint, webSocket);
  const options = getGraphQLWSOptions(gateway, (ctx) => {
    const headers = connectionHeaders((ctx.extra as Extra).request.headers, ctx.connectionParams);
    // `credentials` is a plain object so remote subgraph transports can interpolate it (gateway-runtime.ts).
    return { headers, credentials: forwardedCredentials(headers) };
  });
  // Live: from the moment an operation answers with a stream until it completes (client, server or socket close).
  const live = new WeakMap<object, Set<string>>();
  const ws = useServer(
    withWebSocketLimits({
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
    }, webSocket),
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
