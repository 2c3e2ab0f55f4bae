/** `npm start`: the whole system in one process on PORT, on the embedded database unless DATABASE_URL is set. */
import 'reflect-metadata';
import { loadConfig } from '../kernel/config.js';
import { bootEmbeddedServer, DataDirInUseError } from '../infra/embedded-postgres.js';
import { createLogger, logDestination } from '../infra/logger.js';
import { handleShutdownSignals } from './shutdown.js';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, undefined, logDestination(config.LOG_FORMAT));
const shutdown = handleShutdownSignals(logger);
// The embedded database server is spawned before the rest of this process's modules load, and boots
// in its own processes meanwhile. Loading modules keeps the event loop busy (the server's start
// would not move until they are all loaded), so they are imported only once its process runs.
const embeddedServer = config.DATABASE_URL ? undefined : (await bootEmbeddedServer(config.DATA_DIR, { role: 'server', log: (msg) => logger.info(msg) })).opened;
// Stopped on a signal that comes before the runtime has it (stopping it twice is harmless).
if (embeddedServer) shutdown.add('embedded database', async () => (await embeddedServer.catch(() => undefined))?.stop());
const [{ startRuntime }, { warmProductCatalogue }, { databaseIdentity, recordRunningServer }, { labelProcessMetrics }] = await Promise.all([
  import('./runtime.js'),
  import('../modules/matching/product-catalogue.js'),
  import('./running-server.js'),
  import('../infra/metrics.js'),
]);
labelProcessMetrics('all-in-one', config.INSTANCE_ID);
// The runtime (the database's migrations, the seed) starts while this process loads the HTTP
// layers: start-up takes the longer of the two rather than their sum.
const runtimeStarting = startRuntime(config, { logger, onOpen: shutdown.add, embeddedServer });
runtimeStarting.catch(() => {}); // awaited (and reported) below
const { startSingleProcessServer } = await import('./single-process-server.js');
const runtime = await runtimeStarting.catch((err: unknown) => {
  if (!(err instanceof DataDirInUseError)) throw err;
  console.error(`funding gateway not started: ${err.message}`);
  process.exit(1);
});
const server = await startSingleProcessServer(runtime);
shutdown.add('server', () => server.close());
// The admin CLI on this DATA_DIR prints credentials for this server's public URL (running-server.ts).
const forgetRunningServer = await recordRunningServer(
  config.DATA_DIR,
  {
    url: server.url,
    publicUrl: config.PUBLIC_URL,
    environment: config.DEPLOY_ENV,
    database: databaseIdentity(config.DATABASE_URL),
  },
  logger,
);
shutdown.add('server record', forgetRunningServer);
// After listening, so the start is not slowed: the first matching request finds the catalogue
// loaded, and the first write finds Prisma's engine instantiated (database.ts).
warmProductCatalogue(runtime.contextFor());
runtime.database.prisma.$connect().catch((err: unknown) => logger.warn({ err }, 'Prisma did not connect; its first query will try again'));
logger.info(
  { url: server.url, environment: config.DEPLOY_ENV, database: runtime.database.embedded ? 'embedded' : 'DATABASE_URL' },
  `funding gateway ready: REST ${server.url}/api, GraphQL ${server.url}/graphql, health ${server.url}/health`,
);
