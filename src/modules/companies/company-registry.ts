/**
 * The company registry behind company search, lookups and credit reports: the local register (the
 * `company` table, loaded by the Basic Company Data import, or the demo seed) and, behind it, the
 * company-data sources the deployment configures (COMPANY_DATA_SOURCES): a number the register does
 * not hold is looked up at a source (the Companies House API) and stored, so the next lookup is
 * local. Search answers from the register; a source is asked only when the register has no hit and
 * the source can answer at once (not rate-limited). Credit data (score, limit, notices) is stored
 * with the name of the source that stated it and its date, or is absent.
 */
import { expressionBuilder, sql } from 'kysely';
import { readsOf, type Db } from '../../infra/database.js';
import type { DB } from '../../infra/sql-reads.js';
import type { RegisterFacts, RegisterSource } from './register-facts.js';
import { writeRegisterFacts } from './register-store.js';

export interface RegistryCompany {
  countryCode: string;
  registrationNumber: string;
  name: string;
  type: string;
  sector: string;
  status: 'ACTIVE' | 'DISSOLVED' | string;
  vatStatus: string;
  incorporatedAt: Date | null;
  /** Null when no credit-data source has scored the company: it then has no grade. */
  scoreValue: number | null;
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
  /** The credit-data source (`demo` for the demo seed's invented data, else the bureau's name) and the date of its data; null: no credit data. */
  creditSource: string | null;
  creditAsOf: Date | null;
  registerSource: string;
  previousNames: string[];
}

/**
 * A company-data source behind the local register (the port a provider implements): it states the
 * register facts of companies the register does not hold yet.
 */
export interface CompanyDataSource {
  readonly name: RegisterSource;
  /** The company's facts, or null when the source does not know it. Throws when the source cannot answer. */
  lookup(registrationNumber: string, countryCode: string): Promise<RegisterFacts | null>;
  /** Hits for a name or number, or null when the source cannot answer at once (rate-limited, failing, open circuit). */
  search(term: string, limit: number): Promise<SearchHit[] | null>;
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
   * A new assessment of a company's score by the named credit-data source (a bureau's feed calls
   * this): when the score changes, the current one becomes `previous` and changedAt moves;
   * lastAssessedAt always moves, and the source and its date are the ones a credit report names.
   */
  recordScore(registrationNumber: string, countryCode: string, score: number, assessedAt: Date, source: string): Promise<void>;
}

/** Escapes LIKE wildcards so a search term is matched literally. */
function likeLiteral(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Trigram (inside-the-name) matching needs three characters to use its index. */
const MIN_INFIX_LENGTH = 3;

/** How many inside-the-name matches are ranked for one search (a page needs far fewer). */
const INFIX_CANDIDATES = 1000;

/**
 * Sector averages move only as the registry is re-scored: each is computed (one aggregate over the
 * sector's companies) at most once per SECTOR_AVERAGE_TTL_MS per process.
 */
const SECTOR_AVERAGE_TTL_MS = 5 * 60_000;

/** The columns a lookup shows (decimals as float8: the registry's amounts are numbers in every answer). */
const registryColumns = () => {
  const eb = expressionBuilder<DB, 'company'>();
  return [
    'countryCode',
    'registrationNumber',
    'name',
    'type',
    'sector',
    'status',
    'vatStatus',
    'incorporatedAt',
    'scoreValue',
    'previousScoreValue',
    'scoreChangedAt',
    'scoreLastAssessedAt',
    'creditLimitCurrency',
    'employeesNumber',
    'website',
    'address',
    'companyNoticesCount',
    'directorsNoticesCount',
    'noticesCurrency',
    'creditSource',
    'creditAsOf',
    'registerSource',
    'previousNames',
    eb.cast<number | null>('creditLimitValue', 'float8').as('creditLimitValue'),
    eb.cast<number>('companyNoticesValue', 'float8').as('companyNoticesValue'),
    eb.cast<number>('directorsNoticesValue', 'float8').as('directorsNoticesValue'),
  ] as const;
};

/** The local register alone (tests, the demo) or with sources behind it, asked in order. */
export function databaseRegistry(db: Db, sources: readonly CompanyDataSource[] = []): CompanyRegistry {
  const local = localRegister(db);
  if (sources.length === 0) return local;
  return {
    ...local,
    async search(term, options) {
      const hits = await local.search(term, options);
      if (hits.length > 0 || options.countryCode !== 'GB') return hits;
      for (const source of sources) {
        const found = await source.search(term, options.limit).catch(() => null);
        if (found && found.length > 0) return found.slice(0, options.limit);
      }
      return hits;
    },
    async find(registrationNumber, countryCode) {
      const held = await local.find(registrationNumber, countryCode);
      if (held || countryCode !== 'GB') return held;
      for (const source of sources) {
        // A source that cannot answer (down, rate-limited) leaves the number unknown; the source logs why.
        const facts = await source.lookup(registrationNumber.toUpperCase(), countryCode).catch(() => null);
        if (!facts) continue;
        // Stored, so the next lookup (and every list that reads it) is answered by the register.
        await writeRegisterFacts(db, [facts], source.name);
        return local.find(facts.registrationNumber, countryCode);
      }
      return null;
    },
  };
}

function localRegister(db: Db): CompanyRegistry {
  const averages = new Map<string, { value: Promise<number | null>; until: number }>();
  // Typed SQL (Kysely, named prepared statements): look-ups run on every company read and search on
  // every keystroke of a lookup field, and Prisma's per-query CPU is several times the statement's own.
  const reads = readsOf(db);
  const columns = registryColumns();
  return {
    async search(term, { countryCode, limit }) {
      const lower = term.toLowerCase().trim();
      if (!lower) return [];
      const upper = term.toUpperCase().replace(/\s+/g, '');
      const prefix = `${likeLiteral(lower)}%`;
      const numberPrefix = `${likeLiteral(upper)}%`;
      // Exact and prefix matches, each branch an index range read in order that stops after `limit`
      // rows (companies on the register and dissolved ones from their own partial indexes): the
      // cost is a page's, whatever the register's size.
      const ranked = await sql<SearchHit & { rank: number; dissolved: boolean }>`
        SELECT name, number, min(rank) AS rank, bool_or(dissolved) AS dissolved FROM (
          (SELECT name, "registrationNumber" AS number, 0 AS rank, status = 'DISSOLVED' AS dissolved FROM company
             WHERE "countryCode" = ${countryCode} AND ("nameLower" = ${lower} OR "registrationNumber" = ${upper}) LIMIT ${limit})
          UNION ALL
          (SELECT name, "registrationNumber", 1, false FROM company
             WHERE "countryCode" = ${countryCode} AND status <> 'DISSOLVED' AND "nameLower" LIKE ${prefix} ORDER BY "nameLower" LIMIT ${limit})
          UNION ALL
          (SELECT name, "registrationNumber", 1, true FROM company
             WHERE "countryCode" = ${countryCode} AND status = 'DISSOLVED' AND "nameLower" LIKE ${prefix} ORDER BY "nameLower" LIMIT ${limit})
          UNION ALL
          (SELECT name, "registrationNumber", 1, status = 'DISSOLVED' FROM company
             WHERE "countryCode" = ${countryCode} AND "registrationNumber" LIKE ${numberPrefix} ORDER BY "registrationNumber" LIMIT ${limit})
        ) hits GROUP BY name, number
        ORDER BY rank, dissolved, name, number LIMIT ${limit}`.execute(reads);
      const hits = ranked.rows.map(({ name, number }) => ({ name, number }));
      // Words of one or two characters ("&", "uk") have no trigram to look up: they rank, not filter.
      const words = lower.split(/\s+/).filter((word) => word.length >= MIN_INFIX_LENGTH);
      if (hits.length >= limit || words.length === 0) return hits;
      // Then names holding every word of the term (in any order), and previous names: trigram
      // indexes. A common word matches a large share of the register, so candidates are capped and
      // ranked among themselves (the phrase as typed first, companies on the register first).
      const inName = sql.join(
        words.map((word) => sql`"nameLower" LIKE ${`%${likeLiteral(word)}%`}`),
        sql` AND `,
      );
      const inPrevious = sql.join(
        words.map((word) => sql`"previousNamesLower" LIKE ${`%${likeLiteral(word)}%`}`),
        sql` AND `,
      );
      const phrase = `%${likeLiteral(lower)}%`;
      const seen = new Set(hits.map((hit) => hit.number));
      const inside = await sql<SearchHit>`
        SELECT name, number FROM (
          SELECT name, "registrationNumber" AS number, status, "nameLower" FROM company
          WHERE "countryCode" = ${countryCode} AND ((${inName}) OR (${inPrevious}))
          LIMIT ${INFIX_CANDIDATES}
        ) candidates
        ORDER BY ("nameLower" LIKE ${phrase}) DESC, (status = 'DISSOLVED'), name, number
        LIMIT ${limit + hits.length}`.execute(reads);
      for (const hit of inside.rows) {
        if (hits.length >= limit) break;
        if (!seen.has(hit.number)) hits.push(hit);
      }
      return hits;
    },

    async find(registrationNumber, countryCode) {
      const row = await reads
        .selectFrom('company')
        .select(columns)
        .where('countryCode', '=', countryCode)
        .where('registrationNumber', '=', registrationNumber.toUpperCase())
        .executeTakeFirst();
      return row ?? null;
    },

    async findEach(keys) {
      if (keys.length === 0) return [];
      const numbers = keys.map((key) => key.registrationNumber.toUpperCase());
      // One statement whatever the number of keys: the pairs travel as two arrays.
      const rows = await reads
        .selectFrom('company')
        .select(columns)
        .where(sql<boolean>`("countryCode", "registrationNumber") IN (SELECT * FROM unnest(${keys.map((key) => key.countryCode)}::text[], ${numbers}::text[]))`)
        .execute();
      const byKey = new Map(rows.map((row) => [`${row.countryCode} ${row.registrationNumber}`, row]));
      return keys.map((key, i) => byKey.get(`${key.countryCode} ${numbers[i]}`) ?? null);
    },

    async recordScore(registrationNumber, countryCode, score, assessedAt, source) {
      await db.$executeRaw`
        UPDATE company SET
          "previousScoreValue" = CASE WHEN "scoreValue" <> ${score} THEN "scoreValue" ELSE "previousScoreValue" END,
          "scoreChangedAt" = CASE WHEN "scoreValue" <> ${score} THEN ${assessedAt} ELSE "scoreChangedAt" END,
          "scoreValue" = ${score},
          "scoreLastAssessedAt" = ${assessedAt},
          "creditSource" = ${source},
          "creditAsOf" = ${assessedAt},
          "updatedAt" = ${assessedAt}
        WHERE "countryCode" = ${countryCode} AND "registrationNumber" = ${registrationNumber}`;
    },

    sectorAverageScore(sector, countryCode) {
      const key = `${countryCode}:${sector}`;
      const hit = averages.get(key);
      if (hit && hit.until > Date.now()) return hit.value;
      const value = reads
        .selectFrom('company')
        .select((eb) => eb.cast<number | null>(eb.fn.avg('scoreValue'), 'float8').as('average'))
        .where('sector', '=', sector as DB['company']['sector'])
        .where('countryCode', '=', countryCode)
        .where('status', '<>', 'DISSOLVED')
        .executeTakeFirst()
        .then((row) => row?.average ?? null);
      averages.set(key, { value, until: Date.now() + SECTOR_AVERAGE_TTL_MS });
      value.catch(() => averages.delete(key));
      return value;
    },
  };
}
