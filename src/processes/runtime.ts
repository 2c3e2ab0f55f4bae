/**
 * The process runtime: configuration, logger, database, event bus and clock, built once at start,
 * and the factory of per-request ServiceContexts handed to REST routes, resolvers and workers.
 */
import type { Redis } from 'ioredis';
import type { AppConfig } from '../kernel/config.js';
import { systemClock, type Clock, type ServiceContext } from '../kernel/context.js';
import type { AuthKit } from '../modules/identity/auth-kit.js';
import { databaseRegistry, type CompanyRegistry } from '../modules/companies/company-registry.js';
import { companyDataSources } from '../modules/companies/company-data-sources.js';
import { ANONYMOUS } from '../kernel/actor.js';
import { authenticate, credentialHeaders, type Caller } from '../modules/identity/authenticate.js';
import { createCredentialStatus } from '../modules/identity/credential-status.js';
import { createLoginThrottle } from '../modules/identity/login-throttle.js';
import { createLenderTokenThrottle } from '../modules/identity/lender-token-throttle.js';
import { TokenAuthority } from '../modules/identity/token-authority.js';
import { loadSigningKeys } from '../infra/signing-keys.js';
import { openDatabase, poolOf, readsOf, type Database } from '../infra/database.js';
import { instrumentDatabase } from '../infra/metrics.js';
import { reviewQueueGauges } from '../modules/insights/review-queue-standing.js';
import { readDeliveryBacklog } from '../modules/webhooks/delivery-backlog.js';
import type { EmbeddedRole, EmbeddedServer } from '../infra/embedded-postgres.js';
import { createEventBus, type EventBusHandle } from '../infra/event-bus.js';
import { redisOfConfig } from '../infra/redis.js';
import { createLogger, logDestination, type Logger } from '../infra/logger.js';
import { requestIdOfHeaders } from '../infra/request-id.js';
import { seedMissingDemoData } from './demo-seed.js';

export interface Runtime {
  config: AppConfig;
  logger: Logger;
  database: Database;
  events: EventBusHandle;
  clock: Clock;
  auth: AuthKit;
  companies: CompanyRegistry;
  /** Redis for counters shared by every process (rate limits, throttles), when the deployment has it. */
  sharedCounters?: Redis;
  /** A context for a caller already known (tests, CLI, pages, the delivery worker); anonymous by default; `requestId` names the request it serves. */
  contextFor(caller?: Partial<Caller>, requestId?: string): ServiceContext;
  /** The context of one request, from its Authorization and Service-tenant-id headers. */
  contextForRequest(headers: Headers | Record<string, string | string[] | undefined>): Promise<ServiceContext>;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  clock?: Clock;
  logger?: Logger;
  /** Apply migrations and seed (default true); distributed services leave it to the first one. */
  prepareDatabase?: boolean;
  /** On the embedded server: `server` owns DATA_DIR (one application), `cli` shares a running one. */
  embeddedRole?: EmbeddedRole;
  /** The embedded server, when the process started opening it already (main.ts: before loading its modules). */
  embeddedServer?: Promise<EmbeddedServer>;
  /**
   * Told of each resource as it opens, with how to close it (a process's shutdown handler), so a
   * signal during start-up closes what is open so far. Without it, `close()` closes everything.
   */
  onOpen?: (name: string, close: () => Promise<void>) => void;
}

export async function startRuntime(config: AppConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL, undefined, logDestination(config.LOG_FORMAT));
  const clock = options.clock ?? systemClock;
  const prepare = options.prepareDatabase !== false;
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DB_POOL_SIZE,
    embeddedRole: options.embeddedRole,
    embeddedServer: options.embeddedServer,
    migrate: prepare,
    log: (msg) => logger.info(msg),
  });
  instrumentDatabase(database.prisma, poolOf(database.prisma), {
    poolSize: config.DB_POOL_SIZE,
    reviewQueue: () => reviewQueueGauges(readsOf(database.prisma), new Date()),
    deliveryBacklog: () => readDeliveryBacklog(database.prisma, clock.now()),
  });
  options.onOpen?.('database', () => database.close());
  if (prepare && config.SEED_DEMO_DATA) {
    await seedMissingDemoData(database.prisma, (msg) => logger.info(msg));
  }
  // Both in the deployment's Redis namespace (REDIS_KEY_PREFIX), their errors logged (infra/redis.ts).
  const events = createEventBus(config.REDIS_URL, { keyPrefix: config.REDIS_KEY_PREFIX, logger });
  const throttleStore = redisOfConfig(config, logger, 'counters');
  options.onOpen?.('event bus', async () => {
    throttleStore?.disconnect();
    await events.close();
  });
  const auth: AuthKit = {
    tokens: new TokenAuthority(await loadSigningKeys(config), config.PUBLIC_URL, config.DEPLOY_ENV, clock),
    loginThrottle: createLoginThrottle(throttleStore),
    lenderTokenThrottle: createLenderTokenThrottle(config.RATE_LIMIT_LENDER_TOKEN_FAILURES, throttleStore),
    credentialStatus: createCredentialStatus(database.prisma, config.DEPLOY_ENV, { redis: throttleStore, clock }),
    lenderAudienceAliases: config.LENDER_AUDIENCE_ALIASES,
  };
  options.onOpen?.('credential changes', async () => auth.credentialStatus.close());
  const companies = databaseRegistry(database.prisma, companyDataSources(config, logger));
  const webhooks = {
    retryDelaysSeconds: config.WEBHOOK_RETRY_DELAYS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivateAddresses: config.ALLOW_PRIVATE_WEBHOOK_URLS,
  };
  const contextFor = (caller: Partial<Caller> = {}, requestId?: string): ServiceContext => {
    const ctx: ServiceContext = {
      actor: caller.actor ?? ANONYMOUS,
      requestedTenantId: caller.requestedTenantId ?? null,
      environment: config.DEPLOY_ENV,
      db: database.prisma,
      clock,
      logger,
      events: events.bus,
      auth,
      companies,
      webhooks,
    };
    return requestId === undefined ? ctx : withRequestId(ctx, requestId);
  };
  return {
    config,
    logger,
    database,
    events,
    clock,
    auth,
    companies,
    ...(throttleStore ? { sharedCounters: throttleStore } : {}),
    contextFor,
    async contextForRequest(headers) {
      return contextFor(await authenticate(auth.tokens, auth.credentialStatus, credentialHeaders(headers)), requestIdOfHeaders(headers));
    },
    async close() {
      auth.credentialStatus.close();
      throttleStore?.disconnect();
      await events.close();
      await database.close();
    },
  };
}

/**
 * A request's context: its log lines name the request (a child logger, made only when a line is
 * written: most requests write none but the access line); the webhook deliveries it queues keep
 * `requestId` on their rows, so their attempts log under it and the lender is told it.
 */
function withRequestId(ctx: ServiceContext, requestId: string): ServiceContext {
  const { logger } = ctx;
  let requestLogger: Logger | undefined;
  return Object.defineProperties(ctx, {
    requestId: { value: requestId, enumerable: true, writable: true },
    logger: { get: () => (requestLogger ??= logger.child({ requestId })), enumerable: true, configurable: true },
  });
}
