/**
 * Which Business V1 applications a caller sees, decided here only: those of the tenants the caller
 * sees (tenant visibility). Acting on one application names its tenant as every tenant-scoped
 * operation does (a tenant token's own, or Service-tenant-id with a platform token); any other
 * application is answered exactly like a missing one (404).
 */
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { resolveTenantId, tenantScope, type TenantActor } from '../tenants/tenant-visibility.js';
import { parseInput } from '../../kernel/validation.js';

export const ApplicationId = z.uuid({ message: 'must be a uuid' });

export function applicationScope(ctx: ServiceContext, actor: TenantActor): Prisma.BusinessApplicationWhereInput {
  return { environment: ctx.environment, tenant: tenantScope(ctx, actor) };
}

/** The application a verified continue link names: the link is the credential (issued to a caller who saw it), bound to its environment. */
export function linkedApplication(ctx: ServiceContext, id: string): Prisma.BusinessApplicationWhereInput {
  return { id, environment: ctx.environment };
}

/** The caller's tenant's application, or 404 (another tenant's or account's included). */
export async function findVisibleApplication(ctx: ServiceContext, actor: TenantActor, id: unknown) {
  const tenantId = await resolveTenantId(ctx, actor);
  const applicationId = parseInput(ApplicationId, id, 'applicationId');
  const row = await ctx.db.businessApplication.findFirst({ where: { AND: [{ id: applicationId, tenantId }, applicationScope(ctx, actor)] } });
  if (!row) throw AppError.notFound('Application');
  return row;
}
