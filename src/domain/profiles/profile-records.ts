/**
 * A profile as the domain knows it (ProfileRecord), read once with its sections: every surface's
 * profile shape is taken from it (the Marketplace V1 body of spec 2.2, the GraphQL Profile).
 */
import type { Prisma } from '../../generated/prisma/client.js';
import { readPersons, readSections, SECTIONS_INCLUDE } from './profile-sections.js';

/** A profile as the domain knows it: what every surface's profile shape is read from. */
export interface ProfileRecord {
  uuid: string;
  tenantId: string | null;
  countryCode: string;
  registrationNumber: string | null;
  companyName: string | null;
  companyInformation: Record<string, unknown>;
  financials: Record<string, unknown>;
  legacyEntityBusinessId: number;
  legacy: { entityBusinessId: number; fundingSearchId: number | null };
  persons: unknown[];
  properties: unknown[];
  assets: unknown[];
  assetsForSecurity: unknown[];
  merchantCashAdvance: unknown[];
  eligibilityRequest: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** The Marketplace V1 public profile (spec 2.2). */
export type PublicProfile = Pick<
  ProfileRecord,
  'uuid' | 'createdAt' | 'updatedAt' | 'legacy' | 'companyInformation' | 'financials' | 'persons' | 'properties' | 'assets' | 'assetsForSecurity' | 'merchantCashAdvance' | 'eligibilityRequest'
>;

type ProfileRow = Prisma.ProfileGetPayload<{ include: typeof SECTIONS_INCLUDE }>;

export function toProfileRecord(row: ProfileRow): ProfileRecord {
  const info = (row.companyInformation ?? {}) as { name?: unknown };
  const sections = readSections(row);
  return {
    uuid: row.id,
    tenantId: row.tenantId,
    countryCode: row.countryCode,
    registrationNumber: row.registrationNumber,
    companyName: typeof info.name === 'string' ? info.name : null,
    companyInformation: (row.companyInformation ?? {}) as Record<string, unknown>,
    financials: (row.financials ?? {}) as Record<string, unknown>,
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

/** The REST body of spec 2.2: the record's public fields, in the documented order. */
export function toPublicProfile(record: ProfileRecord): PublicProfile {
  const { uuid, createdAt, updatedAt, legacy, companyInformation, financials, persons, properties, assets, assetsForSecurity, merchantCashAdvance, eligibilityRequest } = record;
  return { uuid, createdAt, updatedAt, legacy, companyInformation, financials, persons, properties, assets, assetsForSecurity, merchantCashAdvance, eligibilityRequest };
}

export async function loadProfile(db: Prisma.TransactionClient, id: string): Promise<ProfileRecord> {
  return toProfileRecord(await db.profile.findUniqueOrThrow({ where: { id }, include: SECTIONS_INCLUDE }));
}

