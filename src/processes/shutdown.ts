/**
 * Graceful shutdown on SIGINT/SIGTERM. Installed first thing in every entry point, before anything
 * opens: a signal arriving during start-up still closes what is open so far (the Hive runtime
 * installs its own signal handlers that dispose the gateway but leave the process running, so a
 * signal no handler of ours sees would leave the process up). Resources close in reverse order of
 * opening; a close that hangs cannot keep the process past the deadline.
 */
import type { Logger } from '../infra/logger.js';

/** Every process exits within this long of the signal (the deployment's stop timeout is longer). */
export const SHUTDOWN_DEADLINE_MS = 4_500;

export interface Shutdown {
  /** Registers a resource to close on shutdown, closed before those registered earlier. */
  add(name: string, close: () => Promise<void>): void;
}

export function handleShutdownSignals(logger: Logger, deadlineMs = SHUTDOWN_DEADLINE_MS): Shutdown {
  const closers: Array<{ name: string; close: () => Promise<void> }> = [];
  let closing = false;
  const stop = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error({ deadlineMs }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, deadlineMs).unref();
    let failed = false;
    for (const { name, close } of closers.reverse()) {
      const started = Date.now();
      await close().catch((err: unknown) => {
        failed = true;
        logger.error({ err, resource: name }, 'error during shutdown');
      });
      logger.debug({ resource: name, ms: Date.now() - started }, 'closed');
    }
    process.exit(failed ? 1 : 0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return {
    add(name, close) {
      closers.push({ name, close });
    },
  };
}
