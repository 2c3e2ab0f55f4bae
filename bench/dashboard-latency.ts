/**
 * `npx tsx bench/dashboard-latency.ts` (standalone): event → dashboard DOM latency for one open page.
 * The system runs as `npm start` (its own process) on a fresh database; a staff user has the
 * dashboard open in Chromium. For each of N lender applications, a lender acknowledges it through
 * the REST lender API; we time from the POST's start until the page's row shows the new status
 * (a MutationObserver in the page stamps the moment the DOM changed). This covers the event over
 * graphql-ws, the page's query for the changed row, and lit-html's render. Reference in the same
 * run: the POST's own round trip.
 */
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { loadConfig } from '../src/kernel/config.js';
import { createAccountWithUser, issueLenderCredentials } from '../src/modules/identity/bootstrap.js';
import { applyMigrations } from '../src/infra/migrations.js';
import { startRuntime } from '../src/processes/runtime.js';
import { insertDemoLenders } from '../prisma/seed/seed-demo-data.js';
import { adminQuery, databaseUrlFor } from '../test/support/postgres-admin.js';
import { buildServer, freePort, waitForHealth, type RunningProcess } from '../test/support/processes.js';
import { dropLeftoverDatabases } from './bench-databases.js';
import { recordResults } from './results.js';
import { startMeasuredServer } from './servers.js';

const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const EVENTS = Math.min(150, Number(process.env.BENCH_EVENTS ?? 100));
const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
const now = () => performance.timeOrigin + performance.now();

const dbName = `fg_bench_dashboard_${process.pid}`;
// Databases of earlier runs of this suite that were stopped before their cleanup (bench/bench-databases.ts).
await dropLeftoverDatabases('dashboard_');
const procs: RunningProcess[] = [];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  await adminQuery(serverUrl, `CREATE DATABASE ${dbName}`);
  const url = databaseUrlFor(serverUrl, dbName);
  await applyMigrations(url);
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const env = { DATABASE_URL: url, SEED_DEMO_DATA: 'false', HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: appUrl };
  const runtime = await startRuntime(loadConfig({}, { ...env, PORT: 0, LOG_LEVEL: 'silent' } as never), { prepareDatabase: false });
  const db = runtime.database.prisma;
  await insertDemoLenders(db);
  const lenderRow = await db.lender.findFirstOrThrow({ orderBy: { id: 'asc' } });
  const credentials = await issueLenderCredentials(db, lenderRow.id, 'demo', appUrl);
  await createAccountWithUser(db, {
    environment: 'demo',
    accountName: 'operations',
    email: 'bench-ops@example.test',
    password: 'bench-ops-password',
    role: 'STAFF',
  });
  const profile = await db.profile.create({ data: { environment: 'demo', companyInformation: { name: 'BENCH LTD' } } });
  const applications = [];
  for (let i = 0; i < EVENTS; i++)
    applications.push(await db.lenderApplication.create({ data: { lenderId: lenderRow.id, profileId: profile.id, status: 'In Review' } }));

  buildServer();
  const app = startMeasuredServer('src/processes/main.ts', env);
  procs.push(app);
  await waitForHealth(appUrl, app);

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${appUrl}/app/dashboard`);
  await page.getByLabel('Email').fill('bench-ops@example.test');
  await page.getByLabel('Password').fill('bench-ops-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
  await page.locator(`[data-testid="row-${applications.at(-1)!.id}"]`).waitFor();
  await new Promise((r) => setTimeout(r, 500));

  const token = (await (
    await fetch(`${appUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'password',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        username: credentials.username,
        password: credentials.password,
        scope: 'openid',
      }),
    })
  ).json()) as { id_token: string };

  const domLatencies: number[] = [];
  const postLatencies: number[] = [];
  for (const a of applications) {
    // A string, not a function: tsx's name-keeping helpers do not exist inside the page; `undefined` so evaluate does not await the promise.
    await page.evaluate(`window.shownAt = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (document.querySelector('[data-testid="row-${a.id}"] [data-testid="acknowledged"]')) {
          observer.disconnect();
          resolve(performance.timeOrigin + performance.now());
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    }); undefined`);
    const start = now();
    const res = await fetch(`${appUrl}/api/platform/v1/funding/applications/${a.id}/acknowledgement`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.id_token}` },
      body: JSON.stringify({ reference: `D-${a.id}` }),
    });
    postLatencies.push(now() - start);
    if (res.status !== 200) throw new Error(`acknowledgement ${res.status}`);
    const shownAt = (await page.evaluate('window.shownAt')) as number;
    domLatencies.push(shownAt - start);
  }
  domLatencies.sort((x, y) => x - y);
  postLatencies.sort((x, y) => x - y);
  console.log(`dashboard latency: ${EVENTS} events, one open page (Chromium), ${EVENTS} rows on the board`);
  console.log('\n| measure | p50 ms | p99 ms |');
  console.log('|---|---:|---:|');
  console.log(`| POST acknowledgement round trip (reference) | ${percentile(postLatencies, 0.5).toFixed(1)} | ${percentile(postLatencies, 0.99).toFixed(1)} |`);
  console.log(
    `| event -> row updated in the dashboard DOM (from the POST's start) | ${percentile(domLatencies, 0.5).toFixed(1)} | ${percentile(domLatencies, 0.99).toFixed(1)} |`,
  );
  recordResults('dashboard-latency', [
    {
      case: 'event -> dashboard DOM (one open page)',
      p50Ms: percentile(domLatencies, 0.5),
      p99Ms: percentile(domLatencies, 0.99),
      note: "from the lender POST's start",
    },
    { case: 'lender POST acknowledgement round trip', p50Ms: percentile(postLatencies, 0.5), p99Ms: percentile(postLatencies, 0.99) },
  ]);
  await runtime.close();
} finally {
  await browser.close();
  await Promise.all(procs.map((p) => p.stop()));
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
}
