/**
 * Which webhook deliveries a caller sees, decided here only, as one rule that the Prisma and the
 * typed SQL reads both compose. Deliveries have two audiences on one engine: an application's lender,
 * and an integrator account's endpoints. Staff see those to the lenders of their environment; a lender
 * those made to it, in its environment; an integrator account those made to its endpoints. Listing,
 * one delivery, redelivery and replay all go through it.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Prisma } from '../../generated/prisma/client.js';
import type { DB } from '../../infra/sql-reads.js';
import type { Actor } from '../../kernel/actor.js';
import type { DeployEnvironment, ServiceContext } from '../../kernel/context.js';
import { LENDER_EVENTS } from './webhook-headers.js';

/** The callers the access table lets near lender deliveries: staff (login) and lenders. */
export type DeliveryViewer = Extract<Actor, { kind: 'login' | 'lender' }>;

/** The rule, as values: the environment, and the lender or the integrator account when the caller is one. */
export interface DeliveryScope {
  environment: DeployEnvironment;
  lenderId?: number;
  /** An integrator account: the deliveries to its endpoints (and no lender's). */
  accountId?: string;
}

/** A lender's events: what a lender-audience scope ever reads from a delivery's `event`. */
export type LenderDeliveryEvent = (typeof LENDER_EVENTS)[number];

export function deliveryScopeOf(ctx: Pick<ServiceContext, 'environment'>, actor: DeliveryViewer): DeliveryScope {
  return actor.kind === 'lender' ? { environment: ctx.environment, lenderId: actor.lenderId } : { environment: ctx.environment };
}

/** An integrator account's deliveries: those to its own endpoints. */
export function accountDeliveryScope(ctx: Pick<ServiceContext, 'environment'>, actor: { accountId: string }): DeliveryScope {
  return { environment: ctx.environment, accountId: actor.accountId };
}

/** The rule as a Prisma filter on `webhook_delivery`. */
export function deliveryWhere(scope: DeliveryScope): Prisma.WebhookDeliveryWhereInput {
  if (scope.accountId !== undefined) return { environment: scope.environment, accountId: scope.accountId };
  return { environment: scope.environment, integratorEndpointId: null, ...(scope.lenderId !== undefined ? { lenderId: scope.lenderId } : {}) };
}

/** The rule as one condition on `webhook_delivery d` for the typed SQL reads. */
export function deliverySqlScope(scope: DeliveryScope) {
  return (eb: ExpressionBuilder<DB & { d: DB['webhook_delivery'] }, 'd'>): Expression<SqlBool> => {
    if (scope.accountId !== undefined) return eb.and([eb('d.environment', '=', scope.environment), eb('d.accountId', '=', scope.accountId)]);
    return eb.and([
      eb('d.environment', '=', scope.environment),
      eb('d.integratorEndpointId', 'is', null),
      ...(scope.lenderId !== undefined ? [eb('d.lenderId', '=', scope.lenderId)] : []),
    ]);
  };
}
