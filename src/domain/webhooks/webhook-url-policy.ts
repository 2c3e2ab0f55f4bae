/**
 * Where we may send webhooks: http(s) only, and, in production, never to loopback, private,
 * link-local or other non-public addresses (no SSRF into our network) unless configuration allows
 * them. A demo deployment allows loopback so a local lender (the simulator) can be tested. The host
 * is resolved and every address it resolves to is checked.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { DeployEnvironment } from '../context.js';
import { AppError } from '../errors.js';

export interface UrlPolicy {
  environment: DeployEnvironment;
  /** Configuration switch for private networks (e.g. lenders on a VPN). */
  allowPrivateAddresses?: boolean;
}

const PUBLIC_RANGES = new Set(['unicast']);

export function addressAllowed(address: string, policy: UrlPolicy): boolean {
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (PUBLIC_RANGES.has(range)) return true;
  if (range === 'loopback' && (policy.environment === 'demo' || policy.allowPrivateAddresses)) return true;
  return range === 'private' || range === 'uniqueLocal' ? policy.allowPrivateAddresses === true : false;
}

/** 422 naming the reason when the URL may not receive webhooks. */
export async function assertWebhookUrl(url: string, policy: UrlPolicy, pointer = '/url'): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw AppError.unprocessable('The webhook URL is not a URL', [{ pointer, message: 'must be an absolute http(s) URL' }]);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw AppError.unprocessable('Webhooks are sent over http(s) only', [{ pointer, message: 'must use http or https' }]);
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw AppError.unprocessable('The webhook host does not resolve', [{ pointer, message: `${host} does not resolve` }]);
  const refused = addresses.find((a) => !addressAllowed(a, policy));
  if (refused) {
    throw AppError.unprocessable('Webhooks are not sent to this network', [
      { pointer, message: `${host} resolves to ${refused}, a ${ipaddr.process(refused).range()} address, which this deployment does not send webhooks to` },
    ]);
  }
  return parsed;
}
