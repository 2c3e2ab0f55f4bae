/**
 * Load generation shared by the HTTP benchmarks: autocannon with varied requests. A bench that
 * cannot flatter:
 * - every case and its baseline are warmed up (BENCH_WARMUP_SECONDS, at least 5 s each) before
 *   they are measured, so neither side is measured cold;
 * - they are measured in BENCH_ROUNDS (at least 5) interleaved slices (baseline, case, baseline,
 *   case, ...), so a machine whose load drifts during the run affects both alike;
 * - the load generator (this process) is pinned to one core and the servers to the other
 *   (bench/process-cpu.ts), and each server's CPU per request is read from the kernel's counters
 *   before and after each slice, so the generator's own CPU is never counted;
 * - two ratios are recorded: req/s (case ÷ baseline) and CPU (baseline CPU per request ÷ case CPU
 *   per request). On a loaded machine (others took more than LOADED_CORES while the case ran) the
 *   req/s ratio drifts toward 1, since both sides wait for the same starved cores; the CPU ratio
 *   does not, so it decides the target there (`decidingRatio`).
 */
import autocannon from 'autocannon';
import { foreignLoadMeter, LOADED_CORES, pidListeningOn, pinning, pinServer, treeCpuMs, withPinnedLoadGenerator } from './process-cpu.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const warmUpSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);

export interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** Name of the row this one is compared with. */
  baseline?: string;
  /** The serving process tree's CPU (utime + stime) per request, ms; absent when its process was not found. */
  cpuMsPerRequest?: number;
  /** With a baseline: case req/s ÷ baseline req/s. */
  ratio?: number;
  /** With a baseline: baseline CPU per request ÷ case CPU per request. */
  cpuRatio?: number;
  /** Cores the rest of the machine used while the pair ran (not this bench, not PostgreSQL). */
  foreignCores?: number;
}

export interface LoadTarget<T> {
  name: string;
  url: string;
  request: (item: T) => { path: string; method?: 'GET' | 'POST'; body?: string };
  items: T[];
  authorization?: string;
  /** The server process answering (its descendants count too); when absent, the process listening on the URL's port. */
  pid?: number;
}

function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

/** The process whose CPU a target's requests cost, pinned to the servers' core. */
function serverPid<T>(target: LoadTarget<T>): number | undefined {
  const pid = target.pid ?? pidListeningOn(Number(new URL(target.url).port));
  if (pid !== undefined) pinServer(pid);
  return pid;
}

interface Slice {
  result: autocannon.Result;
  requests: number;
  cpuMs?: number;
}

async function drive<T>(target: LoadTarget<T>, durationSeconds: number, pid?: number, connectionCount = connections): Promise<Slice> {
  const cpuBefore = pid === undefined ? undefined : treeCpuMs(pid);
  const result = await autocannon({
    url: target.url,
    connections: connectionCount,
    duration: durationSeconds,
    requests: [
      {
        setupRequest: (req) => {
          const r = target.request(pick(target.items));
          const headers = {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(target.authorization ? { authorization: target.authorization } : {}),
          };
          return { ...req, path: r.path, method: r.method ?? 'GET', body: r.body, headers };
        },
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { result, requests: result.requests.total, cpuMs: cpuBefore === undefined ? undefined : treeCpuMs(pid!) - cpuBefore };
}

function summarise(name: string, slices: Slice[]): Row {
  const p50s = slices.map((s) => s.result.latency.p50).sort((a, b) => a - b);
  const requests = slices.reduce((sum, s) => sum + s.requests, 0);
  const cpuKnown = slices.every((s) => s.cpuMs !== undefined) && requests > 0;
  return {
    name,
    rps: slices.reduce((sum, s) => sum + s.result.requests.average, 0) / slices.length,
    p50: p50s[Math.floor(p50s.length / 2)] as number,
    p99: Math.max(...slices.map((s) => s.result.latency.p99)),
    ...(cpuKnown ? { cpuMsPerRequest: slices.reduce((sum, s) => sum + s.cpuMs!, 0) / requests } : {}),
  };
}

export interface LoadSettings {
  seconds?: number;
  warmUpSeconds?: number;
  rounds?: number;
  connections?: number;
}

/** One target alone: warm-up, then BENCH_SECONDS of load in BENCH_ROUNDS slices (or the suite's own settings). */
export function load<T>(target: LoadTarget<T>, settings: LoadSettings = {}): Promise<Row> {
  return withPinnedLoadGenerator(() => loadPinned(target, settings));
}

async function loadPinned<T>(target: LoadTarget<T>, settings: LoadSettings): Promise<Row> {
  const { seconds: total = seconds, warmUpSeconds: warmUp = warmUpSeconds, rounds: slices = rounds, connections: connectionCount = connections } = settings;
  const pid = serverPid(target);
  await drive(target, warmUp, pid, connectionCount);
  const measured: Slice[] = [];
  for (let round = 0; round < slices; round++) measured.push(await drive(target, total / slices, pid, connectionCount));
  return summarise(target.name, measured);
}

/**
 * A case and its baseline, each warmed up, then measured in BENCH_ROUNDS alternating slices of
 * BENCH_SECONDS in total each. req/s is the mean over the slices; p50 the median slice's, p99 the
 * worst slice's; CPU per request the sum of the slices' CPU over the sum of their requests.
 */
export function compare<B, C>(baseline: LoadTarget<B>, target: LoadTarget<C>): Promise<[Row, Row]> {
  return withPinnedLoadGenerator(() => comparePinned(baseline, target));
}

async function comparePinned<B, C>(baseline: LoadTarget<B>, target: LoadTarget<C>): Promise<[Row, Row]> {
  process.stdout.write(`  ${target.name} vs ${baseline.name} … `);
  const basePid = serverPid(baseline);
  const targetPid = serverPid(target);
  const foreign = foreignLoadMeter();
  await drive(baseline, warmUpSeconds, basePid);
  await drive(target, warmUpSeconds, targetPid);
  const slices: { baseline: Slice[]; target: Slice[] } = { baseline: [], target: [] };
  for (let round = 0; round < rounds; round++) {
    slices.baseline.push(await drive(baseline, seconds / rounds, basePid));
    slices.target.push(await drive(target, seconds / rounds, targetPid));
  }
  const foreignCores = foreign.stop();
  const base = summarise(baseline.name, slices.baseline);
  const measured = summarise(target.name, slices.target);
  const cpuRatio = base.cpuMsPerRequest !== undefined && measured.cpuMsPerRequest ? base.cpuMsPerRequest / measured.cpuMsPerRequest : undefined;
  const row: Row = { ...measured, baseline: baseline.name, ratio: measured.rps / base.rps, ...(cpuRatio !== undefined ? { cpuRatio } : {}), foreignCores };
  const cpu =
    cpuRatio !== undefined ? `; CPU ${measured.cpuMsPerRequest!.toFixed(2)} vs ${base.cpuMsPerRequest!.toFixed(2)} ms/request (${cpuRatio.toFixed(2)}x)` : '';
  console.log(`${row.rps.toFixed(0)} vs ${base.rps.toFixed(0)} req/s (${row.ratio!.toFixed(2)}x)${cpu}; others used ${foreignCores.toFixed(2)} cores`);
  return [base, row];
}

/**
 * The ratio a target is judged by: req/s on a quiet machine; on a loaded one (others used more than
 * LOADED_CORES while the pair ran) the CPU ratio, when known. `note` says which one decided.
 */
export function decidingRatio(row: Row): { ratio: number; by: 'req/s' | 'CPU per request'; note: string } {
  // CPU per request whenever it is known: the req/s ratio of two servers sharing two cores with
  // their load generator moves with scheduling (a system "faster than raw" was seen), CPU does not.
  const loaded = (row.foreignCores ?? 0) > LOADED_CORES;
  const byCpu = row.cpuRatio !== undefined;
  const ratio = byCpu ? row.cpuRatio! : row.ratio!;
  const cpu = row.cpuRatio !== undefined ? `CPU ratio ${row.cpuRatio.toFixed(2)}x (${row.cpuMsPerRequest!.toFixed(2)} ms/request)` : 'CPU ratio unknown';
  const note = `req/s ratio ${row.ratio!.toFixed(2)}x, ${cpu}; others used ${(row.foreignCores ?? 0).toFixed(2)} cores${loaded ? ' (loaded)' : ''}: ${byCpu ? 'the CPU ratio decides' : 'only the req/s ratio is known, it decides'}`;
  return { ratio, by: byCpu ? 'CPU per request' : 'req/s', note };
}

/** How the pairs were measured, for a suite's printed table. */
export function method(): string {
  const pin = pinning ? `load generator pinned to core ${pinning.loadGeneratorCore}, servers to core ${pinning.serverCore}` : 'not pinned';
  return `${connections} connections, ${seconds} s per case in ${rounds} interleaved slices, ${warmUpSeconds} s warm-up each side, ${pin}`;
}

export function printTable(rows: Row[]): void {
  console.log(`(${method()})`);
  console.log('| case | req/s | p50 ms | p99 ms | CPU ms/request | req/s ratio | CPU ratio |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const ratio = r.ratio !== undefined ? r.ratio.toFixed(2) : r.baseline ? '' : '1.00 (baseline)';
    console.log(
      `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.cpuMsPerRequest?.toFixed(2) ?? ''} | ${ratio} | ${r.cpuRatio?.toFixed(2) ?? ''} |`,
    );
  }
}
