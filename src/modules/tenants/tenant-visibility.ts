/**
 * Which tenants a caller sees, decided here only: the tenants of the caller's account, and for a
 * tenant token its own tenant alone. The tenant a tenant-scoped operation acts on (spec 4.2 rule 2,
 * 5.5): a tenant token is bound to its tenant, and Service-tenant-id, when sent, must name that same
 * tenant (else 403); a platform or master token names the tenant in Service-tenant-id, and it must be
 * one of its account's (else 404, like a missing one, so ids leak nothing).
 *
 * The rule is stated once, as `tenantScope`: column equalities that are both the Prisma filter and
 * the typed SQL reads' (Kysely) filter, over a `TenantViewer`: a token, or an API key before any
 * token exists (its account alone). The event channels follow from it (`tenantChannelOf` /
 * `tenantChannelsOf`). test/visibility-rules.test.ts holds the forms equal over generated callers
 * and rows on PostgreSQL.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import type { Actor } from '../../kernel/actor.js';
import { parseInput } from '../../kernel/validation.js';
import { TenantId } from './tenant-schemas.js';
import { selectTenant, type TenantFilter, type TenantRow } from './tenant-reads.js';

type AccountViewer = Extract<Actor, { kind: 'platform' | 'master' | 'tenant' }>;
export type TenantActor = Extract<Actor, { kind: 'platform' | 'tenant' }>;
/** Who a tenant rule is decided for: an account's credential, bound to one tenant for a tenant token. */
export type TenantViewer = AccountViewer | { kind: 'api_key'; accountId: string };

const boundTenantOf = (viewer: TenantViewer): string | null => (viewer.kind === 'tenant' ? viewer.tenantId : null);

/**
 * The tenants a caller may see, as column equalities: a Prisma `where` as it stands, and the typed
 * SQL reads' filter (tenant-reads.ts, Kysely `eb.and(filter)`), so the rule has one statement.
 */
export function tenantScope(ctx: ServiceContext, viewer: TenantViewer): TenantFilter {
  const bound = boundTenantOf(viewer);
  return { accountId: viewer.accountId, environment: ctx.environment, ...(bound === null ? {} : { id: bound }) } satisfies Prisma.TenantWhereInput;
}

/**
 * A tenant the caller sees, or 404: one typed SQL statement (a named prepared statement), because
 * every tenant-scoped request runs it (a Prisma query costs several times the same SQL's CPU).
 */
export async function findVisibleTenant(ctx: ServiceContext, viewer: TenantViewer, id: unknown, what = 'Tenant id'): Promise<TenantRow> {
  const tenantId = parseInput(TenantId, id, what);
  const row = await selectTenant(ctx.db, tenantScope(ctx, viewer), tenantId);
  if (!row) throw AppError.notFound('Tenant');
  return row;
}

/** The tenant a tenant-scoped operation acts on (see the header). */
export async function resolveTenantId(ctx: ServiceContext, actor: AccountViewer): Promise<string> {
  if (actor.kind === 'tenant') {
    if (ctx.requestedTenantId !== null && ctx.requestedTenantId.toLowerCase() !== actor.tenantId) {
      throw AppError.forbidden("Service-tenant-id does not match the tenant token's tenant");
    }
    return actor.tenantId;
  }
  if (ctx.requestedTenantId === null) {
    throw AppError.badRequest(`The Service-tenant-id header is required with a ${actor.kind} token`, [
      { pointer: 'header:Service-tenant-id', message: 'is required' },
    ]);
  }
  return (await findVisibleTenant(ctx, actor, ctx.requestedTenantId, 'Service-tenant-id')).id;
}

/** The one channel a caller hears of tenants on (`tenantScope`'s counterpart): a tenant token hears of its own tenant alone. */
export function tenantChannelOf(viewer: TenantViewer): string {
  const bound = boundTenantOf(viewer);
  return bound === null ? `account:${viewer.accountId}` : `tenant:${bound}`;
}

/** Every channel a tenant's events go to: each caller who sees it listens on one (nobody sees a tenant of no account). */
export function tenantChannelsOf(tenant: { id: string; accountId: string | null }): string[] {
  return tenant.accountId ? [`account:${tenant.accountId}`, `tenant:${tenant.id}`] : [];
}
