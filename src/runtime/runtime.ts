/**
 * The process runtime: configuration, logger, database, event bus and clock, built once at start,
 * and the factory of per-request ServiceContexts handed to REST routes, resolvers and workers.
 */
import type { AppConfig } from '../config.js';
import { systemClock, type Actor, type Clock, type ServiceContext } from '../domain/context.js';
import { openDatabase, type Database } from '../infra/database.js';
import { createEventBus, type EventBusHandle } from '../infra/event-bus.js';
import { createLogger, type Logger } from '../infra/logger.js';
import { seedDemoDataIfEmpty } from './demo-seed.js';

export interface Runtime {
  config: AppConfig;
  logger: Logger;
  database: Database;
  events: EventBusHandle;
  clock: Clock;
  contextFor(actor?: Actor): ServiceContext;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  clock?: Clock;
  logger?: Logger;
  /** Apply migrations and seed (default true); distributed services leave it to the first one. */
  prepareDatabase?: boolean;
}

export async function startRuntime(config: AppConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const clock = options.clock ?? systemClock;
  const prepare = options.prepareDatabase !== false;
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DB_POOL_SIZE,
    migrate: prepare,
    log: (msg) => logger.info(msg),
  });
  if (prepare && config.SEED_DEMO_DATA) {
    await seedDemoDataIfEmpty(database.prisma, (msg) => logger.info(msg));
  }
  const events = createEventBus(config.REDIS_URL);
  return {
    config,
    logger,
    database,
    events,
    clock,
    contextFor(actor: Actor = { kind: 'anonymous' }): ServiceContext {
      return {
        actor,
        environment: config.DEPLOY_ENV,
        db: database.prisma,
        clock,
        logger,
        events: events.bus,
      };
    },
    async close() {
      await events.close();
      await database.close();
    },
  };
}
