/**
 * Where we may send webhooks: http(s) only, and, in production, never to loopback, private,
 * link-local or other non-public addresses (no SSRF into our network) unless configuration allows
 * them. A demo deployment allows loopback so a local lender (the simulator) can be tested. The host
 * is resolved once and every address it resolves to is checked; the delivery then connects to a
 * checked address (pinnedLookup), so a second DNS answer cannot point it elsewhere (rebinding).
 * URLs are checked when a lender is registered or changed, and again at every delivery.
 */
import type { LookupOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { DeployEnvironment } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';

/** A new lender's application URL until an administrator sets one (it delivers nowhere). */
export const PLACEHOLDER_WEBHOOK = 'http://127.0.0.1:0/unset';

export interface UrlPolicy {
  environment: DeployEnvironment;
  /** Configuration switch for private networks (e.g. lenders on a VPN). */
  allowPrivateAddresses?: boolean;
  /**
   * Accept a host that does not resolve yet (registration: a lender's endpoint may not be live;
   * every delivery checks it again and refuses it then).
   */
  allowUnresolved?: boolean;
}

const PUBLIC_RANGES = new Set(['unicast']);

export function addressAllowed(address: string, policy: UrlPolicy): boolean {
  const range = rangeOf(address);
  if (PUBLIC_RANGES.has(range)) return true;
  if (range === 'loopback' && (policy.environment === 'demo' || policy.allowPrivateAddresses)) return true;
  return range === 'private' || range === 'uniqueLocal' ? policy.allowPrivateAddresses === true : false;
}

/**
 * ipaddr.js's range, except that IPv4-compatible IPv6 (::/96, deprecated) counts as reserved
 * rather than unicast: ::127.0.0.1 must not slip through as "public". IPv4-mapped addresses
 * (::ffff:0:0/96) are judged as the IPv4 address they carry (ipaddr.process).
 */
function rangeOf(address: string): string {
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0) && parsed.range() === 'unicast') return 'reserved';
  return parsed.range();
}

export interface WebhookTarget {
  url: URL;
  /** Every address the host resolved to, all checked. */
  addresses: string[];
}

/** 422 naming the reason when the URL may not receive webhooks. */
export async function assertWebhookUrl(url: string, policy: UrlPolicy, pointer = '/url'): Promise<URL> {
  return (await resolveWebhookTarget(url, policy, pointer)).url;
}

/** A dns.lookup that answers with the addresses already checked, whatever the host. */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4 }));
  return ((_host: string, options: LookupOptions, callback: (err: null, address: unknown, family?: number) => void) => {
    if (options?.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  }) as LookupFunction;
}

export async function resolveWebhookTarget(url: string, policy: UrlPolicy, pointer = '/url'): Promise<WebhookTarget> {
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
  if (addresses.length === 0 && policy.allowUnresolved) return { url: parsed, addresses };
  if (addresses.length === 0) throw AppError.unprocessable('The webhook host does not resolve', [{ pointer, message: `${host} does not resolve` }]);
  const refused = addresses.find((a) => !addressAllowed(a, policy));
  if (refused) {
    throw AppError.unprocessable('Webhooks are not sent to this network', [
      { pointer, message: `${host} resolves to ${refused}, a ${rangeOf(refused)} address, which this deployment does not send webhooks to` },
    ]);
  }
  return { url: parsed, addresses };
}
