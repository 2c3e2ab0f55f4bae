/** The lender catalogue: lenders and their products as integrators and staff read them. */
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import type { LenderSummary } from './lender-schemas.js';
import { lenderScope, listedLenders } from './lender-visibility.js';

export type { LenderSummary };

const LENDER_SELECT = {
  id: true,
  name: true,
  slug: true,
  logo: true,
  description: true,
  priceBand: true,
  responseTimeHours: true,
  requiredDocuments: true,
  products: {
    select: { id: true, productType: true, name: true, instantOffer: true },
    orderBy: { id: 'asc' as const },
  },
} as const;

export async function listLenders(ctx: ServiceContext): Promise<LenderSummary[]> {
  requireAccess(ctx, 'lenders.read');
  return ctx.db.lender.findMany({
    where: listedLenders(ctx),
    orderBy: { id: 'asc' },
    select: LENDER_SELECT,
  });
}

export async function getLender(ctx: ServiceContext, id: number): Promise<LenderSummary> {
  requireAccess(ctx, 'lenders.read');
  return findLender(ctx, id);
}

/**
 * A lender of this environment, or 404.
 * @access internal: called after the caller (getLender, the lender management operations) decided access
 */
export async function findLender(ctx: ServiceContext, id: number): Promise<LenderSummary> {
  const lender = await ctx.db.lender.findFirst({ where: { AND: [{ id }, lenderScope(ctx)] }, select: LENDER_SELECT });
  if (!lender) throw AppError.notFound('Lender');
  return lender;
}
