/**
 * The matching engine as it was before the index, verbatim but for its name and with the engine's own
 * type declarations: the oracle the property test compares the indexed engine with. Not used by the application.
 */
import type {
  ApplicantFacts,
  MatchOptions,
  MatchOutcome,
  ProductCriteria,
  ProductMatch,
  ProductRejection,
} from '../../src/modules/matching/matching-engine.js';

const GRADE_ORDER = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
type Grade = (typeof GRADE_ORDER)[number];

/** The facts without which no product can be judged, and the answer that supplies each. */
const ESSENTIAL: ReadonlyArray<[keyof ApplicantFacts, string]> = [
  ['amount', 'fundingAmount (how much funding is needed)'],
  ['annualRevenue', 'revenue (last annual revenue)'],
  ['tradingMonths', 'incorporationDate (when trading started)'],
  ['companyType', 'companyType'],
  ['sector', 'sector'],
];

const SYMBOLS: Record<string, string> = { GBP: '£', EUR: '€', ZAR: 'R' };

export function formatMoney(value: number, code: string): string {
  // Hand-rolled grouping: Intl formatting would dominate a 10,000-product explanation.
  const digits = String(Math.abs(Math.round(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}${SYMBOLS[code] ?? `${code} `}${digits}`;
}

const readable = (value: string) => value.toLowerCase().replace(/_/g, ' ');

type Reason = () => string;

/**
 * The checks of one product against the facts. Reasons are built lazily: deciding alone (`explain`
 * false) stops at the first failure and formats nothing, which keeps 10,000 products in budget.
 */
function assess(facts: ApplicantFacts, p: ProductCriteria, explain: boolean): { passed: string[]; failed: string[] } {
  const passed: string[] = [];
  const failed: string[] = [];
  let stop = false;
  const fail = (no: Reason) => {
    failed.push(explain ? no() : '');
    if (!explain) stop = true;
  };
  const check = (ok: boolean, yes: Reason, no: Reason) => {
    if (stop) return;
    if (ok) {
      if (explain) passed.push(yes());
    } else fail(no);
  };
  const currency = p.currencies[0] ?? 'GBP';

  const amount = facts.amount!;
  if (p.currencies.length && !p.currencies.includes(amount.code)) {
    fail(() => `amount in ${amount.code}, the product lends in ${p.currencies.join(', ')}`);
  } else if (amount.value < p.minAmount) {
    fail(() => `amount ${formatMoney(amount.value, amount.code)} below the product's minimum ${formatMoney(p.minAmount, currency)}`);
  } else if (amount.value > p.maxAmount) {
    fail(() => `amount ${formatMoney(amount.value, amount.code)} above the product's maximum ${formatMoney(p.maxAmount, currency)}`);
  } else if (explain) {
    passed.push(`amount ${formatMoney(amount.value, amount.code)} within ${formatMoney(p.minAmount, currency)}-${formatMoney(p.maxAmount, currency)}`);
  }

  if (facts.periodMonths !== undefined && p.minTermMonths > 0) {
    check(
      facts.periodMonths >= p.minTermMonths && facts.periodMonths <= p.maxTermMonths,
      () => `term ${facts.periodMonths} months within ${p.minTermMonths}-${p.maxTermMonths}`,
      () => `term ${facts.periodMonths} months outside the product's ${p.minTermMonths}-${p.maxTermMonths} months`,
    );
  }
  check(
    facts.tradingMonths! >= p.minTradingMonths,
    () => `trading for ${facts.tradingMonths} months (at least ${p.minTradingMonths} needed)`,
    () => `trading for ${facts.tradingMonths} months, the product needs at least ${p.minTradingMonths}`,
  );
  const revenue = facts.annualRevenue!;
  check(
    revenue.value >= p.minAnnualRevenue,
    () => `revenue ${formatMoney(revenue.value, revenue.code)} meets the minimum ${formatMoney(p.minAnnualRevenue, currency)}`,
    () => `revenue ${formatMoney(revenue.value, revenue.code)} below the product's minimum ${formatMoney(p.minAnnualRevenue, currency)}`,
  );
  if (facts.grade !== undefined) {
    check(
      GRADE_ORDER.indexOf(facts.grade) <= GRADE_ORDER.indexOf(p.minGrade as Grade),
      () => `credit grade ${facts.grade} at or above the minimum ${p.minGrade}`,
      () => `credit grade ${facts.grade} below the product's minimum ${p.minGrade}`,
    );
  }
  if (p.excludedSectors.includes(facts.sector!))
    check(
      false,
      () => '',
      () => `the product excludes the ${readable(facts.sector!)} sector`,
    );
  if (p.requiredSectors.length) {
    check(
      p.requiredSectors.includes(facts.sector!),
      () => `lends to the ${readable(facts.sector!)} sector`,
      () => `the product lends only to ${p.requiredSectors.map(readable).join(', ')}`,
    );
  }
  if (p.companyTypes.length) {
    check(
      p.companyTypes.includes(facts.companyType!),
      () => `lends to a ${readable(facts.companyType!)}`,
      () => `the product does not lend to a ${readable(facts.companyType!)}`,
    );
  }
  if (p.countries.length && !p.countries.includes(facts.countryCode))
    check(
      false,
      () => '',
      () => `the product lends only in ${p.countries.join(', ')}`,
    );

  const r = p.requirements;
  const need = (required: boolean | undefined, has: boolean | undefined, yes: string, no: string) => {
    if (required)
      check(
        has === true,
        () => yes,
        () => no,
      );
  };
  need(r.raisesInvoices, facts.raisesInvoices, 'raises invoices', 'the product needs invoices to finance (raiseInvoices)');
  need(r.cardPayments, facts.cardPayments, 'takes card payments', 'the product needs card payments (cardPayments)');
  const minCardSales = r.minAverageCardSales;
  if (minCardSales !== undefined) {
    check(
      (facts.averageCardSales ?? 0) >= minCardSales,
      () => `average card sales ${formatMoney(facts.averageCardSales ?? 0, currency)} meet the minimum`,
      () =>
        `average card sales ${facts.averageCardSales === undefined ? 'unknown' : formatMoney(facts.averageCardSales, currency)} below the product's minimum ${formatMoney(minCardSales, currency)}`,
    );
  }
  need(r.ownsAsset, facts.ownsAsset, 'the business owns assets', 'the product needs assets the business owns (businessOwnsAssets)');
  need(r.needsAsset, facts.needsAsset, 'the funding is for an asset', 'the product funds assets only (fundingAsset)');
  need(r.purchaseOrders, facts.purchaseOrders, 'has purchase orders', 'the product needs purchase orders to fund (purchaseOrders)');
  need(r.property, facts.property, 'the funding is for property', 'the product funds property only');
  need(r.homeownerDirector, facts.homeowner, 'a director is a homeowner', 'the product needs a homeowner director (homeOwnership)');
  need(r.personalGuarantee, facts.personalGuarantee, 'a personal guarantee is offered', 'the product needs a personal guarantee (personalGuarantee)');
  if (facts.governmentBackedOnly) {
    check(
      r.governmentBacked === true,
      () => 'a government-backed scheme',
      () => 'the applicant wants a government-backed loan; this product is not one',
    );
  }
  return { passed, failed };
}

/** How likely the lender is to accept: its base rate, moved by grade and by headroom over minimums. */
function likelihoodOf(facts: ApplicantFacts, p: ProductCriteria): number {
  const gradeFactor = facts.grade === undefined ? 0.9 : 1.1 - 0.08 * GRADE_ORDER.indexOf(facts.grade);
  const revenueHeadroom = p.minAnnualRevenue > 0 ? Math.min(1.1, 0.9 + (0.2 * facts.annualRevenue!.value) / (p.minAnnualRevenue * 4)) : 1.05;
  const tradingHeadroom = p.minTradingMonths > 0 ? Math.min(1.05, 0.95 + (0.1 * facts.tradingMonths!) / (p.minTradingMonths * 4)) : 1;
  const value = p.likelihoodBase * gradeFactor * revenueHeadroom * tradingHeadroom;
  return Math.round(Math.min(0.99, Math.max(0.01, value)) * 100) / 100;
}

/** Representative yearly cost %: mid rate, plus arrangement and exit fees spread over the term. */
function costOf(facts: ApplicantFacts, p: ProductCriteria): number {
  const years = Math.max(1, (facts.periodMonths ?? 12) / 12);
  return Math.round(((p.annualRateMin + p.annualRateMax) / 2 + (p.arrangementFeePct + p.exitFeePct) / years) * 1000) / 1000;
}

export function matchProductsReference(facts: ApplicantFacts, products: readonly ProductCriteria[], options: MatchOptions = {}): MatchOutcome {
  const missing = ESSENTIAL.filter(([key]) => facts[key] === undefined).map(([, answer]) => answer);
  const wanted = options.productTypes?.length ? new Set(options.productTypes) : null;
  const considered = wanted ? products.filter((p) => wanted.has(p.productType)) : products;
  if (missing.length) {
    const rejections = options.explain
      ? considered.map((p) => ({ productId: p.productId, lenderId: p.lenderId, productType: p.productType, reasons: missing.map((m) => `missing ${m}`) }))
      : [];
    return { matches: [], rejections, missing };
  }
  const matches: ProductMatch[] = [];
  const rejections: ProductRejection[] = [];
  const explain = options.explain === true;
  for (const p of considered) {
    const { passed, failed } = assess(facts, p, explain);
    if (failed.length === 0) {
      const reasons = explain ? passed : options.reasons ? assess(facts, p, true).passed : [];
      matches.push({
        productId: p.productId,
        lenderId: p.lenderId,
        productType: p.productType,
        likelihood: likelihoodOf(facts, p),
        costPct: costOf(facts, p),
        reasons,
      });
    } else if (explain) {
      rejections.push({ productId: p.productId, lenderId: p.lenderId, productType: p.productType, reasons: failed });
    }
  }
  matches.sort((a, b) => b.likelihood - a.likelihood || a.costPct - b.costPct || a.productId - b.productId);
  return { matches, rejections, missing };
}
