/** Starts the whole system in single-process mode on an isolated database and a free port. */
import { loadConfig, type AppConfig } from '../../src/kernel/config.js';
import type { Clock } from '../../src/kernel/context.js';
import type { Logger } from '../../src/infra/logger.js';
import { startSingleProcessServer } from '../../src/processes/single-process-server.js';
import { loadLocalSchema } from '../../src/api/graphql/local-graphql.js';
import { startRuntime, type Runtime } from '../../src/processes/runtime.js';
import { generateSigningJwk } from '../../src/infra/signing-keys.js';
import { freePort } from './processes.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { contractFetch } from './openapi-contract.js';

let sharedKeys: Promise<string> | undefined;
/** One generated key set per test file (as a deployment would configure one). */
export function testSigningKeys(): Promise<string> {
  sharedKeys ??= generateSigningJwk().then((key) => JSON.stringify({ keys: [key] }));
  return sharedKeys;
}

export interface TestApp {
  url: string;
  runtime: Runtime;
  database: TestDatabase;
  close(): Promise<void>;
}

export async function startTestApp(options: { config?: Partial<AppConfig>; clock?: Clock; logger?: Logger } = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  // The port is chosen first because the public URL is the token issuer that clients verify.
  const port = await freePort();
  const config = loadConfig(
    {},
    {
      DATABASE_URL: database.url,
      DB_POOL_SIZE: 4,
      PORT: port,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      HOST: '127.0.0.1',
      AUTH_SIGNING_KEYS: await testSigningKeys(),
      LOG_LEVEL: 'silent',
      SEED_DEMO_DATA: false,
      ...options.config,
    },
  );
  const runtime = await startRuntime(config, { clock: options.clock, logger: options.logger });
  const server = await startSingleProcessServer(runtime);
  // GraphQL's schema is built on first use. Tests subscribe over graphql-ws right after start, and
  // graphql-ws tells no client when its subscription is registered: an event published while the
  // schema was still being built would be missed.
  await loadLocalSchema();
  return {
    url: server.url,
    runtime,
    database,
    async close() {
      await server.close();
      await runtime.close();
      await database.drop();
    },
  };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return contractFetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
