/**
 * The explicit context every domain service takes. Resolvers, REST routes, workers and tests
 * build one and pass it in; services never reach into GraphQL or Express objects.
 */
import type { Logger } from '../infra/logger.js';
import type { Db } from '../infra/database.js';
import type { EventBus } from './events.js';

export type DeployEnvironment = 'demo' | 'production';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Who is calling. The identity work adds platform users, API keys, tenants and lenders. */
export type Actor = { kind: 'anonymous' } | { kind: 'system'; reason: string };

export interface ServiceContext {
  actor: Actor;
  environment: DeployEnvironment;
  db: Db;
  clock: Clock;
  logger: Logger;
  events: EventBus;
}
