/**
 * Who is told when a lender or its products change: modules that keep something derived from the
 * catalogue (matching's in-memory product index) subscribe to `lenderCatalogueChanged` on the event
 * bus, so the lenders module needs to know nothing of them, and every process hears of a change
 * (the bus is in memory in one process, Redis-backed across processes). Changes made outside the
 * services (the admin CLI) reach the others within their cache's TTL.
 */
import type { ServiceContext } from '../../kernel/context.js';

declare module '../../kernel/events.js' {
  interface ModuleEventTopics {
    /** On the environment's name: the catalogue of that environment changed (the payload says nothing more). */
    lenderCatalogueChanged: [channel: string, payload: { environment: string }];
  }
}

/**
 * Published after the change is stored; resolves once the bus has it (Redis answered the PUBLISH),
 * so the use case answers only then and the caller's next request, to any process, comes after it.
 * Never rejects: a lost event costs only freshness (the TTL catches up).
 */
export async function lenderCatalogueChanged(ctx: Pick<ServiceContext, 'events' | 'environment' | 'logger'>): Promise<void> {
  try {
    await ctx.events.publish('lenderCatalogueChanged', ctx.environment, { environment: ctx.environment });
    await ctx.events.published?.();
  } catch (err) {
    ctx.logger.warn({ err }, 'lender catalogue change not published');
  }
}
