/**
 * Credentials of a graphql-ws connection. Browsers cannot set headers on a WebSocket, so clients
 * may send them in connection_init's payload (e.g. { authorization: 'Bearer …' }); other clients
 * send them as headers of the upgrade request. Either place is honoured; when both carry the same
 * credential they must agree (src/api/graphql/websocket-limits.ts refuses the connection otherwise).
 */
import type { IncomingHttpHeaders } from 'node:http';

/** The request headers that carry identity (spec 4.2, 4.4); the gateway forwards these to subgraphs. */
export const CREDENTIAL_HEADERS = ['authorization', 'service-tenant-id'] as const;

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

/** The credential header the upgrade request and connection_init both carry, with different values; else null. */
export function conflictingCredential(upgrade: IncomingHttpHeaders, params: Readonly<Record<string, unknown>> | undefined): string | null {
  for (const name of CREDENTIAL_HEADERS) {
    const fromUpgrade = upgrade[name];
    if (typeof fromUpgrade !== 'string') continue;
    for (const [key, value] of Object.entries(params ?? {})) {
      if (key.toLowerCase() === name && typeof value === 'string' && value.trim() !== fromUpgrade.trim()) return name;
    }
  }
  return null;
}
