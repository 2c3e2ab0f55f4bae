/** Load generation and reporting shared by the benchmarks: autocannon with varied requests, a ratio table. */
import autocannon from 'autocannon';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

export interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** Name of the row this one is compared with. */
  baseline?: string;
}

function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

/** Drives one endpoint for BENCH_SECONDS with BENCH_CONNECTIONS, each request built from a random item. */
export async function load<T>(
  name: string,
  url: string,
  request: (item: T) => { path: string; method?: 'GET' | 'POST'; body?: string },
  items: T[],
  authorization?: string,
): Promise<Row> {
  process.stdout.write(`  ${name} … `);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (req) => {
          const r = request(pick(items));
          const headers = { 'content-type': 'application/json', accept: 'application/json', ...(authorization ? { authorization } : {}) };
          return { ...req, path: r.path, method: r.method ?? 'GET', body: r.body, headers };
        },
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const row = { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
  console.log(`${row.rps.toFixed(0)} req/s`);
  return row;
}

export function printTable(rows: Row[]): void {
  const byName = new Map(rows.map((r) => [r.name, r]));
  console.log(`(${connections} connections, ${seconds} s per case)`);
  console.log('| case | req/s | p50 ms | p99 ms | ratio to baseline |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) {
    const ratio = r.baseline ? (r.rps / byName.get(r.baseline)!.rps).toFixed(2) : '1.00 (baseline)';
    console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${ratio} |`);
  }
}
