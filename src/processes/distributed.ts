/**
 * `npm run start:distributed`: the distributed deployment on one machine. Prepares the database
 * (migrations, demo seed), then starts each subgraph, the REST adapter and the gateway as separate
 * processes talking HTTP/WebSocket over one PostgreSQL, with events shared through Redis.
 *
 * Ports (BASE_PORT, default 4000): gateway BASE, REST adapter BASE+1, webhook delivery worker BASE+2
 * (/health only), subgraphs BASE+11..BASE+14.
 *
 * Supervision: a service that exits is started again, after a delay that grows with its exits in a
 * row (restart-policy.ts), while the others go on serving; the deployment stops on SIGINT/SIGTERM, or
 * when one service keeps exiting, which the log names.
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../kernel/config.js';
import { createLogger, logDestination } from '../infra/logger.js';
import { startRuntime } from './runtime.js';
import { SHUTDOWN_DEADLINE_MS } from './shutdown.js';
import { decideRestart, SERVICE_RESTART_POLICY } from './restart-policy.js';
import { RUNNING_COMPILED } from '../kernel/repository-root.js';
import { databaseIdentity, recordRunningServer } from './running-server.js';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'funding-gateway:supervisor', logDestination(config.LOG_FORMAT));
if (!config.DATABASE_URL) {
  logger.fatal('distributed mode runs on a real PostgreSQL: set DATABASE_URL (the embedded database serves `npm start`)');
  process.exit(2);
}
const basePort = Number(process.env.BASE_PORT ?? 4000);
const redisUrl = config.REDIS_URL ?? 'redis://127.0.0.1:6379';
const loopback = (port: number) => `http://127.0.0.1:${port}`;

const subgraphPorts = { profiles: basePort + 11, matches: basePort + 12, applications: basePort + 13, tenants: basePort + 14 };
// Every process signs and verifies with the same keys and names the same issuer: the REST
// adapter's address, where /oauth/token and /.well-known/* are served, unless PUBLIC_URL says otherwise.
const sharedEnv = {
  PUBLIC_URL: process.env.PUBLIC_URL || loopback(basePort + 1),
  ...(config.AUTH_SIGNING_KEYS ? {} : { AUTH_SIGNING_KEYS_FILE: config.AUTH_SIGNING_KEYS_FILE ?? path.resolve(config.DATA_DIR, 'signing-keys.json') }),
  REDIS_URL: redisUrl,
  // What the gateway presents to the subgraphs: configured, or one for this run only.
  SUBGRAPH_SECRET: config.SUBGRAPH_SECRET ?? randomBytes(32).toString('base64url'),
  PROFILES_URL: `${loopback(subgraphPorts.profiles)}/graphql`,
  MATCHES_URL: `${loopback(subgraphPorts.matches)}/graphql`,
  APPLICATIONS_URL: `${loopback(subgraphPorts.applications)}/graphql`,
  TENANTS_URL: `${loopback(subgraphPorts.tenants)}/graphql`,
  // The REST adapter serves the dashboard and forwards its /graphql here.
  GRAPHQL_GATEWAY_URL: `${loopback(basePort)}/graphql`,
};
// Subgraphs first: the gateway plans against them as soon as it serves.
const services: Array<{ name: string; port: number }> = [
  ...Object.entries(subgraphPorts).map(([name, port]) => ({ name, port })),
  { name: 'rest', port: basePort + 1 },
  { name: 'worker', port: basePort + 2 },
  { name: 'gateway', port: basePort },
];

// Migrates, seeds, and (in demo, without configured keys) generates the signing key file once.
const prepared = await startRuntime(config, { logger });
await prepared.close();

// The compiled build starts its services compiled, with plain node; the sources start them through tsx.
const serviceEntry = fileURLToPath(new URL(RUNNING_COMPILED ? './service.js' : './service.ts', import.meta.url));
const nodeArgs = RUNNING_COMPILED ? [serviceEntry] : ['--import', 'tsx', serviceEntry];

/** One service under supervision: the process running it now (none while a restart waits), and its exits in a row. */
interface Supervised {
  name: string;
  port: number;
  index: number;
  child: ChildProcess | undefined;
  exitsInARow: number;
  restart: NodeJS.Timeout | undefined;
}
const supervised: Supervised[] = services.map(({ name, port }, index) => ({ name, port, index, child: undefined, exitsInARow: 0, restart: undefined }));
let stopping = false;
let forgetRunningServer: (() => Promise<void>) | undefined;

const running = (child: ChildProcess | undefined): child is ChildProcess => child !== undefined && child.exitCode === null && child.signalCode === null;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  logger.info({ code }, 'shutting down');
  void forgetRunningServer?.().catch(() => {});
  for (const service of supervised) clearTimeout(service.restart);
  const children = supervised.map((s) => s.child).filter(running);
  for (const child of children) child.kill('SIGTERM');
  // Each service exits within its own shutdown deadline; one that does not is killed, never orphaned.
  setTimeout(() => {
    for (const child of children) if (running(child)) child.kill('SIGKILL');
    process.exit(code);
  }, SHUTDOWN_DEADLINE_MS).unref();
  Promise.all(children.map((c) => new Promise((r) => (running(c) ? c.once('exit', r) : r(null))))).then(() => process.exit(code));
}

/** Resolves once the service answers /health; false when it exits (or the deployment stops) first. */
async function waitHealthy(service: Supervised, child: ChildProcess, timeoutMs: number): Promise<boolean> {
  const url = loopback(service.port);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopping || !running(child)) return false;
    try {
      // Bounded: a process that accepts and never answers must not hold the supervisor.
      if ((await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) })).ok) return true;
    } catch {
      // not listening yet, or not answering
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become healthy within ${timeoutMs} ms`);
}

/**
 * Starts the service's process. When it exits other than by our stopping, it is started again after
 * the restart policy's delay, and the others go on serving; only a service that keeps exiting
 * (restart-policy.ts) stops the deployment, named in the log.
 */
function spawnService(service: Supervised): ChildProcess {
  const { name, port, index } = service;
  // Each process serves its own metrics: on its own METRICS_PORT when one is configured.
  const metricsPort = config.METRICS_PORT === undefined ? {} : { METRICS_PORT: String(config.METRICS_PORT + index) };
  const child = spawn(process.execPath, [...nodeArgs, name], {
    // The gateway believes X-Forwarded-For from the REST adapter's forwarding (on loopback) only.
    env: {
      ...process.env,
      ...sharedEnv,
      ...metricsPort,
      ...(name === 'gateway' && !process.env.TRUST_PROXY ? { TRUST_PROXY: 'loopback' } : {}),
      PORT: String(port),
    },
    stdio: 'inherit',
  });
  service.child = child;
  const startedAt = Date.now();
  child.once('exit', (code, signal) => {
    if (stopping) return;
    service.child = undefined;
    const decision = decideRestart(service.exitsInARow, Date.now() - startedAt);
    service.exitsInARow = decision.exitsInARow;
    if (decision.action === 'give up') {
      logger.fatal(
        { service: name, code, signal, exitsInARow: decision.exitsInARow },
        `service ${name} exited ${decision.exitsInARow} times in a row, each within ${SERVICE_RESTART_POLICY.steadyRunMs / 1000} s of its start; stopping the deployment`,
      );
      stopAll(1);
      return;
    }
    logger.error(
      { service: name, pid: child.pid, code, signal, restartInMs: decision.delayMs, exitsInARow: decision.exitsInARow },
      'service exited unexpectedly; restarting it',
    );
    service.restart = setTimeout(() => {
      if (stopping) return;
      const restarted = spawnService(service);
      waitHealthy(service, restarted, 120_000).then(
        (healthy) => healthy && logger.info({ service: name, pid: restarted.pid, url: loopback(port) }, 'service healthy again'),
        (err: unknown) => logger.error({ err, service: name }, 'restarted service not healthy yet'),
      );
    }, decision.delayMs);
  });
  return child;
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

// One after the other: a service that exits while starting is restarted (the exit handler), and waited for again.
for (const service of supervised) {
  spawnService(service);
  let healthy = false;
  while (!healthy && !stopping) {
    const child = service.child;
    try {
      healthy = child !== undefined && (await waitHealthy(service, child, 60_000));
    } catch (err) {
      logger.fatal({ err, service: service.name }, 'service did not start; stopping the deployment');
      stopAll(1);
    }
    if (!healthy) await new Promise((r) => setTimeout(r, 200));
  }
  if (stopping) break;
  logger.info({ service: service.name, pid: service.child?.pid, url: loopback(service.port) }, 'service healthy');
}
if (!stopping) {
  // The admin CLI on this DATA_DIR prints credentials for the deployment's public URL (running-server.ts).
  forgetRunningServer = await recordRunningServer(
    config.DATA_DIR,
    {
      url: loopback(basePort + 1),
      publicUrl: sharedEnv.PUBLIC_URL,
      environment: config.DEPLOY_ENV,
      database: databaseIdentity(config.DATABASE_URL),
    },
    logger,
  );
  logger.info({ rest: `${loopback(basePort + 1)}/api`, graphql: `${loopback(basePort)}/graphql` }, 'distributed deployment ready');
}
