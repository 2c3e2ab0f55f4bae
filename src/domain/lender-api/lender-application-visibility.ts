/**
 * Which lender applications (and so their offers and status events) a caller sees, decided here
 * only: a lender its own; staff all; an integrator those of the profiles its account owns (never an
 * anonymous profile's, though the profile itself is readable by uuid: applications are addressed by
 * sequential ids, so "by uuid" would let anyone walk them); a tenant token its tenant's only; a
 * master token its account's tenants'; a non-staff platform user its account's. The same rule gives the event channels an application's changes are
 * published on and the one channel each caller listens on, so a subscription hears exactly what
 * the REST and GraphQL reads would show.
 */
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../context.js';
import { AppError } from '../errors.js';
import type { Actor } from '../identity/actor.js';
import { ownedProfileScope } from '../profiles/profile-visibility.js';
import { parseInput } from '../validation.js';

export type ApplicationViewer = Extract<Actor, { kind: 'lender' | 'login' | 'platform' | 'master' | 'tenant' | 'marketplace_v1' }>;

const isStaff = (actor: Extract<Actor, { kind: 'login' }>) => actor.scopes.includes('staff');

export function lenderApplicationScope(ctx: ServiceContext, actor: ApplicationViewer): Prisma.LenderApplicationWhereInput {
  const environment = { lender: { environment: ctx.environment } };
  switch (actor.kind) {
    case 'lender':
      return { ...environment, lenderId: actor.lenderId };
    case 'login':
      return isStaff(actor) ? environment : { ...environment, profile: { OR: [{ ownerAccountId: actor.accountId }, { tenant: { accountId: actor.accountId } }] } };
    case 'master':
      return { ...environment, profile: { tenant: { accountId: actor.accountId } } };
    default:
      return { ...environment, profile: ownedProfileScope(actor) };
  }
}

export const ApplicationId = z.coerce.number({ message: 'must be an application id (number)' }).int().positive();

export const APPLICATION_INCLUDE = { offers: { orderBy: { createdAt: 'asc' as const } }, lender: true } as const;

/** An application the caller sees, with its offers and lender, or 404 (checked before any body is read). */
export async function findVisibleLenderApplication(ctx: ServiceContext, actor: ApplicationViewer, id: unknown, tx: Prisma.TransactionClient = ctx.db) {
  const applicationId = parseInput(ApplicationId, id, 'Application id');
  const row = await tx.lenderApplication.findFirst({ where: { AND: [{ id: applicationId }, lenderApplicationScope(ctx, actor)] }, include: APPLICATION_INCLUDE });
  if (!row) throw AppError.notFound('Application');
  return row;
}

/** The one channel a caller listens on (per kind, the counterpart of lenderApplicationScope). */
export function eventChannelOf(actor: ApplicationViewer): string {
  switch (actor.kind) {
    case 'lender':
      return `lender:${actor.lenderId}`;
    case 'login':
      return isStaff(actor) ? 'staff' : `account:${actor.accountId}`;
    case 'master':
    case 'platform':
      return `tenant-account:${actor.accountId}`;
    case 'tenant':
      return `tenant:${actor.tenantId}`;
    case 'marketplace_v1':
      return `owner-account:${actor.accountId}`;
  }
}

/** One application's own channel: joined by a subscriber to that application after a visibility check. */
export const applicationChannel = (applicationId: number) => `application:${applicationId}`;

export interface ApplicationAudience {
  id: number;
  lenderId: number;
  profile: { ownerAccountId: string | null; tenantId: string | null; tenant: { accountId: string | null } | null };
}

/** Every channel an application's changes are published on: each caller who sees it listens on one. */
export function eventChannelsOf(application: ApplicationAudience): string[] {
  const { ownerAccountId, tenantId, tenant } = application.profile;
  return [
    applicationChannel(application.id),
    `lender:${application.lenderId}`,
    'staff',
    ...(ownerAccountId ? [`owner-account:${ownerAccountId}`, `account:${ownerAccountId}`] : []),
    ...(tenantId ? [`tenant:${tenantId}`] : []),
    ...(tenant?.accountId ? [`tenant-account:${tenant.accountId}`, `account:${tenant.accountId}`] : []),
  ];
}

export const AUDIENCE_SELECT = { id: true, lenderId: true, profile: { select: { ownerAccountId: true, tenantId: true, tenant: { select: { accountId: true } } } } } as const;
