/**
 * A lender's settings as administrators edit them in the catalogue: its webhook URLs and each
 * product's complete terms (the values saveLenderProduct replaces), never its secrets or credentials.
 */
import type { ServiceContext } from '../../kernel/context.js';
import { requireAccess } from '../../kernel/access-policy.js';
import type { LenderProductTerms, LenderSettings } from './lender-schemas.js';
import { lenderScope } from './lender-visibility.js';
import { PLACEHOLDER_WEBHOOK } from '../webhooks/webhook-url-policy.js';

/** Every lender of the caller's environment (inactive ones too: an administrator may reactivate them), oldest first. */
export async function listLenderSettings(ctx: ServiceContext): Promise<LenderSettings[]> {
  requireAccess(ctx, 'lenderSettings.read');
  const lenders = await ctx.db.lender.findMany({
    where: lenderScope(ctx),
    orderBy: { id: 'asc' },
    select: { id: true, name: true, applicationUrl: true, updateUrl: true, products: { orderBy: { id: 'asc' } } },
  });
  return lenders.map((lender) => ({
    lenderId: lender.id,
    name: lender.name,
    applicationUrl: lender.applicationUrl === PLACEHOLDER_WEBHOOK ? null : lender.applicationUrl,
    updateUrl: lender.updateUrl,
    products: lender.products.map((p): LenderProductTerms => ({
      id: p.id,
      productType: p.productType,
      name: p.name,
      minAmount: Number(p.minAmount),
      maxAmount: Number(p.maxAmount),
      minTermMonths: p.minTermMonths,
      maxTermMonths: p.maxTermMonths,
      minTradingMonths: p.minTradingMonths,
      minAnnualRevenue: Number(p.minAnnualRevenue),
      minGrade: p.minGrade,
      excludedSectors: p.excludedSectors,
      requiredSectors: p.requiredSectors,
      companyTypes: p.companyTypes,
      countries: p.countries,
      currencies: p.currencies,
      requirements: (p.requirements ?? {}) as LenderProductTerms['requirements'],
      arrangementFeePct: Number(p.arrangementFeePct),
      earlyRepaymentFeePct: Number(p.earlyRepaymentFeePct),
      exitFeePct: Number(p.exitFeePct),
      annualRateMin: Number(p.annualRateMin),
      annualRateMax: Number(p.annualRateMax),
      likelihoodBase: Number(p.likelihoodBase),
      instantOffer: p.instantOffer,
      active: p.active,
    })),
  }));
}
