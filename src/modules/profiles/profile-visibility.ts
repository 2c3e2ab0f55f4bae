/**
 * Which business profiles a caller sees, decided here only (reads, lists, writes and, through the
 * lender-application rule, events): a Marketplace V1 key's account sees the profiles its keys own
 * and unowned anonymous ones (by uuid); a platform token its account's tenants' profiles; a tenant
 * token its own tenant's. Anything else is answered exactly like a missing profile (404).
 *
 * What is done in a profile's name beyond editing it (applying to lenders, the lender applications
 * and offers that follow, their events) needs the profile to be *owned* by the caller's account:
 * an anonymous profile is reachable by anyone who holds its uuid, and lender applications are
 * addressed by sequential ids, so "by uuid" must never extend to them.
 *
 * Each rule is stated once here, in the forms its readers need: `profileScope` (Prisma) and
 * `visibleProfileWhere` (the typed SQL reads' Kysely filter), `ownedProfileScope` and the event channels of owned profiles
 * (`ownedProfileChannelOf` / `ownedProfileChannelsOf`). test/visibility-rules.test.ts holds each
 * pair equal over generated callers and rows on PostgreSQL.
 */
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import { selectProfileIds, type ProfileWhere } from './profile-reads.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import type { Actor } from '../../kernel/actor.js';
import { parseInput } from '../../kernel/validation.js';

export type ProfileViewer = Extract<Actor, { kind: 'marketplace_v1' | 'platform' | 'tenant' }>;
/** Callers whose account owns profiles (a login user and a master token act for the whole account). */
export type ProfileOwnerViewer = Extract<Actor, { kind: 'marketplace_v1' | 'platform' | 'tenant' | 'master' | 'login' }>;

/** A profile nobody owns yet: created anonymously, claimable with set-ownership. */
const ANONYMOUS_PROFILE = { ownerAccountId: null, tenantId: null } as const;

export function isAnonymousProfile(profile: { ownerAccountId: string | null; tenantId: string | null }): boolean {
  return profile.ownerAccountId === null && profile.tenantId === null;
}

export const ProfileUuid = z.uuid({ message: 'must be a uuid' });

function profileScope(actor: ProfileViewer): Prisma.ProfileWhereInput {
  switch (actor.kind) {
    case 'marketplace_v1':
      return { OR: [{ ownerAccountId: actor.accountId }, ANONYMOUS_PROFILE] };
    case 'platform':
      return { tenant: { accountId: actor.accountId } };
    case 'tenant':
      return { tenantId: actor.tenantId };
  }
}

/**
 * Profiles the caller's account owns (or its tenant): for a ProfileViewer, `profileScope` without the
 * anonymous ones; a master token its account's tenants'; a login user its account's either way.
 */
export function ownedProfileScope(actor: ProfileOwnerViewer): Prisma.ProfileWhereInput {
  switch (actor.kind) {
    case 'marketplace_v1':
      return { ownerAccountId: actor.accountId };
    case 'platform':
    case 'master':
      return { tenant: { accountId: actor.accountId } };
    case 'tenant':
      return { tenantId: actor.tenantId };
    case 'login':
      return { OR: [{ ownerAccountId: actor.accountId }, { tenant: { accountId: actor.accountId } }] };
  }
}

export function visibleProfiles(ctx: ServiceContext, actor: ProfileViewer): Prisma.ProfileWhereInput {
  return { AND: [{ environment: ctx.environment }, profileScope(actor)] };
}

export function ownedProfiles(ctx: ServiceContext, actor: ProfileOwnerViewer): Prisma.ProfileWhereInput {
  return { AND: [{ environment: ctx.environment }, ownedProfileScope(actor)] };
}

/** The profile a verified link names: the link is the credential (issued to a caller who saw the profile), bound to its environment. */
export function linkedProfile(ctx: ServiceContext, id: string): Prisma.ProfileWhereInput {
  return { id, environment: ctx.environment };
}

/** The anonymous profiles set-ownership may claim. */
export function claimableProfiles(ctx: ServiceContext): Prisma.ProfileWhereInput {
  return { environment: ctx.environment, ...ANONYMOUS_PROFILE };
}

/** The one channel on which a caller hears events about the profiles it owns (`ownedProfileScope`'s counterpart). */
export function ownedProfileChannelOf(actor: ProfileOwnerViewer): string {
  switch (actor.kind) {
    case 'marketplace_v1':
      return `owner-account:${actor.accountId}`;
    case 'platform':
    case 'master':
      return `tenant-account:${actor.accountId}`;
    case 'tenant':
      return `tenant:${actor.tenantId}`;
    case 'login':
      return `account:${actor.accountId}`;
  }
}

export interface ProfileAudience {
  ownerAccountId: string | null;
  tenantId: string | null;
  tenant: { accountId: string | null } | null;
}

/** Every channel events about this profile go to: each caller who owns it listens on one of them. */
export function ownedProfileChannelsOf({ ownerAccountId, tenantId, tenant }: ProfileAudience): string[] {
  return [
    ...(ownerAccountId ? [`owner-account:${ownerAccountId}`, `account:${ownerAccountId}`] : []),
    ...(tenantId ? [`tenant:${tenantId}`] : []),
    ...(tenant?.accountId ? [`tenant-account:${tenant.accountId}`, `account:${tenant.accountId}`] : []),
  ];
}

/**
 * `visibleProfiles` as the typed SQL reads' filter over `profile p` (Kysely: profile reads are hot,
 * and a Prisma query costs several times the statement's CPU). test/visibility-rules.test.ts holds
 * the two equal.
 */
export function visibleProfileWhere(ctx: ServiceContext, actor: ProfileViewer): ProfileWhere {
  return (eb) => {
    const environment = eb('p.environment', '=', ctx.environment);
    switch (actor.kind) {
      case 'marketplace_v1':
        return eb.and([
          environment,
          eb.or([eb('p.ownerAccountId', '=', actor.accountId), eb.and([eb('p.ownerAccountId', 'is', null), eb('p.tenantId', 'is', null)])]),
        ]);
      case 'platform':
        return eb.and([
          environment,
          eb.exists(eb.selectFrom('tenant as t').select('t.id').whereRef('t.id', '=', 'p.tenantId').where('t.accountId', '=', actor.accountId)),
        ]);
      case 'tenant':
        return eb.and([environment, eb('p.tenantId', '=', actor.tenantId)]);
    }
  };
}

/** The id of a profile the caller sees, or 404 (checked before any body is read): one typed SQL statement. */
export async function findVisibleProfileId(ctx: ServiceContext, actor: ProfileViewer, uuid: unknown): Promise<string> {
  const id = parseInput(ProfileUuid, uuid, 'Profile uuid');
  const visible = await selectProfileIds(ctx.db, (eb) => eb.and([eb('p.id', '=', id), visibleProfileWhere(ctx, actor)(eb)]));
  if (!visible[0]) throw AppError.notFound('Profile');
  return visible[0];
}

/**
 * The id of a profile the caller's account owns, for acting in its name (applying to lenders): an
 * anonymous profile the caller sees is a 409 telling it to claim the profile first; any other
 * profile is 404, as for reads.
 */
export async function findOwnedProfileId(ctx: ServiceContext, actor: ProfileViewer, uuid: unknown): Promise<string> {
  const id = await findVisibleProfileId(ctx, actor, uuid);
  const owned = await ctx.db.profile.count({ where: { AND: [{ id }, ownedProfiles(ctx, actor)] } });
  if (owned === 0) {
    throw AppError.conflict('The profile is anonymous: claim it with PATCH /profiles/{uuid}/set-ownership before applying', [
      { pointer: 'path:uuid', message: 'is an anonymous profile; claim it first (set-ownership)' },
    ]);
  }
  return id;
}
