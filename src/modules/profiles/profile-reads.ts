/**
 * The profiles module's typed SQL reads (Kysely on the pg pool: named prepared statements, issue 28):
 * a profile with its sections in one statement, whichever surface answers it (the ProfileRecord of
 * Marketplace V1 and GraphQL, the Business V1 profile), and the ids of profiles. Each read takes the
 * caller's filter over `profile p` (profile-visibility.ts `visibleProfileWhere`, or ids a caller has
 * established), never a rule of its own; writes stay on Prisma.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { readsOf, type Db } from '../../infra/database.js';
import { StatementTemplates } from '../../infra/statement-templates.js';
import type { DB } from '../../infra/sql-reads.js';
import type { DeployEnvironment } from '../../kernel/context.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { SECTIONS_INCLUDE } from './profile-sections.js';

/** A filter over `profile p`. */
export type ProfileWhere = (eb: ExpressionBuilder<DB & { p: DB['profile'] }, 'p'>) => Expression<SqlBool>;

type WithSections = Prisma.ProfileGetPayload<{ include: typeof SECTIONS_INCLUDE }>;

/** A profile with its sections, as every profile shape is made from (Prisma's payloads of creates and updates have it too). */
export type ProfileRow = Pick<
  WithSections,
  | 'id'
  | 'tenantId'
  | 'countryCode'
  | 'registrationNumber'
  | 'companyInformation'
  | 'financials'
  | 'eligibilityRequest'
  | 'legacyEntityBusinessId'
  | 'legacyFundingSearchId'
  | 'createdAt'
  | 'updatedAt'
  | 'persons'
  | 'properties'
  | 'assets'
  | 'assetsForSecurity'
  | 'merchantCashAdvance'
> &
  Partial<Pick<WithSections, 'tradeReferences'>>;

/** JSON turns section decimals into numbers (what the mapping reads) and timestamps into UTC text without a zone. */
type JsonPerson = Omit<WithSections['persons'][number], 'dateOfBirth'> & { dateOfBirth: string | null };

/** A section's rows in position order, as JSON (one statement for the profile and all its sections). */
const section = <T>(table: string) =>
  sql<T>`COALESCE((SELECT json_agg(s ORDER BY s.position) FROM ${sql.table(table)} s WHERE s."profileId" = p.id), '[]'::json)`;

/**
 * Profiles matching `where` with their sections, in one statement. Trade references are read only
 * when asked (`withTradeReferences`: the Business V1 profile shows them, a ProfileRecord does not).
 */
export async function selectProfileRows(db: Db, where: ProfileWhere, options: { withTradeReferences?: boolean; limit?: number } = {}): Promise<ProfileRow[]> {
  let query = readsOf(db)
    .selectFrom('profile as p')
    .select([
      'p.id',
      'p.tenantId',
      'p.countryCode',
      'p.registrationNumber',
      'p.companyInformation',
      'p.financials',
      'p.eligibilityRequest',
      'p.legacyEntityBusinessId',
      'p.legacyFundingSearchId',
      'p.createdAt',
      'p.updatedAt',
      section<JsonPerson[]>('person').as('persons'),
      section<WithSections['properties']>('property').as('properties'),
      section<WithSections['assets']>('asset').as('assets'),
      section<WithSections['assetsForSecurity']>('asset_security').as('assetsForSecurity'),
      section<WithSections['merchantCashAdvance']>('merchant_cash_advance').as('merchantCashAdvance'),
    ])
    .$if(options.withTradeReferences === true, (q) => q.select(section<WithSections['tradeReferences']>('trade_reference').as('tradeReferences')))
    .where(where);
  if (options.limit !== undefined) query = query.limit(options.limit);
  const rows = await query.execute();
  return rows.map((row) => ({
    ...(row as Omit<ProfileRow, 'persons'>),
    persons: row.persons.map((p) => ({ ...p, dateOfBirth: p.dateOfBirth === null ? null : new Date(`${p.dateOfBirth}Z`) })),
  }));
}

/** The ids of the profiles matching `where`. */
export async function selectProfileIds(db: Db, where: ProfileWhere): Promise<string[]> {
  const rows = await readsOf(db).selectFrom('profile as p').select('p.id').where(where).execute();
  return rows.map((row) => row.id);
}

/** The statement below, compiled once (statement-templates.ts): GraphQL runs it for every tenant page or tenant that asks for its profile. */
const profileIdsOfTenants = new StatementTemplates<{ id: string; tenantId: string | null }>();

/** The uuid of each of these tenants' profiles (GraphQL `Tenant.profile { uuid }` reads no more). */
export async function selectProfileIdsOfTenants(
  db: Db,
  tenantIds: readonly string[],
  environment: DeployEnvironment,
): Promise<Array<{ id: string; tenantId: string | null }>> {
  const reads = readsOf(db);
  const statement = profileIdsOfTenants.bind(
    'of tenants',
    (value) =>
      reads
        .selectFrom('profile as p')
        .select(['p.id', 'p.tenantId'])
        .where('p.tenantId', '=', (eb) => eb.fn.any(eb.val(value<string[]>('tenantIds')).$castTo<string[]>()))
        .where('p.environment', '=', value<DeployEnvironment>('environment')),
    { tenantIds: [...tenantIds], environment },
  );
  return (await reads.executeQuery(statement)).rows;
}

/** Profiles of these tenants, in the environment, as a filter for `selectProfileRows`. */
export const profilesOfTenantsWhere =
  (tenantIds: readonly string[], environment: DeployEnvironment): ProfileWhere =>
  (eb) =>
    eb.and([eb('p.tenantId', '=', eb.fn.any(eb.val([...tenantIds]).$castTo<string[]>())), eb('p.environment', '=', environment)]);

/** One profile by id (its visibility established by the caller). */
export const profileByIdWhere =
  (id: string): ProfileWhere =>
  (eb) =>
    eb('p.id', '=', id);
