/**
 * What the HTTP edge's routers use of a process: its configuration, logger, credential machinery
 * and a way to make a service context. A process's Runtime (processes/runtime.ts) is one; the edge
 * names only what it uses, so it never imports the processes that start it.
 */
import type { AppConfig } from '../../kernel/config.js';
import type { ServiceContext } from '../../kernel/context.js';
import type { Logger } from '../../infra/logger.js';
import type { AuthKit } from '../../modules/identity/auth-kit.js';

export interface EdgeServices {
  config: AppConfig;
  logger: Logger;
  auth: AuthKit;
  /**
   * An anonymous context, for pages and endpoints that authenticate by other means (signed links,
   * client credentials); `requestId` (the request's, requestIdOf(res)) names it in logs and the deliveries it queues.
   */
  contextFor(caller?: undefined, requestId?: string): ServiceContext;
}
