/**
 * `npm run bench`: runs every benchmark file below as its own process (tsx), one after another,
 * each with a time limit, gathers the figures they record (bench/results.ts) and writes
 * bench/results.json: the machine, the run's duration and every case with its baseline, ratio,
 * target and whether it is met. A summary of the targets is printed at the end.
 *
 * Adding a benchmark: a standalone `bench/<name>.ts` that calls `recordResults('<name>', [...])`,
 * listed in BENCH_FILES. `npm run bench -- <name> ...` runs only those files.
 *
 * A suite that overruns leaves nothing behind: each runs in its own process group (spawned
 * detached), and at its limit the whole group (servers, workers) and every descendant seen while it
 * ran (an embedded PostgreSQL runs in a session of its own) get SIGTERM, then SIGKILL 10 s later;
 * the databases it created (`fg_bench_*_<its pid>`) are dropped after it ends, and leftovers of
 * earlier runs (whose process is gone) before the run. results.json is
 * rewritten after every suite, so a run stopped half-way keeps what it measured.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropDatabasesOf, dropLeftoverDatabases } from './bench-databases.js';
import { isSameProcessRunning, processTree } from './process-cpu.js';
import type { BenchResult } from './results.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every benchmark, in run order, with its time limit. Files not (yet) in the checkout are skipped. */
const BENCH_FILES: Array<{ name: string; limitSeconds: number }> = [
  { name: 'startup', limitSeconds: 120 },
  // Six pairs of 5 s + 5 s warm-up and 10 s + 10 s of slices, three deployments started.
  { name: 'tenant-read', limitSeconds: 480 },
  { name: 'graphql-local-schema', limitSeconds: 120 },
  { name: 'company-search', limitSeconds: 240 },
  // Two imports of BENCH_IMPORT_ROWS (200,000) records through the admin CLI, then 400 searches on 100k and on 1M companies.
  { name: 'company-data', limitSeconds: 1500 },
  { name: 'matching', limitSeconds: 180 },
  // Two use cases × (100 warm-up + 400 measured calls) in process.
  { name: 'status-change', limitSeconds: 180 },
  { name: 'delivery', limitSeconds: 120 },
  { name: 'event-latency', limitSeconds: 180 },
  { name: 'graphql-limits', limitSeconds: 120 },
  { name: 'dashboard-latency', limitSeconds: 120 },
  // Eight first visits to /docs in Chromium.
  { name: 'docs-first-screen', limitSeconds: 120 },
  // Seeds up to 250,000 applications (with their indexes and counters) before it measures.
  { name: 'data-growth', limitSeconds: 1500 },
  // Four processes started; two REST read loads of 5 s + 10 s; 2,000 deliveries drained twice.
  { name: 'replicas', limitSeconds: 240 },
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

/** Signals the suite's whole process group (it leads it: spawned detached); gone already is fine. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group has exited
  }
}

/**
 * Every process the suite started, seen so far. Some leave its process group on purpose (embedded
 * PostgreSQL runs in its own session), and once the suite has exited its orphans are no longer its
 * children: so the tree is noted every second while it runs, and stopped with the group.
 */
function trackDescendants(rootPid: number) {
  const seen = new Map<number, number>();
  const note = () => {
    for (const p of processTree(rootPid)) if (p.pid !== rootPid) seen.set(p.pid, p.startTicks);
  };
  const timer = setInterval(note, 1_000);
  return {
    signal(signal: NodeJS.Signals) {
      note();
      for (const [pid, startTicks] of seen) {
        if (!isSameProcessRunning(pid, startTicks)) continue;
        try {
          process.kill(pid, signal);
        } catch {
          // exited meanwhile
        }
      }
    },
    stop: () => clearInterval(timer),
  };
}

let running: { pid: number; descendants: ReturnType<typeof trackDescendants> } | undefined;
function stopSuite(suite: NonNullable<typeof running>, signal: NodeJS.Signals): void {
  signalGroup(suite.pid, signal);
  suite.descendants.signal(signal);
}

function runFile(file: string, limitSeconds: number, env: Record<string, string>): Promise<{ code: number | null; pid: number | undefined; overran: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'inherit', detached: true });
    const suite = { pid: child.pid!, descendants: trackDescendants(child.pid!) };
    running = suite;
    let overran = false;
    let killer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      overran = true;
      console.error(`${file}: over its ${limitSeconds} s limit, stopping its process group`);
      stopSuite(suite, 'SIGTERM');
      killer = setTimeout(() => stopSuite(suite, 'SIGKILL'), 10_000);
    }, limitSeconds * 1000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      // Whatever the suite left running (a server it did not stop) goes with it: asked to stop,
      // then killed 10 s later if it has not (an embedded PostgreSQL shuts down in that time).
      stopSuite(suite, 'SIGTERM');
      clearTimeout(killer);
      setTimeout(
        () => {
          stopSuite(suite, 'SIGKILL');
          suite.descendants.stop();
          running = undefined;
          resolve({ code, pid: child.pid, overran });
        },
        overran ? 10_000 : 3_000,
      );
    });
  });
}

// Stopping the run (Ctrl-C, a CI timeout) stops the suite running now, with its group.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (running !== undefined) stopSuite(running, 'SIGTERM');
    setTimeout(() => {
      if (running !== undefined) stopSuite(running, 'SIGKILL');
      process.exit(130);
    }, 3_000);
  });
}

const only = process.argv.slice(2);
const selected = BENCH_FILES.filter((b) => (only.length === 0 || only.includes(b.name)) && existsSync(path.join(ROOT, 'bench', `${b.name}.ts`)));
const linesFile = path.join(os.tmpdir(), `fg-bench-results-${process.pid}.jsonl`);
const started = Date.now();
const startedAt = new Date().toISOString();
const host = machine();
const failed: string[] = [];
const results: BenchResult[] = [];
const reportFile = path.join(ROOT, 'bench', 'results.json');
const report = () => ({ startedAt, durationSeconds: Math.round((Date.now() - started) / 1000), machine: host, failed, results });
const leftovers = await dropLeftoverDatabases();
if (leftovers.length) console.log(`dropped leftover databases of earlier runs: ${leftovers.join(', ')}`);
for (const bench of selected) {
  console.log(`\n=== bench/${bench.name}.ts ===`);
  // BENCH_LIMIT_SECONDS overrides every limit (checking that an overrunning suite is cleaned up).
  const limitSeconds = Number(process.env.BENCH_LIMIT_SECONDS ?? bench.limitSeconds);
  const { code, pid, overran } = await runFile(path.join('bench', `${bench.name}.ts`), limitSeconds, { BENCH_RESULTS_FILE: linesFile });
  if (code !== 0 || overran) failed.push(bench.name);
  if (pid !== undefined) {
    const dropped = await dropDatabasesOf(pid).catch((error: Error) => (console.error(`dropping ${bench.name}'s databases: ${error.message}`), []));
    if (dropped.length) console.log(`dropped what ${bench.name} left: ${dropped.join(', ')}`);
  }
  // The suite's results so far, written now: a run stopped later keeps them.
  const lines = existsSync(linesFile) ? (await readFile(linesFile, 'utf8')).split('\n').filter(Boolean) : [];
  results.splice(0, results.length, ...lines.map((line) => JSON.parse(line) as BenchResult));
  await writeFile(reportFile, JSON.stringify(report(), null, 2) + '\n');
}
await rm(linesFile, { force: true });
const final = report();
await writeFile(reportFile, JSON.stringify(final, null, 2) + '\n');

console.log(`\n=== targets (${host.cores} x ${host.cpuModel}, load at start ${host.loadAverageAtStart.join(' ')}) ===`);
console.log('| case | figure | target | met |');
console.log('|---|---:|---|---|');
for (const r of results.filter((r) => r.target)) {
  const latency = r.p99Ms !== undefined ? `, p99 ${r.p99Ms.toFixed(1)} ms` : '';
  const cpu = r.cpuRatio !== undefined ? `, CPU ${r.cpuRatio.toFixed(2)}x` : '';
  const figure =
    r.ratio !== undefined
      ? `${r.ratio.toFixed(2)}x${cpu} (${r.perSecond?.toFixed(0)}/s${latency})${r.decidedBy ? ` [${r.decidedBy} decides]` : ''}`
      : r.p99Ms !== undefined
        ? `p99 ${r.p99Ms.toFixed(2)} ms`
        : `${r.value?.toFixed(0)} ${r.unit ?? ''}`;
  console.log(`| ${r.suite}: ${r.case} | ${figure} | ${r.target} | ${r.met ? 'yes' : 'no'} |`);
}
console.log(`\nbench/results.json written (${results.length} results, ${final.durationSeconds} s)${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
if (failed.length) process.exitCode = 1;
