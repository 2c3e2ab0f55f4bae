/**
 * `npm run bench -- company-data`: the Basic Company Data import through `npm run admin --
 * import-companies` (a child process, as an operator runs it) on a generated file in the published
 * format: records/s of a first load, of a second load of a file with every 1000th company changed
 * (which writes only those), the importer's resident memory sampled through the load (its
 * JavaScript heap capped far below the file's size: the file is streamed), and company search p50/p99 on the loaded register (in process, the registry's
 * own statement).
 *
 * Needs a PostgreSQL (DATABASE_URL, default the local server). BENCH_IMPORT_ROWS (default 200000)
 * sets the file's size.
 */
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/infra/database.js';
import { applyMigrations } from '../src/infra/migrations.js';
import { databaseRegistry } from '../src/modules/companies/company-registry.js';
import { adminQuery, databaseUrlFor } from '../test/support/postgres-admin.js';
import { startEntry } from '../test/support/processes.js';
import { generatedName, writeBasicCompanyDataFile } from '../test/support/basic-company-data-file.js';
import { dropLeftoverDatabases, serverUrl } from './bench-databases.js';
import { recordResults } from './results.js';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 200_000);
const dbName = `fg_bench_companydata_${process.pid}`;
const HEAP_MB = 96;

/** Runs the import in a child process; its RSS (MB) is sampled every 250 ms from /proc. */
async function importFile(url: string, file: string): Promise<{ summary: { records: number; inserted: number; changed: number; unchanged: number; seconds: number }; rssMb: number[] }> {
  // A JavaScript heap capped far below the file's size: the load completes only if nothing grows with it.
  const proc = startEntry('src/processes/cli/admin.ts', ['import-companies', file], { DATABASE_URL: url, LOG_LEVEL: 'silent', NODE_ENV: 'production', NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` });
  let stdout = '';
  proc.child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  const rssMb: number[] = [];
  const sampler = setInterval(() => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.child.pid}/status`, 'utf8'))?.[1]);
      if (kb) rssMb.push(Math.round(kb / 1024));
    } catch {
      // the process has ended
    }
  }, 250);
  const code = await new Promise<number | null>((resolve) => proc.child.once('close', resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`import exited ${code}:\n${proc.output()}`);
  return { summary: JSON.parse(stdout), rssMb };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

await dropLeftoverDatabases('companydata_');
const dir = await mkdtemp(path.join(tmpdir(), 'fg-bench-company-data-'));
try {
  await adminQuery(serverUrl, `CREATE DATABASE ${dbName}`);
  const url = databaseUrlFor(serverUrl, dbName);
  await applyMigrations(url);
  const first = path.join(dir, 'BasicCompanyData-1.csv');
  const second = path.join(dir, 'BasicCompanyData-2.csv');
  console.log(`company data: writing ${ROWS} records twice …`);
  await writeBasicCompanyDataFile(first, ROWS);
  await writeBasicCompanyDataFile(second, ROWS, { variant: 1 });

  const load = await importFile(url, first);
  const reload = await importFile(url, second);
  // Memory once the load is under way (after start-up and the first batches) against its end.
  const steady = load.rssMb.slice(Math.floor(load.rssMb.length / 5));
  const rssEarly = steady[0] ?? 0;
  const rssPeak = Math.max(...steady);

  const db = await openDatabase({ databaseUrl: url, dataDir: 'unused', poolSize: 2, migrate: false });
  const registry = databaseRegistry(db.prisma);
  // As a user types them: the start of a name (its first three words), or a word and number inside it.
  const terms = Array.from({ length: 300 }, (_, i) => {
    const words = generatedName((i * 7919) % ROWS).toLowerCase().split(' ');
    return i % 2 === 0 ? words.slice(0, 3).join(' ') : words.slice(-3, -1).join(' ');
  });
  for (const term of terms.slice(0, 30)) await registry.search(term, { countryCode: 'GB', limit: 10 });
  const timings: number[] = [];
  for (const term of terms) {
    const started = performance.now();
    await registry.search(term, { countryCode: 'GB', limit: 10 });
    timings.push(performance.now() - started);
  }
  await db.close();
  timings.sort((a, b) => a - b);

  const rows = [
    { case: `import: first load of ${ROWS} records`, perSecond: Math.round(load.summary.records / load.summary.seconds), value: load.summary.seconds, unit: 's', note: `${load.summary.inserted} inserted` },
    { case: `import: second load, every 1000th record changed`, perSecond: Math.round(reload.summary.records / reload.summary.seconds), value: reload.summary.seconds, unit: 's', note: `${reload.summary.changed} changed, ${reload.summary.unchanged} unchanged` },
    {
      case: `import: importer peak RSS (JavaScript heap capped at ${HEAP_MB} MB)`,
      value: rssPeak,
      unit: 'MB',
      note: `${rssEarly} MB a fifth of the way in; samples every 250 ms; the file is ${Math.round(statSync(first).size / 2 ** 20)} MB`,
      target: 'bounded: the load completes under the heap cap',
      met: true,
    },
    { case: `search on ${ROWS} companies (registry statement, in process)`, p50Ms: Number(percentile(timings, 50).toFixed(2)), p99Ms: Number(percentile(timings, 99).toFixed(2)) },
  ];
  console.table(rows);
  recordResults('company-data', rows);
} finally {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  await rm(dir, { recursive: true, force: true });
}
