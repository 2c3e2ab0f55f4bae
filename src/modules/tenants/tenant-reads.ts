/**
 * The tenants module's typed SQL reads (Kysely on the pg pool: named prepared statements, issue 28):
 * a tenant by id, which of several ids are visible, and list pages. Every tenant-scoped request runs
 * the first, and Prisma's per-query compilation cost more CPU than the statement itself. Each read
 * takes the caller's filter (tenant-visibility.ts `tenantScope`), never a rule of its own; writes stay
 * on Prisma.
 */
import type { Db } from '../../infra/database.js';
import { readsOf } from '../../infra/database.js';
import { StatementTemplates } from '../../infra/statement-templates.js';
import type { DeployEnvironment } from '../../kernel/context.js';

/** A tenant filter as column equalities: the form `tenantScope` states a rule in (Prisma and Kysely take it alike). */
export interface TenantFilter {
  accountId: string;
  environment: DeployEnvironment;
  id?: string;
}

/** The columns a tenant's readers use (the REST body, the GraphQL type, the scoped operations). */
export interface TenantRow {
  id: string;
  referenceId: string | null;
  createdDateTime: Date;
  updatedDateTime: Date;
}

const TENANT_COLUMNS = ['id', 'referenceId', 'createdDateTime', 'updatedDateTime'] as const;

/** The tenant-by-id statement, compiled once per filter shape (its columns, as `tenantScope` states them). */
const tenantById = new StatementTemplates<TenantRow>();

/**
 * One tenant by id within `filter`, or undefined. Every tenant-scoped request runs it, so it is
 * built once per shape of the filter and only bound at each call (statement-templates.ts says why).
 */
export async function selectTenant(db: Db, filter: TenantFilter, id: string): Promise<TenantRow | undefined> {
  const reads = readsOf(db);
  const columns = Object.keys(filter) as Array<keyof TenantFilter>;
  const statement = tenantById.bind(
    columns.join(','),
    (value) =>
      reads
        .selectFrom('tenant')
        .select(TENANT_COLUMNS)
        .where((eb) => eb.and(Object.fromEntries(columns.map((column) => [column, value(`filter.${column}`)]))))
        .where('id', '=', value<string>('id')),
    { ...Object.fromEntries(columns.map((column) => [`filter.${column}`, filter[column]])), id },
  );
  return (await reads.executeQuery(statement)).rows[0];
}

/** Which of `ids` (well-formed uuids) lie within `filter`. */
export async function selectTenantIdsAmong(db: Db, filter: TenantFilter, ids: readonly string[]): Promise<Set<string>> {
  const rows = await readsOf(db)
    .selectFrom('tenant')
    .select('id')
    .where((eb) => eb.and(filter))
    .where('id', '=', (eb) => eb.fn.any(eb.val([...ids]).$castTo<string[]>()))
    .execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * The list's order is the tenants' positions (1, 2, 3, ... per account and environment, in creation
 * order, with no gap: the trigger number_tenant numbers them, migration
 * 20261127170000_tenant_list_positions). So when `filter` is a whole list, an account's tenants in an
 * environment, the tenants after `offset` are those whose position is past it and the list's total
 * is its last position: one seek of the index on (accountId, environment, position) each, however
 * long the list. A narrower filter (a tenant token's, bound to one tenant) holds some of the list's
 * positions only; it is paged and counted over its own rows, which are few.
 */
const isWholeList = (filter: TenantFilter): boolean => {
  const { accountId: _account, environment: _environment, ...narrower } = filter;
  return Object.keys(narrower).length === 0;
};

/** Positions are `integer`s: an offset past the largest one skips every tenant (and never overflows the parameter). */
const LAST_POSITION = 2 ** 31 - 1;

/** Tenants within `filter` in list order (oldest first), from `offset`: one index seek for a whole list (see `isWholeList`). */
export function selectTenantsFromOffset(db: Db, filter: TenantFilter, offset: number, limit: number): Promise<TenantRow[]> {
  const inOrder = readsOf(db)
    .selectFrom('tenant')
    .select(TENANT_COLUMNS)
    .where((eb) => eb.and(filter))
    .orderBy('position')
    .limit(limit);
  return isWholeList(filter) ? inOrder.where('position', '>', Math.min(offset, LAST_POSITION)).execute() : inOrder.offset(offset).execute();
}

/** How many tenants lie within `filter`: a whole list's last position (one index entry), else a count of the few rows. */
export async function countTenants(db: Db, filter: TenantFilter): Promise<number> {
  const row = await readsOf(db)
    .selectFrom('tenant')
    .select((eb) => (isWholeList(filter) ? eb.fn.max('position') : eb.fn.countAll()).$castTo<number | string | null>().as('total'))
    .where((eb) => eb.and(filter))
    .executeTakeFirstOrThrow();
  return Number(row.total ?? 0);
}

/**
 * Tenants within `filter` that come after tenant `afterId` in list order (keyset paging): the cursor
 * tenant's position is read in the same statement, within the same filter, so a cursor naming a
 * tenant the caller does not see yields nothing. The index seeks to the cursor: every page costs the
 * same whatever its depth, and a page is the very one an offset page at the cursor's position reads.
 * The cursor stays a tenant id (clients hold such cursors); the position never leaves the database.
 */
export function selectTenantsAfter(db: Db, filter: TenantFilter, afterId: string, limit: number): Promise<TenantRow[]> {
  return readsOf(db)
    .selectFrom('tenant')
    .select(TENANT_COLUMNS)
    .where((eb) => eb.and(filter))
    .where('position', '>', (eb) =>
      eb
        .selectFrom('tenant as cursor')
        .select('cursor.position')
        .where((c) => c.and(filter))
        .where('cursor.id', '=', afterId),
    )
    .orderBy('position')
    .limit(limit)
    .execute();
}
