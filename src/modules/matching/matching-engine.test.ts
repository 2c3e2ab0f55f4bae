/** The matching engine alone: each eligibility criterion includes and excludes, explanations, ordering, filters. */
import { describe, expect, it } from 'vitest';
import { matchProducts, type ApplicantFacts, type ProductCriteria } from './matching-engine.js';

const facts: ApplicantFacts = {
  amount: { code: 'GBP', value: 150_000 },
  periodMonths: 24,
  tradingMonths: 60,
  annualRevenue: { code: 'GBP', value: 900_000 },
  grade: 'B',
  sector: 'MANUFACTURING',
  companyType: 'LIMITED_COMPANY',
  countryCode: 'GB',
};

const product = (overrides: Partial<ProductCriteria> = {}): ProductCriteria => ({
  productId: 1,
  lenderId: 10,
  productType: 'TERM_LOAN',
  minAmount: 100_000,
  maxAmount: 500_000,
  minTermMonths: 12,
  maxTermMonths: 60,
  minTradingMonths: 24,
  minAnnualRevenue: 250_000,
  minGrade: 'C',
  excludedSectors: [],
  requiredSectors: [],
  companyTypes: [],
  countries: ['GB'],
  currencies: ['GBP'],
  requirements: {},
  arrangementFeePct: 2,
  earlyRepaymentFeePct: 1,
  exitFeePct: 0,
  annualRateMin: 8,
  annualRateMax: 14,
  likelihoodBase: 0.6,
  ...overrides,
});

const explain = (p: ProductCriteria, f: ApplicantFacts = facts) => matchProducts(f, [p], { explain: true });
const decide = (p: ProductCriteria, f: ApplicantFacts = facts) => matchProducts(f, [p]).matches.length;

describe('each criterion includes and excludes', () => {
  it.each<[string, Partial<ProductCriteria>, Partial<ApplicantFacts>, string]>([
    ['amount minimum', { minAmount: 200_000 }, {}, "amount £150,000 below the product's minimum £200,000"],
    ['amount maximum', { maxAmount: 100_000, minAmount: 10_000 }, {}, "amount £150,000 above the product's maximum £100,000"],
    ['currency', { currencies: ['ZAR'] }, {}, 'amount in GBP, the product lends in ZAR'],
    ['term', { minTermMonths: 36 }, {}, "term 24 months outside the product's 36-60 months"],
    ['trading history', { minTradingMonths: 72 }, {}, 'trading for 60 months, the product needs at least 72'],
    ['revenue', { minAnnualRevenue: 1_000_000 }, {}, "revenue £900,000 below the product's minimum £1,000,000"],
    ['credit grade', { minGrade: 'A' }, {}, "credit grade B below the product's minimum A"],
    ['excluded sector', { excludedSectors: ['MANUFACTURING'] }, {}, 'the product excludes the manufacturing sector'],
    ['required sector', { requiredSectors: ['RETAIL'] }, {}, 'the product lends only to retail'],
    ['company type', { companyTypes: ['SOLE_TRADER'] }, {}, 'the product does not lend to a limited company'],
    ['country', { countries: ['ZA'] }, {}, 'the product lends only in ZA'],
    ['invoices', { requirements: { raisesInvoices: true } }, {}, 'the product needs invoices to finance (raiseInvoices)'],
    ['card payments', { requirements: { cardPayments: true } }, {}, 'the product needs card payments (cardPayments)'],
    [
      'card sales',
      { requirements: { minAverageCardSales: 15_000 } },
      { averageCardSales: 7_500 },
      "average card sales £7,500 below the product's minimum £15,000",
    ],
    ['owned assets', { requirements: { ownsAsset: true } }, {}, 'the product needs assets the business owns (businessOwnsAssets)'],
    ['asset funding', { requirements: { needsAsset: true } }, {}, 'the product funds assets only (fundingAsset)'],
    ['purchase orders', { requirements: { purchaseOrders: true } }, {}, 'the product needs purchase orders to fund (purchaseOrders)'],
    ['property', { requirements: { property: true } }, {}, 'the product funds property only'],
    ['homeowner', { requirements: { homeownerDirector: true } }, {}, 'the product needs a homeowner director (homeOwnership)'],
    ['guarantee', { requirements: { personalGuarantee: true } }, {}, 'the product needs a personal guarantee (personalGuarantee)'],
    ['government backing', {}, { governmentBackedOnly: true }, 'the applicant wants a government-backed loan; this product is not one'],
  ])('%s', (_name, productChange, factChange, reason) => {
    expect(explain(product()).matches).toHaveLength(1);
    const excluded = explain(product(productChange), { ...facts, ...factChange });
    expect(excluded.matches).toEqual([]);
    expect(decide(product(productChange), { ...facts, ...factChange })).toBe(0);
    expect(excluded.rejections[0]?.reasons).toContain(reason);
  });

  it.each<[string, Partial<ProductCriteria>, Partial<ApplicantFacts>]>([
    ['invoices', { requirements: { raisesInvoices: true } }, { raisesInvoices: true }],
    ['card sales', { requirements: { cardPayments: true, minAverageCardSales: 15_000 } }, { cardPayments: true, averageCardSales: 35_000 }],
    ['government backing', { requirements: { governmentBacked: true } }, { governmentBackedOnly: true }],
    ['rolling facility ignores the term', { minTermMonths: 0, maxTermMonths: 0 }, { periodMonths: 6 }],
    ['unknown grade is left to the lender', {}, { grade: undefined }],
  ])('%s: met requirements match', (_name, productChange, factChange) => {
    expect(explain(product(productChange), { ...facts, ...factChange }).matches).toHaveLength(1);
    expect(decide(product(productChange), { ...facts, ...factChange })).toBe(1);
  });
});

describe('results', () => {
  it('explain gives the reasons a product matched', () => {
    expect(explain(product()).matches[0]?.reasons).toEqual([
      'amount £150,000 within £100,000-£500,000',
      'term 24 months within 12-60',
      'trading for 60 months (at least 24 needed)',
      'revenue £900,000 meets the minimum £250,000',
      'credit grade B at or above the minimum C',
    ]);
  });

  it('orders by likelihood, then cost', () => {
    const products = [
      product({ productId: 1, likelihoodBase: 0.5 }),
      product({ productId: 2, likelihoodBase: 0.7, annualRateMin: 20, annualRateMax: 30 }),
      product({ productId: 3, likelihoodBase: 0.7 }),
    ];
    expect(matchProducts(facts, products).matches.map((m) => m.productId)).toEqual([3, 2, 1]);
  });

  it('filters by product type', () => {
    const products = [product({ productId: 1 }), product({ productId: 2, productType: 'INVOICE_FINANCE', requirements: {} })];
    expect(matchProducts(facts, products, { productTypes: ['INVOICE_FINANCE'] }).matches.map((m) => m.productId)).toEqual([2]);
  });

  it('with too little data, nothing matches and the explanation says what is missing', () => {
    const outcome = matchProducts({ countryCode: 'GB', amount: { code: 'GBP', value: 1 } }, [product()], { explain: true });
    expect(outcome.matches).toEqual([]);
    expect(outcome.missing).toEqual(['revenue (last annual revenue)', 'incorporationDate (when trading started)', 'companyType', 'sector']);
    expect(outcome.rejections[0]?.reasons[0]).toBe('missing revenue (last annual revenue)');
  });

  it('is deterministic', () => {
    const products = Array.from({ length: 50 }, (_, i) => product({ productId: i, likelihoodBase: (i % 7) / 10 + 0.1 }));
    expect(matchProducts(facts, products)).toEqual(matchProducts(facts, products));
  });
});
