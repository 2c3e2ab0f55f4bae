/**
 * Starting a measured server as `npm start` does: the compiled build, NODE_ENV=production unless the
 * caller's environment sets it, and no LOG_LEVEL override (the default level, info, logs every
 * request: measuring at `warn` flattered each request by about a fifth).
 */
import { startEntry, type RunningProcess } from '../test/support/processes.js';

export function startMeasuredServer(entry: string, env: Record<string, string>): RunningProcess {
  if ('LOG_LEVEL' in env) throw new Error(`${entry}: a measured server runs at the default log level; LOG_LEVEL must not be set`);
  return startEntry(entry, [], { NODE_ENV: process.env.NODE_ENV ?? 'production', ...env }, { compiled: true });
}
