/**
 * The company registry behind company search, lookups and credit reports. The demo deployment
 * reads the seeded `company` table; a real company-data provider (Companies House, a credit bureau)
 * would implement the same interface.
 */
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/database.js';

export interface RegistryCompany {
  countryCode: string;
  registrationNumber: string;
  name: string;
  type: string;
  sector: string;
  status: 'ACTIVE' | 'DISSOLVED' | string;
  vatStatus: string;
  incorporatedAt: Date | null;
  scoreValue: number;
  previousScoreValue: number | null;
  scoreChangedAt: Date | null;
  scoreLastAssessedAt: Date | null;
  creditLimitValue: number | null;
  creditLimitCurrency: string | null;
  employeesNumber: number | null;
  website: string | null;
  address: unknown;
  companyNoticesCount: number;
  companyNoticesValue: number;
  directorsNoticesCount: number;
  directorsNoticesValue: number;
  noticesCurrency: string;
}

export interface SearchHit {
  name: string;
  number: string;
}

declare module '../../kernel/context.js' {
  interface ServiceContext {
    /** The company registry (the seeded table in demo; a data provider could stand in). */
    companies: CompanyRegistry;
  }
}

export interface CompanyRegistry {
  /** Names (case-insensitive: exact, then prefix, then inside the name) or registration numbers. */
  search(term: string, options: { countryCode: string; limit: number }): Promise<SearchHit[]>;
  find(registrationNumber: string, countryCode: string): Promise<RegistryCompany | null>;
  /** Several companies in one look-up (a list of profiles matched at once), in the order asked; null where unknown. */
  findEach(keys: ReadonlyArray<{ registrationNumber: string; countryCode: string }>): Promise<Array<RegistryCompany | null>>;
  /** Mean score of the sector's live companies, or null when the registry has none. */
  sectorAverageScore(sector: string, countryCode: string): Promise<number | null>;
  /**
   * A new assessment of a company's score (a provider's feed would call this): when the score
   * changes, the current one becomes `previous` and changedAt moves; lastAssessedAt always moves.
   */
  recordScore(registrationNumber: string, countryCode: string, score: number, assessedAt: Date): Promise<void>;
}

/** Escapes LIKE wildcards so a search term is matched literally. */
function likeLiteral(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Trigram (inside-the-name) matching needs three characters to use its index. */
const MIN_INFIX_LENGTH = 3;

/**
 * Sector averages move only as the registry is re-scored: each is computed (one aggregate over the
 * sector's companies) at most once per SECTOR_AVERAGE_TTL_MS per process.
 */
export const SECTOR_AVERAGE_TTL_MS = 5 * 60_000;

/** The columns a lookup shows. */
const REGISTRY_COLUMNS = Prisma.sql`"countryCode", "registrationNumber", name, type::text AS type, sector::text AS sector, status::text AS status,
  "vatStatus"::text AS "vatStatus", "incorporatedAt", "scoreValue", "previousScoreValue", "scoreChangedAt",
  "scoreLastAssessedAt", "creditLimitValue"::float8 AS "creditLimitValue", "creditLimitCurrency", "employeesNumber",
  website, address, "companyNoticesCount", "companyNoticesValue"::float8 AS "companyNoticesValue",
  "directorsNoticesCount", "directorsNoticesValue"::float8 AS "directorsNoticesValue", "noticesCurrency"`;

export function databaseRegistry(db: Db): CompanyRegistry {
  const averages = new Map<string, { value: Promise<number | null>; until: number }>();
  return {
    async search(term, { countryCode, limit }) {
      const lower = term.toLowerCase();
      const upper = term.toUpperCase().replace(/\s+/g, '');
      const prefix = `${likeLiteral(lower)}%`;
      const infix = lower.length >= MIN_INFIX_LENGTH ? `%${likeLiteral(lower)}%` : prefix;
      const numberPrefix = `${likeLiteral(upper)}%`;
      // Each OR branch has its own index (prefix btree, trigram gin, number btree): a bitmap OR, no scan.
      return db.$queryRaw<SearchHit[]>`
        SELECT name, "registrationNumber" AS number
        FROM company
        WHERE "countryCode" = ${countryCode}
          AND ("nameLower" LIKE ${prefix} OR "nameLower" LIKE ${infix} OR "registrationNumber" LIKE ${numberPrefix})
        ORDER BY
          CASE
            WHEN "nameLower" = ${lower} OR "registrationNumber" = ${upper} THEN 0
            WHEN "nameLower" LIKE ${prefix} OR "registrationNumber" LIKE ${numberPrefix} THEN 1
            ELSE 2
          END,
          name, "registrationNumber"
        LIMIT ${limit}`;
    },

    async find(registrationNumber, countryCode) {
      // Typed SQL with the columns a lookup shows: a lookup runs on every company read, and Prisma's
      // per-query CPU is several times the statement's own.
      const rows = await db.$queryRaw<RegistryCompany[]>`
        SELECT ${REGISTRY_COLUMNS} FROM company
        WHERE "countryCode" = ${countryCode} AND "registrationNumber" = ${registrationNumber.toUpperCase()}`;
      return rows[0] ?? null;
    },

    async findEach(keys) {
      if (keys.length === 0) return [];
      const numbers = keys.map((key) => key.registrationNumber.toUpperCase());
      const rows = await db.$queryRaw<RegistryCompany[]>`
        SELECT ${REGISTRY_COLUMNS} FROM company
        WHERE ("countryCode", "registrationNumber") IN (SELECT * FROM unnest(${keys.map((key) => key.countryCode)}::text[], ${numbers}::text[]))`;
      const byKey = new Map(rows.map((row) => [`${row.countryCode} ${row.registrationNumber}`, row]));
      return keys.map((key, i) => byKey.get(`${key.countryCode} ${numbers[i]}`) ?? null);
    },

    async recordScore(registrationNumber, countryCode, score, assessedAt) {
      await db.$executeRaw`
        UPDATE company SET
          "previousScoreValue" = CASE WHEN "scoreValue" <> ${score} THEN "scoreValue" ELSE "previousScoreValue" END,
          "scoreChangedAt" = CASE WHEN "scoreValue" <> ${score} THEN ${assessedAt} ELSE "scoreChangedAt" END,
          "scoreValue" = ${score},
          "scoreLastAssessedAt" = ${assessedAt},
          "updatedAt" = ${assessedAt}
        WHERE "countryCode" = ${countryCode} AND "registrationNumber" = ${registrationNumber}`;
    },

    sectorAverageScore(sector, countryCode) {
      const key = `${countryCode}:${sector}`;
      const hit = averages.get(key);
      if (hit && hit.until > Date.now()) return hit.value;
      const value = db.$queryRaw<Array<{ average: number | null }>>`
        SELECT avg("scoreValue")::float8 AS average FROM company
        WHERE sector = ${sector}::"Sector" AND "countryCode" = ${countryCode} AND status <> 'DISSOLVED'`.then((rows) => rows[0]?.average ?? null);
      averages.set(key, { value, until: Date.now() + SECTOR_AVERAGE_TTL_MS });
      value.catch(() => averages.delete(key));
      return value;
    },
  };
}
