/**
 * The active lender products of an environment as matching criteria, held in memory: matching a
 * profile makes no per-product database round trip. Reloaded at most every CATALOGUE_TTL_MS, and at
 * once after a change made in this process (the lenders module's catalogue-change signal).
 */
import type { Db } from '../../infra/database.js';
import type { DeployEnvironment } from '../../kernel/context.js';
import type { LenderSummary } from '../lenders/lender-catalogue.js';
import { onLenderCatalogueChange } from '../lenders/lender-catalogue-changes.js';
import { indexProducts, type ProductCriteria, type ProductIndex, type ProductRequirements } from './matching-engine.js';

export const CATALOGUE_TTL_MS = 30_000;

/** A lender as the catalogue summarises it, without its product list (the criteria hold those). */
export type LenderSummaryForMatch = Omit<LenderSummary, 'products'>;

export interface ProductCatalogue {
  products: ProductCriteria[];
  /** The products prepared for matching, built with each load of the catalogue. */
  index: ProductIndex;
  lenders: Map<number, LenderSummaryForMatch>;
  productById: Map<number, ProductCriteria & { name: string; instantOffer: boolean }>;
}

const caches = new WeakMap<Db, Map<DeployEnvironment, { catalogue: Promise<ProductCatalogue>; until: number }>>();

export function productCatalogue(db: Db, environment: DeployEnvironment): Promise<ProductCatalogue> {
  let perEnvironment = caches.get(db);
  if (!perEnvironment) caches.set(db, (perEnvironment = new Map()));
  const hit = perEnvironment.get(environment);
  if (hit && hit.until > Date.now()) return hit.catalogue;
  const catalogue = load(db, environment);
  perEnvironment.set(environment, { catalogue, until: Date.now() + CATALOGUE_TTL_MS });
  catalogue.catch(() => perEnvironment.delete(environment));
  return catalogue;
}

export function invalidateProductCatalogue(db: Db): void {
  caches.delete(db);
}

onLenderCatalogueChange(invalidateProductCatalogue);

async function load(db: Db, environment: DeployEnvironment): Promise<ProductCatalogue> {
  const rows = await db.lenderProduct.findMany({
    where: { active: true, lender: { environment, active: true } },
    include: { lender: true },
    orderBy: { id: 'asc' },
  });
  const lenders = new Map<number, LenderSummaryForMatch>();
  const productById = new Map<number, ProductCriteria & { name: string; instantOffer: boolean }>();
  const products = rows.map((r) => {
    lenders.set(r.lender.id, {
      id: r.lender.id,
      name: r.lender.name,
      logo: r.lender.logo,
      description: r.lender.description,
      priceBand: r.lender.priceBand,
      responseTimeHours: r.lender.responseTimeHours,
      requiredDocuments: r.lender.requiredDocuments,
    });
    const criteria: ProductCriteria = {
      productId: r.id,
      lenderId: r.lenderId,
      productType: r.productType,
      minAmount: Number(r.minAmount),
      maxAmount: Number(r.maxAmount),
      minTermMonths: r.minTermMonths,
      maxTermMonths: r.maxTermMonths,
      minTradingMonths: r.minTradingMonths,
      minAnnualRevenue: Number(r.minAnnualRevenue),
      minGrade: r.minGrade,
      excludedSectors: r.excludedSectors,
      requiredSectors: r.requiredSectors,
      companyTypes: r.companyTypes,
      countries: r.countries,
      currencies: r.currencies,
      requirements: (r.requirements ?? {}) as ProductRequirements,
      arrangementFeePct: Number(r.arrangementFeePct),
      earlyRepaymentFeePct: Number(r.earlyRepaymentFeePct),
      exitFeePct: Number(r.exitFeePct),
      annualRateMin: Number(r.annualRateMin),
      annualRateMax: Number(r.annualRateMax),
      likelihoodBase: Number(r.likelihoodBase),
    };
    productById.set(r.id, { ...criteria, name: r.name, instantOffer: r.instantOffer });
    return criteria;
  });
  return { products, index: indexProducts(products), lenders, productById };
}
