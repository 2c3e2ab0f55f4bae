/** Serves the gateway at /graphql over HTTP and graphql-ws (same path) on an existing HTTP server. */
import type { Server } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { Express } from 'express';
import { getGraphQLWSOptions, type GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { useServer } from 'graphql-ws/use/ws';
import type { Extra } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';

export interface MountedGateway {
  close(): Promise<void>;
}

export function mountGateway(app: Express, server: Server, gateway: GatewayRuntime): MountedGateway {
  app.use(gateway.graphqlEndpoint, gateway);
  const wss = new WebSocketServer({ server, path: gateway.graphqlEndpoint });
  const ws = useServer(
    getGraphQLWSOptions(gateway, (ctx) => ({
      headers: connectionHeaders((ctx.extra as Extra).request.headers, ctx.connectionParams),
    })),
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

/**
 * Browsers cannot set headers on a WebSocket, so clients may send them in connection_init's payload
 * (e.g. { authorization: 'Bearer …' }); those win over the upgrade request's own headers.
 */
export function connectionHeaders(upgrade: IncomingHttpHeaders, params: Readonly<Record<string, unknown>> | undefined): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(upgrade)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  for (const [name, value] of Object.entries(params ?? {})) {
    if (typeof value === 'string') headers.set(name.toLowerCase(), value);
  }
  return headers;
}
