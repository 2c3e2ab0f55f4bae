/** The caller's credential headers, as a plain object a remote subgraph transport can send on. */
import { CREDENTIAL_HEADERS } from '../http/connection-headers.js';

export function forwardedCredentials(headers: Headers): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers.get(name);
    if (value) forwarded[name] = value;
  }
  return forwarded;
}
