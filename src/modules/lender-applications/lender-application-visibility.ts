/**
 * Which lender applications (and so their offers and status events) a caller sees, decided here
 * only: a lender its own; staff all; an integrator those of the profiles its account owns (never an
 * anonymous profile's, though the profile itself is readable by uuid: applications are addressed by
 * sequential ids, so "by uuid" would let anyone walk them); a tenant token its tenant's only; a
 * master token its account's tenants'; a non-staff platform user its account's. The integrator side
 * is profile ownership, stated once in profile-visibility.ts (`ownedProfileScope` and its channels).
 * The same rule gives the event channels an application's changes are published on and the one
 * channel each caller listens on, so a subscription hears exactly what the REST and GraphQL reads
 * would show (test/visibility-rules.test.ts holds the two equal over generated callers and rows).
 */
import { z } from 'zod';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Prisma } from '../../generated/prisma/client.js';
import type { DB, SqlReads } from '../../infra/sql-reads.js';
import type { DeployEnvironment, ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import type { Actor } from '../../kernel/actor.js';
import {
  ownedProfileChannelOf,
  ownedProfileChannelsOf,
  ownedProfileScope,
  type ProfileAudience,
  type ProfileOwnerViewer,
} from '../profiles/profile-visibility.js';
import { parseInput } from '../../kernel/validation.js';
import type { PlaceholderOf } from '../../infra/statement-templates.js';

export type ApplicationViewer = Extract<Actor, { kind: 'lender' | 'login' | 'platform' | 'master' | 'tenant' | 'marketplace_v1' }>;

const isStaff = (actor: ApplicationViewer) => actor.kind === 'login' && actor.scopes.includes('staff');

export function lenderApplicationScope(ctx: ServiceContext, actor: ApplicationViewer): Prisma.LenderApplicationWhereInput {
  const environment = { lender: { environment: ctx.environment } };
  if (actor.kind === 'lender') return { ...environment, lenderId: actor.lenderId };
  return isStaff(actor) ? environment : { ...environment, profile: ownedProfileScope(actor) };
}

/** The typed SQL reads' view of `lender_application la`. */
export type ApplicationRows = ExpressionBuilder<DB & { la: DB['lender_application'] }, 'la'>;

/**
 * `ownedProfileScope` as the ids of the profiles it covers, for the typed SQL reads. Each side is
 * looked up by an indexed column, and a tenant's one profile through a LATERAL with LIMIT 1, which the
 * planner cannot turn into a hash join over every profile.
 */
function ownedProfileIdsSql(reads: SqlReads, actor: ProfileOwnerViewer) {
  const ownedBy = (accountId: string) => reads.selectFrom('profile').select('profile.id').where('profile.ownerAccountId', '=', accountId);
  const ofTenantsOf = (accountId: string) =>
    reads
      .selectFrom('tenant')
      .innerJoinLateral(
        (eb) => eb.selectFrom('profile').select('profile.id').whereRef('profile.tenantId', '=', 'tenant.id').limit(1).as('tenant_profile'),
        (join) => join.onTrue(),
      )
      .select('tenant_profile.id')
      .where('tenant.accountId', '=', accountId);
  switch (actor.kind) {
    case 'marketplace_v1':
      return ownedBy(actor.accountId);
    case 'platform':
    case 'master':
      return ofTenantsOf(actor.accountId);
    case 'tenant':
      return reads.selectFrom('profile').select('profile.id').where('profile.tenantId', '=', actor.tenantId);
    case 'login':
      return ownedBy(actor.accountId).union(ofTenantsOf(actor.accountId));
  }
}

/**
 * Whose applications a caller's list reads (`lenderApplicationScope` for the typed SQL reads), on the
 * row's own columns (its environment is copied from its lender): the environment's (staff), the
 * lender's own, or those of the profiles the caller's account owns (read profile by profile: an
 * account's profiles are few among all, each one's applications an index range).
 */
export type ApplicationListScope =
  | { environment: DeployEnvironment; lenderId?: number; ownedProfileIds?: undefined }
  | { environment: DeployEnvironment; lenderId?: undefined; ownedProfileIds: ReturnType<typeof ownedProfileIdsSql> };

export function lenderApplicationListScope(ctx: Pick<ServiceContext, 'environment'>, actor: ApplicationViewer, reads: SqlReads): ApplicationListScope {
  if (actor.kind === 'lender') return { environment: ctx.environment, lenderId: actor.lenderId };
  if (isStaff(actor)) return { environment: ctx.environment };
  return { environment: ctx.environment, ownedProfileIds: ownedProfileIdsSql(reads, actor) };
}

/**
 * `lenderApplicationListScope` for a statement compiled once per shape (infra/statement-templates.ts):
 * `shape` names every branch the scope takes (the caller's kind, staff or not), `values` are the
 * caller's values it may bind, and `scope` builds it with placeholders standing for them.
 */
export function lenderApplicationScopeTemplate(ctx: Pick<ServiceContext, 'environment'>, actor: ApplicationViewer) {
  const values: Record<string, unknown> = { environment: ctx.environment };
  if ('lenderId' in actor) values.lenderId = actor.lenderId;
  if ('accountId' in actor) values.accountId = actor.accountId;
  if ('tenantId' in actor) values.tenantId = actor.tenantId;
  return {
    shape: actor.kind === 'lender' ? 'lender' : isStaff(actor) ? 'staff' : actor.kind,
    values,
    scope(value: PlaceholderOf, reads: SqlReads): ApplicationListScope {
      const placeholders = Object.fromEntries(Object.keys(values).map((name) => [name, value(name)]));
      const { environment, ...identity } = placeholders;
      return lenderApplicationListScope({ environment: environment as DeployEnvironment }, { ...actor, ...identity } as ApplicationViewer, reads);
    },
  };
}

/** The scope as one condition on `lender_application la`. */
export function lenderApplicationSqlScope(scope: ApplicationListScope) {
  return (eb: ApplicationRows): Expression<SqlBool> =>
    eb.and([
      eb('la.environment', '=', scope.environment),
      ...(scope.lenderId !== undefined ? [eb('la.lenderId', '=', scope.lenderId)] : []),
      ...(scope.ownedProfileIds ? [eb('la.profileId', 'in', scope.ownedProfileIds)] : []),
    ]);
}

export const ApplicationId = z.coerce.number({ message: 'must be an application id (number)' }).int().positive();

const APPLICATION_INCLUDE = { offers: { orderBy: { createdAt: 'asc' as const } }, lender: true } as const;

/** An application the caller sees, with its offers and lender, or 404 (checked before any body is read). */
export async function findVisibleLenderApplication(ctx: ServiceContext, actor: ApplicationViewer, id: unknown, tx: Prisma.TransactionClient = ctx.db) {
  const applicationId = parseInput(ApplicationId, id, 'Application id');
  const row = await tx.lenderApplication.findFirst({
    where: { AND: [{ id: applicationId }, lenderApplicationScope(ctx, actor)] },
    include: APPLICATION_INCLUDE,
  });
  if (!row) throw AppError.notFound('Application');
  return row;
}

/** Staff see every application of their environment; the event bus is shared by both environments. */
const staffChannel = (environment: DeployEnvironment) => `staff:${environment}`;

/** The one channel a caller listens on (per kind, the counterpart of lenderApplicationScope). */
export function eventChannelOf(ctx: ServiceContext, actor: ApplicationViewer): string {
  if (actor.kind === 'lender') return `lender:${actor.lenderId}`;
  return isStaff(actor) ? staffChannel(ctx.environment) : ownedProfileChannelOf(actor);
}

/** One application's own channel: joined by a subscriber to that application after a visibility check. */
export const applicationChannel = (applicationId: number) => `application:${applicationId}`;

export interface ApplicationAudience {
  id: number;
  lenderId: number;
  lender: { environment: DeployEnvironment };
  profile: ProfileAudience;
}

/** Every channel an application's changes are published on: each caller who sees it listens on one. */
export function eventChannelsOf(application: ApplicationAudience): string[] {
  return [
    applicationChannel(application.id),
    `lender:${application.lenderId}`,
    staffChannel(application.lender.environment),
    ...ownedProfileChannelsOf(application.profile),
  ];
}
