/**
 * Which API keys a caller sees, decided here only: the keys of its own account in its environment
 * (lists, revocation, the target of a profile move); any other key is answered like a missing one
 * (404). A revoked key stays visible (listed, revoked again idempotently) but is no longer usable.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';

export function apiKeyScope(ctx: ServiceContext, viewer: { accountId: string }): Prisma.ApiKeyWhereInput {
  return { accountId: viewer.accountId, environment: ctx.environment };
}

/** The caller's keys that still work (not revoked): what a profile may be moved to. */
export function usableApiKeys(ctx: ServiceContext, viewer: { accountId: string }): Prisma.ApiKeyWhereInput {
  return { ...apiKeyScope(ctx, viewer), revokedAt: null };
}
