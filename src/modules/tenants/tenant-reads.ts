/**
 * The tenants module's typed SQL reads (Kysely on the pg pool: named prepared statements, issue 28):
 * a tenant by id, which of several ids are visible, and list pages. Every tenant-scoped request runs
 * the first, and Prisma's per-query compilation cost more CPU than the statement itself. Each read
 * takes the caller's filter (tenant-visibility.ts `tenantScope`), never a rule of its own; writes stay
 * on Prisma.
 */
import type { Db } from '../../infra/database.js';
import { readsOf } from '../../infra/database.js';
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

/** One tenant by id within `filter`, or undefined. */
export function selectTenant(db: Db, filter: TenantFilter, id: string): Promise<TenantRow | undefined> {
  return readsOf(db)
    .selectFrom('tenant')
    .select(TENANT_COLUMNS)
    .where((eb) => eb.and(filter))
    .where('id', '=', id)
    .executeTakeFirst();
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
 * Tenants within `filter` in list order (oldest first, then by id), from `offset`: the index on
 * (accountId, environment, createdDateTime, id) serves the order, but the rows before `offset` are
 * still walked, so deep pages cost more (keyset pages below do not).
 */
export function selectTenantsFromOffset(db: Db, filter: TenantFilter, offset: number, limit: number): Promise<TenantRow[]> {
  return readsOf(db)
    .selectFrom('tenant')
    .select(TENANT_COLUMNS)
    .where((eb) => eb.and(filter))
    .orderBy('createdDateTime')
    .orderBy('id')
    .offset(offset)
    .limit(limit)
    .execute();
}

/** How many tenants lie within `filter` (an index-only count, once per offset page). */
export async function countTenants(db: Db, filter: TenantFilter): Promise<number> {
  const row = await readsOf(db)
    .selectFrom('tenant')
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .where((eb) => eb.and(filter))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * Tenants within `filter` that come after tenant `afterId` in list order (keyset paging): the cursor
 * tenant's (createdDateTime, id) is read in the same statement, within the same filter, so a cursor
 * naming a tenant the caller does not see yields nothing. The index seeks to the cursor: every page
 * costs the same whatever its depth.
 */
export function selectTenantsAfter(db: Db, filter: TenantFilter, afterId: string, limit: number): Promise<TenantRow[]> {
  return readsOf(db)
    .selectFrom('tenant')
    .select(TENANT_COLUMNS)
    .where((eb) => eb.and(filter))
    .where((eb) =>
      eb(
        eb.refTuple('createdDateTime', 'id'),
        '>',
        eb.selectFrom('tenant as cursor').select(['cursor.createdDateTime', 'cursor.id']).where((c) => c.and(filter)).where('cursor.id', '=', afterId).$asTuple('createdDateTime', 'id'),
      ),
    )
    .orderBy('createdDateTime')
    .orderBy('id')
    .limit(limit)
    .execute();
}
