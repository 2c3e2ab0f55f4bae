/**
 * Which review selections a caller sees, decided here only: staff (the funding specialists, the only
 * callers the access table lets read or submit them) see those of their environment's profiles;
 * any other selection is answered like a missing one (404).
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';

export function reviewSelectionScope(ctx: ServiceContext): Prisma.ReviewSelectionWhereInput {
  return { profile: { environment: ctx.environment } };
}
