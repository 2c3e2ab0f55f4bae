/**
 * Which tenants a caller sees, decided here only: the tenants of the caller's account, and for a
 * tenant token its own tenant alone. The tenant a tenant-scoped operation acts on (spec 4.2 rule 2,
 * 5.5): a tenant token is bound to its tenant, and Service-tenant-id, when sent, must name that same
 * tenant (else 403); a platform or master token names the tenant in Service-tenant-id, and it must be
 * one of its account's (else 404, like a missing one, so ids leak nothing).
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../context.js';
import { AppError } from '../errors.js';
import type { Actor } from '../identity/actor.js';
import { parseInput } from '../validation.js';
import { TenantId } from './tenant-schemas.js';

type AccountViewer = Extract<Actor, { kind: 'platform' | 'master' | 'tenant' }>;
export type TenantActor = Extract<Actor, { kind: 'platform' | 'tenant' }>;

/** The tenants a caller may see, as a query filter. */
export function tenantScope(ctx: ServiceContext, actor: AccountViewer): Prisma.TenantWhereInput {
  return { ...accountTenants(ctx, actor.accountId), ...(actor.kind === 'tenant' ? { id: actor.tenantId } : {}) };
}

/** An account's tenants (for an API key, before any token exists). */
export function accountTenants(ctx: ServiceContext, accountId: string): Prisma.TenantWhereInput {
  return { accountId, environment: ctx.environment };
}

/** The columns a tenant's readers use (the REST body, the GraphQL type, the scoped operations). */
export interface VisibleTenant {
  id: string;
  referenceId: string | null;
  createdDateTime: Date;
  updatedDateTime: Date;
}

/**
 * A tenant the caller sees, or 404: `tenantScope`'s rule as one typed SQL statement, because every
 * tenant-scoped request runs it (a Prisma query costs several times the same SQL's CPU).
 */
export async function findVisibleTenant(ctx: ServiceContext, actor: AccountViewer, id: unknown, what = 'Tenant id'): Promise<VisibleTenant> {
  const tenantId = parseInput(TenantId, id, what);
  const onlyTenantId = actor.kind === 'tenant' ? actor.tenantId : null;
  const rows = await ctx.db.$queryRaw<VisibleTenant[]>`
    SELECT id::text AS id, "referenceId", "createdDateTime", "updatedDateTime" FROM tenant
    WHERE id = ${tenantId}::uuid AND "accountId" = ${actor.accountId}::uuid AND environment = ${ctx.environment}::"Environment"
      AND (${onlyTenantId}::uuid IS NULL OR id = ${onlyTenantId}::uuid)`;
  const row = rows[0];
  if (!row) throw AppError.notFound('Tenant');
  return row;
}

export async function findTenant(ctx: ServiceContext, scope: Prisma.TenantWhereInput, id: unknown, what = 'Tenant id') {
  const tenantId = parseInput(TenantId, id, what);
  const row = await ctx.db.tenant.findFirst({ where: { AND: [{ id: tenantId }, scope] } });
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

/** The event channel of an account's new tenants; a tenant token hears of no other tenant. */
export const tenantEventChannel = (accountId: string) => `account:${accountId}`;
