/** `npm start`: the whole system in one process on PORT, on the embedded database unless DATABASE_URL is set. */
import 'reflect-metadata';
import { loadConfig } from '../config.js';
import { startSingleProcessServer } from './single-process-server.js';
import { DataDirInUseError } from '../infra/embedded-postgres.js';
import { startRuntime } from './runtime.js';
import { onShutdown } from './shutdown.js';

const config = loadConfig();
const runtime = await startRuntime(config).catch((err: unknown) => {
  if (!(err instanceof DataDirInUseError)) throw err;
  console.error(`funding gateway not started: ${err.message}`);
  process.exit(1);
});
const server = await startSingleProcessServer(runtime);
runtime.logger.info(
  { url: server.url, environment: config.DEPLOY_ENV, database: runtime.database.embedded ? 'embedded' : 'DATABASE_URL' },
  `funding gateway ready: REST ${server.url}/api, GraphQL ${server.url}/graphql, health ${server.url}/health`,
);
onShutdown(runtime.logger, async () => {
  await server.close();
  await runtime.close();
});
