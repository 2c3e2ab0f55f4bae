/**
 * A profile as the domain knows it (ProfileRecord), read once with its sections: every surface's
 * profile shape is taken from it (the Marketplace V1 body of spec 2.2, the GraphQL Profile); its
 * schema is profile-schemas.ts's ProfileRecord.
 */
import type { Db } from '../../infra/database.js';
import { AppError } from '../../kernel/errors.js';
import { readPersons, readSections } from './profile-sections.js';
import type { ProfileRecord } from './profile-schemas.js';
import { profileByIdWhere, selectProfileRows, type ProfileRow, type ProfileWhere } from './profile-reads.js';

export type { ProfileRecord };

export function toProfileRecord(row: ProfileRow): ProfileRecord {
  const info = (row.companyInformation ?? {}) as { name?: unknown };
  const sections = readSections(row);
  return {
    uuid: row.id,
    tenantId: row.tenantId,
    countryCode: row.countryCode,
    registrationNumber: row.registrationNumber,
    companyName: typeof info.name === 'string' ? info.name : null,
    // Stored only through the schemas' own inputs, the registry's facts and validated answers.
    companyInformation: (row.companyInformation ?? {}) as ProfileRecord['companyInformation'],
    financials: (row.financials ?? {}) as ProfileRecord['financials'],
    legacyEntityBusinessId: row.legacyEntityBusinessId,
    legacy: { entityBusinessId: row.legacyEntityBusinessId, fundingSearchId: row.legacyFundingSearchId },
    persons: readPersons(row),
    properties: sections.properties,
    assets: sections.assets,
    assetsForSecurity: sections.assetsForSecurity,
    merchantCashAdvance: sections.merchantCashAdvance,
    // Written only by validated answers, at their questions' profilePaths (all within spec 2.2's shape).
    eligibilityRequest: (row.eligibilityRequest ?? {}) as ProfileRecord['eligibilityRequest'],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The profile matching `where` with its sections, in one typed SQL statement (profile-reads.ts):
 * profile reads are hot, and Prisma's include costs a query per section plus its per-query CPU.
 */
export async function findProfileRecord(db: Db, where: ProfileWhere): Promise<ProfileRecord | null> {
  const [row] = await selectProfileRows(db, where, { limit: 1 });
  return row ? toProfileRecord(row) : null;
}

/** Every profile matching `where`, in one statement (a batched look-up of many parents' profiles). */
export async function findProfileRecords(db: Db, where: ProfileWhere): Promise<ProfileRecord[]> {
  return (await selectProfileRows(db, where)).map(toProfileRecord);
}

/** A profile the caller has already established it may see (404 if it vanished meanwhile). */
export async function loadProfile(db: Db, id: string): Promise<ProfileRecord> {
  const record = await findProfileRecord(db, profileByIdWhere(id));
  if (!record) throw AppError.notFound('Profile');
  return record;
}
