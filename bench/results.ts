/**
 * Benchmark results as data. Each bench file is a standalone script that reports its figures with
 * `recordResults`; `npm run bench` (bench/run.ts) runs every file as a child process, gathers what
 * they recorded (JSON lines in BENCH_RESULTS_FILE) and writes bench/results.json, so the next change
 * can compare itself with this one.
 */
import { appendFileSync } from 'node:fs';

export interface BenchResult {
  /** The bench file's short name, e.g. `tenant-read`. */
  suite: string;
  /** What was measured, e.g. `single: REST GET tenant`. */
  case: string;
  /** Throughput (per second), when the case measures one. */
  perSecond?: number;
  p50Ms?: number;
  p99Ms?: number;
  /** A single figure (ms, MB, count) when the case is not a throughput, with its unit. */
  value?: number;
  unit?: string;
  /** The same run's baseline case (its `case` name) and this case's throughput ratio to it. */
  baseline?: string;
  ratio?: number;
  /** The serving process tree's CPU (utime + stime) per request, ms (bench/load.ts). */
  cpuMsPerRequest?: number;
  /** Baseline CPU per request ÷ this case's: the ratio that holds on a loaded machine. */
  cpuRatio?: number;
  /** Which ratio the target was judged by (`req/s` on a quiet machine, `CPU per request` on a loaded one). */
  decidedBy?: string;
  /** The target the issue sets for this figure, in words, and whether this run meets it. */
  target?: string;
  met?: boolean;
  note?: string;
}

/** Records results of one suite (printed, and appended to BENCH_RESULTS_FILE when run by bench/run.ts). */
export function recordResults(suite: string, results: Array<Omit<BenchResult, 'suite'>>): void {
  const file = process.env.BENCH_RESULTS_FILE;
  if (!file) return;
  for (const result of results) appendFileSync(file, JSON.stringify({ suite, ...result }) + '\n');
}
