/**
 * A pre-selected (instant) offer as GET /applications/{id}/pre-selected returns it (spec 2.6),
 * declared once: its TypeScript type and its GraphQL type follow from it. Amounts are plain
 * numbers here (spec 2.6), unlike a lender's offer (spec 2.7) whose amounts are Currency objects.
 * Fields the spec lists that the pricing does not produce are optional.
 */
import { z } from 'zod';

const likelihoods = {
  likelihoodOfRate: z.number().describe('0..1'),
  likelihoodOfAcceptance: z.number().describe('0..1'),
};
const months = z.number().int().describe('Months');
const annualRateCharge = z.string().describe('How the rate is charged, e.g. ANNUAL_RATE');
/** What invoice and trade finance both price: a credit line with its fees, advance and contract. */
const creditLine = {
  commissionAmount: z.number(),
  maximumCreditLine: z.number(),
  minimumCreditLine: z.number(),
  serviceFee: z.number(),
  discountFee: z.number(),
  advanceRate: z.number().describe('0..1'),
  contractLength: months.describe('Months; 0 = rolling'),
  additionalFees: z.string().optional(),
};

/** The product object of each product type, as priced (spec 2.6 table). */
const PRESELECTED_PRODUCT_OBJECTS = {
  termLoan: z
    .strictObject({
      maximumAmount: z.number(),
      minimumAmount: z.number(),
      arrangementFee: z.number(),
      commissionAmount: z.number(),
      interestCharge: annualRateCharge,
      rate: z.number().describe('Annual rate, %'),
      interestRate: z.number().describe('Monthly rate, %'),
      representativeAPR: z.number().describe('%'),
      term: months,
      monthlyRepayment: z.number(),
      totalRepayment: z.number(),
      totalFees: z.number().describe('|totalRepayment − maximumAmount|'),
      promotion: z.string().optional(),
      ...likelihoods,
    })
    .meta({ id: 'PreselectedTermLoan' }),
  assetFinance: z
    .strictObject({
      advanceAmount: z.number(),
      arrangementFee: z.number(),
      commissionAmount: z.number(),
      interestCharge: annualRateCharge,
      rate: z.number().describe('Annual rate, %'),
      term: months,
      deposit: z.number(),
      productOption: z.string().describe('e.g. HIRE_PURCHASE'),
      vat: z.number(),
      cost: z.number(),
      totalPrice: z.number(),
      description: z.string().optional(),
      promotion: z.string().optional(),
      monthlyRepayment: z.number(),
      additionalFees: z.string().optional(),
      optionToPurchaseFee: z.number().optional(),
      representativeAPR: z.number().describe('A fraction, 0..1'),
      ...likelihoods,
    })
    .meta({ id: 'PreselectedAssetFinance' }),
  merchantCashAdvance: z
    .strictObject({
      commissionAmount: z.number(),
      fundingAmount: z.number(),
      sweep: z.number().describe('Share of card takings, 0..1'),
      totalRepayment: z.number(),
      ratio: z.number(),
      totalFees: z.number(),
      promotion: z.string().optional(),
      ...likelihoods,
    })
    .meta({ id: 'PreselectedMerchantCashAdvance' }),
  invoiceFinance: z
    .strictObject({
      ...creditLine,
      facility: z.string().describe('e.g. DISCOUNTING'),
      minimumMonthlyFee: z.number().optional(),
      concentrationLimit: z.number().optional(),
      creditInsurance: z.number().optional(),
      creditInsuranceRequired: z.boolean(),
      selective: z.boolean(),
      confidential: z.boolean(),
      promotion: z.string().optional(),
      ...likelihoods,
    })
    .meta({ id: 'PreselectedInvoiceFinance' }),
  tradeFinance: z
    .strictObject({
      ...creditLine,
      promotion: z.string().optional(),
      ...likelihoods,
    })
    .meta({ id: 'PreselectedTradeFinance' }),
  commercialProperty: z
    .strictObject({
      fundingAmount: z.number(),
      arrangementFee: z.number(),
      commissionAmount: z.number(),
      interestCharge: annualRateCharge,
      interestRate: z.number().describe('Annual rate, %'),
      productType: z.string().describe('e.g. REPAYMENT'),
      mortgageTerm: months,
      dealTerm: months,
      rateType: z.string().describe('e.g. FIXED'),
      ltv: z.number().optional(),
      valuationFee: z.number().optional(),
      exitFee: z.number(),
      propertyChargeAddress: z.string().optional(),
    })
    .meta({ id: 'PreselectedCommercialProperty' }),
} as const;

export type PreselectedProductObjects = { [Name in keyof typeof PRESELECTED_PRODUCT_OBJECTS]?: z.infer<(typeof PRESELECTED_PRODUCT_OBJECTS)[Name]> };

export const PreselectedOffer = z
  .strictObject({
    id: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    status: z.literal('PRE_SELECTED'),
    type: z.literal('INSTANT_OFFER'),
    isPreselected: z.literal(true),
    productType: z.string().describe('The product type (spec 2.3)'),
    applicationUrl: z.string().nullable(),
    profileUuid: z.uuid(),
    reference: z.string(),
    publicComment: z.string(),
    securityRequired: z.array(z.enum(['DEBENTURE', 'PERSONAL_GUARANTEE', 'PROPERTY', 'UNSECURED'])),
    expiryDate: z.iso.datetime(),
    termLoan: PRESELECTED_PRODUCT_OBJECTS.termLoan.optional(),
    assetFinance: PRESELECTED_PRODUCT_OBJECTS.assetFinance.optional(),
    merchantCashAdvance: PRESELECTED_PRODUCT_OBJECTS.merchantCashAdvance.optional(),
    invoiceFinance: PRESELECTED_PRODUCT_OBJECTS.invoiceFinance.optional(),
    tradeFinance: PRESELECTED_PRODUCT_OBJECTS.tradeFinance.optional(),
    commercialProperty: PRESELECTED_PRODUCT_OBJECTS.commercialProperty.optional(),
  })
  .meta({ id: 'PreselectedOffer', description: 'A pre-selected instant offer (spec 2.6): exactly one product object is set' });
export type PreselectedOffer = z.infer<typeof PreselectedOffer>;
