/**
 * `npm run bench`, start-up and memory of `npm start` (the compiled build, plain node): time from
 * spawning the process to its first healthy /health, on an empty data dir (the embedded PostgreSQL
 * is initialised, migrated and seeded) and on an existing one, and on an external PostgreSQL (new
 * database / already migrated); RSS when idle and under load (REST reads for BENCH_SECONDS).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { DEMO_CREDENTIALS } from '../prisma/seed/demo-identities.js';
import { adminQuery, databaseUrlFor } from '../test/support/postgres-admin.js';
import { buildServer, freePort, waitForHealth, type RunningProcess } from '../test/support/processes.js';
import { startMeasuredServer } from './servers.js';
import { recordResults, type BenchResult } from './results.js';

const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const results: Array<Omit<BenchResult, 'suite'>> = [];
/** Every server started, stopped at the end whatever happens (stopping twice is harmless). */
const started: RunningProcess[] = [];

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return Math.round(kb / 1024);
}

/** Starts `npm start`'s build and resolves once /health answers, with the time that took. */
async function coldStart(env: Record<string, string>): Promise<{ proc: RunningProcess; url: string; ms: number; cpuMs: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const spawnedAt = performance.now();
  const proc = startMeasuredServer('src/processes/main.ts', { HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: url, ...env });
  started.push(proc);
  try {
    await waitForHealth(url, proc, 120_000);
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return { proc, url, ms: performance.now() - spawnedAt, cpuMs: cpuMs(proc.child.pid!) };
}

/** CPU time (user + system) the node process used so far: less sensitive to a busy machine than wall time. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function platformToken(url: string): Promise<string> {
  const post = async (p: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, string>>;
  };
  const { email, password } = DEMO_CREDENTIALS.integrator;
  const login = await post('/api/platform/v1/auth/login', { email, password });
  const key = await post(
    '/api/platform/v1/api-key',
    { name: `bench-${randomUUID()}`, scopes: ['profile:read'] },
    { authorization: `Bearer ${login.access_token}` },
  );
  return (await post('/api/platform/v1/auth/token', undefined, { 'x-api-key': key.key as string })).access_token as string;
}

/** RSS after a quiet second, then the highest RSS sampled while REST reads run. */
async function memory(label: string, proc: RunningProcess, url: string): Promise<void> {
  await new Promise((r) => setTimeout(r, 1_000));
  const idle = rssMb(proc.child.pid!);
  const token = await platformToken(url);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(proc.child.pid!))), 200);
  const run = await autocannon({ url: `${url}/api/platform/v1/tenants`, connections: 10, duration: seconds, headers: { authorization: `Bearer ${token}` } });
  clearInterval(sampler);
  if (run.non2xx > 0) throw new Error(`${label}: ${run.non2xx} non-2xx under load`);
  results.push({ case: `${label}: RSS idle`, value: idle, unit: 'MB' });
  results.push({ case: `${label}: RSS under load (REST list, 10 connections)`, value: peak, unit: 'MB', note: `${run.requests.average.toFixed(0)} req/s` });
  console.log(`  ${label}: RSS idle ${idle} MB, under load ${peak} MB`);
}

const dataDir = path.join(tmpdir(), `fg-bench-start-${process.pid}`);
const dbName = `fg_bench_start_${process.pid}`;
try {
  buildServer();
  console.log('start-up of npm start (compiled)');
  const embeddedEnv = { DATA_DIR: dataDir };
  const empty = await coldStart(embeddedEnv);
  await empty.proc.stop();
  const existing = await coldStart(embeddedEnv);
  const loadNote = (cpu: number) => `node process CPU ${cpu.toFixed(0)} ms; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`;
  results.push({
    case: 'cold start to /health, embedded PG, empty data dir',
    value: empty.ms,
    unit: 'ms',
    target: '< 5 s',
    met: empty.ms < 5_000,
    note: loadNote(empty.cpuMs),
  });
  results.push({
    case: 'cold start to /health, embedded PG, existing data dir',
    value: existing.ms,
    unit: 'ms',
    target: '< 2 s',
    met: existing.ms < 2_000,
    note: loadNote(existing.cpuMs),
  });
  console.log(`  embedded: empty ${empty.ms.toFixed(0)} ms, existing ${existing.ms.toFixed(0)} ms`);
  await memory('embedded PG', existing.proc, existing.url);
  await existing.proc.stop();

  await adminQuery(serverUrl, `CREATE DATABASE ${dbName}`);
  const externalEnv = { DATABASE_URL: databaseUrlFor(serverUrl, dbName), DATA_DIR: path.join(dataDir, 'keys') };
  const fresh = await coldStart(externalEnv);
  await fresh.proc.stop();
  const migrated = await coldStart(externalEnv);
  results.push({
    case: 'cold start to /health, external PG, new database',
    value: fresh.ms,
    unit: 'ms',
    note: `node process CPU ${fresh.cpuMs.toFixed(0)} ms`,
  });
  results.push({
    case: 'cold start to /health, external PG, migrated database',
    value: migrated.ms,
    unit: 'ms',
    note: `node process CPU ${migrated.cpuMs.toFixed(0)} ms`,
  });
  console.log(`  external: new database ${fresh.ms.toFixed(0)} ms, migrated ${migrated.ms.toFixed(0)} ms`);
  await memory('external PG', migrated.proc, migrated.url);
  await migrated.proc.stop();
  recordResults('startup', results);
} finally {
  await Promise.all(started.map((p) => p.stop()));
  await rm(dataDir, { recursive: true, force: true });
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
}
