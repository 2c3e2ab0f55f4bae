/**
 * The matching engine: given what we know of an applicant and the catalogue's products, which
 * lender products are eligible, how likely each is to accept, what it costs, and why each product
 * matched or did not. Pure and deterministic: no I/O, the same input gives the same output, so
 * every surface (Marketplace V1, Business V1, GraphQL, staff) shares it and it can be benchmarked.
 */

const GRADE_ORDER = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
type Grade = (typeof GRADE_ORDER)[number];
/** A grade's place in GRADE_ORDER; -1 for a value that is not a grade (as the comparison has always treated it). */
const gradeRank = (grade: string): number => GRADE_ORDER.indexOf(grade as Grade);

export interface Money {
  code: string;
  value: number;
}

/** What we know of the applicant; anything unknown is undefined. */
export interface ApplicantFacts {
  amount?: Money;
  periodMonths?: number;
  tradingMonths?: number;
  annualRevenue?: Money;
  grade?: Grade;
  sector?: string;
  companyType?: string;
  countryCode: string;
  useOfFunds?: string;
  raisesInvoices?: boolean;
  cardPayments?: boolean;
  averageCardSales?: number;
  ownsAsset?: boolean;
  needsAsset?: boolean;
  purchaseOrders?: boolean;
  property?: boolean;
  homeowner?: boolean;
  personalGuarantee?: boolean;
  /** Interested only in a government-backed loan. */
  governmentBackedOnly?: boolean;
}

/**
 * Product-specific needs (lender_product.requirements). A key that is absent or false means "no
 * requirement". true / numbers are requirements on the applicant's answers (spec 2.4 names in brackets):
 */
export interface ProductRequirements {
  /** Raises invoices with payment terms of 14 days or more (raiseInvoices). */
  raisesInvoices?: boolean;
  /** Takes card payments (cardPayments). */
  cardPayments?: boolean;
  /** Minimum monthly average card sales (averageCardSales), in the product currency. */
  minAverageCardSales?: number;
  /** The business owns assets it can refinance or offer (businessOwnsAssets). */
  ownsAsset?: boolean;
  /** The funding is for an asset (fundingAsset). */
  needsAsset?: boolean;
  /** Has purchase orders to fund (purchaseOrders). */
  purchaseOrders?: boolean;
  /** Funding secured on / for commercial property (useOfFunds PURCHASING_PROPERTY or a property on the profile). */
  property?: boolean;
  /** At least one director is a UK homeowner (homeOwnership). */
  homeownerDirector?: boolean;
  /** A director gives a personal guarantee (personalGuarantee). */
  personalGuarantee?: boolean;
  /**
   * The product is government-backed (recovery loan scheme). An applicant interested only in a
   * government-backed loan (governmentBacked) matches only such products.
   */
  governmentBacked?: boolean;
}

export interface ProductCriteria {
  productId: number;
  lenderId: number;
  productType: string;
  minAmount: number;
  maxAmount: number;
  /** 0 = a rolling facility: any requested period fits. */
  minTermMonths: number;
  maxTermMonths: number;
  minTradingMonths: number;
  minAnnualRevenue: number;
  minGrade: string;
  excludedSectors: readonly string[];
  requiredSectors: readonly string[];
  companyTypes: readonly string[];
  countries: readonly string[];
  currencies: readonly string[];
  requirements: ProductRequirements;
  arrangementFeePct: number;
  earlyRepaymentFeePct: number;
  exitFeePct: number;
  annualRateMin: number;
  annualRateMax: number;
  likelihoodBase: number;
}

export interface ProductMatch {
  productId: number;
  lenderId: number;
  productType: string;
  /** 0..1, two decimals. */
  likelihood: number;
  /** Representative yearly cost of the funding, % (mid rate plus fees spread over the term). */
  costPct: number;
  /**
   * Why it matched (with `reasons` or `explain`). Otherwise one empty array shared by every match and
   * frozen: replace it (with what `matchReasons` gives on demand), never add to it.
   */
  reasons: string[];
}

export interface ProductRejection {
  productId: number;
  lenderId: number;
  productType: string;
  reasons: string[];
}

export interface MatchOutcome {
  matches: ProductMatch[];
  /** Only with `explain`: every other product and why it did not match. */
  rejections: ProductRejection[];
  /** Facts matching needs and the profile lacks (then nothing matches). */
  missing: string[];
}

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
  return `${value < 0 ? '-' : ''}${SYMBOLS[code] ?? `${code} `}${groupedDigits(Math.abs(Math.round(value)))}`;
}

/**
 * A whole number's digits in groups of three, as the regular expression /\B(?=(\d{3})+(?!\d))/g
 * placed the commas, by slicing (2-3 times faster: a catalogue formats three amounts per
 * product). What String() does not write as plain digits (NaN, Infinity, 1e21 and above) still
 * goes through the expression.
 */
function groupedDigits(whole: number): string {
  const digits = String(whole);
  if (!(whole < 1e21)) return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const first = digits.length % 3 || 3;
  let grouped = digits.slice(0, first);
  for (let i = first; i < digits.length; i += 3) grouped += ',' + digits.slice(i, i + 3);
  return grouped;
}

const readable = (value: string) => value.toLowerCase().replace(/_/g, ' ');

/** The applicant's side of the reasons, formatted once per search. */
interface ApplicantTexts {
  amount: string;
  revenue: string;
  sector: string;
  companyType: string;
}

function applicantTexts(facts: ApplicantFacts): ApplicantTexts {
  return {
    amount: formatMoney(facts.amount!.value, facts.amount!.code),
    revenue: formatMoney(facts.annualRevenue!.value, facts.annualRevenue!.code),
    sector: readable(facts.sector!),
    companyType: readable(facts.companyType!),
  };
}

/**
 * The products' sides of their reasons (money in each product's currency), formatted once per
 * catalogue, when first needed: a match's reason is then the applicant's half joined to the
 * product's half. Held by field, each an array by position, rather than an object per product:
 * reasons then read a product's texts from a few long arrays, not from an object of its own
 * somewhere on the heap (a cache miss per match).
 */
interface ProductTexts {
  /** By position; undefined until the product is formatted (`formatProductTexts`). */
  minAmount: string[];
  maxAmount: string[];
  minAnnualRevenue: string[];
  /** " within £min-£max": nearly every product has its own. */
  amountWithin: string[];
  /**
   * The halves many products share, as ids into `shared` by position (valid once the product is
   * formatted): " months within min-max", " months (at least N needed)", " meets the minimum £N",
   * " at or above the minimum G". A search joins the applicant's half to each id once
   * (`joinedReason`), so matches with equal reasons share one string: in the bench's catalogue of
   * 10,000 products a search's ~4,300 matches have 48 distinct trading reasons, 5 grade, ~900
   * revenue and ~1,100 term ones, where each match made its own (garbage that sets how often a
   * search pauses for GC).
   */
  term: Int32Array;
  trading: Int32Array;
  revenue: Int32Array;
  grade: Int32Array;
  /** The shared halves by id. The four fields' texts start differently, so one table serves them all. */
  shared: string[];
  sharedId: Map<string, number>;
}

function productTextsOf(count: number): ProductTexts {
  return {
    minAmount: new Array(count),
    maxAmount: new Array(count),
    minAnnualRevenue: new Array(count),
    amountWithin: new Array(count),
    term: new Int32Array(count),
    trading: new Int32Array(count),
    revenue: new Int32Array(count),
    grade: new Int32Array(count),
    shared: [],
    sharedId: new Map(),
  };
}

/** The index's product texts, with the product at `position` formatted. */
function productTexts(index: ProductIndex, position: number): ProductTexts {
  const texts = index.productTexts;
  if (texts.amountWithin[position] === undefined) formatProductTexts(index.products[position]!, texts, position);
  return texts;
}

function formatProductTexts(p: ProductCriteria, texts: ProductTexts, position: number): void {
  const currency = p.currencies[0] ?? 'GBP';
  const minAmount = formatMoney(p.minAmount, currency);
  const maxAmount = formatMoney(p.maxAmount, currency);
  const minAnnualRevenue = formatMoney(p.minAnnualRevenue, currency);
  texts.minAmount[position] = minAmount;
  texts.maxAmount[position] = maxAmount;
  texts.minAnnualRevenue[position] = minAnnualRevenue;
  texts.term[position] = sharedTextId(texts, ` months within ${p.minTermMonths}-${p.maxTermMonths}`);
  texts.trading[position] = sharedTextId(texts, ` months (at least ${p.minTradingMonths} needed)`);
  texts.revenue[position] = sharedTextId(texts, ` meets the minimum ${minAnnualRevenue}`);
  texts.grade[position] = sharedTextId(texts, ` at or above the minimum ${p.minGrade}`);
  // Last: a product counts as formatted once its amountWithin is set.
  texts.amountWithin[position] = ` within ${minAmount}-${maxAmount}`;
}

function sharedTextId(texts: ProductTexts, text: string): number {
  let id = texts.sharedId.get(text);
  if (id === undefined) {
    id = texts.shared.length;
    texts.shared.push(text);
    texts.sharedId.set(text, id);
  }
  return id;
}

/**
 * The products' halves of their reasons formatted ahead of any search, `perStep` products between
 * two yields (the catalogue's background load hands the event loop back there): the first search
 * over a new snapshot then formats only the applicant's halves, however many products it matches.
 */
export function* reasonTextSteps(index: ProductIndex, perStep: number): Generator<void, void, void> {
  const count = index.products.length;
  for (let start = 0; start < count; start += perStep) {
    for (let position = start; position < Math.min(count, start + perStep); position++) productTexts(index, position);
    yield;
  }
}

/** The applicant's halves of a match's reasons, built once per search. */
interface MatchedTexts {
  amount: string;
  term: string;
  trading: string;
  revenue: string;
  grade: string;
  sector: string;
  companyType: string;
  /** Card sales are written in each product's currency: by currency, as met. */
  cardSales: Map<string, string>;
  /** This search's joined reasons by shared id (`ProductTexts.shared`), as met. */
  joined: string[];
}

function matchedTexts(facts: ApplicantFacts, index: ProductIndex): MatchedTexts {
  const texts = applicantTexts(facts);
  return {
    amount: `amount ${texts.amount}`,
    term: `term ${facts.periodMonths}`,
    trading: `trading for ${facts.tradingMonths}`,
    revenue: `revenue ${texts.revenue}`,
    grade: `credit grade ${facts.grade}`,
    sector: `lends to the ${texts.sector} sector`,
    companyType: `lends to a ${texts.companyType}`,
    cardSales: new Map(),
    // Sized to the ids so far, so that it stays a plain array (a write far past its end would not).
    joined: new Array(index.productTexts.shared.length),
  };
}

/** The applicant's half joined to a shared product half, once per search (an id belongs to one field, so to one applicant half). */
function joinedReason(texts: MatchedTexts, applicantHalf: string, product: ProductTexts, id: number): string {
  return (texts.joined[id] ??= applicantHalf + product.shared[id]!);
}

/**
 * Why an accepted product matched (with `reasons`, with `explain`, and on demand): a reason for each
 * check the product sets, as the engine before the index listed the checks it passed (the property
 * tests hold them equal), without re-running the checks, which an accepted product cannot fail.
 */
function matchedReasons(facts: ApplicantFacts, texts: MatchedTexts, index: ProductIndex, position: number): string[] {
  const product = productTexts(index, position);
  // What the product requires, from the index: the product object itself is read only for a card sales minimum.
  const flags = index.reasonFlags[position]!;
  const reasons = reasonBuffer;
  let n = 0;
  reasons[n++] = texts.amount + product.amountWithin[position]!;
  if (facts.periodMonths !== undefined && (flags & HAS_TERM_RANGE) !== 0) reasons[n++] = joinedReason(texts, texts.term, product, product.term[position]!);
  reasons[n++] = joinedReason(texts, texts.trading, product, product.trading[position]!);
  reasons[n++] = joinedReason(texts, texts.revenue, product, product.revenue[position]!);
  if (facts.grade !== undefined) reasons[n++] = joinedReason(texts, texts.grade, product, product.grade[position]!);
  if ((flags & HAS_REQUIRED_SECTORS) !== 0) reasons[n++] = texts.sector;
  if ((flags & HAS_COMPANY_TYPES) !== 0) reasons[n++] = texts.companyType;
  if ((flags & NEED_INVOICES) !== 0) reasons[n++] = 'raises invoices';
  if ((flags & NEED_CARD_PAYMENTS) !== 0) reasons[n++] = 'takes card payments';
  if ((flags & CARD_SALES_MINIMUM) !== 0) {
    const currency = index.products[position]!.currencies[0] ?? 'GBP';
    let sales = texts.cardSales.get(currency);
    if (sales === undefined)
      texts.cardSales.set(currency, (sales = `average card sales ${formatMoney(facts.averageCardSales ?? 0, currency)} meet the minimum`));
    reasons[n++] = sales;
  }
  if ((flags & NEED_OWNED_ASSET) !== 0) reasons[n++] = 'the business owns assets';
  if ((flags & NEED_ASSET_FUNDING) !== 0) reasons[n++] = 'the funding is for an asset';
  if ((flags & NEED_PURCHASE_ORDERS) !== 0) reasons[n++] = 'has purchase orders';
  if ((flags & NEED_PROPERTY) !== 0) reasons[n++] = 'the funding is for property';
  if ((flags & NEED_HOMEOWNER) !== 0) reasons[n++] = 'a director is a homeowner';
  if ((flags & NEED_GUARANTEE) !== 0) reasons[n++] = 'a personal guarantee is offered';
  if (facts.governmentBackedOnly) reasons[n++] = 'a government-backed scheme';
  // Copied out at their exact length: an array pushed to grows to 17 slots at its second entry.
  return reasons.slice(0, n);
}

/** Where `matchedReasons` gathers a match's reasons (at most 17), reused from match to match. */
const reasonBuffer: string[] = [];

/**
 * The reasons of a search's matches, on demand (`matchProducts` without `reasons` leaves them
 * empty): a caller that returns or stores them asks for each; one that only counts or ranks never
 * pays for them. The facts must be those the matches were found with.
 */
export function matchReasons(facts: ApplicantFacts, index: ProductIndex): (match: Pick<ProductMatch, 'productId'>) => string[] {
  const reasonsAt = reasonsByPosition(facts, index);
  return (match) => {
    const position = positionOfId(index.positionOf, match.productId);
    if (position === -1) throw new Error(`product ${match.productId} is not in this catalogue`);
    return reasonsAt(position);
  };
}

/** One search's matches' reasons by product position, the applicant's texts made once for all of them. */
function reasonsByPosition(facts: ApplicantFacts, index: ProductIndex): (position: number) => string[] {
  const texts = matchedTexts(facts, index);
  return (position) => matchedReasons(facts, texts, index, position);
}

/**
 * Why a product does not match, for `explain`: every check runs, each failed one adds to `failed`
 * (empty: the product matches, and `matchedReasons` says why).
 */
function explainProduct(facts: ApplicantFacts, texts: ApplicantTexts, p: ProductCriteria, money: ProductTexts, position: number, failed: string[]): void {
  const currency = p.currencies[0] ?? 'GBP';
  const amount = facts.amount!;
  if (p.currencies.length && !p.currencies.includes(amount.code)) {
    failed.push(`amount in ${amount.code}, the product lends in ${p.currencies.join(', ')}`);
  } else if (amount.value < p.minAmount) {
    failed.push(`amount ${texts.amount} below the product's minimum ${money.minAmount[position]}`);
  } else if (amount.value > p.maxAmount) {
    failed.push(`amount ${texts.amount} above the product's maximum ${money.maxAmount[position]}`);
  }

  // Each check negates the condition that passes rather than comparing the other way: a bound that is not a number still fails.
  const period = facts.periodMonths;
  if (period !== undefined && p.minTermMonths > 0 && !(period >= p.minTermMonths && period <= p.maxTermMonths)) {
    failed.push(`term ${period} months outside the product's ${p.minTermMonths}-${p.maxTermMonths} months`);
  }
  const trading = facts.tradingMonths!;
  if (!(trading >= p.minTradingMonths)) failed.push(`trading for ${trading} months, the product needs at least ${p.minTradingMonths}`);
  const revenue = facts.annualRevenue!;
  if (!(revenue.value >= p.minAnnualRevenue)) failed.push(`revenue ${texts.revenue} below the product's minimum ${money.minAnnualRevenue[position]}`);
  if (facts.grade !== undefined && !(gradeRank(facts.grade) <= gradeRank(p.minGrade)))
    failed.push(`credit grade ${facts.grade} below the product's minimum ${p.minGrade}`);
  const sector = facts.sector!;
  if (p.excludedSectors.includes(sector)) failed.push(`the product excludes the ${texts.sector} sector`);
  if (p.requiredSectors.length && !p.requiredSectors.includes(sector)) failed.push(`the product lends only to ${p.requiredSectors.map(readable).join(', ')}`);
  if (p.companyTypes.length && !p.companyTypes.includes(facts.companyType!)) failed.push(`the product does not lend to a ${texts.companyType}`);
  if (p.countries.length && !p.countries.includes(facts.countryCode)) failed.push(`the product lends only in ${p.countries.join(', ')}`);

  const r = p.requirements;
  explainNeed(r.raisesInvoices, facts.raisesInvoices, 'the product needs invoices to finance (raiseInvoices)', failed);
  explainNeed(r.cardPayments, facts.cardPayments, 'the product needs card payments (cardPayments)', failed);
  const minCardSales = r.minAverageCardSales;
  if (minCardSales !== undefined && !((facts.averageCardSales ?? 0) >= minCardSales)) {
    const sales = facts.averageCardSales === undefined ? 'unknown' : formatMoney(facts.averageCardSales, currency);
    failed.push(`average card sales ${sales} below the product's minimum ${formatMoney(minCardSales, currency)}`);
  }
  explainNeed(r.ownsAsset, facts.ownsAsset, 'the product needs assets the business owns (businessOwnsAssets)', failed);
  explainNeed(r.needsAsset, facts.needsAsset, 'the product funds assets only (fundingAsset)', failed);
  explainNeed(r.purchaseOrders, facts.purchaseOrders, 'the product needs purchase orders to fund (purchaseOrders)', failed);
  explainNeed(r.property, facts.property, 'the product funds property only', failed);
  explainNeed(r.homeownerDirector, facts.homeowner, 'the product needs a homeowner director (homeOwnership)', failed);
  explainNeed(r.personalGuarantee, facts.personalGuarantee, 'the product needs a personal guarantee (personalGuarantee)', failed);
  if (facts.governmentBackedOnly && r.governmentBacked !== true) failed.push('the applicant wants a government-backed loan; this product is not one');
}

function explainNeed(required: boolean | undefined, has: boolean | undefined, unmet: string, failed: string[]): void {
  if (required && has !== true) failed.push(unmet);
}

/**
 * What likelihood and cost take from the applicant, worked out once per search: the product's side
 * comes either from the product (explanations) or from the index's typed arrays (searches), with
 * the same arithmetic, so both give the same numbers to the last bit.
 */
interface Pricing {
  gradeFactor: number;
  revenue: number;
  tradingMonths: number;
  /** The term in years (at least one) that fees are spread over. */
  years: number;
}

function pricingOf(facts: ApplicantFacts): Pricing {
  return {
    gradeFactor: facts.grade === undefined ? 0.9 : 1.1 - 0.08 * GRADE_ORDER.indexOf(facts.grade),
    revenue: facts.annualRevenue!.value,
    tradingMonths: facts.tradingMonths!,
    years: Math.max(1, (facts.periodMonths ?? 12) / 12),
  };
}

/** How likely the lender is to accept: its base rate, moved by grade and by headroom over minimums. */
function likelihoodOf(a: Pricing, likelihoodBase: number, minAnnualRevenue: number, minTradingMonths: number): number {
  const revenueHeadroom = minAnnualRevenue > 0 ? Math.min(1.1, 0.9 + (0.2 * a.revenue) / (minAnnualRevenue * 4)) : 1.05;
  const tradingHeadroom = minTradingMonths > 0 ? Math.min(1.05, 0.95 + (0.1 * a.tradingMonths) / (minTradingMonths * 4)) : 1;
  const value = likelihoodBase * a.gradeFactor * revenueHeadroom * tradingHeadroom;
  return Math.round(Math.min(0.99, Math.max(0.01, value)) * 100) / 100;
}

/** Representative yearly cost %: mid rate (`midRate`, the mean of the product's two rates), plus arrangement and exit fees (`fees`, their sum) spread over the term. */
function costOf(a: Pricing, midRate: number, fees: number): number {
  return Math.round((midRate + fees / a.years) * 1000) / 1000;
}

const midRateOf = (p: ProductCriteria) => (p.annualRateMin + p.annualRateMax) / 2;
const feesOf = (p: ProductCriteria) => p.arrangementFeePct + p.exitFeePct;

export interface MatchOptions {
  productTypes?: readonly string[];
  /** Also say why every other product did not match (implies `reasons`). */
  explain?: boolean;
  /** Say why each match matched (formatting costs: off when only deciding or counting). */
  reasons?: boolean;
}

/**
 * A catalogue prepared for matching, built once per catalogue (`indexProducts`, rebuilt whenever the
 * catalogue is reloaded). Products are bucketed by product type and, within a bucket, ordered by
 * minimum amount, with the numeric criteria and the requirement flags held in typed arrays: a search
 * visits only the products whose minimum is at most the amount, and rejects most of those on the
 * typed arrays alone, without touching the product or evaluating its list criteria.
 */
export interface ProductIndex {
  readonly products: readonly ProductCriteria[];
  readonly all: ProductBucket;
  readonly byType: ReadonlyMap<string, ProductBucket>;
  /** By position in `products`: filled by the catalogue's load (`reasonTextSteps`), or else as reasons first need them (`productTexts`). */
  readonly productTexts: ProductTexts;
  /** By position: which of a match's reasons the product gives (NEED_* and HAS_* bits). */
  readonly reasonFlags: Int32Array;
  /** By position: what a match names (`matchOf`), so that making the matches reads no product object. */
  readonly productIds: Float64Array;
  readonly lenderIds: Float64Array;
  readonly productTypes: readonly string[];
  /** A product id's (first) position in `products`: how reasons asked for later find their product. */
  readonly positionOf: PositionsById;
  /** Whether product ids never decrease along `products` (then position breaks ties as product id does). */
  readonly idsAscending: boolean;
  /** The bits of each list criterion's values (the buckets' list columns). */
  readonly lists: Readonly<Record<ListField, ListBits>>;
}

interface ProductBucket {
  /** Positions in `products`, by ascending minimum amount. */
  position: Int32Array;
  minAmount: Float64Array;
  maxAmount: Float64Array;
  minTermMonths: Float64Array;
  maxTermMonths: Float64Array;
  minTradingMonths: Float64Array;
  minAnnualRevenue: Float64Array;
  minGradeRank: Int8Array;
  /** NEED_* bits of the requirements the product sets, and LISTS_BY_OBJECT. */
  needs: Int32Array;
  /** The requirements' minAverageCardSales (read only where CARD_SALES_MINIMUM is set). */
  minAverageCardSales: Float64Array;
  /** Each list criterion as bits of its values (`ListBits`); 0 for an empty list. */
  currencies: Int32Array;
  excludedSectors: Int32Array;
  requiredSectors: Int32Array;
  companyTypes: Int32Array;
  countries: Int32Array;
  /** Likelihood's and cost's inputs: a search computes both without reading the product. */
  likelihoodBase: Float64Array;
  midRate: Float64Array;
  fees: Float64Array;
}

/**
 * The values one list criterion (currencies, sectors, …) takes across a catalogue, each given a bit
 * (up to 31 of them): a product's list is then the OR of its values' bits, and `includes` one AND.
 * A product holding a value beyond the 31st is marked LISTS_BY_OBJECT and has its lists checked on
 * the product itself, as before.
 */
type ListBits = Map<unknown, number>;

const LIST_FIELDS = ['currencies', 'excludedSectors', 'requiredSectors', 'companyTypes', 'countries'] as const;
type ListField = (typeof LIST_FIELDS)[number];

function listBitsOf(products: readonly ProductCriteria[], field: ListField): ListBits {
  const bits: ListBits = new Map();
  for (const p of products) {
    for (const value of p[field]) if (!bits.has(value) && bits.size < 31) bits.set(value, 1 << bits.size);
  }
  return bits;
}

/** The OR of the list's values' bits, or -1 when one of them has no bit. */
function listMask(list: readonly string[], bits: ListBits): number {
  let mask = 0;
  for (const value of list) {
    const bit = bits.get(value);
    if (bit === undefined) return -1;
    mask |= bit;
  }
  return mask;
}

const NEED_INVOICES = 1;
const NEED_CARD_PAYMENTS = 2;
const NEED_OWNED_ASSET = 4;
const NEED_ASSET_FUNDING = 8;
const NEED_PURCHASE_ORDERS = 16;
const NEED_PROPERTY = 32;
const NEED_HOMEOWNER = 64;
const NEED_GUARANTEE = 128;
/** Not a need: the product is government-backed (what a governmentBackedOnly applicant requires). */
const GOVERNMENT_BACKED = 256;
/** Not a need: the product sets a card sales minimum (bucket.minAverageCardSales). */
const CARD_SALES_MINIMUM = 512;
/** Not a need: one of the product's list values has no bit (`ListBits`), so its lists are checked on the product. */
const LISTS_BY_OBJECT = 1024;
/** Reason flags (`ProductIndex.reasonFlags`) beside the NEED_* bits: a term range (minTermMonths > 0), required sectors, company types. */
const HAS_TERM_RANGE = 2048;
const HAS_REQUIRED_SECTORS = 4096;
const HAS_COMPANY_TYPES = 8192;

function reasonFlagsOf(p: ProductCriteria): number {
  return (
    needsOf(p.requirements) |
    (p.minTermMonths > 0 ? HAS_TERM_RANGE : 0) |
    (p.requiredSectors.length ? HAS_REQUIRED_SECTORS : 0) |
    (p.companyTypes.length ? HAS_COMPANY_TYPES : 0)
  );
}

function needsOf(r: ProductRequirements): number {
  return (
    (r.raisesInvoices ? NEED_INVOICES : 0) |
    (r.cardPayments ? NEED_CARD_PAYMENTS : 0) |
    (r.ownsAsset ? NEED_OWNED_ASSET : 0) |
    (r.needsAsset ? NEED_ASSET_FUNDING : 0) |
    (r.purchaseOrders ? NEED_PURCHASE_ORDERS : 0) |
    (r.property ? NEED_PROPERTY : 0) |
    (r.homeownerDirector ? NEED_HOMEOWNER : 0) |
    (r.personalGuarantee ? NEED_GUARANTEE : 0) |
    (r.governmentBacked === true ? GOVERNMENT_BACKED : 0) |
    (r.minAverageCardSales !== undefined ? CARD_SALES_MINIMUM : 0)
  );
}

/** The needs the applicant meets (a need is met only by a `true` answer). */
function needsMetBy(facts: ApplicantFacts): number {
  return (
    (facts.raisesInvoices === true ? NEED_INVOICES : 0) |
    (facts.cardPayments === true ? NEED_CARD_PAYMENTS : 0) |
    (facts.ownsAsset === true ? NEED_OWNED_ASSET : 0) |
    (facts.needsAsset === true ? NEED_ASSET_FUNDING : 0) |
    (facts.purchaseOrders === true ? NEED_PURCHASE_ORDERS : 0) |
    (facts.property === true ? NEED_PROPERTY : 0) |
    (facts.homeowner === true ? NEED_HOMEOWNER : 0) |
    (facts.personalGuarantee === true ? NEED_GUARANTEE : 0)
  );
}
const ALL_NEEDS =
  NEED_INVOICES | NEED_CARD_PAYMENTS | NEED_OWNED_ASSET | NEED_ASSET_FUNDING | NEED_PURCHASE_ORDERS | NEED_PROPERTY | NEED_HOMEOWNER | NEED_GUARANTEE;

/** A minimum that is not a number never rejects (`amount < NaN` is false): it sorts first. */
const amountKey = (value: number) => (Number.isNaN(value) ? -Infinity : value);

/** A bucket in two steps (ordering, then filling the arrays), the caller free to pause between them. */
function* bucketSteps(products: readonly ProductCriteria[], positions: number[], lists: Record<ListField, ListBits>): Generator<void, ProductBucket, void> {
  // Keys read once, by position: the comparison then touches no product.
  const keys = new Float64Array(products.length);
  for (const position of positions) keys[position] = amountKey(products[position]!.minAmount);
  positions.sort((a, b) => keys[a]! - keys[b]! || a - b);
  yield;
  const n = positions.length;
  const bucket: ProductBucket = {
    position: Int32Array.from(positions),
    minAmount: new Float64Array(n),
    maxAmount: new Float64Array(n),
    minTermMonths: new Float64Array(n),
    maxTermMonths: new Float64Array(n),
    minTradingMonths: new Float64Array(n),
    minAnnualRevenue: new Float64Array(n),
    minGradeRank: new Int8Array(n),
    needs: new Int32Array(n),
    minAverageCardSales: new Float64Array(n),
    currencies: new Int32Array(n),
    excludedSectors: new Int32Array(n),
    requiredSectors: new Int32Array(n),
    companyTypes: new Int32Array(n),
    countries: new Int32Array(n),
    likelihoodBase: new Float64Array(n),
    midRate: new Float64Array(n),
    fees: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const p = products[positions[i]!]!;
    bucket.minAmount[i] = amountKey(p.minAmount);
    bucket.maxAmount[i] = p.maxAmount;
    bucket.minTermMonths[i] = p.minTermMonths;
    bucket.maxTermMonths[i] = p.maxTermMonths;
    bucket.minTradingMonths[i] = p.minTradingMonths;
    bucket.minAnnualRevenue[i] = p.minAnnualRevenue;
    bucket.minGradeRank[i] = gradeRank(p.minGrade);
    let needs = needsOf(p.requirements);
    for (const field of LIST_FIELDS) {
      const mask = listMask(p[field], lists[field]);
      if (mask === -1) needs |= LISTS_BY_OBJECT;
      else bucket[field][i] = mask;
    }
    bucket.needs[i] = needs;
    if ((needs & CARD_SALES_MINIMUM) !== 0) bucket.minAverageCardSales[i] = p.requirements.minAverageCardSales!;
    bucket.likelihoodBase[i] = p.likelihoodBase;
    bucket.midRate[i] = midRateOf(p);
    bucket.fees[i] = feesOf(p);
  }
  return bucket;
}

export function indexProducts(products: readonly ProductCriteria[]): ProductIndex {
  const steps = indexingSteps(products);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `indexProducts` in steps (one bucket each), so a caller refreshing a catalogue in the background
 * can hand the event loop back between them: the index of 10,000 products is some tens of ms of CPU.
 */
export function* indexingSteps(products: readonly ProductCriteria[]): Generator<void, ProductIndex, void> {
  const byTypePositions = new Map<string, number[]>();
  let idsAscending = true;
  for (let i = 0; i < products.length; i++) {
    const p = products[i]!;
    if (i > 0 && !(p.productId >= products[i - 1]!.productId)) idsAscending = false;
    let positions = byTypePositions.get(p.productType);
    if (!positions) byTypePositions.set(p.productType, (positions = []));
    positions.push(i);
  }
  const lists = Object.fromEntries(LIST_FIELDS.map((field) => [field, listBitsOf(products, field)])) as Record<ListField, ListBits>;
  yield;
  const byType = new Map<string, ProductBucket>();
  for (const [type, positions] of byTypePositions) {
    byType.set(type, yield* bucketSteps(products, positions, lists));
    yield;
  }
  const all = yield* bucketSteps(
    products,
    products.map((_, i) => i),
    lists,
  );
  return {
    products,
    all,
    byType,
    lists,
    productTexts: productTextsOf(products.length),
    reasonFlags: Int32Array.from(products, reasonFlagsOf),
    productIds: Float64Array.from(products, (p) => p.productId),
    lenderIds: Float64Array.from(products, (p) => p.lenderId),
    productTypes: products.map((p) => p.productType),
    positionOf: positionsById(products),
    idsAscending,
  };
}

/**
 * Product ids to positions. A catalogue's ids are primary keys, whole numbers mostly close together:
 * then a table by id (less the lowest), one array read per lookup, where a Map lookup was a tenth of
 * the time on-demand reasons took for a search's ~4,300 matches. Ids spread wider than
 * POSITION_TABLE_SPREAD slots per product (or not whole numbers) go in a Map.
 */
interface PositionsById {
  lowestId: number;
  /** By id less `lowestId`: the position plus one (0: no product has that id). */
  table: Int32Array | null;
  map: Map<number, number> | null;
}

const POSITION_TABLE_SPREAD = 4;

function positionsById(products: readonly ProductCriteria[]): PositionsById {
  let lowestId = Infinity;
  let highestId = -Infinity;
  let wholeIds = true;
  for (const p of products) {
    if (!Number.isSafeInteger(p.productId)) wholeIds = false;
    lowestId = Math.min(lowestId, p.productId);
    highestId = Math.max(highestId, p.productId);
  }
  if (wholeIds && highestId - lowestId < POSITION_TABLE_SPREAD * products.length) {
    const table = new Int32Array(products.length ? highestId - lowestId + 1 : 0);
    for (let i = 0; i < products.length; i++) {
      const slot = products[i]!.productId - lowestId;
      if (table[slot] === 0) table[slot] = i + 1;
    }
    return { lowestId, table, map: null };
  }
  const map = new Map<number, number>();
  for (let i = 0; i < products.length; i++) if (!map.has(products[i]!.productId)) map.set(products[i]!.productId, i);
  return { lowestId, table: null, map };
}

/** The (first) position of the product with this id, or -1 when none has it. */
function positionOfId(positions: PositionsById, id: number): number {
  // An id outside the table, or not a whole number, reads undefined: no product has it.
  if (positions.table) return (positions.table[id - positions.lowestId] ?? 0) - 1;
  return positions.map!.get(id) ?? -1;
}

/** How many leading entries of the bucket have a minimum amount at most `amount` (all of them for NaN, which no minimum rejects). */
function withinMinimum(bucket: ProductBucket, amount: number): number {
  if (Number.isNaN(amount)) return bucket.position.length;
  let low = 0;
  let high = bucket.position.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (bucket.minAmount[mid]! <= amount) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The facts a search compares every product with, read once per search. */
interface Applicant {
  facts: ApplicantFacts;
  amount: number;
  currency: string;
  /** undefined: no term given (every product's term fits). */
  periodMonths: number | undefined;
  tradingMonths: number;
  revenue: number;
  /** undefined: no grade known (the lender judges it). */
  gradeRank: number | undefined;
  needsMet: number;
  averageCardSales: number;
  /** The bit of the applicant's value in each list criterion (0: no product lists it). */
  currencyBit: number;
  sectorBits: { excluded: number; required: number };
  companyTypeBit: number;
  countryBit: number;
}

/**
 * Whether the product at `i` in the bucket accepts the applicant: the same checks as `explainProduct`,
 * stopping at the first failure, formatting nothing, on the bucket's typed arrays alone (reading a
 * product object costs a cache miss each: they lie all over the heap), but for a product whose
 * lists have values without a bit.
 */
function accepts(a: Applicant, bucket: ProductBucket, i: number, products: readonly ProductCriteria[]): boolean {
  if (a.amount > bucket.maxAmount[i]!) return false;
  if (
    a.periodMonths !== undefined &&
    bucket.minTermMonths[i]! > 0 &&
    !(a.periodMonths >= bucket.minTermMonths[i]! && a.periodMonths <= bucket.maxTermMonths[i]!)
  )
    return false;
  if (!(a.tradingMonths >= bucket.minTradingMonths[i]!)) return false;
  if (!(a.revenue >= bucket.minAnnualRevenue[i]!)) return false;
  if (a.gradeRank !== undefined && a.gradeRank > bucket.minGradeRank[i]!) return false;
  const needs = bucket.needs[i]!;
  if ((needs & ALL_NEEDS & ~a.needsMet) !== 0) return false;
  if (a.facts.governmentBackedOnly && (needs & GOVERNMENT_BACKED) === 0) return false;
  if ((needs & CARD_SALES_MINIMUM) !== 0 && !(a.averageCardSales >= bucket.minAverageCardSales[i]!)) return false;
  if ((needs & LISTS_BY_OBJECT) !== 0) return listsAccept(a, products[bucket.position[i]!]!);
  const currencies = bucket.currencies[i]!;
  if (currencies !== 0 && (currencies & a.currencyBit) === 0) return false;
  if ((bucket.excludedSectors[i]! & a.sectorBits.excluded) !== 0) return false;
  const requiredSectors = bucket.requiredSectors[i]!;
  if (requiredSectors !== 0 && (requiredSectors & a.sectorBits.required) === 0) return false;
  const companyTypes = bucket.companyTypes[i]!;
  if (companyTypes !== 0 && (companyTypes & a.companyTypeBit) === 0) return false;
  const countries = bucket.countries[i]!;
  if (countries !== 0 && (countries & a.countryBit) === 0) return false;
  return true;
}

/** The list checks on the product itself (a product with list values beyond the bits). */
function listsAccept(a: Applicant, p: ProductCriteria): boolean {
  const facts = a.facts;
  if (p.currencies.length && !p.currencies.includes(a.currency)) return false;
  if (p.excludedSectors.length && p.excludedSectors.includes(facts.sector!)) return false;
  if (p.requiredSectors.length && !p.requiredSectors.includes(facts.sector!)) return false;
  if (p.companyTypes.length && !p.companyTypes.includes(facts.companyType!)) return false;
  if (p.countries.length && !p.countries.includes(facts.countryCode)) return false;
  return true;
}

/**
 * A search's working arrays (the accepted products' positions, likelihoods, costs and rank keys),
 * kept from one search to the next: a search runs to its end without yielding, so no two ever use
 * them at once, and the only garbage a search leaves is the matches it returns. Grown (never shrunk)
 * to the most products a search has had to consider.
 */
interface SearchScratch {
  positions: Int32Array;
  likelihoods: Float64Array;
  costs: Float64Array;
  keys: Float64Array;
}

let scratch: SearchScratch = scratchOf(0);

function scratchOf(capacity: number): SearchScratch {
  return { positions: new Int32Array(capacity), likelihoods: new Float64Array(capacity), costs: new Float64Array(capacity), keys: new Float64Array(capacity) };
}

function scratchFor(capacity: number): SearchScratch {
  if (scratch.positions.length < capacity) scratch = scratchOf(Math.max(capacity, 2 * scratch.positions.length));
  return scratch;
}

/** The accepted products, the first `count` entries of the scratch arrays. */
interface Found {
  count: number;
  scratch: SearchScratch;
}

function addFound(found: Found, position: number, likelihood: number, cost: number): void {
  const k = found.count++;
  found.scratch.positions[k] = position;
  found.scratch.likelihoods[k] = likelihood;
  found.scratch.costs[k] = cost;
}

/** What a match's reasons are when they were not asked for: one array for all (frozen: `matchReasons` replaces it, nothing adds to it). */
const NO_REASONS: string[] = Object.freeze([]) as unknown as string[];

/** The one place a match is made, so that every match has the same shape. */
function matchOf(index: ProductIndex, position: number, likelihood: number, costPct: number, reasons: string[]): ProductMatch {
  return {
    productId: index.productIds[position]!,
    lenderId: index.lenderIds[position]!,
    productType: index.productTypes[position]!,
    likelihood,
    costPct,
    reasons,
  };
}

/**
 * The matches in rank order: likelihood (highest first), cost, product id, then catalogue position
 * (the order exhaustive evaluation's stable sort kept). Sorts the match numbers rather than objects,
 * and makes each match once, in its place: no intermediate arrays or objects per match.
 */
function ranked(found: Found, reasonsOf: ((position: number) => string[]) | null, index: ProductIndex): ProductMatch[] {
  const products = index.products;
  const n = found.count;
  const matches: ProductMatch[] = [];
  const keys = rankKeys(found, index);
  if (keys) {
    for (let k = 0; k < n; k++) {
      const key = keys[k]!;
      const rest = Math.floor(key / POSITION_LIMIT);
      const position = key - rest * POSITION_LIMIT;
      const likelihood = (100 - Math.floor(rest / COST_LIMIT)) / 100;
      const cost = (rest % COST_LIMIT) / 1000;
      matches.push(matchOf(index, position, likelihood, cost, reasonsOf ? reasonsOf(position) : NO_REASONS));
    }
    return matches;
  }
  const { positions, likelihoods, costs } = found.scratch;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort(
    (a, b) =>
      likelihoods[b]! - likelihoods[a]! ||
      costs[a]! - costs[b]! ||
      products[positions[a]!]!.productId - products[positions[b]!]!.productId ||
      positions[a]! - positions[b]!,
  );
  for (const i of order) {
    const position = positions[i]!;
    matches.push(matchOf(index, position, likelihoods[i]!, costs[i]!, reasonsOf ? reasonsOf(position) : NO_REASONS));
  }
  return matches;
}

/** Bits of a rank key: the position (the last tie-break), the cost in thousandths, then 100 less the likelihood in hundredths. */
const POSITION_LIMIT = 2 ** 24;
const COST_LIMIT = 2 ** 20;

/**
 * The same order, found with one native sort of numbers instead of a comparison function (the sort
 * was most of a search's time): each match is a key that orders by (100 - likelihood x 100,
 * cost x 1000, position), exact because likelihood and cost are rounded to 2 and 3 decimals, so
 * both are read back from the key unchanged. When products are in ascending id order (the catalogue
 * loads them so), position orders ties as (product id, position) does. The sorted keys (a view of
 * the scratch array), or null when a value does not fit the key: then comparison decides.
 */
function rankKeys({ count: n, scratch: { positions, likelihoods, costs, keys } }: Found, index: ProductIndex): Float64Array | null {
  if (!index.idsAscending || index.products.length >= POSITION_LIMIT) return null;
  for (let i = 0; i < n; i++) {
    const likelihood = Math.round(likelihoods[i]! * 100);
    const cost = Math.round(costs[i]! * 1000);
    if (!(likelihood >= 0 && likelihood <= 100 && cost >= 0 && cost < COST_LIMIT)) return null;
    keys[i] = ((100 - likelihood) * COST_LIMIT + cost) * POSITION_LIMIT + positions[i]!;
  }
  return keys.subarray(0, n).sort();
}

/**
 * Matches the applicant against the catalogue. Deciding (and `reasons`, formatted for matches only)
 * uses the index; `explain` says why every considered product did not match, so it evaluates each.
 */
export function matchProducts(facts: ApplicantFacts, catalogue: ProductIndex | readonly ProductCriteria[], options: MatchOptions = {}): MatchOutcome {
  const index = isProductIndex(catalogue) ? catalogue : indexProducts(catalogue);
  const products = index.products;
  const missing = ESSENTIAL.filter(([key]) => facts[key] === undefined).map(([, answer]) => answer);
  const wanted = options.productTypes?.length ? new Set(options.productTypes) : null;
  if (missing.length) {
    const considered = wanted ? products.filter((p) => wanted.has(p.productType)) : products;
    const rejections = options.explain
      ? considered.map((p) => ({ productId: p.productId, lenderId: p.lenderId, productType: p.productType, reasons: missing.map((m) => `missing ${m}`) }))
      : [];
    return { matches: [], rejections, missing };
  }
  if (options.explain) return explainAll(facts, index, wanted);
  const applicant: Applicant = {
    facts,
    amount: facts.amount!.value,
    currency: facts.amount!.code,
    periodMonths: facts.periodMonths,
    tradingMonths: facts.tradingMonths!,
    revenue: facts.annualRevenue!.value,
    gradeRank: facts.grade === undefined ? undefined : gradeRank(facts.grade),
    needsMet: needsMetBy(facts),
    averageCardSales: facts.averageCardSales ?? 0,
    currencyBit: index.lists.currencies.get(facts.amount!.code) ?? 0,
    sectorBits: { excluded: index.lists.excludedSectors.get(facts.sector!) ?? 0, required: index.lists.requiredSectors.get(facts.sector!) ?? 0 },
    companyTypeBit: index.lists.companyTypes.get(facts.companyType!) ?? 0,
    countryBit: index.lists.countries.get(facts.countryCode) ?? 0,
  };
  const pricing = pricingOf(facts);
  const buckets: ProductBucket[] = [];
  if (wanted) {
    for (const type of wanted) {
      const bucket = index.byType.get(type);
      if (bucket) buckets.push(bucket);
    }
  } else buckets.push(index.all);
  const ends = buckets.map((bucket) => withinMinimum(bucket, applicant.amount));
  const found: Found = { count: 0, scratch: scratchFor(ends.reduce((sum, end) => sum + end, 0)) };
  for (let b = 0; b < buckets.length; b++) {
    const bucket = buckets[b]!;
    const end = ends[b]!;
    for (let i = 0; i < end; i++) {
      if (!accepts(applicant, bucket, i, products)) continue;
      const likelihood = likelihoodOf(pricing, bucket.likelihoodBase[i]!, bucket.minAnnualRevenue[i]!, bucket.minTradingMonths[i]!);
      addFound(found, bucket.position[i]!, likelihood, costOf(pricing, bucket.midRate[i]!, bucket.fees[i]!));
    }
  }
  return { matches: ranked(found, options.reasons ? reasonsByPosition(facts, index) : null, index), rejections: [], missing };
}

function isProductIndex(catalogue: ProductIndex | readonly ProductCriteria[]): catalogue is ProductIndex {
  return !Array.isArray(catalogue);
}

/** Every considered product evaluated in full: the matches with their reasons, the others with theirs. */
function explainAll(facts: ApplicantFacts, index: ProductIndex, wanted: ReadonlySet<string> | null): MatchOutcome {
  const products = index.products;
  const texts = applicantTexts(facts);
  const pricing = pricingOf(facts);
  const found: Found = { count: 0, scratch: scratchFor(products.length) };
  const rejections: ProductRejection[] = [];
  const failed = failedBuffer;
  for (let position = 0; position < products.length; position++) {
    const p = products[position]!;
    if (wanted && !wanted.has(p.productType)) continue;
    failed.length = 0;
    explainProduct(facts, texts, p, productTexts(index, position), position, failed);
    if (failed.length === 0) {
      addFound(found, position, likelihoodOf(pricing, p.likelihoodBase, p.minAnnualRevenue, p.minTradingMonths), costOf(pricing, midRateOf(p), feesOf(p)));
    } else {
      rejections.push({ productId: p.productId, lenderId: p.lenderId, productType: p.productType, reasons: failed.slice() });
    }
  }
  return { matches: ranked(found, reasonsByPosition(facts, index), index), rejections, missing: [] };
}

/**
 * Where `explainAll` gathers a product's failures, reused from product to product: a matching
 * product then allocates nothing for them, a rejected one its copy at its length.
 */
const failedBuffer: string[] = [];
