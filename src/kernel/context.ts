/**
 * The explicit context every domain service takes. Resolvers, REST routes, workers and tests
 * build one and pass it in; services never reach into GraphQL or Express objects.
 */
import type { JobScheduler } from '../infra/job-queue.js';
import type { Logger } from '../infra/logger.js';
import type { Db } from '../infra/database.js';
import type { CompanyRegistry } from '../modules/companies/company-registry.js';
import type { EventBus } from './events.js';
import type { Actor } from './actor.js';
import type { CredentialStatus } from '../modules/identity/credential-status.js';
import type { LoginThrottle } from '../modules/identity/login-throttle.js';
import type { LenderTokenThrottle } from '../modules/identity/lender-token-throttle.js';
import type { TokenAuthority } from '../modules/identity/token-authority.js';

export type { Actor } from './actor.js';

export type DeployEnvironment = 'demo' | 'production';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Credential machinery of the process: token signing/verification, login throttling, revocation status. */
export interface AuthKit {
  tokens: TokenAuthority;
  loginThrottle: LoginThrottle;
  lenderTokenThrottle: LenderTokenThrottle;
  credentialStatus: CredentialStatus;
}

export interface ServiceContext {
  actor: Actor;
  /** The tenant the request names (Service-tenant-id header), unchecked until a service resolves it. */
  requestedTenantId: string | null;
  environment: DeployEnvironment;
  db: Db;
  clock: Clock;
  logger: Logger;
  events: EventBus;
  auth: AuthKit;
  /** The company registry (the seeded table in demo; a data provider could stand in). */
  companies: CompanyRegistry;
  /** The job queue, to enqueue work inside a transaction. */
  jobs: JobScheduler;
  /** How webhooks are delivered (configuration). */
  webhooks: WebhookSettings;
}

export interface WebhookSettings {
  retryDelaysSeconds: readonly number[];
  timeoutMs: number;
  allowPrivateAddresses: boolean;
}
