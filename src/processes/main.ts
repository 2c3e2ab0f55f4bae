/** `npm start`: the whole system in one process on PORT, on the embedded database unless DATABASE_URL is set. */
import 'reflect-metadata';
import { loadConfig } from '../kernel/config.js';
import { DataDirInUseError } from '../infra/embedded-postgres.js';
import { createLogger, logDestination } from '../infra/logger.js';
import { startRuntime } from './runtime.js';
import { warmProductCatalogue } from '../modules/matching/product-catalogue.js';
import { handleShutdownSignals } from './shutdown.js';
import { databaseIdentity, recordRunningServer } from './running-server.js';
import { labelProcessMetrics } from '../infra/metrics.js';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, undefined, logDestination(config.LOG_FORMAT));
labelProcessMetrics('all-in-one', config.INSTANCE_ID);
const shutdown = handleShutdownSignals(logger);
// The database server starts (in its own processes) while this one loads the GraphQL and REST
// layers: start-up takes the longer of the two rather than their sum.
const runtimeStarting = startRuntime(config, { logger, onOpen: shutdown.add });
runtimeStarting.catch(() => {}); // awaited (and reported) below
const { createSingleProcessGraphQL, startSingleProcessServer } = await import('./single-process-server.js');
const graphql = createSingleProcessGraphQL(runtimeStarting, config);
let served = false;
shutdown.add('graphql', async () => {
  if (!served) await graphql.dispose(); // once served, closing the server disposes it
});
const runtime = await runtimeStarting.catch((err: unknown) => {
  if (!(err instanceof DataDirInUseError)) throw err;
  console.error(`funding gateway not started: ${err.message}`);
  process.exit(1);
});
const server = await startSingleProcessServer(runtime, { graphql });
served = true;
shutdown.add('server', () => server.close());
// The admin CLI on this DATA_DIR prints credentials for this server's public URL (running-server.ts).
const forgetRunningServer = await recordRunningServer(config.DATA_DIR, {
  url: server.url,
  publicUrl: config.PUBLIC_URL,
  environment: config.DEPLOY_ENV,
  database: databaseIdentity(config.DATABASE_URL),
}, logger);
shutdown.add('server record', forgetRunningServer);
// After listening, so the start is not slowed: the first matching request finds the catalogue loaded.
warmProductCatalogue(runtime.contextFor());
logger.info(
  { url: server.url, environment: config.DEPLOY_ENV, database: runtime.database.embedded ? 'embedded' : 'DATABASE_URL' },
  `funding gateway ready: REST ${server.url}/api, GraphQL ${server.url}/graphql, health ${server.url}/health`,
);
