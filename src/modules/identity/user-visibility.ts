/**
 * Which platform users a caller sees, decided here only: the users of its own account in its
 * environment (reads, lists, changes); any other user is answered exactly like a missing one (404).
 * Who may change whom among them (admins, staff) is user-service.ts's decision on top of this.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';

export function userScope(ctx: ServiceContext, viewer: { accountId: string }): Prisma.PlatformUserWhereInput {
  return { accountId: viewer.accountId, environment: ctx.environment };
}
