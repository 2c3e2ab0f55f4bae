/**
 * Graceful shutdown on SIGINT/SIGTERM. The Hive runtime installs its own signal handlers that
 * dispose the gateway but leave the process running, so every entry point registers this one.
 */
import type { Logger } from '../infra/logger.js';

export function onShutdown(logger: Logger, close: () => Promise<void>): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
