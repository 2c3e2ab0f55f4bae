/**
 * The REST adapter of the distributed deployment forwards /graphql (HTTP and the graphql-ws
 * upgrade) to the gateway process, so a page it serves (the operations dashboard) calls GraphQL on
 * its own origin, as its CSP (`connect-src 'self'`) requires, without CORS. Bodies and frames pass
 * through untouched; the gateway and the subgraphs authenticate and limit every request themselves.
 * The caller's address goes in X-Forwarded-For (the one Express trusted here, never a client's own
 * claim); the gateway believes it when its TRUST_PROXY names this hop (start:distributed: loopback).
 */
import http, { type IncomingMessage, type Server } from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { Express, Request, Response } from 'express';
import type { Logger } from '../../infra/logger.js';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host']);

export interface GraphQLForwarding {
  /** Ends the forwarded WebSockets (their upstream sockets too): the server can then close. */
  close(): void;
}

export function forwardGraphQL(app: Express, server: Server, gatewayUrl: string, logger: Logger): GraphQLForwarding {
  const target = new URL(gatewayUrl);
  const path = target.pathname;
  const port = Number(target.port || 80);

  app.use(path, (req: Request, res: Response) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    const upstream = http.request(
      {
        hostname: target.hostname,
        port,
        path: `${path}${req.originalUrl.slice(req.baseUrl.length).replace(/^\/(?=\?|$)/, '')}`,
        method: req.method,
        headers: { ...headers, ...forwardedHeaders(req.ip, req.headers.host) },
      },
      (answer) => {
        const out: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
        res.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      logger.warn({ err, gatewayUrl }, 'the GraphQL gateway did not answer a forwarded request');
      if (!res.headersSent)
        res
          .status(502)
          .type('application/problem+json')
          .send(JSON.stringify({ title: 'Bad Gateway', status: 502, detail: 'The GraphQL gateway did not answer' }));
      else res.destroy();
    });
    req.pipe(upstream);
  });

  const open = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://local').pathname !== path) {
      socket.destroy();
      return;
    }
    const upstream = net.connect(port, target.hostname);
    const end = () => {
      socket.destroy();
      upstream.destroy();
      open.delete(socket);
      open.delete(upstream);
    };
    open.add(socket).add(upstream);
    upstream.once('connect', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i]!;
        if (!/^(x-forwarded-for|x-forwarded-host|x-forwarded-proto|host)$/i.test(name)) lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
      }
      lines.push(`Host: ${target.host}`);
      for (const [name, value] of Object.entries(forwardedHeaders(req.socket.remoteAddress, req.headers.host))) lines.push(`${name}: ${value}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', (err) => {
      logger.warn({ err, gatewayUrl }, 'the GraphQL gateway did not take a forwarded WebSocket');
      end();
    });
    socket.on('error', end);
    socket.on('close', end);
    upstream.on('close', end);
  });
  return {
    close() {
      for (const socket of open) socket.destroy();
      open.clear();
    },
  };
}

function forwardedHeaders(clientAddress: string | undefined, host: string | undefined): Record<string, string> {
  return { ...(clientAddress ? { 'x-forwarded-for': clientAddress } : {}), ...(host ? { 'x-forwarded-host': host } : {}) };
}
