/**
 * Load generation shared by the HTTP benchmarks: autocannon with varied requests. Every case is
 * warmed up before it is measured, and measured interleaved with its baseline (baseline, case,
 * baseline, case, ...) so that a machine whose load drifts during the run (other processes, CPU
 * frequency) affects both alike; the ratio is taken between the two sums.
 */
import autocannon from 'autocannon';

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const warmUpSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);

export interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** Name of the row this one is compared with. */
  baseline?: string;
}

export interface LoadTarget<T> {
  name: string;
  url: string;
  request: (item: T) => { path: string; method?: 'GET' | 'POST'; body?: string };
  items: T[];
  authorization?: string;
}

function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

async function drive<T>(target: LoadTarget<T>, durationSeconds: number) {
  const result = await autocannon({
    url: target.url,
    connections,
    duration: durationSeconds,
    requests: [
      {
        setupRequest: (req) => {
          const r = target.request(pick(target.items));
          const headers = { 'content-type': 'application/json', accept: 'application/json', ...(target.authorization ? { authorization: target.authorization } : {}) };
          return { ...req, path: r.path, method: r.method ?? 'GET', body: r.body, headers };
        },
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

/** One target alone: warm-up, then BENCH_SECONDS of load. */
export async function load<T>(target: LoadTarget<T>): Promise<Row> {
  await drive(target, warmUpSeconds);
  const result = await drive(target, seconds);
  return { name: target.name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/**
 * A case and its baseline, each warmed up, then measured in BENCH_ROUNDS alternating slices of
 * BENCH_SECONDS in total each. req/s is the mean over the slices; p50 the median slice's, p99 the worst slice's.
 */
export async function compare<B, C>(baseline: LoadTarget<B>, target: LoadTarget<C>): Promise<[Row, Row]> {
  process.stdout.write(`  ${target.name} vs ${baseline.name} … `);
  await drive(baseline, warmUpSeconds);
  await drive(target, warmUpSeconds);
  const slices: { baseline: autocannon.Result[]; target: autocannon.Result[] } = { baseline: [], target: [] };
  for (let round = 0; round < rounds; round++) {
    slices.baseline.push(await drive(baseline, seconds / rounds));
    slices.target.push(await drive(target, seconds / rounds));
  }
  const summarise = (name: string, results: autocannon.Result[]): Row => {
    const p50s = results.map((r) => r.latency.p50).sort((a, b) => a - b);
    return {
      name,
      rps: results.reduce((sum, r) => sum + r.requests.average, 0) / results.length,
      p50: p50s[Math.floor(p50s.length / 2)] as number,
      p99: Math.max(...results.map((r) => r.latency.p99)),
    };
  };
  const base = summarise(baseline.name, slices.baseline);
  const row = { ...summarise(target.name, slices.target), baseline: baseline.name };
  console.log(`${row.rps.toFixed(0)} vs ${base.rps.toFixed(0)} req/s (${(row.rps / base.rps).toFixed(2)}x)`);
  return [base, row];
}

export function printTable(rows: Row[]): void {
  const byName = new Map(rows.map((r) => [r.name, r]));
  console.log(`(${connections} connections, ${seconds} s per case in ${rounds} interleaved slices, ${warmUpSeconds} s warm-up)`);
  console.log('| case | req/s | p50 ms | p99 ms | ratio to baseline |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) {
    const ratio = r.baseline ? (r.rps / byName.get(r.baseline)!.rps).toFixed(2) : '1.00 (baseline)';
    console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${ratio} |`);
  }
}
