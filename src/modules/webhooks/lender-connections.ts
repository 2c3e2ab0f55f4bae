/**
 * Kept-alive HTTP connections to lenders. A new TCP (and TLS) connection per delivery costs more
 * than the delivery's own work, so each lender host gets one undici Agent whose connections stay
 * open between deliveries. The Agent connects only to the addresses the URL policy checked for this
 * delivery (pinnedLookup); when a host's checked addresses change, its Agent is closed and replaced,
 * so a connection is never reused to an address that the latest check did not allow.
 */
import { createRequire } from 'node:module';
import type { Agent } from 'undici';
import type * as UndiciModule from 'undici';
import { loadOnFirstUse } from '../../kernel/load-on-first-use.js';
import { pinnedLookup, type WebhookTarget } from './webhook-url-policy.js';

/** undici, for the Agents here and the delivery's request (webhook-delivery.ts). */
export const undici = loadOnFirstUse(() => createRequire(import.meta.url)('undici') as typeof UndiciModule);

/** Lender hosts kept at once; the least recently used is closed beyond this. */
const MAX_LENDER_HOSTS = 100;
/** An idle connection is closed after this long (lenders' servers commonly close after 5 s). */
const KEEP_ALIVE_MS = 4_000;

interface PinnedAgent {
  addresses: string;
  agent: Agent;
}

const agents = new Map<string, PinnedAgent>();

/** The Agent for this target's host, pinned to the addresses just checked. */
export function lenderAgent(target: WebhookTarget): Agent {
  const host = target.url.hostname;
  const addresses = target.addresses.join(',');
  const current = agents.get(host);
  agents.delete(host);
  if (current && current.addresses === addresses) {
    agents.set(host, current);
    return current.agent;
  }
  if (current) void current.agent.close();
  const agent = new (undici().Agent)({
    connect: { lookup: pinnedLookup(target.addresses) },
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: KEEP_ALIVE_MS,
  });
  agents.set(host, { addresses, agent });
  if (agents.size > MAX_LENDER_HOSTS) {
    const [oldestHost, oldest] = agents.entries().next().value as [string, PinnedAgent];
    agents.delete(oldestHost);
    void oldest.agent.close();
  }
  return agent;
}

/** Closes every kept connection (the worker stops). */
export async function closeLenderConnections(): Promise<void> {
  const open = [...agents.values()];
  agents.clear();
  await Promise.all(open.map((entry) => entry.agent.close()));
}
