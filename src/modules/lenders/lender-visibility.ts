/**
 * Which lenders a caller sees, decided here only: those of its environment (single reads, their
 * images, staff changes), and in the catalogue the active ones alone. Another environment's lender
 * is answered like a missing one (404).
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';

export function lenderScope(ctx: ServiceContext): Prisma.LenderWhereInput {
  return { environment: ctx.environment };
}

/** The lenders the catalogue lists (GET …/lenders, matching's product catalogue reads its own). */
export function listedLenders(ctx: ServiceContext): Prisma.LenderWhereInput {
  return { ...lenderScope(ctx), active: true };
}
