/**
 * A lender's offer (spec 2.7 Offer, limits of section 8): common fields and exactly one product
 * object, each field's range enforced. A money field ("currency" in 2.7) is taken either as the
 * live platform's lenders write it, a plain number of pounds, or as spec 2.1's {code, value}; it is
 * stored and answered as {code, value}, so every reader sees one shape that names its currency.
 */
import { z } from 'zod';
import { CurrencyCode } from '../companies/company-information-schemas.js';

const Currency = z.preprocess(
  (value) => (typeof value === 'number' ? { code: 'GBP', value } : value),
  z.strictObject(
    { code: CurrencyCode, value: z.number({ message: 'must be a number' }) },
    { error: 'must be an amount in pounds (a number) or a currency amount {code, value}' },
  ),
);

const percent = z.number().min(0, 'must be between 0.00 and 100.00').max(100, 'must be between 0.00 and 100.00');
const fraction = z.number().min(0, 'must be between 0.00 and 1.00').max(1, 'must be between 0.00 and 1.00');
const term = z.number().int('must be a whole number of months').min(1, 'must be between 1 and 240').max(240, 'must be between 1 and 240');
const contractLength = z.number().int().min(0, 'must be 0 (rolling) or more');
const likelihoods = { likelihoodOfRate: fraction.nullable().optional(), likelihoodOfAcceptance: fraction.nullable().optional() };
const text = z.string().nullable().optional();

/** The fields invoice finance and trade finance offers share (a credit line against receivables or orders). */
const creditLine = {
  maximumCreditLine: Currency,
  minimumCreditLine: Currency.nullable().optional(),
  serviceFee: fraction.nullable().optional(),
  discountFee: fraction.nullable().optional(),
  advanceRate: fraction,
  additionalFees: text,
  minimumMonthlyFee: Currency.nullable().optional(),
  promotion: text,
  ...likelihoods,
};

export const PRODUCT_OBJECTS = {
  termLoan: z.strictObject({
    maximumAmount: Currency,
    minimumAmount: Currency.nullable().optional(),
    term,
    interestRate: percent.describe('monthly rate, %'),
    representativeAPR: percent.nullable().optional(),
    monthlyRepayment: z.number().min(0).nullable().optional(),
    totalRepayment: z.number().min(0).nullable().optional(),
    arrangementFee: Currency.nullable().optional(),
    promotion: text,
    ...likelihoods,
  }),
  invoiceFinance: z.strictObject({
    ...creditLine,
    concentrationLimit: fraction.nullable().optional(),
    contractLength,
    creditInsurance: fraction.nullable().optional(),
    creditInsuranceRequired: z.boolean().nullable().optional(),
    facility: z.enum(['DISCOUNTING', 'FACTORING'], { message: 'must be DISCOUNTING or FACTORING' }),
    selective: z.boolean().nullable().optional(),
    confidential: z.boolean().nullable().optional(),
  }),
  merchantCashAdvance: z.strictObject({
    fundingAmount: Currency,
    sweep: fraction,
    totalRepayment: Currency.nullable().optional(),
    totalFees: Currency.nullable().optional(),
    ratio: z.number().min(1, 'must be between 1.00 and 100.00').max(100, 'must be between 1.00 and 100.00').nullable().optional(),
    promotion: text,
    ...likelihoods,
  }),
  assetFinance: z.strictObject({
    advanceAmount: Currency,
    term,
    deposit: Currency,
    cost: Currency.nullable().optional(),
    vat: Currency.nullable().optional(),
    totalPrice: Currency.nullable().optional(),
    representativeAPR: fraction.nullable().optional(),
    productOption: z.enum(['Hire Purchase', 'Finance Lease'], { message: 'must be Hire Purchase or Finance Lease' }).nullable().optional(),
    monthlyRepayment: z.number().min(0).nullable().optional(),
    optionToPurchaseFee: Currency.nullable().optional(),
    additionalFees: text,
    description: text,
    promotion: text,
    ...likelihoods,
  }),
  tradeFinance: z.strictObject({
    ...creditLine,
    contractLength: contractLength.nullable().optional(),
  }),
  commercialProperty: z.strictObject({
    amount: Currency,
    ltv: percent.nullable().optional(),
    mortgageTerm: term,
    dealTerm: term,
    interestRate: percent,
    arrangementFee: Currency.nullable().optional(),
    valuationFee: Currency.nullable().optional(),
    exitFee: Currency.nullable().optional(),
    productOption: z.enum(['BTL', 'Interest Only', 'Repayment'], { message: 'must be BTL, Interest Only or Repayment' }).nullable().optional(),
    rateType: z.enum(['Variable', 'Fixed'], { message: 'must be Variable or Fixed' }).nullable().optional(),
    propertyChargeAddress: text,
  }),
} as const;

export type ProductObjectName = keyof typeof PRODUCT_OBJECTS;
export const PRODUCT_OBJECT_NAMES = Object.keys(PRODUCT_OBJECTS) as ProductObjectName[];

/** Which product type (spec 2.3) an offer's product object stands for. */
export const PRODUCT_TYPE_OF: Record<ProductObjectName, string> = {
  termLoan: 'TERM_LOAN',
  invoiceFinance: 'INVOICE_FINANCE',
  merchantCashAdvance: 'MERCHANT_CASH_ADVANCE',
  assetFinance: 'ASSET_BACKED_FINANCE',
  tradeFinance: 'TRADE_FINANCE',
  commercialProperty: 'COMMERCIAL_PROPERTY',
};

export const OfferBody = z
  .strictObject({
    reference: z.string({ message: 'is required' }).trim().min(1, 'must not be empty').max(255),
    expiryDate: z
      .union([z.iso.date(), z.iso.datetime({ offset: true })], { message: 'must be an ISO 8601 date, with optional time' })
      .nullable()
      .optional(),
    status: z.enum(['INDICATIVE', 'FINAL'], { message: 'must be INDICATIVE or FINAL' }),
    comment: text,
    ...Object.fromEntries(PRODUCT_OBJECT_NAMES.map((name) => [name, PRODUCT_OBJECTS[name].optional()])),
  })
  .superRefine((offer, ctx) => {
    const given = PRODUCT_OBJECT_NAMES.filter((name) => (offer as Record<string, unknown>)[name] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({ code: 'custom', path: [], message: `must hold exactly one product object (${PRODUCT_OBJECT_NAMES.join(', ')}); found ${given.length}` });
    }
  });
export type OfferBody = z.infer<typeof OfferBody> & Partial<Record<ProductObjectName, Record<string, unknown>>>;

/** termLoan.totalFees as an offer is fetched: |totalRepayment − maximumAmount|. */
export function withComputedFees(productObject: ProductObjectName, product: Record<string, unknown>): Record<string, unknown> {
  if (productObject !== 'termLoan' || typeof product.totalRepayment !== 'number') return product;
  const maximum = (product.maximumAmount as { value: number }).value;
  return { ...product, totalFees: Math.round(Math.abs(product.totalRepayment - maximum) * 100) / 100 };
}
