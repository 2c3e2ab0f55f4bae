/**
 * The explicit context every domain service takes. Resolvers, REST routes, workers and tests
 * build one and pass it in; services never reach into GraphQL or Express objects.
 */
import type { Logger } from 'pino';
import type { Compilable, Transaction } from 'kysely';
import type { PrismaClient, Prisma } from '../generated/prisma/client.js';
import type { DB } from '../generated/kysely/database.js';
import type { EventBus } from './events.js';
import type { Actor } from './actor.js';

export type { Actor } from './actor.js';

export type DeployEnvironment = 'demo' | 'production';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The one database client of a process (infra/database.ts opens it): Prisma's generated client. */
export type Db = PrismaClient;

export interface EnqueueOptions {
  /** Enqueue as part of this transaction. */
  tx?: Prisma.TransactionClient;
  startAfter?: Date;
}

/** What services see of the job queue (infra/job-queue.ts runs it). */
export interface JobScheduler {
  enqueue(queue: string, data: object, options?: EnqueueOptions): Promise<void>;
  /** Several jobs of one queue by one statement (the jobs one request or event causes), each with its own start. */
  enqueueMany(queue: string, jobs: readonly QueuedJob[], options?: Pick<EnqueueOptions, 'tx'>): Promise<void>;
  /**
   * Several jobs of one queue inserted by the same statement as the caller's own writes (each a
   * data-modifying CTE of it), in the caller's typed SQL transaction (infra/sql-reads.ts): a whole
   * change and its jobs in one round trip.
   */
  enqueueManyAlong(queue: string, jobs: readonly QueuedJob[], tx: Transaction<DB>, writes: readonly Compilable[]): Promise<void>;
}

export interface QueuedJob {
  data: object;
  startAfter?: Date;
}

/**
 * What every operation is given. Machinery a module owns joins the context from that module by
 * declaration merging (`declare module '…/kernel/context.js'`), so the kernel names no module:
 * identity adds `auth` (tokens, throttles, credential status), companies adds `companies` (the registry).
 */
export interface ServiceContext {
  actor: Actor;
  /** The tenant the request names (Service-tenant-id header), unchecked until a service resolves it. */
  requestedTenantId: string | null;
  environment: DeployEnvironment;
  db: Db;
  clock: Clock;
  logger: Logger;
  events: EventBus;
  /** The job queue, to enqueue work inside a transaction. */
  jobs: JobScheduler;
  /** How webhooks are delivered (configuration). */
  webhooks: WebhookSettings;
  /** The id of the request (or of the request behind the job) being served; `logger` names it on every line. */
  requestId?: string;
}

export interface WebhookSettings {
  retryDelaysSeconds: readonly number[];
  timeoutMs: number;
  allowPrivateAddresses: boolean;
}
