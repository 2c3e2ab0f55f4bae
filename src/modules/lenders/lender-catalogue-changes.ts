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
  let timer: NodeJS.Timeout | undefined;
  try {
    await ctx.events.publish('lenderCatalogueChanged', ctx.environment, { environment: ctx.environment });
    // Redis unreachable: the change is stored, so answer within PUBLISH_WAIT_MS all the same.
    const waited = await Promise.race([
      (ctx.events.published?.() ?? Promise.resolve()).then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), PUBLISH_WAIT_MS))),
    ]);
    if (!waited) ctx.logger.warn('lender catalogue change not yet taken by the event bus');
  } catch (err) {
    ctx.logger.warn({ err }, 'lender catalogue change not published');
  } finally {
    clearTimeout(timer);
  }
}

/** The longest a catalogue change's answer waits for the bus to take its event. */
const PUBLISH_WAIT_MS = 1000;
