/**
 * Credentials of a graphql-ws connection. Browsers cannot set headers on a WebSocket, so clients
 * may send them in connection_init's payload (e.g. { authorization: 'Bearer …' }); those win over
 * the upgrade request's own headers.
 */
import type { IncomingHttpHeaders } from 'node:http';

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
