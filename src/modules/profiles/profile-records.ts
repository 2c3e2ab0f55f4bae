/**
 * A profile as the domain knows it (ProfileRecord), read once with its sections: every surface's
 * profile shape is taken from it (the Marketplace V1 body of spec 2.2, the GraphQL Profile); its
 * schema is profile-schemas.ts's ProfileRecord.
 */
import { Prisma } from '../../generated/prisma/client.js';
import { AppError } from '../../kernel/errors.js';
import { readPersons, readSections, type SECTIONS_INCLUDE } from './profile-sections.js';
import type { ProfileRecord } from './profile-schemas.js';

export type { ProfileRecord };

type WithSections = Prisma.ProfileGetPayload<{ include: typeof SECTIONS_INCLUDE }>;
/** What a record is made from: Prisma's payloads (creates, updates) and `findProfileRecord`'s row alike. */
type ProfileRow = Pick<
  WithSections,
  | 'id' | 'tenantId' | 'countryCode' | 'registrationNumber' | 'companyInformation' | 'financials' | 'eligibilityRequest'
  | 'legacyEntityBusinessId' | 'legacyFundingSearchId' | 'createdAt' | 'updatedAt'
  | 'persons' | 'properties' | 'assets' | 'assetsForSecurity' | 'merchantCashAdvance'
>;

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
    eligibilityRequest: (row.eligibilityRequest ?? {}) as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The profile and its sections as one typed SQL statement (sections aggregated as JSON, in
 * position order), filtered by `where` over `profile p`: profile reads are hot, and Prisma's
 * include costs a query per section plus its per-query CPU. Trade references are not read: no
 * record field shows them.
 */
export async function findProfileRecord(db: Prisma.TransactionClient, where: Prisma.Sql): Promise<ProfileRecord | null> {
  return (await profileRecordsWhere(db, where, Prisma.sql`LIMIT 1`))[0] ?? null;
}

/** Every profile matching `where`, in one statement (a batched look-up of many parents' profiles). */
export function findProfileRecords(db: Prisma.TransactionClient, where: Prisma.Sql): Promise<ProfileRecord[]> {
  return profileRecordsWhere(db, where, Prisma.empty);
}

async function profileRecordsWhere(db: Prisma.TransactionClient, where: Prisma.Sql, limit: Prisma.Sql): Promise<ProfileRecord[]> {
  const rows = await db.$queryRaw<ProfileSqlRow[]>`
    SELECT p.id::text AS id, p."tenantId"::text AS "tenantId", p."countryCode", p."registrationNumber",
      p."companyInformation", p.financials, p."eligibilityRequest", p."legacyEntityBusinessId", p."legacyFundingSearchId",
      p."createdAt", p."updatedAt",
      COALESCE((SELECT json_agg(s ORDER BY s.position) FROM person s WHERE s."profileId" = p.id), '[]'::json) AS persons,
      COALESCE((SELECT json_agg(s ORDER BY s.position) FROM property s WHERE s."profileId" = p.id), '[]'::json) AS properties,
      COALESCE((SELECT json_agg(s ORDER BY s.position) FROM asset s WHERE s."profileId" = p.id), '[]'::json) AS assets,
      COALESCE((SELECT json_agg(s ORDER BY s.position) FROM asset_security s WHERE s."profileId" = p.id), '[]'::json) AS "assetsForSecurity",
      COALESCE((SELECT json_agg(s ORDER BY s.position) FROM merchant_cash_advance s WHERE s."profileId" = p.id), '[]'::json) AS "merchantCashAdvance"
    FROM profile p
    WHERE ${where}
    ${limit}`;
  return rows.map((row) => toProfileRecord(fromSqlRow(row)));
}

/** A profile the caller has already established it may see (404 if it vanished meanwhile). */
export async function loadProfile(db: Prisma.TransactionClient, id: string): Promise<ProfileRecord> {
  const record = await findProfileRecord(db, Prisma.sql`p.id = ${id}::uuid`);
  if (!record) throw AppError.notFound('Profile');
  return record;
}

/** JSON turns section decimals into numbers (what the mapping reads) and timestamps into UTC text without a zone. */
type JsonPerson = Omit<WithSections['persons'][number], 'dateOfBirth'> & { dateOfBirth: string | null };
type ProfileSqlRow = Omit<ProfileRow, 'persons'> & { persons: JsonPerson[] };

function fromSqlRow(row: ProfileSqlRow): ProfileRow {
  return { ...row, persons: row.persons.map((p) => ({ ...p, dateOfBirth: p.dateOfBirth === null ? null : new Date(`${p.dateOfBirth}Z`) })) };
}
