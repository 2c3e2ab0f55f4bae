/**
 * Who is told when a lender or its products change: modules that keep something derived from the
 * catalogue (matching's in-memory product index) subscribe to `lenderCatalogueChanged` on the event
 * bus, so the lenders module needs to know nothing of them, and every process hears of a change
 * (the bus is in memory in one process, Redis-backed across processes). Changes made outside the
 * services (the admin CLI) publish nothing: searches find them by the catalogue's revision.
 */
import type { ServiceContext } from '../../kernel/context.js';

declare module '../../kernel/events.js' {
  interface ModuleEventTopics {
    /** On the environment's name: the catalogue of that environment changed (the payload says nothing more). */
    lenderCatalogueChanged: [channel: string, payload: { environment: string }];
  }
}

/**
 * Published after the change is stored, so every process starts loading the new catalogue before a
 * search asks for it. Not awaited by the answer: correctness does not hang on the event (a search
 * checks its snapshot against the catalogue revision the database keeps, product-catalogue.ts), so
 * a slow or unreachable Redis neither delays nor fails the change. Never rejects.
 */
export function lenderCatalogueChanged(ctx: Pick<ServiceContext, 'events' | 'environment' | 'logger'>): void {
  try {
    ctx.events.publish('lenderCatalogueChanged', ctx.environment, { environment: ctx.environment });
  } catch (err) {
    ctx.logger.warn({ err }, 'lender catalogue change not published');
  }
}
