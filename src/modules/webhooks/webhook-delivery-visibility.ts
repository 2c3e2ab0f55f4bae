/**
 * Which webhook deliveries a caller sees, decided here only, as one rule that the Prisma and the
 * typed SQL reads both compose: staff see those to the lenders of their environment; a lender those
 * made to it, in its environment. Listing, one delivery, redelivery and replay all go through it.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Prisma } from '../../generated/prisma/client.js';
import type { DB } from '../../infra/sql-reads.js';
import type { Actor } from '../../kernel/actor.js';
import type { DeployEnvironment, ServiceContext } from '../../kernel/context.js';

/** The callers the access table lets near deliveries: staff (login) and lenders. */
export type DeliveryViewer = Extract<Actor, { kind: 'login' | 'lender' }>;

/** The rule, as values: the environment, and the lender when the caller is one. */
export interface DeliveryScope {
  environment: DeployEnvironment;
  lenderId?: number;
}

export function deliveryScopeOf(ctx: Pick<ServiceContext, 'environment'>, actor: DeliveryViewer): DeliveryScope {
  return actor.kind === 'lender' ? { environment: ctx.environment, lenderId: actor.lenderId } : { environment: ctx.environment };
}

/** The rule as a Prisma filter on `webhook_delivery`. */
export function deliveryWhere(scope: DeliveryScope): Prisma.WebhookDeliveryWhereInput {
  return { environment: scope.environment, ...(scope.lenderId !== undefined ? { lenderId: scope.lenderId } : {}) };
}

/** The rule as one condition on `webhook_delivery d` for the typed SQL reads. */
export function deliverySqlScope(scope: DeliveryScope) {
  return (eb: ExpressionBuilder<DB & { d: DB['webhook_delivery'] }, 'd'>): Expression<SqlBool> =>
    eb.and([eb('d.environment', '=', scope.environment), ...(scope.lenderId !== undefined ? [eb('d.lenderId', '=', scope.lenderId)] : [])]);
}
