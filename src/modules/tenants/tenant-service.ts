/**
 * Tenants: where creating, reading, listing and changing tenants is decided (spec 2.5, 4.2 step 4).
 * A tenant belongs to the account of the API key whose platform or master token created it; every
 * query is bounded by that account. REST routes and GraphQL resolvers both call these functions.
 */
import type { ServiceContext } from '../../kernel/context.js';
import type { CheckedLater } from '../../kernel/validation.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { isUniqueViolation } from '../../infra/prisma-errors.js';
import { answerOnceAsIs } from '../../infra/idempotent-answers.js';
import type { z } from 'zod';
import {
  TenantId,
  type CreateTenantBody,
  type PageQuery,
  type TenantCursorPage,
  type TenantDto,
  type TenantPage,
  type UpdateTenantBody,
} from './tenant-schemas.js';
import { findVisibleTenant, tenantChannelOf, tenantChannelsOf, tenantScope } from './tenant-visibility.js';
import { countTenants, selectTenantIdsAmong, selectTenantsAfter, selectTenantsFromOffset, type TenantRow } from './tenant-reads.js';

function toTenantDto(row: TenantRow): TenantDto {
  return {
    id: row.id,
    referenceId: row.referenceId,
    createdDateTime: row.createdDateTime.toISOString(),
    updatedDateTime: row.updatedDateTime.toISOString(),
  };
}

const duplicateReference = () =>
  AppError.conflict('A tenant with this referenceId already exists', [{ pointer: '/referenceId', message: 'is already used by another tenant' }]);

export async function createTenant(ctx: ServiceContext, body: CreateTenantBody, idempotencyKey?: unknown): Promise<TenantDto> {
  const actor = requireAccess(ctx, 'tenants.create');
  const request = { owner: { accountId: actor.accountId }, operation: 'tenants.create', target: actor.accountId, body };
  return answerOnceAsIs(ctx, idempotencyKey, request, () => storeTenant(ctx, actor, body));
}

/** The new tenant, stored and announced. */
async function storeTenant(ctx: ServiceContext, actor: { accountId: string }, body: CreateTenantBody): Promise<TenantDto> {
  let row: TenantRow;
  try {
    row = await ctx.db.tenant.create({
      data: { accountId: actor.accountId, referenceId: body.referenceId ?? null, environment: ctx.environment },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateReference();
    throw err;
  }
  const tenant = toTenantDto(row);
  ctx.logger.info({ tenantId: tenant.id, accountId: actor.accountId }, 'tenant created');
  const channels = tenantChannelsOf({ id: row.id, accountId: actor.accountId });
  await Promise.all(channels.map((channel) => ctx.events.publish('tenantCreated', channel, tenant)));
  return tenant;
}

export async function getTenant(ctx: ServiceContext, id: unknown): Promise<TenantDto> {
  const actor = requireAccess(ctx, 'tenants.read');
  return toTenantDto(await findVisibleTenant(ctx, actor, id));
}

/**
 * Which of these tenants the caller sees (one statement): a tenant entering a subgraph as an entity
 * reference is answered only if it is one, as if it had come through a read. No scope is asked:
 * the field then requested (e.g. Tenant.profile) decides its own row.
 * @access visibility: an entity reference entering a subgraph; the fields asked of it decide access
 */
export async function tenantsVisibleAmong(ctx: ServiceContext, ids: readonly string[]): Promise<boolean[]> {
  const { actor } = ctx;
  const wellFormed = ids.filter((id) => TenantId.safeParse(id).success);
  if ((actor.kind !== 'platform' && actor.kind !== 'master' && actor.kind !== 'tenant') || wellFormed.length === 0) return ids.map(() => false);
  const visible = await selectTenantIdsAmong(ctx.db, tenantScope(ctx, actor), wellFormed);
  return ids.map((id) => visible.has(id));
}

export async function updateTenant(ctx: ServiceContext, id: unknown, input: CheckedLater<z.output<typeof UpdateTenantBody>>): Promise<TenantDto> {
  const actor = requireAccess(ctx, 'tenants.update');
  const tenant = await findVisibleTenant(ctx, actor, id);
  const body = input();
  try {
    return toTenantDto(await ctx.db.tenant.update({ where: { id: tenant.id }, data: { referenceId: body.referenceId } }));
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateReference();
    throw err;
  }
}

/** An offset page of the caller's tenants, oldest first, with their total (two statements, each one index seek: tenant-reads.ts). */
export async function listTenants(ctx: ServiceContext, { offset, limit }: PageQuery): Promise<TenantPage> {
  const actor = requireAccess(ctx, 'tenants.list');
  const filter = tenantScope(ctx, actor);
  const [rows, total] = await Promise.all([selectTenantsFromOffset(ctx.db, filter, offset, limit), countTenants(ctx.db, filter)]);
  return { items: rows.map(toTenantDto), total, offset, limit };
}

/**
 * A keyset page of the caller's tenants: those after tenant `after` (null: from the first), oldest
 * first, in one statement and no total. A cursor that names no tenant the caller sees is a 400 (it
 * is checked only when the page comes back empty, so a full page costs one statement).
 */
export async function listTenantsAfter(ctx: ServiceContext, after: string | null, limit: number, parameter = 'after'): Promise<TenantCursorPage> {
  const actor = requireAccess(ctx, 'tenants.list');
  const filter = tenantScope(ctx, actor);
  // One row past the page tells whether there is a next one.
  const rows = after === null ? await selectTenantsFromOffset(ctx.db, filter, 0, limit + 1) : await selectTenantsAfter(ctx.db, filter, after, limit + 1);
  if (after !== null && rows.length === 0 && (await selectTenantIdsAmong(ctx.db, filter, [after])).size === 0) {
    throw AppError.badRequest('The cursor names no tenant of yours', [{ pointer: `/${parameter}`, message: 'is not the id of a tenant you can see' }]);
  }
  const items = rows.slice(0, limit).map(toTenantDto);
  return { items, limit, after, nextAfter: rows.length > limit ? items[items.length - 1]!.id : null };
}

/** The caller's account's tenants created from now on. */
export function subscribeTenantCreated(ctx: ServiceContext): AsyncIterable<TenantDto> {
  const actor = requireAccess(ctx, 'tenants.subscribe');
  return ctx.events.subscribe('tenantCreated', tenantChannelOf(actor));
}
