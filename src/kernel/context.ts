/**
 * The explicit context every domain service takes. Resolvers, REST routes, workers and tests
 * build one and pass it in; services never reach into GraphQL or Express objects.
 */
import type { Logger } from 'pino';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { EventBus } from './events.js';
import type { Actor } from './actor.js';

export type DeployEnvironment = 'demo' | 'production';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The one database client of a process (infra/database.ts opens it): Prisma's generated client. */
export type Db = PrismaClient;

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
  /** How webhooks are delivered (configuration). */
  webhooks: WebhookSettings;
  /** The id of the request (or of the request behind the delivery attempt) being served; `logger` names it on every line. */
  requestId?: string;
}

interface WebhookSettings {
  retryDelaysSeconds: readonly number[];
  timeoutMs: number;
  allowPrivateAddresses: boolean;
}
