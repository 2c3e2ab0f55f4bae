/**
 * `npm run bench`, tenant read: reading a tenant through (a) the REST adapter and (b) a federated
 * GraphQL query (tenant with its profile) through the gateway, each against a raw pg + Express
 * baseline that verifies the same JWT, runs the same SQL and returns the same JSON, measured
 * interleaved with it (bench/load.ts). `npm start`'s compiled build in single-process mode on an
 * external PostgreSQL and on the embedded one, and the distributed mode on the external one. Every
 * server is its own process; ids vary per request (the gateway de-duplicates identical in-flight
 * requests, so a single id would flatter it). Servers run at the default configuration (NODE_ENV
 * production as `npm start`, default log level: bench/servers.ts); CPU per request is recorded beside
 * req/s and decides the target on a loaded machine (bench/load.ts).
 *
 * Needs a PostgreSQL (DATABASE_URL, default the local server) and, for distributed mode, Redis
 * (REDIS_URL, default local; REDIS_KEY_PREFIX, when set, is its namespace). BENCH_SECONDS, BENCH_ROUNDS, BENCH_CONNECTIONS tune it;
 * BENCH_DEPLOYMENTS (comma-separated: single-external, single-embedded, distributed; default all
 * three) runs only some; BENCH_CPU_PROF_DIR has the measured processes write CPU profiles there. The distributed deployment's federated query also prints how its CPU per
 * request splits between its processes (gateway, subgraphs, ...).
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createAccountWithUser } from '../src/modules/identity/bootstrap.js';
import { openDatabase } from '../src/infra/database.js';
import { openEmbeddedServer } from '../src/infra/embedded-postgres.js';
import { applyMigrations } from '../src/infra/migrations.js';
import { adminQuery, databaseUrlFor } from '../test/support/postgres-admin.js';
import { buildServer, freePort, startEntry, waitForHealth, type RunningProcess } from '../test/support/processes.js';
import { compare, decidingRatio, printTable, type LoadTarget, type Row } from './load.js';
import { startMeasuredServer } from './servers.js';
import { dropLeftoverDatabases } from './bench-databases.js';
import { recordResults, type BenchResult } from './results.js';
import { cpuMsByProcess } from './process-cpu.js';

const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TENANTS = 500;

const FEDERATED = 'query($id: ID!) { tenant(id: $id) { id referenceId profile { uuid } } }';
const restRequest = (id: string) => ({ path: `/api/platform/v1/tenants/${id}` });
const graphqlRequest = (id: string) => ({ path: '/graphql', method: 'POST' as const, body: JSON.stringify({ query: FEDERATED, variables: { id } }) });

const DEPLOYMENTS = ['single-external', 'single-embedded', 'distributed'] as const;
const selected = new Set(
  (process.env.BENCH_DEPLOYMENTS ?? DEPLOYMENTS.join(','))
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean),
);
for (const d of selected)
  if (!(DEPLOYMENTS as readonly string[]).includes(d)) throw new Error(`BENCH_DEPLOYMENTS: unknown deployment ${d} (known: ${DEPLOYMENTS.join(', ')})`);

const BENCH_USER = { email: 'bench@example.test', password: 'bench-password-123' };

/** An account whose tenants are read, signed in the way integrators do: login → API key → platform token. */
async function createAccount(url: string): Promise<string> {
  const db = await openDatabase({ databaseUrl: url, dataDir: 'unused', poolSize: 1, migrate: false });
  const { accountId } = await createAccountWithUser(db.prisma, { environment: 'demo', accountName: 'bench', ...BENCH_USER });
  await db.close();
  return accountId;
}

async function platformAuthorization(restUrl: string): Promise<string> {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${restUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, string>>;
  };
  const login = await post('/api/platform/v1/auth/login', BENCH_USER);
  const key = await post(
    '/api/platform/v1/api-key',
    { name: `bench-${randomUUID()}`, scopes: ['profile:read'] },
    { authorization: `Bearer ${login.access_token}` },
  );
  const token = await post('/api/platform/v1/auth/token', undefined, { 'x-api-key': key.key as string });
  return `Bearer ${token.access_token}`;
}

async function seed(url: string, accountId: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const ids: string[] = [];
  for (let i = 0; i < TENANTS; i++) {
    const id = randomUUID();
    ids.push(id);
    await client.query('INSERT INTO tenant (id, "accountId", "referenceId", environment, "updatedDateTime") VALUES ($1, $2, $3, $4, now())', [
      id,
      accountId,
      `bench-${i}`,
      'demo',
    ]);
    if (i % 2 === 0) {
      await client.query('INSERT INTO profile (id, "tenantId", "countryCode", environment, "updatedAt") VALUES ($1, $2, $3, $4, now())', [
        randomUUID(),
        id,
        'GB',
        'demo',
      ]);
    }
  }
  await client.end();
  return ids;
}

const procs: RunningProcess[] = [];
const rows: Row[] = [];
/** The servers' data directories (signing keys), removed at the end. */
const dataDirs: string[] = [];
const dataDir = (name: string) => {
  const dir = path.join(tmpdir(), name);
  dataDirs.push(dir);
  return dir;
};
const results: Array<Omit<BenchResult, 'suite'>> = [];

async function startBaseline(url: string, issuerUrl: string): Promise<{ url: string; pid: number }> {
  const port = await freePort();
  const baseline = startEntry('bench/raw-baseline.ts', [], {
    NODE_ENV: process.env.NODE_ENV ?? 'production',
    DATABASE_URL: url,
    PORT: String(port),
    JWKS_URL: `${issuerUrl}/.well-known/jwks.json`,
    ISSUER: issuerUrl,
  });
  procs.push(baseline);
  const baselineUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baselineUrl, baseline);
  return { url: baselineUrl, pid: baseline.child.pid! };
}

/** REST and federated GraphQL of one deployment against the baseline on the same database, recorded. */
/**
 * REST and federated GraphQL of one deployment against the baseline on the same database, recorded.
 * `pid`: the deployment's root process (a distributed deployment's supervisor: its services' CPU counts).
 */
async function measureDeployment(
  label: string,
  urls: { rest: string; graphql: string; baseline: string },
  pids: { system: number; baseline: number },
  ids: string[],
  authorization: string,
  targets: boolean,
) {
  const rawTenant: LoadTarget<string> = {
    name: `${label}: raw baseline tenant`,
    url: urls.baseline,
    pid: pids.baseline,
    request: (id) => ({ path: `/tenants/${id}` }),
    items: ids,
    authorization,
  };
  const rawFederated: LoadTarget<string> = {
    name: `${label}: raw baseline tenant + profile (two statements)`,
    url: urls.baseline,
    pid: pids.baseline,
    request: (id) => ({ path: `/tenants/${id}/with-profile` }),
    items: ids,
    authorization,
  };
  // A GraphQL error is a 200 (and cheap): the query must answer the tenant before it is measured.
  const answer = (await (
    await fetch(`${urls.graphql}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization },
      body: graphqlRequest(ids[0]!).body,
    })
  ).json()) as { data?: { tenant?: { id: string } }; errors?: unknown };
  if (answer.errors || answer.data?.tenant?.id !== ids[0])
    throw new Error(`${label}: the federated query did not answer the tenant: ${JSON.stringify(answer)}`);
  const [baseRest, rest] = await compare(rawTenant, {
    name: `${label}: REST GET tenant`,
    url: urls.rest,
    pid: pids.system,
    request: restRequest,
    items: ids,
    authorization,
  });
  const cpuBefore = cpuMsByProcess(pids.system);
  const [baseGraphql, graphql] = await compare(rawFederated, {
    name: `${label}: GraphQL tenant + profile (${label.startsWith('distributed') ? 'gateway' : 'local schema'})`,
    url: urls.graphql,
    pid: pids.system,
    request: graphqlRequest,
    items: ids,
    authorization,
  });
  printCpuSplit(graphql, cpuBefore, cpuMsByProcess(pids.system));
  rows.push(baseRest, rest, baseGraphql, graphql);
  const restDecision = decidingRatio(rest);
  const p99Ratio = rest.p99 / Math.max(1, baseRest.p99);
  const graphqlDecision = decidingRatio(graphql);
  for (const base of [baseRest, baseGraphql])
    results.push({ case: base.name, perSecond: base.rps, p50Ms: base.p50, p99Ms: base.p99, cpuMsPerRequest: base.cpuMsPerRequest });
  results.push({
    case: rest.name,
    perSecond: rest.rps,
    p50Ms: rest.p50,
    p99Ms: rest.p99,
    cpuMsPerRequest: rest.cpuMsPerRequest,
    baseline: baseRest.name,
    ratio: rest.ratio,
    cpuRatio: rest.cpuRatio,
    ...(targets
      ? { target: '>= 0.6x baseline (CPU per request), p99 <= 3x', met: restDecision.ratio >= 0.6 && p99Ratio <= 3, decidedBy: restDecision.by }
      : {}),
    note: `${restDecision.note}; p99 ${p99Ratio.toFixed(1)}x the baseline's`,
  });
  results.push({
    case: graphql.name,
    perSecond: graphql.rps,
    p50Ms: graphql.p50,
    p99Ms: graphql.p99,
    cpuMsPerRequest: graphql.cpuMsPerRequest,
    baseline: baseGraphql.name,
    ratio: graphql.ratio,
    cpuRatio: graphql.cpuRatio,
    ...(targets ? { target: '>= 0.5x baseline (CPU per request), single process', met: graphqlDecision.ratio >= 0.5, decidedBy: graphqlDecision.by } : {}),
    note: graphqlDecision.note,
  });
}

/**
 * Each process's share of the deployment's CPU while the federated query ran (its warm-up included,
 * the baseline's slices excluded: another process), applied to the measured CPU per request.
 */
function printCpuSplit(row: Row, before: Map<string, number>, after: Map<string, number>): void {
  if (after.size < 2 || row.cpuMsPerRequest === undefined) return;
  const used = [...after].map(([name, ms]) => [name, ms - (before.get(name) ?? 0)] as const).filter(([, ms]) => ms > 0);
  const total = used.reduce((sum, [, ms]) => sum + ms, 0);
  const parts = used.sort((a, b) => b[1] - a[1]).map(([name, ms]) => `${name} ${((ms / total) * row.cpuMsPerRequest!).toFixed(2)}`);
  console.log(`  CPU ms/request by process: ${parts.join(', ')}`);
}

/** `npm start`'s build, single process, on the database at `url`; measured, then stopped. */
async function singleProcess(label: string, url: string, ids: string[]) {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const app = startMeasuredServer('src/processes/main.ts', {
    DATABASE_URL: url,
    SEED_DEMO_DATA: 'false',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: appUrl,
    DATA_DIR: dataDir(`fg-bench-${randomUUID()}`),
    ...cpuProfiling(),
  });
  procs.push(app);
  await waitForHealth(appUrl, app);
  const baseline = await startBaseline(url, appUrl);
  await measureDeployment(
    label,
    { rest: appUrl, graphql: appUrl, baseline: baseline.url },
    { system: app.child.pid!, baseline: baseline.pid },
    ids,
    await platformAuthorization(appUrl),
    true,
  );
  await app.stop();
}

/** BENCH_CPU_PROF_DIR: every measured process (the single one, or the distributed deployment's) writes a V8 CPU profile there when it exits. */
function cpuProfiling(): Record<string, string> {
  const dir = process.env.BENCH_CPU_PROF_DIR;
  // Node 24 refuses --cpu-prof in NODE_OPTIONS; --import of a module that profiles is allowed there, and reaches every child.
  return dir ? { BENCH_CPU_PROF_DIR: path.resolve(dir), NODE_OPTIONS: `--import=${pathToFileURL(path.resolve('bench/cpu-profile-on-exit.mjs')).href}` } : {};
}

/** `npm run start:distributed`'s build on the database at `url`: a gateway, four subgraphs, REST and the worker, each its own process. */
async function distributedMode(url: string, ids: string[]) {
  console.log('distributed mode, external PostgreSQL');
  const distBase = 21_000 + Math.floor(Math.random() * 200) * 50;
  const distributed = startMeasuredServer('src/processes/distributed.ts', {
    DATABASE_URL: url,
    SEED_DEMO_DATA: 'false',
    HOST: '127.0.0.1',
    REDIS_URL: redisUrl,
    ...(process.env.REDIS_KEY_PREFIX ? { REDIS_KEY_PREFIX: process.env.REDIS_KEY_PREFIX } : {}),
    ...cpuProfiling(),
    BASE_PORT: String(distBase),
    DATA_DIR: dataDir(dbName),
  });
  procs.push(distributed);
  const restUrl = `http://127.0.0.1:${distBase + 1}`;
  await waitForHealth(`http://127.0.0.1:${distBase}`, distributed, 150_000);
  const distBaseline = await startBaseline(url, restUrl);
  await measureDeployment(
    'distributed',
    { rest: restUrl, graphql: `http://127.0.0.1:${distBase}`, baseline: distBaseline.url },
    { system: distributed.child.pid!, baseline: distBaseline.pid },
    ids,
    await platformAuthorization(restUrl),
    false,
  );
}

const dbName = `fg_bench_tenant_${process.pid}`;
// Databases of earlier runs of this suite that were stopped before their cleanup (bench/bench-databases.ts).
await dropLeftoverDatabases('tenant_');
const embeddedDir = path.join(tmpdir(), `fg-bench-embedded-${process.pid}`);
let embedded: Awaited<ReturnType<typeof openEmbeddedServer>> | undefined;
try {
  buildServer();
  await adminQuery(serverUrl, `CREATE DATABASE ${dbName}`);
  const url = databaseUrlFor(serverUrl, dbName);
  await applyMigrations(url);
  const ids = await seed(url, await createAccount(url));
  console.log(`tenant read: ${TENANTS} tenants (half with a profile)`);

  if (selected.has('single-external')) {
    console.log('single-process mode, external PostgreSQL');
    await singleProcess('single, external PG', url, ids);
  }

  if (selected.has('single-embedded')) {
    console.log('single-process mode, embedded PostgreSQL');
    embedded = await openEmbeddedServer(embeddedDir, { role: 'server', durable: true });
    const embeddedUrl = embedded.url();
    await applyMigrations(embeddedUrl);
    const embeddedIds = await seed(embeddedUrl, await createAccount(embeddedUrl));
    await singleProcess('single, embedded PG', embeddedUrl, embeddedIds);
  }

  if (selected.has('distributed')) await distributedMode(url, ids);

  console.log('');
  printTable(rows);
  recordResults('tenant-read', results);
} finally {
  await Promise.all(procs.map((p) => p.stop()));
  await embedded?.stop();
  await rm(embeddedDir, { recursive: true, force: true });
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
}
