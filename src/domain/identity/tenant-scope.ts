/**
 * The tenant a tenant-scoped operation acts on (spec 4.2 rule 2, 5.5): a tenant token is bound to
 * its tenant, and Service-tenant-id, when sent, must name that same tenant (else 403); a platform
 * token must name the tenant in Service-tenant-id, and it must be one of the key's account's (else 404).
 */
import type { ServiceContext } from '../context.js';
import { AppError } from '../errors.js';
import type { Actor } from './actor.js';
import { findAccountTenantId } from './token-service.js';

type TenantCapable = Extract<Actor, { kind: 'platform' | 'tenant' }>;

export async function resolveTenantId(ctx: ServiceContext, actor: TenantCapable): Promise<string> {
  if (actor.kind === 'tenant') {
    if (ctx.requestedTenantId !== null && ctx.requestedTenantId.toLowerCase() !== actor.tenantId) {
      throw AppError.forbidden("Service-tenant-id does not match the tenant token's tenant");
    }
    return actor.tenantId;
  }
  if (ctx.requestedTenantId === null) {
    throw AppError.badRequest('The Service-tenant-id header is required with a platform token', [
      { pointer: 'header:Service-tenant-id', message: 'is required' },
    ]);
  }
  return findAccountTenantId(ctx, actor.accountId, ctx.requestedTenantId);
}
