/**
 * The indexed matching engine gives exactly what exhaustive evaluation gives: over generated
 * catalogues and applicants, its matches (order, likelihood, cost, reasons), rejections and missing
 * facts equal those of the engine before the index (test/support/matching-engine-reference.ts), which
 * evaluated every criterion of every product. Values are drawn from small grids so that bounds are
 * hit exactly, ties in likelihood and cost are common and product ids repeat.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRODUCT_TYPES } from '../lenders/product-types.js';
import {
  formatMoney,
  indexProducts,
  matchProducts,
  matchReasons,
  reasonTextSteps,
  type ApplicantFacts,
  type MatchOptions,
  type ProductCriteria,
} from './matching-engine.js';
import { formatMoney as formatMoneyReference, matchProductsReference } from '../../../test/support/matching-engine-reference.js';

const SECTORS = ['MANUFACTURING', 'RETAIL', 'CONSTRUCTION'];
const COMPANY_TYPES = ['LIMITED_COMPANY', 'SOLE_TRADER'];
const GRADES = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
const money = (step: number, steps: number) => fc.integer({ min: 0, max: steps }).map((n) => n * step);
const subset = <T>(values: readonly T[]) => fc.subarray([...values]);

const product: fc.Arbitrary<ProductCriteria> = fc
  .record({
    productId: fc.integer({ min: 1, max: 25 }),
    lenderId: fc.integer({ min: 1, max: 6 }),
    productType: fc.constantFrom(...PRODUCT_TYPES),
    minAmount: money(10_000, 20),
    span: money(10_000, 30),
    minTermMonths: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 24 })),
    termSpan: fc.integer({ min: 0, max: 48 }),
    minTradingMonths: fc.integer({ min: 0, max: 36 }),
    minAnnualRevenue: money(50_000, 12),
    minGrade: fc.constantFrom('D', 'E', 'F', 'G', ...GRADES, 'UNRATED'),
    excludedSectors: fc.oneof(fc.constant([]), subset(SECTORS)),
    requiredSectors: fc.oneof(fc.constant([]), subset(SECTORS)),
    companyTypes: fc.oneof(fc.constant([]), subset(COMPANY_TYPES)),
    countries: fc.constantFrom(['GB'], ['GB'], [], ['ZA']),
    currencies: fc.constantFrom(['GBP'], ['GBP'], [], ['EUR', 'GBP']),
    requirements: fc.oneof(
      { weight: 3, arbitrary: fc.constant({}) },
      {
        weight: 2,
        arbitrary: fc.record(
          {
            raisesInvoices: fc.boolean(),
            cardPayments: fc.boolean(),
            minAverageCardSales: money(2_500, 8),
            ownsAsset: fc.boolean(),
            needsAsset: fc.boolean(),
            purchaseOrders: fc.boolean(),
            property: fc.boolean(),
            homeownerDirector: fc.boolean(),
            personalGuarantee: fc.boolean(),
            governmentBacked: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
      },
    ),
    arrangementFeePct: fc.constantFrom(0, 1, 2.5),
    earlyRepaymentFeePct: fc.constantFrom(0, 1),
    exitFeePct: fc.constantFrom(0, 1),
    annualRateMin: fc.constantFrom(5, 8),
    annualRateMax: fc.constantFrom(12, 14),
    likelihoodBase: fc.constantFrom(0.3, 0.5, 0.6, 0.9),
  })
  .map(({ span, termSpan, ...p }) => ({ ...p, maxAmount: p.minAmount + span, maxTermMonths: p.minTermMonths + termSpan }));

const optional = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined, freq: 4 });

const facts: fc.Arbitrary<ApplicantFacts> = fc.record({
  amount: optional(fc.record({ code: fc.constantFrom('GBP', 'GBP', 'EUR'), value: money(10_000, 30) })),
  periodMonths: optional(fc.integer({ min: 1, max: 84 })),
  tradingMonths: optional(fc.integer({ min: 0, max: 72 })),
  annualRevenue: optional(fc.record({ code: fc.constant('GBP'), value: money(50_000, 25) })),
  // A registry grade the engine does not know is compared as the engine always did.
  grade: optional(fc.constantFrom(...GRADES, 'Z' as (typeof GRADES)[number])),
  sector: optional(fc.constantFrom(...SECTORS)),
  companyType: optional(fc.constantFrom(...COMPANY_TYPES)),
  countryCode: fc.constantFrom('GB', 'ZA'),
  raisesInvoices: optional(fc.boolean()),
  cardPayments: optional(fc.boolean()),
  averageCardSales: optional(money(2_500, 10)),
  ownsAsset: optional(fc.boolean()),
  needsAsset: optional(fc.boolean()),
  purchaseOrders: optional(fc.boolean()),
  property: optional(fc.boolean()),
  homeowner: optional(fc.boolean()),
  personalGuarantee: optional(fc.boolean()),
  governmentBackedOnly: optional(fc.boolean()),
});

const options: fc.Arbitrary<MatchOptions> = fc.record(
  { productTypes: subset(PRODUCT_TYPES), explain: fc.boolean(), reasons: fc.boolean() },
  { requiredKeys: [] },
);

describe('the indexed engine equals exhaustive evaluation', () => {
  it('over generated catalogues, applicants and options', () => {
    fc.assert(
      fc.property(fc.array(product, { maxLength: 60 }), facts, options, (products, applicant, opts) => {
        const index = indexProducts(products);
        const expected = matchProductsReference(applicant, products, opts);
        expect(matchProducts(applicant, index, opts)).toEqual(expected);
        // Again on the same index, whose formatted money is now cached, and on the bare list.
        expect(matchProducts(applicant, index, opts)).toEqual(expected);
        expect(matchProducts(applicant, products, opts)).toEqual(expected);
      }),
      { numRuns: 1500 },
    );
  });

  it('with every essential fact known and no explanation (the indexed path), matches are found and equal', () => {
    const complete = facts.filter(
      (f) => f.amount !== undefined && f.annualRevenue !== undefined && f.tradingMonths !== undefined && f.companyType !== undefined && f.sector !== undefined,
    );
    let matched = 0;
    fc.assert(
      fc.property(fc.array(product, { minLength: 20, maxLength: 80 }), complete, fc.boolean(), (products, applicant, reasons) => {
        const outcome = matchProducts(applicant, indexProducts(products), { reasons });
        expect(outcome).toEqual(matchProductsReference(applicant, products, { reasons }));
        matched += outcome.matches.length;
        // In ascending id order, as the catalogue loads them (ranking by one numeric key, not by comparison).
        const byId = [...products].sort((a, b) => a.productId - b.productId);
        expect(matchProducts(applicant, indexProducts(byId), { reasons })).toEqual(matchProductsReference(applicant, byId, { reasons }));
      }),
      { numRuns: 1000 },
    );
    // The generators reach matches, so the comparison is not between two empty lists.
    expect(matched).toBeGreaterThan(150);
  });

  it('reasons asked for on demand (matchReasons) equal those the reference gives every match', () => {
    const complete = facts.filter(
      (f) => f.amount !== undefined && f.annualRevenue !== undefined && f.tradingMonths !== undefined && f.companyType !== undefined && f.sector !== undefined,
    );
    // A catalogue's product ids are its primary keys: matchReasons finds a product by its id, in a
    // table by id when the ids lie close together, else in a Map (ids spread a million apart).
    const catalogue = fc.uniqueArray(product, { minLength: 20, maxLength: 80, selector: (p) => p.productId });
    let matched = 0;
    fc.assert(
      fc.property(
        catalogue,
        fc.array(complete, { minLength: 1, maxLength: 3 }),
        subset(PRODUCT_TYPES),
        fc.boolean(),
        fc.boolean(),
        (generated, applicants, productTypes, formattedAhead, idsSpread) => {
          const products = idsSpread ? generated.map((p) => ({ ...p, productId: p.productId * 1_000_000 })) : generated;
          const index = indexProducts(products);
          // As the catalogue's load does: the products' halves formatted before any search.
          if (formattedAhead) for (const _ of reasonTextSteps(index, 7));
          // Several searches over one catalogue, their reasons asked for in turns, as concurrent
          // requests may: each search's reasons are its own applicant's.
          const searches = applicants.map((applicant) => ({
            reasonsOf: matchReasons(applicant, index),
            matches: matchProducts(applicant, index, { productTypes }).matches,
            reasons: [] as string[][],
          }));
          for (let k = 0; searches.some((s) => k < s.matches.length); k++) {
            for (const s of searches) if (k < s.matches.length) s.reasons.push(s.reasonsOf(s.matches[k]!));
          }
          applicants.forEach((applicant, i) => {
            const expected = matchProductsReference(applicant, products, { productTypes, reasons: true });
            expect(searches[i]!.matches.map((m, k) => ({ ...m, reasons: searches[i]!.reasons[k] }))).toEqual(expected.matches);
            matched += expected.matches.length;
          });
        },
      ),
      { numRuns: 1000 },
    );
    expect(matched).toBeGreaterThan(50);
  });

  it('with more than 31 values of a list criterion across the catalogue (lists then checked on the product)', () => {
    // Each list criterion gives its values a bit, up to 31: a product holding any other value is
    // judged on its lists themselves. 40 values per criterion reach both kinds of product.
    const many = (prefix: string) => Array.from({ length: 40 }, (_, i) => `${prefix}${i}`);
    const [sectors, companyTypes, countries, currencies] = [many('SECTOR_'), many('TYPE_'), many('C'), many('X')];
    const list = (values: string[], maxLength: number) =>
      fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.subarray(values, { maxLength }) });
    const wide = fc
      .tuple(product, list(sectors, 3), list(sectors, 3), list(companyTypes, 3), list(countries, 2), list(currencies, 2))
      .map(([p, excludedSectors, requiredSectors, types, inCountries, inCurrencies]) => ({
        ...p,
        excludedSectors,
        requiredSectors,
        companyTypes: types,
        countries: inCountries,
        currencies: inCurrencies,
      }));
    const applicant = fc
      .tuple(
        facts,
        fc.constantFrom(...sectors),
        fc.constantFrom(...companyTypes),
        fc.constantFrom(...countries),
        fc.constantFrom(...currencies),
        money(10_000, 30),
      )
      .map(([f, sector, companyType, countryCode, code, value]) => ({
        ...f,
        sector,
        companyType,
        countryCode,
        amount: { code, value },
        annualRevenue: f.annualRevenue ?? { code: 'GBP', value: 1e6 },
        tradingMonths: f.tradingMonths ?? 60,
      }));
    let matched = 0;
    fc.assert(
      fc.property(fc.array(wide, { minLength: 40, maxLength: 120 }), applicant, fc.boolean(), (products, f, reasons) => {
        const outcome = matchProducts(f, indexProducts(products), { reasons });
        expect(outcome).toEqual(matchProductsReference(f, products, { reasons }));
        matched += outcome.matches.length;
      }),
      { numRuns: 300 },
    );
    expect(matched).toBeGreaterThan(0);
  });

  it('writes money as the reference did, for any number', () => {
    const amounts = fc.oneof(fc.double(), fc.integer({ min: -1e9, max: 1e12 }), fc.double({ min: -1e7, max: 1e7, noNaN: true }));
    fc.assert(
      fc.property(amounts, fc.constantFrom('GBP', 'EUR', 'ZAR', 'USD'), (value, code) => {
        expect(formatMoney(value, code)).toBe(formatMoneyReference(value, code));
      }),
      { numRuns: 5000 },
    );
  });
});
