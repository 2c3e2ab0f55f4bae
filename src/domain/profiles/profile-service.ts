/**
 * Business profiles: where creating and reading profiles is decided, and who sees which.
 * Marketplace V1 profiles are owned by the key (and so the account) that created them; onboarding
 * profiles belong to a tenant. The profiles issue adds patches, ownership moves and the credit report.
 */
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../context.js';
import { AppError } from '../errors.js';
import type { ActorFor } from '../identity/access-policy.js';
import { requireAccess } from '../identity/access-policy.js';
import { resolveTenantId } from '../identity/tenant-scope.js';
import { parseInput } from '../validation.js';

export interface ProfileSummary {
  uuid: string;
  tenantId: string | null;
  countryCode: string;
  registrationNumber: string | null;
  companyName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The Marketplace V1 public profile (spec 2.2); its sections fill as the profiles issue lands. */
export interface PublicProfile {
  uuid: string;
  createdAt: string;
  updatedAt: string;
  legacy: { entityBusinessId: number; fundingSearchId: number | null };
  companyInformation: Record<string, unknown>;
  financials: Record<string, unknown>;
  persons: unknown[];
  properties: unknown[];
  assets: unknown[];
  assetsForSecurity: unknown[];
  merchantCashAdvance: unknown[];
  eligibilityRequest: Record<string, unknown>;
}

interface ProfileRow {
  id: string;
  tenantId: string | null;
  countryCode: string;
  registrationNumber: string | null;
  legacyEntityBusinessId: number;
  legacyFundingSearchId: number | null;
  companyInformation: unknown;
  financials: unknown;
  eligibilityRequest: unknown;
  createdAt: Date;
  updatedAt: Date;
}

function toSummary(row: ProfileRow): ProfileSummary {
  const info = (row.companyInformation ?? {}) as { name?: unknown };
  return {
    uuid: row.id,
    tenantId: row.tenantId,
    countryCode: row.countryCode,
    registrationNumber: row.registrationNumber,
    companyName: typeof info.name === 'string' ? info.name : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toPublicProfile(row: ProfileRow): PublicProfile {
  return {
    uuid: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    legacy: { entityBusinessId: row.legacyEntityBusinessId, fundingSearchId: row.legacyFundingSearchId },
    companyInformation: (row.companyInformation ?? {}) as Record<string, unknown>,
    financials: (row.financials ?? {}) as Record<string, unknown>,
    persons: [],
    properties: [],
    assets: [],
    assetsForSecurity: [],
    merchantCashAdvance: [],
    eligibilityRequest: (row.eligibilityRequest ?? {}) as Record<string, unknown>,
  };
}

const ProfileUuid = z.uuid({ message: 'must be a uuid' });

/**
 * Which profiles a caller may see: a Marketplace V1 key's account sees the profiles its keys own
 * (and unowned anonymous ones, by uuid); a platform token its tenants' profiles; a tenant token its own.
 */
export function visibleTo(actor: ActorFor<'profiles.read'>): Prisma.ProfileWhereInput {
  switch (actor.kind) {
    case 'marketplace_v1':
      return { OR: [{ ownerAccountId: actor.accountId }, { ownerAccountId: null, tenantId: null }] };
    case 'platform':
      return { tenant: { accountId: actor.accountId } };
    case 'tenant':
      return { tenantId: actor.tenantId };
  }
}

/** POST {marketplace_v1_base}/profiles/blank: an empty profile owned by the calling key. */
export async function createBlankProfile(ctx: ServiceContext): Promise<PublicProfile> {
  const actor = requireAccess(ctx, 'profiles.create');
  const row = await ctx.db.profile.create({
    data: { environment: ctx.environment, ownerApiKeyId: actor.apiKeyId, ownerAccountId: actor.accountId },
  });
  ctx.logger.info({ profileId: row.id, apiKeyId: actor.apiKeyId }, 'profile created');
  return toPublicProfile(row);
}

/** GET {marketplace_v1_base}/profiles/{uuid}: another account's profile is a 404, like a missing one. */
export async function getPublicProfile(ctx: ServiceContext, uuid: unknown): Promise<PublicProfile> {
  return toPublicProfile(await findVisibleProfile(ctx, uuid));
}

export async function getProfile(ctx: ServiceContext, uuid: unknown): Promise<ProfileSummary> {
  return toSummary(await findVisibleProfile(ctx, uuid));
}

/** The tenant's one profile, or null before it is set up (Tenant.profile in GraphQL). */
export async function findTenantProfile(ctx: ServiceContext, tenantId: string): Promise<ProfileSummary | null> {
  const actor = requireAccess(ctx, 'profiles.read');
  const row = await ctx.db.profile.findFirst({ where: { AND: [{ tenantId, environment: ctx.environment }, visibleTo(actor)] } });
  return row ? toSummary(row) : null;
}

/** GET {business_v1_base}/profile (and marketplace V2): the tenant's profile; the credit report lands with the profiles issue. */
export async function getTenantProfile(ctx: ServiceContext): Promise<ProfileSummary> {
  const actor = requireAccess(ctx, 'tenantProfile.read');
  const tenantId = await resolveTenantId(ctx, actor);
  const row = await ctx.db.profile.findFirst({ where: { tenantId, environment: ctx.environment } });
  if (!row) throw new AppError('NOT_FOUND', 'The tenant has no profile yet: set it up with POST /profile');
  return toSummary(row);
}

async function findVisibleProfile(ctx: ServiceContext, uuid: unknown): Promise<ProfileRow> {
  const actor = requireAccess(ctx, 'profiles.read');
  const id = parseInput(ProfileUuid, uuid, 'Profile uuid');
  const row = await ctx.db.profile.findFirst({ where: { AND: [{ id, environment: ctx.environment }, visibleTo(actor)] } });
  if (!row) throw AppError.notFound('Profile');
  return row;
}
