/**
 * Starting a measured server as `npm start` does: the compiled build, NODE_ENV=production unless the
 * caller's environment sets it, and no LOG_LEVEL override (the default level, info, logs every
 * request: measuring at `warn` flattered each request by about a fifth).
 */
import { startEntry, type RunningProcess } from '../test/support/processes.js';

export function startMeasuredServer(entry: string, env: Record<string, string>): RunningProcess {
  if ('LOG_LEVEL' in env) throw new Error(`${entry}: a measured server runs at the default log level; LOG_LEVEL must not be set`);
  // The rate limiter runs (its cost is measured); only its ceiling is raised above what one load
  // generator, one address and one credential, sends in a run (the demo default is 100,000 a minute).
  return startEntry(
    entry,
    [],
    { NODE_ENV: process.env.NODE_ENV ?? 'production', RATE_LIMIT_PER_ADDRESS: '1000000000', RATE_LIMIT_PER_CREDENTIAL: '1000000000', ...env },
    { compiled: true },
  );
}
