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

/**
 * Sector averages move only as the registry is re-scored: each is computed (one aggregate over the
 * sector's companies) at most once per SECTOR_AVERAGE_TTL_MS per process.
 */
export const SECTOR_AVERAGE_TTL_MS = 5 * 60_000;

/** The columns a lookup shows (decimals as float8: the registry's amounts are numbers in every answer). */
const registryColumns = () => {
  const eb = expressionBuilder<DB, 'company'>();
  return [
    'countryCode', 'registrationNumber', 'name', 'type', 'sector', 'status', 'vatStatus', 'incorporatedAt', 'scoreValue',
    'previousScoreValue', 'scoreChangedAt', 'scoreLastAssessedAt', 'creditLimitCurrency', 'employeesNumber', 'website', 'address',
    'companyNoticesCount', 'directorsNoticesCount', 'noticesCurrency', 'creditSource', 'creditAsOf', 'registerSource', 'previousNames',
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
      const lower = term.toLowerCase();
      const upper = term.toUpperCase().replace(/\s+/g, '');
      const prefix = `${likeLiteral(lower)}%`;
      const infix = lower.length >= MIN_INFIX_LENGTH ? `%${likeLiteral(lower)}%` : prefix;
      const numberPrefix = `${likeLiteral(upper)}%`;
      // Each OR branch has its own index (prefix btree, trigram gin on the name and on the previous
      // names, number btree): a bitmap OR, no scan. Previous names are matched inside from three characters.
      return reads
        .selectFrom('company')
        .select(['name', 'registrationNumber as number'])
        .where('countryCode', '=', countryCode)
        .where((eb) =>
          eb.or([
            eb('nameLower', 'like', prefix),
            eb('nameLower', 'like', infix),
            eb('registrationNumber', 'like', numberPrefix),
            ...(lower.length >= MIN_INFIX_LENGTH ? [eb('previousNamesLower', 'like', infix)] : []),
          ]),
        )
        .orderBy((eb) =>
          eb
            .case()
            .when(eb.or([eb('nameLower', '=', lower), eb('registrationNumber', '=', upper)]))
            .then(0)
            .when(eb.or([eb('nameLower', 'like', prefix), eb('registrationNumber', 'like', numberPrefix)]))
            .then(1)
            .when('nameLower', 'like', infix)
            .then(2)
            .else(3)
            .end(),
        )
        // Companies still on the register before dissolved ones, within each kind of match.
        .orderBy((eb) => eb.case().when('status', '=', 'DISSOLVED').then(1).else(0).end())
        .orderBy('name')
        .orderBy('registrationNumber')
        .limit(limit)
        .execute();
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
