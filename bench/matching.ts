/**
 * `npm run bench` (third part): the matching engine, one profile against 10,000 products, in
 * process (no I/O: the engine is pure). Reports p50/p99 per match and, as the same-run baseline,
 * a bare pass over the same products that checks only the amount range: the least any matcher
 * must do, so the ratio shows what the full rule set and explanations cost on top.
 */
import { performance } from 'node:perf_hooks';
import { recordResults } from './results.js';
import { matchProducts, PRODUCT_TYPES, type ApplicantFacts, type ProductCriteria } from '../src/domain/matching/matching-engine.js';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const SECTORS = ['MANUFACTURING', 'RETAIL', 'CONSTRUCTION', 'HAULAGE', 'IT_RELATED', 'PROPERTY'];

/** Deterministic pseudo-random catalogue (mulberry32), every product type and requirement represented. */
function catalogue(count: number): ProductCriteria[] {
  let seed = 42;
  const rnd = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, (_, i) => {
    const minAmount = Math.round(rnd() * 200) * 1000;
    return {
      productId: i + 1,
      lenderId: Math.floor(i / 4) + 1,
      productType: PRODUCT_TYPES[i % PRODUCT_TYPES.length] as string,
      minAmount,
      maxAmount: minAmount + Math.round(rnd() * 2000) * 1000,
      minTermMonths: rnd() < 0.2 ? 0 : 3 + Math.floor(rnd() * 12),
      maxTermMonths: 24 + Math.floor(rnd() * 96),
      minTradingMonths: Math.floor(rnd() * 48),
      minAnnualRevenue: Math.round(rnd() * 1000) * 1000,
      minGrade: 'ABCDEF'[Math.floor(rnd() * 6)] as string,
      excludedSectors: rnd() < 0.3 ? [SECTORS[Math.floor(rnd() * SECTORS.length)] as string] : [],
      requiredSectors: rnd() < 0.05 ? [SECTORS[Math.floor(rnd() * SECTORS.length)] as string] : [],
      companyTypes: rnd() < 0.5 ? ['LIMITED_COMPANY', 'LIMITED_LIABILITY_PARTNERSHIP'] : [],
      countries: ['GB'],
      currencies: ['GBP'],
      requirements: rnd() < 0.3 ? { raisesInvoices: true } : rnd() < 0.2 ? { cardPayments: true, minAverageCardSales: 7500 } : {},
      arrangementFeePct: rnd() * 4,
      earlyRepaymentFeePct: rnd() * 3,
      exitFeePct: rnd() * 2,
      annualRateMin: 5 + rnd() * 10,
      annualRateMax: 16 + rnd() * 20,
      likelihoodBase: 0.2 + rnd() * 0.7,
    };
  });
}

const facts: ApplicantFacts = {
  amount: { code: 'GBP', value: 150_000 }, periodMonths: 24, tradingMonths: 60, annualRevenue: { code: 'GBP', value: 900_000 },
  grade: 'B', sector: 'MANUFACTURING', companyType: 'LIMITED_COMPANY', countryCode: 'GB', raisesInvoices: true,
};

function measure(name: string, run: () => number): { name: string; p50: number; p99: number; perSecond: number; result: number } {
  for (let i = 0; i < 20; i++) run(); // warm up the JIT
  const times: number[] = [];
  let result = 0;
  // Warm-up: the JIT has optimised the path before it is timed.
  for (let i = 0; i < Math.min(50, ITERATIONS); i++) run();
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    result = run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { name, p50: at(0.5), p99: at(0.99), perSecond: 1000 / mean, result };
}

const products = catalogue(PRODUCTS);
console.log(`matching: 1 profile against ${PRODUCTS} products, ${ITERATIONS} runs each`);
const baseline = measure('baseline: amount range only', () => products.filter((p) => facts.amount!.value >= p.minAmount && facts.amount!.value <= p.maxAmount).length);
const engine = measure('engine: all criteria, ranked', () => matchProducts(facts, products).matches.length);
const withReasons = measure('engine: ranked, with match reasons', () => matchProducts(facts, products, { reasons: true }).matches.length);
const explained = measure('engine: with explanations', () => matchProducts(facts, products, { explain: true }).rejections.length);
console.log('| case | matches/s | p50 ms | p99 ms | result | ratio to baseline |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const row of [baseline, engine, withReasons, explained]) {
  const ratio = row === baseline ? '1.00 (baseline)' : (row.perSecond / baseline.perSecond).toFixed(2);
  console.log(`| ${row.name} | ${row.perSecond.toFixed(0)} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${row.result} | ${ratio} |`);
}
recordResults(
  'matching',
  [baseline, engine, withReasons, explained].map((row) => ({
    case: `in process, ${PRODUCTS} products: ${row.name}`,
    perSecond: row.perSecond,
    p50Ms: row.p50,
    p99Ms: row.p99,
    note: `result ${row.result}`,
    ...(row === baseline ? {} : { baseline: `in process, ${PRODUCTS} products: ${baseline.name}`, ratio: row.perSecond / baseline.perSecond }),
    ...(row === engine ? { target: 'p99 < 5 ms (1 profile x 10,000 products)', met: row.p99 < 5 } : {}),
  })),
);
