/**
 * Pre-selected (instant) offers (spec 2.6): for a matched product that can offer instantly, an
 * indicative offer priced from the product's rules. The rate sits between the product's minimum and
 * maximum by the likelihood of acceptance (likelier applicants get nearer the minimum); amount and
 * term are the request's, held within the product's ranges; repayments are amortised.
 */
import type { ProductCriteria, ProductMatch } from '../matching/matching-engine.js';
import { monthlyRepayment, representativeApr, roundPennies } from './loan-arithmetic.js';
import type { PreselectedOffer, PreselectedProductObjects } from './preselected-offer-schemas.js';

export type { PreselectedOffer };

const OFFER_VALIDITY_DAYS = 30;

export interface PricingRequest {
  amount: number;
  periodMonths?: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const round2 = (value: number) => Math.round(value * 100) / 100;

function offerRate(product: ProductCriteria, likelihood: number): number {
  return round2(product.annualRateMin + (product.annualRateMax - product.annualRateMin) * (1 - likelihood));
}

function securityRequired(product: ProductCriteria): PreselectedOffer['securityRequired'] {
  const r = product.requirements;
  const security: PreselectedOffer['securityRequired'] = [
    ...(r.personalGuarantee ? (['PERSONAL_GUARANTEE'] as const) : []),
    ...(r.property || product.productType === 'COMMERCIAL_PROPERTY' ? (['PROPERTY'] as const) : []),
    ...(r.ownsAsset || product.productType === 'ASSET_BACKED_FINANCE' ? (['DEBENTURE'] as const) : []),
  ];
  return security.length ? security : ['UNSECURED'];
}

/** The product object of spec 2.6 for the product's type, with its figures, under its name. */
function priceProduct(product: ProductCriteria, likelihood: number, request: PricingRequest): PreselectedProductObjects {
  const amount = clamp(request.amount, product.minAmount, product.maxAmount);
  const rolling = product.minTermMonths === 0;
  const term = rolling ? 12 : clamp(request.periodMonths ?? product.minTermMonths, product.minTermMonths, product.maxTermMonths);
  const rate = offerRate(product, likelihood);
  const arrangementFee = roundPennies((amount * product.arrangementFeePct) / 100);
  const exitFee = roundPennies((amount * product.exitFeePct) / 100);
  const likelihoods = { likelihoodOfRate: round2(likelihood), likelihoodOfAcceptance: round2(likelihood) };
  const amortised = (principal: number) => {
    const payment = monthlyRepayment(principal, rate, term);
    const totalRepayment = roundPennies(payment * term + exitFee);
    return { monthlyRepayment: roundPennies(payment), totalRepayment, apr: representativeApr(principal, arrangementFee, payment, term, exitFee) };
  };
  switch (product.productType) {
    case 'ASSET_BACKED_FINANCE': {
      const deposit = roundPennies(amount * 0.1);
      const advanceAmount = roundPennies(amount - deposit);
      const a = amortised(advanceAmount);
      return {
        assetFinance: {
          advanceAmount,
          arrangementFee,
          commissionAmount: 0,
          interestCharge: 'ANNUAL_RATE',
          rate,
          term,
          deposit,
          productOption: 'HIRE_PURCHASE',
          vat: 0,
          cost: amount,
          totalPrice: roundPennies(a.totalRepayment + deposit),
          monthlyRepayment: a.monthlyRepayment,
          representativeAPR: round2(a.apr / 100),
          ...likelihoods,
        },
      };
    }
    case 'MERCHANT_CASH_ADVANCE': {
      const ratio = round2(1 + rate / 100);
      const totalRepayment = roundPennies(amount * ratio);
      return {
        merchantCashAdvance: {
          commissionAmount: 0,
          fundingAmount: amount,
          sweep: round2(0.1 + 0.1 * (1 - likelihood)),
          totalRepayment,
          ratio,
          totalFees: roundPennies(totalRepayment - amount),
          ...likelihoods,
        },
      };
    }
    case 'INVOICE_FINANCE':
    case 'TRADE_FINANCE': {
      const facility = {
        commissionAmount: 0,
        maximumCreditLine: amount,
        minimumCreditLine: product.minAmount,
        serviceFee: product.arrangementFeePct,
        discountFee: rate,
        advanceRate: 0.85,
        contractLength: rolling ? 0 : term,
        ...likelihoods,
      };
      return product.productType === 'INVOICE_FINANCE'
        ? { invoiceFinance: { ...facility, facility: 'DISCOUNTING', creditInsuranceRequired: false, selective: false, confidential: true } }
        : { tradeFinance: facility };
    }
    case 'COMMERCIAL_PROPERTY':
      return {
        commercialProperty: {
          fundingAmount: amount,
          arrangementFee,
          commissionAmount: 0,
          interestCharge: 'ANNUAL_RATE',
          interestRate: rate,
          productType: 'REPAYMENT',
          mortgageTerm: term,
          dealTerm: Math.min(term, 60),
          rateType: 'FIXED',
          exitFee,
        },
      };
    default: {
      const a = amortised(amount);
      return {
        termLoan: {
          maximumAmount: amount,
          minimumAmount: product.minAmount,
          arrangementFee,
          commissionAmount: 0,
          interestCharge: 'ANNUAL_RATE',
          rate,
          interestRate: round2(rate / 12),
          representativeAPR: a.apr,
          term,
          monthlyRepayment: a.monthlyRepayment,
          totalRepayment: a.totalRepayment,
          totalFees: roundPennies(Math.abs(a.totalRepayment - amount)),
          ...likelihoods,
        },
      };
    }
  }
}

export function preselectedOffer(
  product: ProductCriteria & { name: string },
  match: ProductMatch,
  request: PricingRequest,
  context: { applicationId: string; profileUuid: string; applicationUrl: string | null; now: Date },
): PreselectedOffer {
  const productObject = priceProduct(product, match.likelihood, request);
  const expiry = new Date(context.now.getTime() + OFFER_VALIDITY_DAYS * 86_400_000);
  return {
    id: `pso-${context.applicationId}-${product.productId}`,
    createdAt: context.now.toISOString(),
    updatedAt: context.now.toISOString(),
    status: 'PRE_SELECTED',
    type: 'INSTANT_OFFER',
    isPreselected: true,
    productType: product.productType,
    applicationUrl: context.applicationUrl,
    profileUuid: context.profileUuid,
    reference: `${context.applicationId.slice(0, 8)}-${product.productId}`,
    publicComment: `Indicative ${product.name} offer, subject to the lender's checks`,
    securityRequired: securityRequired(product),
    expiryDate: expiry.toISOString(),
    ...productObject,
  };
}
