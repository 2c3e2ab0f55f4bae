/**
 * `npm run start:service -- <name>`: one process of the distributed deployment.
 * name: profiles | matches | applications | tenants | gateway | rest | worker (webhook deliveries)
 * Each listens on PORT. Database services expect migrations applied (`npm run db:migrate`,
 * done by the distributed supervisor and by docker-compose's migrate service).
 */
import 'reflect-metadata';
import { startRemoteGatewayServer } from './remote-gateway-server.js';
import { startRestServer } from './rest-server.js';
import { isSubgraphName } from '../api/graphql/subgraphs/index.js';
import { startSubgraphServer } from './subgraph-server.js';
import { loadConfig } from '../kernel/config.js';
import type { RunningServer } from '../api/http/listen.js';
import { createLogger, logDestination } from '../infra/logger.js';
import { startRuntime } from './runtime.js';
import { startWorkerServer } from './worker-server.js';
import { handleShutdownSignals } from './shutdown.js';
import { warmProductCatalogue } from '../modules/matching/product-catalogue.js';
import { labelProcessMetrics } from '../infra/metrics.js';

export const SERVICE_NAMES = ['profiles', 'matches', 'applications', 'tenants', 'gateway', 'rest', 'worker'] as const;

const name = process.argv[2] ?? '';
if (!(SERVICE_NAMES as readonly string[]).includes(name)) {
  console.error(`usage: npm run start:service -- <${SERVICE_NAMES.join('|')}>`);
  process.exit(2);
}
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, `funding-gateway:${name}`, logDestination(config.LOG_FORMAT));
labelProcessMetrics(name, config.INSTANCE_ID);

const shutdown = handleShutdownSignals(logger);

let server: RunningServer;
if (name === 'gateway') {
  const urls = {
    profiles: config.PROFILES_URL,
    matches: config.MATCHES_URL,
    applications: config.APPLICATIONS_URL,
    tenants: config.TENANTS_URL,
  };
  server = await startRemoteGatewayServer(urls, config, logger);
} else {
  if (!config.DATABASE_URL) {
    logger.fatal('DATABASE_URL is required for a distributed service');
    process.exit(2);
  }
  const runtime = await startRuntime(config, { logger, prepareDatabase: false, onOpen: shutdown.add });
  server = isSubgraphName(name)
    ? await startSubgraphServer(name, runtime, config.PORT)
    : name === 'worker'
      ? await startWorkerServer(runtime, config.PORT)
      : await startRestServer(runtime, config.PORT);
  // The processes that match profiles (REST, the matches subgraph's searches, the applications
  // subgraph's submissions) load the catalogue once listening: neither their start nor their first search waits for it.
  if (name === 'rest' || name === 'matches' || name === 'applications') warmProductCatalogue(runtime.contextFor());
}
shutdown.add('server', () => server.close());
logger.info({ url: server.url }, `${name} ready`);
