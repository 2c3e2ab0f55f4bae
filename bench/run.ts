/**
 * `npm run bench`: runs every benchmark file below as its own process (tsx), one after another,
 * each with a time limit, gathers the figures they record (bench/results.ts) and writes
 * bench/results.json: the machine, the run's duration and every case with its baseline, ratio,
 * target and whether it is met. A summary of the targets is printed at the end.
 *
 * Adding a benchmark: a standalone `bench/<name>.ts` that calls `recordResults('<name>', [...])`,
 * listed in BENCH_FILES. `npm run bench -- <name> ...` runs only those files.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from './results.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every benchmark, in run order, with its time limit. Files not (yet) in the checkout are skipped. */
const BENCH_FILES: Array<{ name: string; limitSeconds: number }> = [
  { name: 'startup', limitSeconds: 120 },
  { name: 'tenant-read', limitSeconds: 300 },
  { name: 'graphql-local-schema', limitSeconds: 120 },
  { name: 'company-search', limitSeconds: 180 },
  { name: 'matching', limitSeconds: 120 },
  { name: 'delivery', limitSeconds: 120 },
  { name: 'event-latency', limitSeconds: 180 },
  { name: 'graphql-limits', limitSeconds: 120 },
  { name: 'dashboard-latency', limitSeconds: 120 },
];

function machine() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

function runFile(file: string, limitSeconds: number, env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'inherit' });
    const timer = setTimeout(() => {
      console.error(`${file}: over its ${limitSeconds} s limit, stopped`);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    }, limitSeconds * 1000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

const only = process.argv.slice(2);
const selected = BENCH_FILES.filter((b) => (only.length === 0 || only.includes(b.name)) && existsSync(path.join(ROOT, 'bench', `${b.name}.ts`)));
const linesFile = path.join(os.tmpdir(), `fg-bench-results-${process.pid}.jsonl`);
const started = Date.now();
const startedAt = new Date().toISOString();
const host = machine();
const failed: string[] = [];
for (const bench of selected) {
  console.log(`\n=== bench/${bench.name}.ts ===`);
  const code = await runFile(path.join('bench', `${bench.name}.ts`), bench.limitSeconds, { BENCH_RESULTS_FILE: linesFile });
  if (code !== 0) failed.push(bench.name);
}
const lines = existsSync(linesFile) ? (await readFile(linesFile, 'utf8')).split('\n').filter(Boolean) : [];
await rm(linesFile, { force: true });
const results = lines.map((line) => JSON.parse(line) as BenchResult);
const report = { startedAt, durationSeconds: Math.round((Date.now() - started) / 1000), machine: host, failed, results };
await writeFile(path.join(ROOT, 'bench', 'results.json'), JSON.stringify(report, null, 2) + '\n');

console.log(`\n=== targets (${host.cores} x ${host.cpuModel}, load at start ${host.loadAverageAtStart.join(' ')}) ===`);
console.log('| case | figure | target | met |');
console.log('|---|---:|---|---|');
for (const r of results.filter((r) => r.target)) {
  const latency = r.p99Ms !== undefined ? `, p99 ${r.p99Ms.toFixed(1)} ms` : '';
  const figure = r.ratio !== undefined ? `${r.ratio.toFixed(2)}x (${r.perSecond?.toFixed(0)}/s${latency})` : r.p99Ms !== undefined ? `p99 ${r.p99Ms.toFixed(2)} ms` : `${r.value?.toFixed(0)} ${r.unit ?? ''}`;
  console.log(`| ${r.suite}: ${r.case} | ${figure} | ${r.target} | ${r.met ? 'yes' : 'no'} |`);
}
console.log(`\nbench/results.json written (${results.length} results, ${report.durationSeconds} s)${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
if (failed.length) process.exitCode = 1;
