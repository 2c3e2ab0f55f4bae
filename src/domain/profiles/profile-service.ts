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
import { parseInput } from '../validation.js';
import { mergePatch } from './merge-patch.js';
import { readPersons, readSections, SECTIONS_INCLUDE } from './profile-sections.js';
import { AnonymousProfileBody, CompanyInformationPatch, FinancialsPatch } from './profile-schemas.js';

export interface ProfileSummary {
  uuid: string;
  tenantId: string | null;
  countryCode: string;
  registrationNumber: string | null;
  companyName: string | null;
  companyInformation: Record<string, unknown>;
  financials: Record<string, unknown>;
  legacyEntityBusinessId: number;
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
    companyInformation: (row.companyInformation ?? {}) as Record<string, unknown>,
    financials: (row.financials ?? {}) as Record<string, unknown>,
    legacyEntityBusinessId: row.legacyEntityBusinessId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toPublicProfile(row: ProfileRow & Prisma.ProfileGetPayload<{ include: typeof SECTIONS_INCLUDE }>): PublicProfile {
  const sections = readSections(row);
  return {
    uuid: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    legacy: { entityBusinessId: row.legacyEntityBusinessId, fundingSearchId: row.legacyFundingSearchId },
    companyInformation: (row.companyInformation ?? {}) as Record<string, unknown>,
    financials: (row.financials ?? {}) as Record<string, unknown>,
    persons: readPersons(row),
    properties: sections.properties,
    assets: sections.assets,
    assetsForSecurity: sections.assetsForSecurity,
    merchantCashAdvance: sections.merchantCashAdvance,
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

/** POST {marketplace_v1_base}/profiles/anonymous {countryCode}: a profile with no owner until set-ownership. */
export async function createAnonymousProfile(ctx: ServiceContext, input: unknown): Promise<PublicProfile> {
  requireAccess(ctx, 'profiles.create');
  const { countryCode } = parseInput(AnonymousProfileBody, input);
  const row = await ctx.db.profile.create({ data: { environment: ctx.environment, countryCode }, include: SECTIONS_INCLUDE });
  ctx.logger.info({ profileId: row.id }, 'anonymous profile created');
  return toPublicProfile(row);
}

/** POST {marketplace_v1_base}/profiles/blank: an empty profile owned by the calling key. */
export async function createBlankProfile(ctx: ServiceContext): Promise<PublicProfile> {
  const actor = requireAccess(ctx, 'profiles.create');
  const row = await ctx.db.profile.create({
    data: { environment: ctx.environment, ownerApiKeyId: actor.apiKeyId, ownerAccountId: actor.accountId },
    include: SECTIONS_INCLUDE,
  });
  ctx.logger.info({ profileId: row.id, apiKeyId: actor.apiKeyId }, 'profile created');
  return toPublicProfile(row);
}

/** GET {marketplace_v1_base}/profiles/{uuid}: another account's profile is a 404, like a missing one. */
export async function getPublicProfile(ctx: ServiceContext, uuid: unknown): Promise<PublicProfile> {
  const { id } = await findVisibleProfile(ctx, uuid);
  return toPublicProfile(await ctx.db.profile.findUniqueOrThrow({ where: { id }, include: SECTIONS_INCLUDE }));
}

export async function getProfile(ctx: ServiceContext, uuid: unknown): Promise<ProfileSummary> {
  return toSummary(await findVisibleProfile(ctx, uuid));
}

/** A profile by id with no access check: for callers holding another proof (a verified signed link). */
export async function findProfileSummary(ctx: ServiceContext, id: string): Promise<ProfileSummary | null> {
  const row = await ctx.db.profile.findFirst({ where: { id, environment: ctx.environment } });
  return row ? toSummary(row) : null;
}

/** The tenant's one profile, or null before it is set up (Tenant.profile in GraphQL). */
export async function findTenantProfile(ctx: ServiceContext, tenantId: string): Promise<ProfileSummary | null> {
  const actor = requireAccess(ctx, 'profiles.read');
  const row = await ctx.db.profile.findFirst({ where: { AND: [{ tenantId, environment: ctx.environment }, visibleTo(actor)] } });
  return row ? toSummary(row) : null;
}

/** PATCH {marketplace_v1_base}/profiles/{uuid}/company: merges CompanyInformation, 204. */
export async function patchCompanyInformation(ctx: ServiceContext, uuid: unknown, input: unknown): Promise<void> {
  const body = parseInput(CompanyInformationPatch, input);
  await patchProfileDocument(ctx, uuid, (row) => {
    const companyInformation = mergePatch(row.companyInformation, body) as CompanyInformationPatch;
    return {
      companyInformation: companyInformation as Prisma.InputJsonValue,
      registrationNumber: companyInformation.registrationNumber ?? null,
      companyType: companyInformation.type ?? null,
      sector: companyInformation.sector ?? null,
    };
  });
}

/** PATCH {marketplace_v1_base}/profiles/{uuid}/financials: merges Financials, 204. */
export async function patchFinancials(ctx: ServiceContext, uuid: unknown, input: unknown): Promise<void> {
  const body = parseInput(FinancialsPatch, input);
  await patchProfileDocument(ctx, uuid, (row) => ({ financials: mergePatch(row.financials, body) as Prisma.InputJsonValue }));
}

/**
 * PATCH {marketplace_v1_base}/profiles/{uuid}/set-ownership: the calling key becomes the owner of an
 * anonymous profile. Claiming a profile the caller's account already owns changes nothing (204);
 * another account's profile is invisible (404).
 */
export async function setOwnership(ctx: ServiceContext, uuid: unknown): Promise<void> {
  const actor = requireAccess(ctx, 'profiles.claim');
  const id = parseInput(ProfileUuid, uuid, 'Profile uuid');
  const claimed = await ctx.db.profile.updateMany({
    where: { id, environment: ctx.environment, ownerAccountId: null, tenantId: null },
    data: { ownerApiKeyId: actor.apiKeyId, ownerAccountId: actor.accountId },
  });
  if (claimed.count === 1) {
    ctx.logger.info({ profileId: id, apiKeyId: actor.apiKeyId }, 'profile claimed');
    return;
  }
  const owned = await ctx.db.profile.count({ where: { id, environment: ctx.environment, ownerAccountId: actor.accountId } });
  if (!owned) throw AppError.notFound('Profile');
}

const KeyPrefix = z.string().regex(/^key_[0-9a-f]{12}$/, 'must be an API key id (keyPrefix), e.g. key_0123456789ab');

/**
 * PUT {marketplace_v1_base}/profiles/{uuid}/move/{targetApiKey}: a profile created under a master
 * key moves to another key of the same account. targetApiKey is the key's public id (its
 * `keyPrefix`, from GET {platform_base}/api-key), never its secret. Only the master key that owns
 * the profile may move it (403 otherwise); an unknown, revoked or foreign target key is a 404.
 */
export async function moveProfile(ctx: ServiceContext, uuid: unknown, targetApiKey: unknown): Promise<void> {
  const actor = requireAccess(ctx, 'profiles.move');
  const id = parseInput(ProfileUuid, uuid, 'Profile uuid');
  const keyPrefix = parseInput(KeyPrefix, targetApiKey, 'targetApiKey');
  const profile = await ctx.db.profile.findFirst({
    where: { id, environment: ctx.environment, ownerAccountId: actor.accountId },
    include: { ownerApiKey: { select: { id: true, isMaster: true } } },
  });
  if (!profile) throw AppError.notFound('Profile');
  if (!profile.ownerApiKey?.isMaster) throw AppError.forbidden('Only a profile created under a master key can be moved');
  if (profile.ownerApiKey.id !== actor.apiKeyId) throw AppError.forbidden('Only the master key that owns the profile can move it');
  const target = await ctx.db.apiKey.findFirst({
    where: { keyPrefix, accountId: actor.accountId, environment: ctx.environment, revokedAt: null },
    select: { id: true },
  });
  if (!target) throw AppError.notFound('API key');
  await ctx.db.profile.update({ where: { id }, data: { ownerApiKeyId: target.id, updatedAt: ctx.clock.now() } });
  ctx.logger.info({ profileId: id, from: actor.apiKeyId, to: target.id }, 'profile moved');
}

/**
 * Read-merge-write of a profile's documents under a row lock, so concurrent patches of different
 * fields both land; the caller must be allowed to write it (owner account, or anyone for an anonymous one).
 */
async function patchProfileDocument(
  ctx: ServiceContext,
  uuid: unknown,
  change: (row: ProfileRow) => Prisma.ProfileUpdateInput,
): Promise<void> {
  const actor = requireAccess(ctx, 'profiles.write');
  const id = parseInput(ProfileUuid, uuid, 'Profile uuid');
  await ctx.db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM profile WHERE id = ${id}::uuid FOR UPDATE`;
    const row = locked.length ? await tx.profile.findFirst({ where: { AND: [{ id, environment: ctx.environment }, visibleTo(actor)] } }) : null;
    if (!row) throw AppError.notFound('Profile');
    await tx.profile.update({ where: { id }, data: { ...change(row), updatedAt: ctx.clock.now() } });
  });
}

async function findVisibleProfile(ctx: ServiceContext, uuid: unknown): Promise<ProfileRow> {
  const actor = requireAccess(ctx, 'profiles.read');
  const id = parseInput(ProfileUuid, uuid, 'Profile uuid');
  const row = await ctx.db.profile.findFirst({ where: { AND: [{ id, environment: ctx.environment }, visibleTo(actor)] } });
  if (!row) throw AppError.notFound('Profile');
  return row;
}
