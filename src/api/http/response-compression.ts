/**
 * HTTP compression (gzip or brotli, as the client's Accept-Encoding asks) of every text answer a
 * server sends to clients: pages, scripts, styles, JSON and problem details, GraphQL answers. The
 * reference page's renderer alone is ~4 MB of script, several times smaller compressed.
 *
 * Left as they are:
 * - answers that stream events (GraphQL over SSE, incremental delivery as multipart/mixed): zlib
 *   holds bytes back until it has a block to emit, so events would arrive late or never;
 * - file downloads that name a digest of their exact bytes (Digest, Repr-Digest, Content-Digest):
 *   a recipient checks the bytes it receives against it;
 * - answers already encoded (a forwarded gateway answer), `Cache-Control: no-transform`, HEAD, and
 *   answers under 1 KB (the `compression` package's own rules).
 * WebSocket upgrades (graphql-ws) never reach Express's middleware, so nothing here touches them.
 *
 * gzip at level 3, not zlib's default 6: the last of zlib's fast levels, it takes half the CPU and
 * time of level 6 on the large answers (a first matches results at 10,000 products, 2 MB of JSON: 7
 * against 14 ms; the reference page's 4.3 MB renderer: 63 against 114 ms, on every first visit), for
 * a third more bytes. Brotli, which browsers ask for over HTTPS, keeps the package's quality 4.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import compression from 'compression';
import type { RequestHandler } from 'express';

const STREAMED_TYPES = /^\s*(text\/event-stream|multipart\/mixed)\b/i;
const DIGEST_HEADERS = ['digest', 'repr-digest', 'content-digest'];
const GZIP_LEVEL = 3;

/** Whether an answer, as its headers stand when they are sent, is compressed (given a client that accepts it). */
function compressibleAnswer(req: IncomingMessage, res: ServerResponse): boolean {
  const type = res.getHeader('Content-Type');
  if (typeof type === 'string' && STREAMED_TYPES.test(type)) return false;
  if (DIGEST_HEADERS.some((name) => res.hasHeader(name))) return false;
  return compression.filter(req as never, res as never);
}

export function responseCompression(): RequestHandler {
  return compression({ filter: compressibleAnswer as never, level: GZIP_LEVEL });
}
