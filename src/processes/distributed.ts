/**
 * `npm run start:distributed`: the distributed deployment on one machine. Prepares the database
 * (migrations, demo seed), then starts each subgraph, the REST adapter and the gateway as separate
 * processes talking HTTP/WebSocket over one PostgreSQL, with events shared through Redis.
 *
 * Ports (BASE_PORT, default 4000): gateway BASE, REST adapter BASE+1, webhook delivery worker BASE+2
 * (/health only), subgraphs BASE+11..BASE+14.
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
const children: ChildProcess[] = [];
let stopping = false;
let forgetRunningServer: (() => Promise<void>) | undefined;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  logger.info({ code }, 'shutting down');
  void forgetRunningServer?.().catch(() => {});
  for (const child of children) child.kill('SIGTERM');
  // Each service exits within its own shutdown deadline; one that does not is killed, never orphaned.
  setTimeout(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    process.exit(code);
  }, SHUTDOWN_DEADLINE_MS).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r))))).then(() =>
    process.exit(code),
  );
}

async function waitHealthy(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become healthy within ${timeoutMs} ms`);
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

for (const [index, { name, port }] of services.entries()) {
  // Each process serves its own metrics: on its own METRICS_PORT when one is configured.
  const metricsPort = config.METRICS_PORT === undefined ? {} : { METRICS_PORT: String(config.METRICS_PORT + index) };
  const child = spawn(process.execPath, [...nodeArgs, name], {
    // The gateway believes X-Forwarded-For from the REST adapter's forwarding (on loopback) only.
    env: { ...process.env, ...sharedEnv, ...metricsPort, ...(name === 'gateway' && !process.env.TRUST_PROXY ? { TRUST_PROXY: 'loopback' } : {}), PORT: String(port) },
    stdio: 'inherit',
  });
  children.push(child);
  child.once('exit', (code) => {
    if (!stopping) {
      logger.error({ service: name, code }, 'service exited unexpectedly; stopping the deployment');
      stopAll(1);
    }
  });
  await waitHealthy(loopback(port), 60_000);
  logger.info({ service: name, url: loopback(port) }, 'service healthy');
}
// The admin CLI on this DATA_DIR prints credentials for the deployment's public URL (running-server.ts).
forgetRunningServer = await recordRunningServer(config.DATA_DIR, {
  url: loopback(basePort + 1),
  publicUrl: sharedEnv.PUBLIC_URL,
  environment: config.DEPLOY_ENV,
  database: databaseIdentity(config.DATABASE_URL),
}, logger);
logger.info(
  { rest: `${loopback(basePort + 1)}/api`, graphql: `${loopback(basePort)}/graphql` },
  'distributed deployment ready',
);
