/** Lender offer validation (spec 2.7, limits of 8): each product object, each range edge inside and outside. */
import { describe, expect, it } from 'vitest';
import { OfferBody, withComputedFees } from './offer-schemas.js';
import { zodFieldErrors } from '../../kernel/validation.js';

const GBP = (value: number) => ({ code: 'GBP', value });
const BASES: Record<string, Record<string, unknown>> = {
  termLoan: { maximumAmount: GBP(100000), term: 36, interestRate: 0.9, likelihoodOfRate: 0.8, likelihoodOfAcceptance: 0.7 },
  invoiceFinance: { maximumCreditLine: GBP(50000), advanceRate: 0.85, contractLength: 0, facility: 'DISCOUNTING' },
  merchantCashAdvance: { fundingAmount: GBP(20000), sweep: 0.15, ratio: 1.25 },
  assetFinance: { advanceAmount: GBP(30000), term: 48, deposit: GBP(3000), representativeAPR: 0.09 },
  tradeFinance: { maximumCreditLine: GBP(80000), advanceRate: 0.8 },
  commercialProperty: { amount: GBP(400000), mortgageTerm: 240, dealTerm: 60, interestRate: 6.5, ltv: 70 },
};
const offer = (product: string, fields: Record<string, unknown> = {}) => ({
  reference: `ref-${product}`,
  status: 'INDICATIVE',
  [product]: { ...BASES[product], ...fields },
});
const errorsOf = (body: unknown) => {
  const result = OfferBody.safeParse(body);
  return result.success ? [] : zodFieldErrors(result.error).map((e) => e.pointer);
};

describe('each product object', () => {
  it.each(Object.keys(BASES))('%s: a valid offer passes', (product) => {
    expect(errorsOf(offer(product))).toEqual([]);
  });

  it.each<[string, string, number, number]>([
    ['termLoan', 'term', 1, 0],
    ['termLoan', 'term', 240, 241],
    ['termLoan', 'interestRate', 0, -0.01],
    ['termLoan', 'interestRate', 100, 100.01],
    ['termLoan', 'representativeAPR', 100, 100.5],
    ['termLoan', 'likelihoodOfRate', 1, 1.01],
    ['termLoan', 'likelihoodOfAcceptance', 0, -0.1],
    ['invoiceFinance', 'advanceRate', 1, 1.01],
    ['invoiceFinance', 'concentrationLimit', 0, -0.01],
    ['invoiceFinance', 'creditInsurance', 1, 2],
    ['invoiceFinance', 'contractLength', 0, -1],
    ['merchantCashAdvance', 'sweep', 1, 1.01],
    ['merchantCashAdvance', 'ratio', 1, 0.99],
    ['merchantCashAdvance', 'ratio', 100, 100.01],
    ['assetFinance', 'term', 240, 241],
    ['assetFinance', 'representativeAPR', 1, 1.5],
    ['tradeFinance', 'advanceRate', 0, -0.01],
    ['commercialProperty', 'mortgageTerm', 1, 0],
    ['commercialProperty', 'dealTerm', 240, 241],
    ['commercialProperty', 'ltv', 100, 100.01],
    ['commercialProperty', 'interestRate', 0, -1],
  ])('%s.%s: %d inside, %d outside', (product, field, inside, outside) => {
    expect(errorsOf(offer(product, { [field]: inside }))).toEqual([]);
    expect(errorsOf(offer(product, { [field]: outside }))).toEqual([`/${product}/${field}`]);
  });

  it.each([
    ['termLoan', 'maximumAmount'],
    ['invoiceFinance', 'facility'],
    ['merchantCashAdvance', 'sweep'],
    ['assetFinance', 'deposit'],
    ['tradeFinance', 'maximumCreditLine'],
    ['commercialProperty', 'amount'],
  ])('%s requires %s', (product, field) => {
    const { [field]: _dropped, ...rest } = BASES[product] as Record<string, unknown>;
    expect(errorsOf({ reference: 'r', status: 'FINAL', [product]: rest })).toEqual([`/${product}/${field}`]);
  });
});

describe('the common fields', () => {
  it('needs exactly one product object, a reference and a status', () => {
    expect(errorsOf({ reference: 'r', status: 'FINAL' })).toEqual(['']);
    expect(errorsOf({ ...offer('termLoan'), invoiceFinance: BASES.invoiceFinance })).toEqual(['']);
    expect(errorsOf({ ...offer('termLoan'), reference: '' })).toEqual(['/reference']);
    expect(errorsOf({ ...offer('termLoan'), status: 'PRE_SELECTED' })).toEqual(['/status']);
    expect(errorsOf({ ...offer('termLoan'), expiryDate: '2027-01-31' })).toEqual([]);
    expect(errorsOf({ ...offer('termLoan'), expiryDate: '2027-01-31T12:00:00Z' })).toEqual([]);
    expect(errorsOf({ ...offer('termLoan'), expiryDate: 'next week' })).toEqual(['/expiryDate']);
    expect(errorsOf({ ...offer('termLoan'), termLoan: { ...BASES.termLoan, maximumAmount: { value: 1 } } })).toEqual(['/termLoan/maximumAmount/code']);
  });

  it('takes money as a plain number of pounds or as {code, value}, and gives {code, value} either way', () => {
    const plain = OfferBody.parse(offer('termLoan', { maximumAmount: 1000, minimumAmount: 500, arrangementFee: 100 })) as unknown as Record<
      string,
      Record<string, unknown>
    >;
    expect(plain.termLoan).toMatchObject({ maximumAmount: GBP(1000), minimumAmount: GBP(500), arrangementFee: GBP(100) });
    const coded = OfferBody.parse(offer('termLoan', { maximumAmount: { code: 'EUR', value: 1000 } })) as unknown as Record<string, Record<string, unknown>>;
    expect(coded.termLoan!.maximumAmount).toEqual({ code: 'EUR', value: 1000 });
    expect(errorsOf(offer('invoiceFinance', { maximumCreditLine: true }))).toEqual(['/invoiceFinance/maximumCreditLine']);
    expect(errorsOf(offer('invoiceFinance', { serviceFee: 1, discountFee: 0 }))).toEqual([]);
    expect(errorsOf(offer('invoiceFinance', { serviceFee: 1.5 }))).toEqual(['/invoiceFinance/serviceFee']);
  });

  it('computes termLoan.totalFees as |totalRepayment - maximumAmount|', () => {
    expect(withComputedFees('termLoan', { maximumAmount: GBP(100000), totalRepayment: 118500.55 }).totalFees).toBe(18500.55);
  });
});
