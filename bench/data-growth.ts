/**
 * `npm run bench -- data-growth`: how the lists hold up as the data grows. One database grows in
 * three steps (rows are added, never re-seeded):
 *
 *   small:  1,000 lender applications,  10,000 profiles (with tenants),  1,000 products
 *   medium: 10,000 lender applications, 100,000 profiles,               10,000 products
 *   large:  50,000 lender applications, 100,000 profiles,               10,000 products
 *
 * seeded with SQL (INSERT ... SELECT generate_series) in the shape the modules write: tenants of
 * one account with a profile each, 1,250 lenders with one product per product type, applications
 * spread over 20 lenders (the measured one holds a full page of 50 at every size) with the stored document submission writes (test/support/
 * lender-applications.ts), one delivered webhook (and its attempt) per application. At each step `npm start`'s
 * build (default configuration, bench/servers.ts) is started afresh (nothing cached from the
 * step before) and each list is loaded (bench/load.ts `load`): p50, p99, req/s and the server's
 * CPU per request. The target per list: p50 at the largest size within 1.5x of the smallest.
 *
 * Lists: the tenants list (first page, and the last page by offset and by cursor); the lender API's
 * application list for one lender (its default page); the staff board (GraphQL
 * lenderApplicationBoard, a page of 200); the staff webhook deliveries list (GraphQL
 * webhookDeliveries, a page of 200); the matching results for one profile, with
 * 1,000 and 10,000 products, where the profile's possible matches stay the same 100 products (the
 * added ones are for another country), so what grows is the catalogue searched, not the answer.
 *
 *
 * Beside the loaded lists, the queries the dashboard and the lender API really send are timed one
 * request at a time (p50 and p99 to a fraction of a millisecond, DATA_GROWTH_TIMED_REQUESTS each,
 * default 300): the dashboard's own board query with its totalCount and statusCounts
 * (web/dashboard/board-queries.ts BOARD, a page of 100), BOARD_ROW (one row again after a live
 * event, with the counts), and the lender API's list, first page and a page after the row 90% into
 * the measured lender's list. The applications and the board's counters are never vacuumed here
 * (autovacuum off for them; ANALYZE only), as a table just loaded or busy with writes: a step
 * `xlarge` of 250,000 applications is run with DATA_GROWTH_STEPS=large,xlarge, and
 * DATA_GROWTH_LOAD=false times these queries only.
 *
 * DATA_GROWTH_SECONDS (per list and size, default 6), DATA_GROWTH_WARMUP_SECONDS (default 2),
 * DATA_GROWTH_ROUNDS (default 3), DATA_GROWTH_CONNECTIONS (default 4), DATA_GROWTH_STEPS (e.g.
 * `small,medium`) tune it; DATABASE_URL names the PostgreSQL server.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createAccountWithUser, issueLenderCredentials } from '../src/modules/identity/bootstrap.js';
import { openDatabase } from '../src/infra/database.js';
import { applyMigrations } from '../src/infra/migrations.js';
import { ACME_ANSWERS } from '../test/support/answers.js';
import { storedApplicationDocument } from '../test/support/lender-applications.js';
import { databaseUrlFor } from '../test/support/postgres-admin.js';
import { buildServer, freePort, waitForHealth, type RunningProcess } from '../test/support/processes.js';
import { dropLeftoverDatabases, serverUrl } from './bench-databases.js';
import { load, type LoadSettings, type LoadTarget, type Row } from './load.js';
import { recordResults, type BenchResult } from './results.js';
import { startMeasuredServer } from './servers.js';
import { BOARD as DASHBOARD_BOARD, BOARD_ROW as DASHBOARD_BOARD_ROW } from '../web/dashboard/board-queries.js';

interface Step {
  name: string;
  applications: number;
  profiles: number;
  products: number;
}
const STEPS: Step[] = [
  { name: 'small', applications: 1_000, profiles: 10_000, products: 1_000 },
  { name: 'medium', applications: 10_000, profiles: 100_000, products: 10_000 },
  { name: 'large', applications: 50_000, profiles: 100_000, products: 10_000 },
  { name: 'xlarge', applications: 250_000, profiles: 100_000, products: 10_000 },
];
const only = process.env.DATA_GROWTH_STEPS?.split(',');
const steps = only ? STEPS.filter((s) => only.includes(s.name)) : STEPS;
const settings: LoadSettings = {
  seconds: Number(process.env.DATA_GROWTH_SECONDS ?? 6),
  warmUpSeconds: Number(process.env.DATA_GROWTH_WARMUP_SECONDS ?? 2),
  rounds: Number(process.env.DATA_GROWTH_ROUNDS ?? 3),
  connections: Number(process.env.DATA_GROWTH_CONNECTIONS ?? 4),
};

const PRODUCT_TYPES = [
  'ASSET_BACKED_FINANCE',
  'COMMERCIAL_PROPERTY',
  'E_COMMERCE_FUNDING',
  'FIXED_LOAN_TERMS',
  'INVOICE_FINANCE',
  'MERCHANT_CASH_ADVANCE',
  'TERM_LOAN',
  'TRADE_FINANCE',
];
const LENDERS = 1_250; // one product per type each: 10,000 products at most
// Applications spread over these: 20, so that the measured lender holds a full default page of 50 at
// every size (1,000 / 20), and its list is measured like for like (50 of 50 at 10k and 50k too).
const APPLYING_LENDERS = 20;
const STAFF = { email: 'bench-growth-staff@example.test', password: 'bench-password-123' };
const PAGE = 20;
// Each query the dashboard and the lender API really send, timed one request at a time.
const TIMED_REQUESTS = Number(process.env.DATA_GROWTH_TIMED_REQUESTS ?? 300);
// DATA_GROWTH_LOAD=false skips the loaded lists (autocannon) and times only the queries below.
const loadLists = process.env.DATA_GROWTH_LOAD !== 'false';
// The dashboard's page of the board (web/dashboard/board-view.ts BOARD_PAGE; that module is browser code).
const DASHBOARD_PAGE = 100;

/** A query timed one request at a time, to a fraction of a millisecond (autocannon's latencies are whole milliseconds). */
interface TimedQuery {
  list: string;
  /** Asked for just before the query is timed: a token issued at the step's start may expire on a slow machine. */
  authorization: () => Promise<string>;
  request: () => { path: string; method?: 'GET' | 'POST'; body?: string };
  /** What the answer must hold, checked once before timing. */
  check: (body: unknown) => void;
}

interface Timed {
  p50: number;
  p99: number;
  mean: number;
  requests: number;
}

async function timeQuery(url: string, query: TimedQuery): Promise<Timed> {
  const authorization = await query.authorization();
  const once = async () => {
    const request = query.request();
    const started = performance.now();
    const res = await fetch(`${url}${request.path}`, {
      method: request.method ?? 'GET',
      body: request.body,
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization },
    });
    const body = await res.text();
    const took = performance.now() - started;
    if (!res.ok) throw new Error(`${query.list}: ${res.status} ${body.slice(0, 300)}`);
    return { took, body };
  };
  query.check(JSON.parse((await once()).body));
  for (let i = 0; i < Math.min(30, TIMED_REQUESTS); i++) await once();
  const times: number[] = [];
  for (let i = 0; i < TIMED_REQUESTS; i++) times.push((await once()).took);
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99), mean: times.reduce((a, b) => a + b, 0) / times.length, requests: times.length };
}

/** The positions the timed queries read: an application deep in the measured lender's list (90% of the way), and one in the middle of the board. */
interface Probes {
  deepAfter: number;
  lenderRows: number;
  boardRowId: number;
}

async function probesOf(client: pg.Client, lenderId: number): Promise<Probes> {
  const lenderRows = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM lender_application WHERE "lenderId" = $1', [lenderId])).rows[0]!.n);
  const deep = await client.query<{ id: number }>('SELECT id FROM lender_application WHERE "lenderId" = $1 ORDER BY "createdAt", id OFFSET $2 LIMIT 1', [
    lenderId,
    Math.floor(lenderRows * 0.9),
  ]);
  const middle = await client.query<{ id: number }>(
    'SELECT id FROM lender_application ORDER BY id OFFSET (SELECT count(*) / 2 FROM lender_application) LIMIT 1',
  );
  return { deepAfter: deep.rows[0]!.id, lenderRows, boardRowId: middle.rows[0]!.id };
}

// The staff board and the deliveries: a full page (200 rows, the most a page holds) of each cursor connection.
const BOARD_ROW_FIELDS = 'id companyName lenderId lenderName productType amount status offer { id status } createdAt updatedAt';
const BOARD_QUERY = `query { lenderApplicationBoard(first: 200) { nodes { ${BOARD_ROW_FIELDS} } pageInfo { endCursor hasNextPage } } }`;
const DELIVERIES_QUERY =
  'query { webhookDeliveries(first: 200) { nodes { id lenderApplicationId status attempts createdAt attemptLog { statusCode latencyMs attemptedAt } } pageInfo { endCursor hasNextPage } } }';
const graphqlRequest = (query: string) => () => ({ path: '/graphql', method: 'POST' as const, body: JSON.stringify({ query }) });

/** What the rows look like after a step: counts per table, checked against the plan. */
async function seedTo(client: pg.Client, step: Step, accountId: string): Promise<void> {
  const count = async (table: string) => Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

  // Tenants of the bench account, each with a profile (as tenant onboarding leaves them); the
  // profiles the measurements create through the API are not tenants' and not counted.
  const tenants = async () => Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM tenant WHERE "accountId" = $1', [accountId])).rows[0]!.n);
  const profilesNow = await tenants();
  if (step.profiles > profilesNow) {
    await client.query(
      `INSERT INTO tenant (id, "accountId", "referenceId", environment, "createdDateTime", "updatedDateTime")
       SELECT gen_random_uuid(), $1, 'growth-' || i, 'demo', now() - make_interval(secs => $3 - i), now()
       FROM generate_series($2::int + 1, $3::int) AS i`,
      [accountId, profilesNow, step.profiles],
    );
    await client.query(
      `INSERT INTO profile (id, environment, "countryCode", "ownerAccountId", "tenantId", "companyInformation", "updatedAt")
       SELECT gen_random_uuid(), 'demo', 'GB', $1, t.id, jsonb_build_object('name', 'GROWTH ' || t."referenceId" || ' LTD'), now()
       FROM tenant t WHERE t."accountId" = $1 AND NOT EXISTS (SELECT 1 FROM profile p WHERE p."tenantId" = t.id)`,
      [accountId],
    );
  }

  // Products: the first 1,000 include 100 the bench profile may match (GB); every later one is for another country.
  const productsNow = await count('lender_product');
  if (step.products > productsNow) {
    await client.query(
      `INSERT INTO lender_product ("lenderId", "productType", name, "minAmount", "maxAmount", "minTermMonths", "maxTermMonths",
         "excludedSectors", "requiredSectors", "companyTypes", countries, currencies, "annualRateMin", "annualRateMax", "updatedAt")
       SELECT l.id, (ARRAY[${PRODUCT_TYPES.map((t) => `'${t}'`).join(',')}])[((i - 1) % 8) + 1]::"ProductType", 'Growth product ' || i,
         1000 + (i % 20) * 1000, 250000 + (i % 10) * 50000, 3, 60,
         '{}', '{}', '{SOLE_TRADER,LIMITED_LIABILITY_PARTNERSHIP,LIMITED_COMPANY,STARTUP}',
         CASE WHEN i <= 1000 AND i % 10 = 0 THEN '{GB}'::text[] ELSE '{FR}'::text[] END, '{GBP,EUR}', 5 + (i % 7), 12 + (i % 9), now()
       FROM generate_series($1::int + 1, $2::int) AS i
       JOIN lender l ON l.slug = 'growth-lender-' || ((i - 1) / 8 + 1)`,
      [productsNow, step.products],
    );
  }

  // Applications over the applying lenders, oldest first, each with its delivered APPLICATION_CREATED webhook.
  const applicationsNow = await count('lender_application');
  if (step.applications > applicationsNow) {
    const payload = storedApplicationDocument({ lenderId: 0, companyName: 'GROWTH LTD' });
    await client.query(
      `WITH numbered AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM profile WHERE "ownerAccountId" = $3 AND "tenantId" IS NOT NULL),
            lenders AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM lender WHERE slug LIKE 'growth-lender-%' ORDER BY id LIMIT ${APPLYING_LENDERS})
       INSERT INTO lender_application ("lenderId", "profileId", status, payload, "createdAt", "updatedAt")
       SELECT l.id, p.id, 'In Review', jsonb_set($4::jsonb, '{application,fundingMatch,lender,id}', to_jsonb(l.id)),
         now() - make_interval(secs => $2 - i), now() - make_interval(secs => $2 - i)
       FROM generate_series($1::int + 1, $2::int) AS i
       JOIN lenders l ON l.n = ((i - 1) % ${APPLYING_LENDERS}) + 1
       JOIN numbered p ON p.n = ((i - 1) % $5) + 1`,
      [applicationsNow, step.applications, accountId, JSON.stringify(payload), step.profiles],
    );
    await client.query(
      `INSERT INTO webhook_delivery (id, "lenderApplicationId", "lenderId", event, url, payload, status, attempts, "lastStatusCode", "deliveredAt", "createdAt", "updatedAt")
       SELECT gen_random_uuid(), a.id, a."lenderId", 'APPLICATION_CREATED', 'https://lender.invalid/webhooks', jsonb_build_object('applicationId', a.id), 'DELIVERED', 1, 204, a."createdAt", a."createdAt", a."createdAt"
       FROM lender_application a WHERE NOT EXISTS (SELECT 1 FROM webhook_delivery d WHERE d."lenderApplicationId" = a.id)`,
    );
    // The one attempt that delivered it, as the worker logs it.
    await client.query(
      `INSERT INTO webhook_delivery_attempt (id, "deliveryId", "statusCode", "latencyMs", "attemptedAt")
       SELECT gen_random_uuid(), d.id, 204, 40, d."deliveredAt" FROM webhook_delivery d
       WHERE NOT EXISTS (SELECT 1 FROM webhook_delivery_attempt x WHERE x."deliveryId" = d.id)`,
    );
  }
  await client.query('ANALYZE');
  const counts = {
    applications: await count('lender_application'),
    profiles: await tenants(),
    allProfiles: await count('profile'),
    products: await count('lender_product'),
    deliveries: await count('webhook_delivery'),
  };
  if (counts.applications !== step.applications || counts.profiles !== step.profiles || counts.products !== step.products)
    throw new Error(`seeding ${step.name}: ${JSON.stringify(counts)}`);
  console.log(`  seeded ${JSON.stringify(counts)}`);
}

async function send(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? {} : (res.json() as Promise<Record<string, unknown>>);
}

interface Credentials {
  lender: { clientId: string; clientSecret: string; username: string; password: string };
}

/** The lists of one step, measured against a freshly started server. */
async function measureStep(
  step: Step,
  url: string,
  credentials: Credentials,
  procs: RunningProcess[],
  probes: Probes,
): Promise<{ rows: Map<string, Row & { size: string }>; timed: Map<string, Timed & { size: string }> }> {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  // Rate limits raised: one address and one credential sending thousands of requests is the load generator, not abuse.
  const app = startMeasuredServer('src/processes/main.ts', {
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    SEED_DEMO_DATA: 'false',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: appUrl,
    RATE_LIMIT_PER_ADDRESS: '10000000',
    RATE_LIMIT_PER_CREDENTIAL: '10000000',
  });
  procs.push(app);
  await waitForHealth(appUrl, app);
  const pid = app.child.pid!;

  const login = await send(appUrl, 'POST', '/api/platform/v1/auth/login', STAFF);
  const staff = `Bearer ${login.access_token as string}`;
  const key = await send(
    appUrl,
    'POST',
    '/api/platform/v1/api-key',
    { name: `growth-${randomUUID()}`, scopes: ['profile:read', 'profile:write'] },
    { authorization: staff },
  );
  const platform = `Bearer ${(await send(appUrl, 'POST', '/api/platform/v1/auth/token', undefined, { 'x-api-key': key.key as string })).access_token as string}`;
  const marketplace = `Bearer ${(await send(appUrl, 'POST', `/api/marketplace/v1/auth/authorize?api_key=${encodeURIComponent(key.key as string)}`)).jwt as string}`;
  const { lender } = credentials;
  const lenderToken = await send(appUrl, 'POST', '/oauth/token', {
    grant_type: 'password',
    client_id: lender.clientId,
    client_secret: lender.clientSecret,
    username: lender.username,
    password: lender.password,
    scope: 'openid',
  });
  const lenderAuthorization = `Bearer ${lenderToken.id_token as string}`;
  const freshLender = async () =>
    `Bearer ${(await send(appUrl, 'POST', '/oauth/token', { grant_type: 'password', client_id: lender.clientId, client_secret: lender.clientSecret, username: lender.username, password: lender.password, scope: 'openid' })).id_token as string}`;
  const freshStaff = async () => `Bearer ${(await send(appUrl, 'POST', '/api/platform/v1/auth/login', STAFF)).access_token as string}`;

  // A new profile each step: its funding search is recorded against this step's catalogue.
  const v1 = '/api/marketplace/v1';
  const profile = (await send(appUrl, 'POST', `${v1}/profiles/blank`, undefined, { authorization: marketplace })).uuid as string;
  await send(appUrl, 'PUT', `${v1}/questionnaires/introducer-all-funding-products/profiles/${profile}/answers`, ACME_ANSWERS, { authorization: marketplace });
  const matches = (
    (await send(appUrl, 'GET', `${v1}/profiles/${profile}/funding/matches/results`, undefined, { authorization: marketplace })).matches as unknown[]
  ).length;

  const total = Number(
    ((await send(appUrl, 'GET', `/api/platform/v1/tenants?limit=1`, undefined, { authorization: platform })).meta as { total: number }).total,
  );
  // The cursor of the last page: the tenant just before it, in the list's order.
  const lastPageCursor = (
    (await send(appUrl, 'GET', `/api/platform/v1/tenants?offset=${Math.max(0, total - PAGE - 1)}&limit=1`, undefined, { authorization: platform }))
      .data as Array<{ id: string }>
  )[0]!.id;
  const lenderList = (await fetch(`${appUrl}/api/platform/v1/funding/applications`, { headers: { authorization: lenderAuthorization } }).then((r) =>
    r.json(),
  )) as unknown[];
  console.log(
    `  ${total} tenants in the account, the measured lender's first page holds ${lenderList.length} applications, the profile matches ${matches} of ${step.products} products`,
  );

  const targets: Array<LoadTarget<number> & { list: string }> = [
    {
      list: 'tenants list, first page (REST)',
      name: '',
      url: appUrl,
      pid,
      authorization: platform,
      items: [0],
      request: () => ({ path: `/api/platform/v1/tenants?offset=0&limit=${PAGE}` }),
    },
    {
      list: 'tenants list, deep page (REST, last page by offset)',
      name: '',
      url: appUrl,
      pid,
      authorization: platform,
      items: [Math.max(0, total - PAGE)],
      request: (offset) => ({ path: `/api/platform/v1/tenants?offset=${offset}&limit=${PAGE}` }),
    },
    {
      list: 'tenants list, deep page (REST, last page by cursor)',
      name: '',
      url: appUrl,
      pid,
      authorization: platform,
      items: [0],
      request: () => ({ path: `/api/platform/v1/tenants?after=${lastPageCursor}&limit=${PAGE}` }),
    },
    {
      list: 'lender API application list, one lender (REST)',
      name: '',
      url: appUrl,
      pid,
      authorization: lenderAuthorization,
      items: [0],
      request: () => ({ path: '/api/platform/v1/funding/applications' }),
    },
    {
      list: 'staff board (GraphQL lenderApplicationBoard)',
      name: '',
      url: appUrl,
      pid,
      authorization: staff,
      items: [0],
      request: graphqlRequest(BOARD_QUERY),
    },
    {
      list: 'webhook deliveries list (GraphQL webhookDeliveries)',
      name: '',
      url: appUrl,
      pid,
      authorization: staff,
      items: [0],
      request: graphqlRequest(DELIVERIES_QUERY),
    },
    {
      list: 'matching results, one profile (REST)',
      name: '',
      url: appUrl,
      pid,
      authorization: marketplace,
      items: [0],
      request: () => ({ path: `${v1}/profiles/${profile}/funding/matches/results` }),
    },
  ];
  // A GraphQL error is a 200: check each query once before loading it.
  for (const query of [BOARD_QUERY, DELIVERIES_QUERY]) {
    const body = await send(appUrl, 'POST', '/graphql', { query }, { authorization: staff, accept: 'application/json' });
    if (body.errors) throw new Error(`${query}: ${JSON.stringify(body.errors)}`);
  }

  // The queries the dashboard and the lender API really send, timed one at a time.
  const board = (data: unknown) =>
    (data as { data?: { lenderApplicationBoard?: { nodes: unknown[]; totalCount: number } }; errors?: unknown }).data?.lenderApplicationBoard;
  const timedQueries: TimedQuery[] = [
    {
      list: `dashboard board query with totalCount and statusCounts (GraphQL BOARD, first ${DASHBOARD_PAGE}, staff)`,
      authorization: freshStaff,
      request: () => ({
        path: '/graphql',
        method: 'POST',
        body: JSON.stringify({
          query: DASHBOARD_BOARD,
          variables: { filter: {}, first: DASHBOARD_PAGE, orderBy: { field: 'LAST_CHANGE', direction: 'DESC' } },
        }),
      }),
      check: (body) => {
        if (board(body)?.nodes.length !== DASHBOARD_PAGE || board(body)!.totalCount < step.applications)
          throw new Error(`BOARD: ${JSON.stringify(body).slice(0, 300)}`);
      },
    },
    {
      list: 'dashboard row after a live event, with the counts (GraphQL BOARD_ROW, staff)',
      authorization: freshStaff,
      request: () => ({
        path: '/graphql',
        method: 'POST',
        body: JSON.stringify({ query: DASHBOARD_BOARD_ROW, variables: { filter: { applicationId: probes.boardRowId }, counts: {} } }),
      }),
      check: (body) => {
        if (board(body)?.nodes.length !== 1) throw new Error(`BOARD_ROW: ${JSON.stringify(body).slice(0, 300)}`);
      },
    },
    {
      list: 'lender API application list, first page (REST)',
      authorization: freshLender,
      request: () => ({ path: '/api/platform/v1/funding/applications' }),
      check: (body) => {
        if (!Array.isArray(body) || body.length === 0) throw new Error('lender list: empty');
      },
    },
    {
      list: "lender API application list, deep page by cursor (REST, after the row 90% into the lender's list)",
      authorization: freshLender,
      request: () => ({ path: `/api/platform/v1/funding/applications?after=${probes.deepAfter}` }),
      check: (body) => {
        if (!Array.isArray(body) || body.length === 0) throw new Error('lender deep page: empty');
      },
    },
  ];
  const timed = new Map<string, Timed & { size: string }>();
  for (const query of timedQueries) {
    const result = await timeQuery(appUrl, query);
    console.log(`  ${query.list}: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms (${result.requests} one at a time)`);
    const size = query.list.includes('deep page')
      ? `${step.applications.toLocaleString('en-GB')} applications, page after row ${Math.floor(probes.lenderRows * 0.9).toLocaleString('en-GB')} of the lender's ${probes.lenderRows.toLocaleString('en-GB')}`
      : `${step.applications.toLocaleString('en-GB')} applications`;
    timed.set(query.list, { ...result, size });
  }

  const rows = new Map<string, Row & { size: string }>();
  for (const target of loadLists ? targets : []) {
    let row = await load({ ...target, name: `${target.list} @ ${step.name}` }, settings);
    const tooSlow = row.rps === 0;
    if (tooSlow) row = { ...row, ...(await oneAtATime(target, 3)) };
    console.log(
      `  ${target.list}: ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, CPU ${row.cpuMsPerRequest?.toFixed(2) ?? '?'} ms/request`,
    );
    const size = describe(step, target.list, { lenderApplications: lenderList.length, matches });
    rows.set(target.list, { ...row, size: tooSlow ? `${size}; no request completed within a slice, timed one at a time` : size });
  }
  await app.stop();
  procs.splice(procs.indexOf(app), 1);
  return { rows, timed };
}

/**
 * A list too slow for any request to complete within a slice (autocannon counts only completed
 * ones): timed one request at a time instead, so its figure is its latency, not a 0 that would pass.
 */
async function oneAtATime(target: LoadTarget<number> & { list: string }, count: number): Promise<Pick<Row, 'rps' | 'p50' | 'p99'>> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const request = target.request(target.items[0]!);
    const started = performance.now();
    const res = await fetch(`${target.url}${request.path}`, {
      method: request.method ?? 'GET',
      body: request.body,
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: target.authorization ?? '' },
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${target.list}: ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`  ${target.list}: no request completed within a slice; ${count} one at a time took ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
  return { rps: 1000 / (times.reduce((a, b) => a + b, 0) / count), p50: times[Math.floor(count / 2)]!, p99: times[count - 1]! };
}

function describe(step: Step, list: string, seen: { lenderApplications: number; matches: number }): string {
  if (list.startsWith('tenants')) return `${step.profiles.toLocaleString('en-GB')} tenants`;
  if (list.startsWith('lender API')) return `${step.applications.toLocaleString('en-GB')} applications, a page of ${seen.lenderApplications} of this lender's`;
  if (list.startsWith('matching')) return `${step.products.toLocaleString('en-GB')} products, ${seen.matches} matches`;
  return `${step.applications.toLocaleString('en-GB')} applications`;
}

const dbName = `fg_bench_growth_${process.pid}`;
/** The servers' data directory (their signing keys: the same across steps, so tokens stay valid), removed at the end. */
const dataDir = path.join(tmpdir(), dbName);
const procs: RunningProcess[] = [];
const started = Date.now();
const dropped = await dropLeftoverDatabases('growth_');
if (dropped.length) console.log(`dropped leftovers: ${dropped.join(', ')}`);
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
try {
  buildServer();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = databaseUrlFor(serverUrl, dbName);
  await applyMigrations(url);

  const db = await openDatabase({ databaseUrl: url, dataDir: 'unused', poolSize: 2, migrate: false });
  const { accountId } = await createAccountWithUser(db.prisma, { environment: 'demo', accountName: 'growth', role: 'STAFF', ...STAFF });
  const client = new pg.Client({ connectionString: url });
  // Dropping the database at the end (WITH FORCE) ends this connection if a failure skipped its close.
  client.on('error', () => {});
  await client.connect();
  await client.query(
    `INSERT INTO lender (name, slug, "applicationUrl", "requiredDocuments", "updatedAt")
     SELECT 'Growth Lender ' || i, 'growth-lender-' || i, 'https://lender.invalid/applications', '{}', now() FROM generate_series(1, ${LENDERS}) AS i`,
  );
  const measuredLender = (await client.query<{ id: number }>(`SELECT id FROM lender WHERE slug = 'growth-lender-1'`)).rows[0]!.id;
  const credentials: Credentials = { lender: await issueLenderCredentials(db.prisma, measuredLender, 'demo', 'http://127.0.0.1') };
  await db.close();

  const byList = new Map<string, Array<Row & { size: string; step: string }>>();
  const timedByList = new Map<string, Array<Timed & { size: string; step: string }>>();
  // As seeded: no VACUUM of the applications (autovacuum off for them in this database), so an
  // index-only scan or a count finds no visibility map set, as on a table just loaded or busy.
  for (const table of ['lender_application', 'application_count_by_lender', 'application_count_by_profile'])
    await client.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
  for (const step of steps) {
    console.log(`\ndata growth, ${step.name}: ${step.applications} applications, ${step.profiles} profiles, ${step.products} products`);
    const seedStarted = Date.now();
    await seedTo(client, step, accountId);
    console.log(`  (seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s)`);
    const measured = await measureStep(step, url, credentials, procs, await probesOf(client, measuredLender));
    for (const [list, row] of measured.rows) byList.set(list, [...(byList.get(list) ?? []), { ...row, step: step.name }]);
    for (const [list, row] of measured.timed) timedByList.set(list, [...(timedByList.get(list) ?? []), { ...row, step: step.name }]);
  }
  await client.end();

  const results: Array<Omit<BenchResult, 'suite'>> = [];
  console.log('\n| list | size | req/s | p50 ms | p99 ms | CPU ms/request |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const [list, rows] of byList) {
    const first = rows[0]!;
    const last = rows[rows.length - 1]!;
    for (const row of rows) {
      console.log(`| ${list} | ${row.size} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p99} | ${row.cpuMsPerRequest?.toFixed(2) ?? ''} |`);
      const judged = row === last && rows.length > 1;
      // A list none of whose requests completed within a slice has no p50: it failed, not 0 ms.
      const completed = first.rps > 0 && last.rps > 0;
      const growth = completed ? last.p50 / Math.max(first.p50, 1) : Number.POSITIVE_INFINITY;
      const cpuGrowth = first.cpuMsPerRequest && last.cpuMsPerRequest ? last.cpuMsPerRequest / first.cpuMsPerRequest : undefined;
      results.push({
        case: `${list}, ${row.step} (${row.size})`,
        perSecond: row.rps,
        p50Ms: row.p50,
        p99Ms: row.p99,
        cpuMsPerRequest: row.cpuMsPerRequest,
        ...(judged
          ? {
              baseline: `${list}, ${first.step} (${first.size})`,
              value: growth,
              unit: "x the smallest size's p50",
              target: 'p50 at the largest size <= 1.5x the smallest',
              met: completed && growth <= 1.5,
              note: completed
                ? `CPU per request ${cpuGrowth?.toFixed(2) ?? '?'}x the smallest size's; latency at ${settings.connections} connections, a p50 below 1 ms counted as 1 ms`
                : `no request completed within a ${(settings.seconds! / settings.rounds!).toFixed(1)} s slice at some size`,
            }
          : {}),
      });
    }
  }
  console.log(`\n(timed one request at a time, ${TIMED_REQUESTS} per query after a warm-up; tables as seeded, never vacuumed)`);
  console.log('| query | size | p50 ms | p99 ms | mean ms |');
  console.log('|---|---|---:|---:|---:|');
  for (const [list, rows] of timedByList) {
    const first = rows[0]!;
    const last = rows[rows.length - 1]!;
    for (const row of rows) {
      console.log(`| ${list} | ${row.size} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${row.mean.toFixed(2)} |`);
      const judged = row === last && rows.length > 1;
      // Judged on p50 with a floor of a millisecond: below it, a fraction's growth is noise on a shared machine.
      const growth = last.p50 / Math.max(first.p50, 1);
      results.push({
        case: `${list}, ${row.step} (${row.size})`,
        perSecond: 1000 / row.mean,
        p50Ms: Number(row.p50.toFixed(3)),
        p99Ms: Number(row.p99.toFixed(3)),
        ...(judged
          ? {
              baseline: `${list}, ${first.step} (${first.size})`,
              value: growth,
              unit: "x the smallest size's p50",
              target: 'p50 at the largest size <= 1.5x the smallest (a p50 below 1 ms counted as 1 ms)',
              met: growth <= 1.5,
              note: `one request at a time; p99 ${first.p99.toFixed(2)} -> ${last.p99.toFixed(2)} ms`,
            }
          : {}),
      });
    }
  }
  recordResults('data-growth', results);
  console.log(`\ndata growth: ${((Date.now() - started) / 1000).toFixed(0)} s`);
} finally {
  await Promise.all(procs.map((p) => p.stop()));
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  await admin.end();
  await rm(dataDir, { recursive: true, force: true });
}
