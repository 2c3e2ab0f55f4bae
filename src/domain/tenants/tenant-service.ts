/**
 * Tenants: where creating, reading and listing tenants is decided (spec 2.5, 4.2 step 4).
 * REST routes and GraphQL resolvers both call these functions.
 */
import type { ServiceContext } from '../context.js';
import { AppError } from '../errors.js';
import { parseInput } from '../validation.js';
import { isUniqueViolation } from '../../infra/prisma-errors.js';
import { CreateTenantBody, PageQuery, TenantId, type TenantDto } from './tenant-schemas.js';

interface TenantRow {
  id: string;
  referenceId: string | null;
  createdDateTime: Date;
  updatedDateTime: Date;
}

export function toTenantDto(row: TenantRow): TenantDto {
  return {
    id: row.id,
    referenceId: row.referenceId,
    createdDateTime: row.createdDateTime.toISOString(),
    updatedDateTime: row.updatedDateTime.toISOString(),
  };
}

export async function createTenant(ctx: ServiceContext, input: unknown): Promise<TenantDto> {
  const body = parseInput(CreateTenantBody, input ?? {});
  let row: TenantRow;
  try {
    row = await ctx.db.tenant.create({
      data: { referenceId: body.referenceId ?? null, environment: ctx.environment },
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw AppError.conflict('A tenant with this referenceId already exists', [
        { pointer: '/referenceId', message: 'is already used by another tenant' },
      ]);
    }
    throw err;
  }
  const tenant = toTenantDto(row);
  ctx.logger.info({ tenantId: tenant.id }, 'tenant created');
  await ctx.events.publish('tenantCreated', tenant);
  return tenant;
}

export async function getTenant(ctx: ServiceContext, id: unknown): Promise<TenantDto> {
  const tenantId = parseInput(TenantId, id, 'Tenant id');
  const row = await ctx.db.tenant.findFirst({ where: { id: tenantId, environment: ctx.environment } });
  if (!row) throw AppError.notFound('Tenant');
  return toTenantDto(row);
}

export interface TenantPage {
  items: TenantDto[];
  total: number;
  offset: number;
  limit: number;
}

export async function listTenants(ctx: ServiceContext, query: unknown): Promise<TenantPage> {
  const { offset, limit } = parseInput(PageQuery, query ?? {}, 'Query');
  const where = { environment: ctx.environment };
  const [rows, total] = await Promise.all([
    ctx.db.tenant.findMany({ where, orderBy: [{ createdDateTime: 'asc' }, { id: 'asc' }], skip: offset, take: limit }),
    ctx.db.tenant.count({ where }),
  ]);
  return { items: rows.map(toTenantDto), total, offset, limit };
}
