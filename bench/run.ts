/**
 * `npm run bench`: reading a tenant through (a) the REST adapter and (b) a federated GraphQL query
 * (tenant with its profile) through the gateway, against a raw pg + Express baseline measured in
 * the same run, in single-process and distributed modes. Every server runs in its own process;
 * autocannon drives them from this one with varied ids (the gateway de-duplicates identical
 * in-flight requests, so a single id would flatter it).
 *
 * Needs a PostgreSQL (DATABASE_URL, default the local server) and, for distributed mode, Redis
 * (REDIS_URL, default local). BENCH_SECONDS (default 5) and BENCH_CONNECTIONS (default 10) tune it.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createAccountWithUser } from '../src/domain/identity/bootstrap.js';
import { openDatabase } from '../src/infra/database.js';
import { applyMigrations } from '../src/infra/migrations.js';
import { adminQuery, databaseUrlFor } from '../test/support/postgres-admin.js';
import { freePort, startEntry, waitForHealth, type RunningProcess } from '../test/support/processes.js';
import { load, printTable, type Row } from './load.js';

const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TENANTS = 500;

const FEDERATED = 'query($id: ID!) { tenant(id: $id) { id referenceId profile { uuid } } }';
const restRequest = (id: string) => ({ path: `/api/platform/v1/tenants/${id}` });
const graphqlRequest = (id: string) => ({ path: '/graphql', method: 'POST' as const, body: JSON.stringify({ query: FEDERATED, variables: { id } }) });

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
  const key = await post('/api/platform/v1/api-key', { name: `bench-${randomUUID()}`, scopes: ['profile:read'] }, { authorization: `Bearer ${login.access_token}` });
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
      await client.query('INSERT INTO profile (id, "tenantId", "countryCode", environment, "updatedAt") VALUES ($1, $2, $3, $4, now())', [randomUUID(), id, 'GB', 'demo']);
    }
  }
  await client.end();
  return ids;
}

const dbName = `fg_bench_${process.pid}`;
const procs: RunningProcess[] = [];
const rows: Row[] = [];
try {
  await adminQuery(serverUrl, `CREATE DATABASE ${dbName}`);
  const url = databaseUrlFor(serverUrl, dbName);
  await applyMigrations(url);
  const ids = await seed(url, await createAccount(url));
  const env = { DATABASE_URL: url, SEED_DEMO_DATA: 'false', LOG_LEVEL: 'warn', HOST: '127.0.0.1' };
  console.log(`tenant read: ${TENANTS} tenants (half with a profile)`);

  const basePort = await freePort();
  const baseline = startEntry('bench/raw-baseline.ts', [], { ...env, PORT: String(basePort) });
  procs.push(baseline);
  const baselineUrl = `http://127.0.0.1:${basePort}`;
  await waitForHealth(baselineUrl, baseline);
  const rawTenant = await load('raw baseline: tenant', baselineUrl, (id) => ({ path: `/tenants/${id}` }), ids);
  const rawFederated = await load('raw baseline: tenant + profile', baselineUrl, (id) => ({ path: `/tenants/${id}/with-profile` }), ids);
  rows.push(rawTenant, rawFederated);

  console.log('single-process mode');
  const port = await freePort();
  const singleUrl = `http://127.0.0.1:${port}`;
  const single = startEntry('src/processes/main.ts', [], { ...env, PORT: String(port), PUBLIC_URL: singleUrl });
  procs.push(single);
  await waitForHealth(singleUrl, single);
  const singleAuth = await platformAuthorization(singleUrl);
  rows.push({ ...(await load('single: REST GET tenant', singleUrl, restRequest, ids, singleAuth)), baseline: rawTenant.name });
  rows.push({ ...(await load('single: GraphQL tenant+profile', singleUrl, graphqlRequest, ids, singleAuth)), baseline: rawFederated.name });
  await single.stop();

  console.log('distributed mode');
  const distBase = 21_000 + Math.floor(Math.random() * 200) * 50;
  const distributed = startEntry('src/processes/distributed.ts', [], { ...env, REDIS_URL: redisUrl, BASE_PORT: String(distBase) });
  procs.push(distributed);
  await waitForHealth(`http://127.0.0.1:${distBase}`, distributed, 150_000);
  const distAuth = await platformAuthorization(`http://127.0.0.1:${distBase + 1}`);
  rows.push({ ...(await load('distributed: REST GET tenant', `http://127.0.0.1:${distBase + 1}`, restRequest, ids, distAuth)), baseline: rawTenant.name });
  rows.push({ ...(await load('distributed: GraphQL tenant+profile', `http://127.0.0.1:${distBase}`, graphqlRequest, ids, distAuth)), baseline: rawFederated.name });

  console.log('');
  printTable(rows);
} finally {
  await Promise.all(procs.map((p) => p.stop()));
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
}
