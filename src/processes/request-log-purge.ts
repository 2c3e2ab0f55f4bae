/**
 * The worker's purge of the request log: entries older than REQUEST_LOG_RETENTION_DAYS are deleted
 * at start and then hourly, by whichever worker runs (a purge by two at once deletes the same rows once).
 */
import { purgeRequestLog } from '../modules/request-log/request-log-service.js';
import type { Runtime } from './runtime.js';

export const REQUEST_LOG_PURGE_INTERVAL_MS = 3_600_000;

export interface RequestLogPurge {
  /** Purges now (tests; the timer's work). */
  run(): Promise<number>;
  stop(): Promise<void>;
}

export function startRequestLogPurge(runtime: Runtime, intervalMs = REQUEST_LOG_PURGE_INTERVAL_MS): RequestLogPurge {
  let running: Promise<number> | null = null;
  const run = () => {
    running ??= purgeRequestLog(runtime.database.prisma, runtime.clock.now(), runtime.config.REQUEST_LOG_RETENTION_DAYS)
      .then((purged) => {
        if (purged > 0)
          runtime.logger.info({ purged, retentionDays: runtime.config.REQUEST_LOG_RETENTION_DAYS }, 'request log entries past the retention purged');
        return purged;
      })
      .catch((err: unknown) => {
        runtime.logger.warn({ err }, 'request log purge failed; the next one retries');
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  void run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return {
    run,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
