/**
 * Business profiles: where creating and reading profiles is decided, and who sees which.
 * Marketplace V1 profiles are owned by the key (and so the account) that created them; onboarding
 * profiles belong to a tenant. The profiles issue adds patches, ownership moves and the credit report.
 */
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { parseInput, type CheckedLater } from '../../kernel/validation.js';
import { digest } from '../identity/secrets.js';
import { mergePatch } from './merge-patch.js';
import { countryOfRegistrationNumber } from './credit-report.js';
import { registeredAddress } from '../companies/company-information.js';
import { SECTIONS_INCLUDE } from './profile-sections.js';
import { findProfileRecord, findProfileRecords, loadProfile, toProfileRecord, type ProfileRecord } from './profile-records.js';
import type { AnonymousProfileBody, CompanyInformationPatch, FinancialsPatch } from './profile-schemas.js';
import { claimableProfiles, findVisibleProfileId, ownedProfiles, ProfileUuid, visibleProfileWhere, type ProfileViewer } from './profile-visibility.js';
import { profilesOfTenantsWhere, selectProfileIds, selectProfileIdsOfTenants } from './profile-reads.js';
import { usableApiKeys } from '../identity/api-key-visibility.js';
import type { Actor } from '../../kernel/actor.js';
import { indexedBy } from '../../kernel/batched-lookups.js';

/** POST {marketplace_v1_base}/profiles/anonymous {countryCode}: a profile with no owner until set-ownership. */
export async function createAnonymousProfile(ctx: ServiceContext, { countryCode }: z.output<typeof AnonymousProfileBody>): Promise<ProfileRecord> {
  requireAccess(ctx, 'profiles.create');
  const row = await ctx.db.profile.create({ data: { environment: ctx.environment, countryCode }, include: SECTIONS_INCLUDE });
  ctx.logger.info({ profileId: row.id }, 'anonymous profile created');
  return toProfileRecord(row);
}

/** POST {marketplace_v1_base}/profiles/blank: an empty profile owned by the calling key. */
export async function createBlankProfile(ctx: ServiceContext): Promise<ProfileRecord> {
  const actor = requireAccess(ctx, 'profiles.create');
  const row = await ctx.db.profile.create({
    data: { environment: ctx.environment, ownerApiKeyId: actor.apiKeyId, ownerAccountId: actor.accountId },
    include: SECTIONS_INCLUDE,
  });
  ctx.logger.info({ profileId: row.id, apiKeyId: actor.apiKeyId }, 'profile created');
  return toProfileRecord(row);
}

/** GET {marketplace_v1_base}/profiles/{uuid} (GraphQL profile): another account's profile is a 404, like a missing one. */
export async function getProfile(ctx: ServiceContext, uuid: unknown): Promise<ProfileRecord> {
  const actor = requireAccess(ctx, 'profiles.read');
  const id = parseInput(ProfileUuid, uuid, 'Profile uuid');
  const record = await findProfileRecord(ctx.db, (eb) => eb.and([eb('p.id', '=', id), visibleProfileWhere(ctx, actor)(eb)]));
  if (!record) throw AppError.notFound('Profile');
  return record;
}

/** GraphQL Tenant.profile: the profile of each tenant the caller already sees, or null before it is set up. */
export async function profilesOfTenants(ctx: ServiceContext, tenantIds: readonly string[]): Promise<Array<ProfileRecord | null>> {
  requireAccess(ctx, 'Tenant.profile');
  return tenantProfiles(ctx, tenantIds);
}

/**
 * Each tenant's one profile (or null), in one statement.
 * @access internal: the tenant ids come from a look-up that established their visibility
 */
export async function tenantProfiles(ctx: ServiceContext, tenantIds: readonly string[]): Promise<Array<ProfileRecord | null>> {
  const records = await findProfileRecords(ctx.db, profilesOfTenantsWhere(tenantIds, ctx.environment));
  return indexedBy(tenantIds, records, (record) => record.tenantId);
}

/** GraphQL Tenant.profile when only its uuid is asked: each tenant's profile uuid (or null), one statement reading two columns. */
export async function profileUuidsOfTenants(ctx: ServiceContext, tenantIds: readonly string[]): Promise<Array<ProfileUuidOnly | null>> {
  requireAccess(ctx, 'Tenant.profile');
  const rows = await selectProfileIdsOfTenants(ctx.db, tenantIds, ctx.environment);
  return indexedBy(tenantIds, rows, (row) => row.tenantId).map((row) => (row ? { uuid: row.id } : null));
}

/** A profile of which only its uuid was asked. */
export type ProfileUuidOnly = Pick<ProfileRecord, 'uuid'>;

/**
 * Which of these profiles the caller sees (one statement): a profile entering a subgraph as an
 * entity reference is answered only if it is one, as if it had come through a read. No scope is
 * asked: the field then requested decides its own row.
 * @access visibility: an entity reference entering a subgraph; the fields asked of it decide access
 */
export async function profilesVisibleAmong(ctx: ServiceContext, uuids: readonly string[]): Promise<boolean[]> {
  const viewer = profileViewerOf(ctx.actor);
  const ids = uuids.filter((uuid) => ProfileUuid.safeParse(uuid).success);
  if (!viewer || ids.length === 0) return uuids.map(() => false);
  const visible = new Set(
    await selectProfileIds(ctx.db, (eb) => eb.and([eb('p.id', '=', eb.fn.any(eb.val(ids).$castTo<string[]>())), visibleProfileWhere(ctx, viewer)(eb)])),
  );
  return uuids.map((uuid) => visible.has(uuid));
}

function profileViewerOf(actor: Actor): ProfileViewer | null {
  return actor.kind === 'marketplace_v1' || actor.kind === 'platform' || actor.kind === 'tenant' ? actor : null;
}

/**
 * PATCH {marketplace_v1_base}/profiles/{uuid}/company: merges CompanyInformation, 204. A new
 * registration number of a company the registry knows brings its registered office as the contact
 * address, unless the patch gives one.
 */
export async function patchCompanyInformation(ctx: ServiceContext, uuid: unknown, input: CheckedLater<CompanyInformationPatch>): Promise<ProfileRecord> {
  const actor = requireAccess(ctx, 'profiles.write');
  const profileId = await findVisibleProfileId(ctx, actor, uuid);
  const patch = input();
  const number = patch.registrationNumber?.toUpperCase();
  const company = number && patch.contactAddress === undefined ? await ctx.companies.find(number, countryOfRegistrationNumber(number)) : null;
  return patchProfileDocument(ctx, profileId, (row) => {
    const before = (row.companyInformation ?? {}) as CompanyInformationPatch;
    const newCompany = company !== null && before.registrationNumber?.toUpperCase() !== number;
    // The new company's office replaces the old one's whole (a merge would keep the old one's other keys).
    const companyInformation = mergePatch(
      newCompany ? { ...before, contactAddress: undefined, ...registeredAddress(company) } : before,
      patch,
    ) as CompanyInformationPatch;
    return {
      companyInformation: companyInformation as Prisma.InputJsonValue,
      registrationNumber: companyInformation.registrationNumber ?? null,
      companyType: companyInformation.type ?? null,
      sector: companyInformation.sector ?? null,
    };
  });
}

/** PATCH {marketplace_v1_base}/profiles/{uuid}/financials: merges Financials, 204. */
export async function patchFinancials(ctx: ServiceContext, uuid: unknown, input: CheckedLater<z.output<typeof FinancialsPatch>>): Promise<ProfileRecord> {
  const actor = requireAccess(ctx, 'profiles.write');
  const profileId = await findVisibleProfileId(ctx, actor, uuid);
  const patch = input();
  return patchProfileDocument(ctx, profileId, (row) => ({
    financials: mergePatch(row.financials, patch) as Prisma.InputJsonValue,
  }));
}

/**
 * PATCH {marketplace_v1_base}/profiles/{uuid}/set-ownership: the calling key becomes the owner of an
 * anonymous profile. Claiming a profile the caller's account already owns changes nothing (204);
 * another account's profile is invisible (404).
 */
export async function setOwnership(ctx: ServiceContext, uuid: unknown): Promise<ProfileRecord> {
  const actor = requireAccess(ctx, 'profiles.claim');
  const id = parseInput(ProfileUuid, uuid, 'Profile uuid');
  const claimed = await ctx.db.profile.updateMany({
    where: { AND: [{ id }, claimableProfiles(ctx)] },
    data: { ownerApiKeyId: actor.apiKeyId, ownerAccountId: actor.accountId },
  });
  if (claimed.count === 1) ctx.logger.info({ profileId: id, apiKeyId: actor.apiKeyId }, 'profile claimed');
  const owned = await ctx.db.profile.findFirst({ where: { AND: [{ id }, ownedProfiles(ctx, actor)] }, include: SECTIONS_INCLUDE });
  if (!owned) throw AppError.notFound('Profile');
  return toProfileRecord(owned);
}

/** The target as the spec and the live docs pass it (the API key itself), or its public keyPrefix. */
const TargetApiKey = z.union([z.string().regex(/^key_[0-9a-f]{12}$/), z.string().regex(/^fgk_(demo|live)_key_[0-9a-f]{12}_[A-Za-z0-9_-]+$/)], {
  error: 'must be an API key, or its keyPrefix (e.g. key_0123456789ab)',
});

/**
 * PUT {marketplace_v1_base}/profiles/{uuid}/move/{targetApiKey}: a profile created under a master
 * key moves to another key of the same account. targetApiKey is the key's public id (its
 * `keyPrefix`, from GET {platform_base}/api-key), never its secret. Only the master key that owns
 * the profile may move it (403 otherwise); an unknown, revoked or foreign target key is a 404.
 */
export async function moveProfile(ctx: ServiceContext, uuid: unknown, targetApiKey: unknown): Promise<void> {
  const actor = requireAccess(ctx, 'profiles.move');
  const id = parseInput(ProfileUuid, uuid, 'Profile uuid');
  const profile = await ctx.db.profile.findFirst({
    where: { AND: [{ id }, ownedProfiles(ctx, actor)] },
    include: { ownerApiKey: { select: { id: true, isMaster: true } } },
  });
  if (!profile) throw AppError.notFound('Profile');
  if (!profile.ownerApiKey?.isMaster) throw AppError.forbidden('Only a profile created under a master key can be moved');
  if (profile.ownerApiKey.id !== actor.apiKeyId) throw AppError.forbidden('Only the master key that owns the profile can move it');
  const given = parseInput(TargetApiKey, targetApiKey, 'targetApiKey');
  // A whole key must be the key itself (its digest), not merely carry a known prefix.
  const which = given.startsWith('key_') ? { keyPrefix: given } : { keyHash: digest(given) };
  const target = await ctx.db.apiKey.findFirst({
    where: { AND: [which, usableApiKeys(ctx, actor)] },
    select: { id: true },
  });
  if (!target) throw AppError.notFound('API key');
  await ctx.db.profile.update({ where: { id }, data: { ownerApiKeyId: target.id, updatedAt: ctx.clock.now() } });
  ctx.logger.info({ profileId: id, from: actor.apiKeyId, to: target.id }, 'profile moved');
}

/**
 * Read-merge-write of a profile's documents under a row lock, so concurrent patches of different
 * fields both land. The caller has established that the profile is visible.
 */
async function patchProfileDocument(
  ctx: ServiceContext,
  id: string,
  change: (row: { companyInformation: unknown; financials: unknown }) => Prisma.ProfileUpdateInput,
): Promise<ProfileRecord> {
  await ctx.db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<Array<{ companyInformation: unknown; financials: unknown }>>`
      SELECT "companyInformation", financials FROM profile WHERE id = ${id}::uuid FOR UPDATE`;
    if (!row) throw AppError.notFound('Profile');
    await tx.profile.update({ where: { id }, data: { ...change(row), updatedAt: ctx.clock.now() } });
  });
  // Read after the commit, on the typed SQL reads (the pool cannot see inside the transaction).
  return loadProfile(ctx.db, id);
}
