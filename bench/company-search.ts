/**
 * `npm run bench` (second part): Marketplace V1 company search, company lookup and profile read on
 * a registry of 100,000 companies, against the raw pg baseline (same SQL, bare Express) measured in
 * the same run. Reports req/s, p50 and p99, and the query plan of a search (index use, no scan).
 *
 * Needs a PostgreSQL (DATABASE_URL, default the local server). BENCH_SECONDS, BENCH_CONNECTIONS and
 * BENCH_COMPANIES (default 100000) tune it.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createAccountWithUser } from '../src/modules/identity/bootstrap.js';
import { openDatabase } from '../src/infra/database.js';
import { applyMigrations } from '../src/infra/migrations.js';
import { demoCompanyStream } from '../prisma/seed/demo-companies.js';
import { insertCompanies } from '../prisma/seed/seed-demo-data.js';
import { adminQuery, databaseUrlFor } from '../test/support/postgres-admin.js';
import { buildServer, freePort, startEntry, waitForHealth, type RunningProcess } from '../test/support/processes.js';
import { compare, decidingRatio, printTable, type LoadTarget, type Row } from './load.js';
import { startMeasuredServer } from './servers.js';
import { dropLeftoverDatabases } from './bench-databases.js';
import { recordResults } from './results.js';

const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 100_000);
const USER = { email: 'bench-search@example.test', password: 'bench-password-123' };

const dbName = `fg_bench_search_${process.pid}`;
// Databases of earlier runs of this suite that were stopped before their cleanup (bench/bench-databases.ts).
await dropLeftoverDatabases('search_');
const procs: RunningProcess[] = [];
try {
  await adminQuery(serverUrl, `CREATE DATABASE ${dbName}`);
  const url = databaseUrlFor(serverUrl, dbName);
  await applyMigrations(url);
  const db = await openDatabase({ databaseUrl: url, dataDir: 'unused', poolSize: 2, migrate: false });
  console.log(`company search: inserting ${COMPANIES} companies …`);
  await insertCompanies(db.prisma, demoCompanyStream(COMPANIES));
  await createAccountWithUser(db.prisma, { environment: 'demo', accountName: 'bench', ...USER });
  await db.close();

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('ANALYZE company');
  const numbers = (
    await client.query<{ n: string }>('SELECT "registrationNumber" AS n FROM company WHERE "countryCode" = $1 ORDER BY random() LIMIT 500', ['GB'])
  ).rows.map((r) => r.n);
  const names = (await client.query<{ w: string }>(`SELECT split_part(name, ' ', 1) AS w FROM company ORDER BY random() LIMIT 500`)).rows.map((r) => r.w);
  const terms = names.flatMap((w) => [w.slice(0, 4), w.toLowerCase()]).filter((t) => t.length >= 3);
  const plan = await client.query(
    `EXPLAIN SELECT name FROM company WHERE "countryCode" = 'GB' AND ("nameLower" LIKE 'acme%' OR "nameLower" LIKE '%widg%' OR "registrationNumber" LIKE 'ACME%') LIMIT 10`,
  );
  await client.end();

  const env = { DATABASE_URL: url, SEED_DEMO_DATA: 'false', HOST: '127.0.0.1' };
  buildServer();
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const app = startMeasuredServer('src/processes/main.ts', { ...env, PORT: String(port), PUBLIC_URL: appUrl });
  procs.push(app);
  await waitForHealth(appUrl, app);
  const authorization = await marketplaceV1Authorization(appUrl);
  const profileIds = await createProfiles(appUrl, authorization, 200);

  // The baseline verifies the same token as the system (raw-baseline.ts), against its published keys.
  const basePort = await freePort();
  const baseline = startEntry('bench/raw-baseline.ts', [], {
    NODE_ENV: process.env.NODE_ENV ?? 'production',
    ...env,
    PORT: String(basePort),
    JWKS_URL: `${appUrl}/.well-known/jwks.json`,
    ISSUER: appUrl,
  });
  procs.push(baseline);
  const baselineUrl = `http://127.0.0.1:${basePort}`;
  await waitForHealth(baselineUrl, baseline);

  const v1 = '/api/marketplace/v1';
  const rawSearch: LoadTarget<string> = {
    name: 'raw baseline: search',
    url: baselineUrl,
    request: (t) => ({ path: `/companies/search/${encodeURIComponent(t)}` }),
    items: terms,
    authorization,
  };
  const rawLookup: LoadTarget<string> = {
    name: 'raw baseline: company by number',
    url: baselineUrl,
    request: (n) => ({ path: `/companies/${n}` }),
    items: numbers,
    authorization,
  };
  const pairs = [
    await compare(rawSearch, {
      name: 'REST: GET /companies/search/{term}',
      url: appUrl,
      request: (t) => ({ path: `${v1}/companies/search/${encodeURIComponent(t)}` }),
      items: terms,
      authorization,
    }),
    await compare(rawLookup, {
      name: 'REST: GET /companies/{number}',
      url: appUrl,
      request: (n) => ({ path: `${v1}/companies/${n}` }),
      items: numbers,
      authorization,
    }),
    await compare(
      { ...rawLookup, name: 'raw baseline: company by number (profile read)' },
      { name: 'REST: GET /profiles/{uuid}', url: appUrl, request: (id) => ({ path: `${v1}/profiles/${id}` }), items: profileIds, authorization },
    ),
  ];
  const rows: Row[] = pairs.flat();
  recordResults(
    'company-search',
    rows.map((r) => {
      const base = r.baseline ? rows.find((b) => b.name === r.baseline) : undefined;
      const decision = base ? decidingRatio(r) : undefined;
      const p99Ratio = base ? r.p99 / Math.max(1, base.p99) : undefined;
      return {
        case: r.name,
        perSecond: r.rps,
        p50Ms: r.p50,
        p99Ms: r.p99,
        cpuMsPerRequest: r.cpuMsPerRequest,
        ...(base && decision
          ? {
              baseline: base.name,
              ratio: r.ratio,
              cpuRatio: r.cpuRatio,
              target: '>= 0.6x baseline (CPU per request), p99 <= 3x (REST read)',
              met: decision.ratio >= 0.6 && p99Ratio! <= 3,
              decidedBy: decision.by,
              note: `${decision.note}; p99 ${p99Ratio!.toFixed(1)}x the baseline's`,
            }
          : {}),
      };
    }),
  );

  console.log(`\n${COMPANIES} companies; search plan:\n${plan.rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}\n`);
  printTable(rows);
} finally {
  await Promise.all(procs.map((p) => p.stop()));
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
}

async function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Record<string, string>> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, string>>;
}

async function marketplaceV1Authorization(base: string): Promise<string> {
  const login = await post(base, '/api/platform/v1/auth/login', USER);
  const key = await post(
    base,
    '/api/platform/v1/api-key',
    { name: `bench-${randomUUID()}`, scopes: ['profile:read', 'profile:write'] },
    { authorization: `Bearer ${login.access_token}` },
  );
  const tokens = await post(base, `/api/marketplace/v1/auth/authorize?api_key=${encodeURIComponent(key.key as string)}`, undefined);
  return `Bearer ${tokens.jwt}`;
}

async function createProfiles(base: string, authorization: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await post(base, '/api/marketplace/v1/profiles/blank', undefined, { authorization })).uuid as string);
  return ids;
}
