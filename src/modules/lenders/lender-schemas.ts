/** A lender of the catalogue with its products, as integrators and staff read it, declared once: its TypeScript type and its GraphQL type follow from it. */
import { z } from 'zod';
import { PRICE_BANDS, PRODUCT_TYPES } from './product-types.js';

/** A product's needs of the applicant (matching-engine.ts ProductRequirements): each present one must hold. */
export const ProductRequirementsSchema = z
  .strictObject({
    raisesInvoices: z.boolean().optional().describe('Raises invoices with payment terms of 14 days or more'),
    cardPayments: z.boolean().optional().describe('Takes card payments'),
    minAverageCardSales: z.number().min(0).optional().describe('Minimum monthly average card sales, in the product currency'),
    ownsAsset: z.boolean().optional().describe('The business owns assets it can refinance or offer'),
    needsAsset: z.boolean().optional().describe('The funding is for an asset'),
    purchaseOrders: z.boolean().optional().describe('Has purchase orders to fund'),
    property: z.boolean().optional().describe('Funding secured on or for commercial property'),
    homeownerDirector: z.boolean().optional().describe('At least one director is a UK homeowner'),
    personalGuarantee: z.boolean().optional().describe('A director gives a personal guarantee'),
    governmentBacked: z.boolean().optional().describe('A government-backed scheme'),
  })
  .meta({ id: 'LenderProductRequirements' });

const LenderProduct = z
  .strictObject({
    id: z.number().int(),
    productType: z.enum(PRODUCT_TYPES).describe('The product type (spec 2.3).'),
    name: z.string(),
    instantOffer: z.boolean(),
  })
  .meta({ id: 'LenderProduct' });
type ProductSummary = z.infer<typeof LenderProduct>;

export const Lender = z
  .strictObject({
    id: z.number().int(),
    name: z.string(),
    slug: z.string().describe("The lender's stable short name: the `lender` label of its metrics on /metrics and the `lender` field of log lines about it"),
    logo: z.string().nullable(),
    description: z.string().nullable(),
    priceBand: z.enum(PRICE_BANDS),
    responseTimeHours: z.number().int(),
    requiredDocuments: z.array(z.string()),
    products: z.array(LenderProduct),
  })
  .meta({ id: 'Lender' });
export type LenderSummary = z.infer<typeof Lender>;

/**
 * A product's complete terms as administrators edit them: every field saveLenderProduct replaces, so
 * the catalogue form can start from them and send them back with one field changed. Enum lists stay
 * String: they are the same values saveLenderProduct checks on input.
 */
export const LenderProductTerms = z
  .strictObject({
    id: z.number().int(),
    productType: z.enum(PRODUCT_TYPES).describe('The product type (spec 2.3).'),
    name: z.string(),
    minAmount: z.number().describe('Pounds'),
    maxAmount: z.number().describe('Pounds'),
    minTermMonths: z.number().int(),
    maxTermMonths: z.number().int(),
    minTradingMonths: z.number().int(),
    minAnnualRevenue: z.number().describe('Pounds'),
    minGrade: z.string().describe('Worst acceptable credit grade, A (best) … F'),
    excludedSectors: z.array(z.string()),
    requiredSectors: z.array(z.string()),
    companyTypes: z.array(z.string()),
    countries: z.array(z.string()),
    currencies: z.array(z.string()),
    requirements: ProductRequirementsSchema,
    arrangementFeePct: z.number(),
    earlyRepaymentFeePct: z.number(),
    exitFeePct: z.number(),
    annualRateMin: z.number().describe('% a year'),
    annualRateMax: z.number().describe('% a year'),
    likelihoodBase: z.number(),
    instantOffer: z.boolean(),
    active: z.boolean(),
  })
  .meta({ id: 'LenderProductTerms', description: "A lender product's complete terms (administrators)" });
export type LenderProductTerms = z.infer<typeof LenderProductTerms>;

export const LenderSettings = z
  .strictObject({
    lenderId: z.number().int(),
    name: z.string(),
    applicationUrl: z.string().nullable().describe('Where new applications are POSTed; null until configured'),
    updateUrl: z.string().nullable().describe('Where application updates are POSTed; null sends them to applicationUrl'),
    products: z.array(LenderProductTerms),
  })
  .meta({ id: 'LenderSettings', description: "A lender's webhook URLs and its products' complete terms, as administrators edit them (never its secrets)" });
export type LenderSettings = z.infer<typeof LenderSettings>;
