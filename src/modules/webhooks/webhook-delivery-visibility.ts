/**
 * Which webhook deliveries a caller sees, decided here only: staff (the only callers the access
 * table lets near deliveries) see those to the lenders of their environment, listed and redelivered.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';

export function deliveryScope(ctx: ServiceContext): Prisma.WebhookDeliveryWhereInput {
  return { lender: { environment: ctx.environment } };
}
