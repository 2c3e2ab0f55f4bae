/**
 * Lists that hold as data grows: every list statement the code issues is planned on an index, never
 * a sequential scan of a table that grows with use. The statements are the real ones: each list
 * operation is called with a caller who may read it, its SQL captured as it goes to PostgreSQL, and
 * then planned with `EXPLAIN (FORMAT JSON)` against a database seeded with a few thousand rows
 * (several lenders, accounts, tenants and profiles) and ANALYZEd, so the planner sees tables where a
 * scan costs more than an index.
 *
 * To cover another list, add a row to LISTS: its name and how to call it (the calls of one row may
 * issue several statements, e.g. a first page and the next; each is checked).
 */
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Actor } from '../src/kernel/actor.js';
import type { ServiceContext } from '../src/kernel/context.js';
import { openDatabase, type Database } from '../src/infra/database.js';
import { listBoardApplications } from '../src/modules/lender-applications/application-board.js';
import { listLenderApplications } from '../src/modules/lender-applications/lender-application-service.js';
import { listDeliveries } from '../src/modules/webhooks/webhook-delivery-list.js';
import { listLenderDeliveries } from '../src/modules/webhooks/lender-deliveries.js';
import { listLenderEvents } from '../src/modules/webhooks/lender-events.js';
import { readDeliveryBacklog } from '../src/modules/webhooks/delivery-backlog.js';
import { claimDueDeliveries } from '../src/modules/webhooks/delivery-attempt-store.js';
import { listReviewQueue } from '../src/modules/matching/review-selection-queue.js';
import { listTenants, listTenantsAfter } from '../src/modules/tenants/tenant-service.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

/** Tables whose rows grow with use: a sequential scan of one of them reads more as the data grows. */
const GROWING_TABLES = new Set([
  'account',
  'tenant',
  'profile',
  'funding_search',
  'funding_match',
  'review_selection',
  'lender_application',
  'application_status_change',
  'offer',
  'document',
  'case',
  'webhook_delivery',
  'webhook_delivery_attempt',
]);

const ACCOUNTS = 200;
const PROFILES = 12_000;

/** A few thousand rows of everything the lists read, spread over accounts, tenants, lenders and statuses. */
const SEED = `
INSERT INTO account (id, name, "updatedAt")
  SELECT ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'plan account ' || n, now() FROM generate_series(1, ${ACCOUNTS}) n;
INSERT INTO tenant (id, "accountId", "referenceId", "updatedDateTime")
  SELECT gen_random_uuid(), ('00000000-0000-4000-8000-' || lpad((1 + n % ${ACCOUNTS})::text, 12, '0'))::uuid, 'plan-' || n, now() FROM generate_series(1, ${PROFILES}) n;
-- A third of the profiles owned by an account's key, a third a tenant's, a third anonymous.
INSERT INTO profile (id, environment, "ownerAccountId", "tenantId", "updatedAt")
  SELECT gen_random_uuid(), 'demo',
    CASE WHEN n % 3 = 0 THEN ('00000000-0000-4000-8000-' || lpad((1 + n % ${ACCOUNTS})::text, 12, '0'))::uuid END,
    CASE WHEN n % 3 = 1 THEN t.id END, now()
  FROM generate_series(1, ${PROFILES}) n LEFT JOIN tenant t ON t."referenceId" = 'plan-' || n;
INSERT INTO funding_search ("profileId", amount, "updatedAt") SELECT id, 50000, now() FROM profile WHERE "ownerAccountId" IS NOT NULL OR "tenantId" IS NOT NULL;
-- Each search matched two products of the demo lenders; each match became an application.
INSERT INTO funding_match ("fundingSearchId", "lenderId", "productId", "productType", likelihood, "updatedAt")
  SELECT fs.id, lp."lenderId", lp.id, lp."productType", 0.5, now()
  FROM funding_search fs
  CROSS JOIN LATERAL (
    SELECT p.* FROM lender_product p JOIN lender l ON l.id = p."lenderId" AND l.environment = 'demo'
    ORDER BY (p.id * 7919 + fs.id) % 1009 LIMIT 2
  ) lp;
INSERT INTO lender_application ("lenderId", "profileId", "fundingMatchId", status, reference, payload, "createdAt", "updatedAt")
  SELECT fm."lenderId", fs."profileId", fm.id,
    (ARRAY['In Review', 'Client Declined', 'Offered', 'Failed', 'Rejected'])[1 + fm.id % 5], 'PLAN-' || fm.id,
    jsonb_build_object('application', jsonb_build_object('profile', jsonb_build_object('basicCompanyDetails', jsonb_build_object('companyName', 'PLAN ' || fm.id)), 'fundingSearch', jsonb_build_object('amount', 50000))),
    now() - make_interval(mins => fm.id), now() - make_interval(secs => (fm.id * 37) % 100000)
  FROM funding_match fm JOIN funding_search fs ON fs.id = fm."fundingSearchId";
-- Each application's moves: In Review, then (but for the submitted ones) the status it is in.
INSERT INTO application_status_change (id, "lenderApplicationId", "fromStatus", "toStatus", "createdAt")
  SELECT gen_random_uuid(), a.id, NULL, 'In Review', a."createdAt" FROM lender_application a;
INSERT INTO application_status_change (id, "lenderApplicationId", "fromStatus", "toStatus", "createdAt")
  SELECT gen_random_uuid(), a.id, 'In Review', a.status, a."updatedAt" FROM lender_application a WHERE a.status <> 'In Review';
INSERT INTO offer (id, "lenderApplicationId", reference, status, "productType", product, "updatedAt")
  SELECT gen_random_uuid(), a.id, 'PLAN-OFFER-' || a.id, 'INDICATIVE', 'TERM_LOAN', '{"maximumAmount": 100000, "term": 24}', now()
  FROM lender_application a WHERE a.status = 'Offered';
INSERT INTO webhook_delivery (id, "lenderApplicationId", "lenderId", event, url, payload, status, attempts, "createdAt", "updatedAt")
  SELECT gen_random_uuid(), a.id, a."lenderId", 'APPLICATION_CREATED', 'https://lender.invalid/hook', '{}',
    (ARRAY['PENDING', 'DELIVERED', 'DELIVERED', 'FAILED', 'DEAD']::"DeliveryStatus"[])[1 + a.id % 5], 1, a."createdAt", now()
  FROM lender_application a;
INSERT INTO webhook_delivery_attempt (id, "deliveryId", "statusCode", "latencyMs", "attemptedAt")
  SELECT gen_random_uuid(), d.id, 500, 120, d."createdAt" + make_interval(secs => k) FROM webhook_delivery d CROSS JOIN generate_series(1, 2) k;
INSERT INTO review_selection (id, "profileId", "fundingSearchId", selection, "contentHash", state, "createdAt", "updatedAt")
  SELECT gen_random_uuid(), fs."profileId", fs.id, '[]', md5(fs.id::text),
    (ARRAY['PENDING_REVIEW', 'IN_REVIEW', 'SUBMITTED', 'CLOSED']::"ReviewState"[])[1 + fs.id % 4], now() - make_interval(mins => fs.id), now()
  FROM funding_search fs;
ANALYZE;
`;

let testDatabase: TestDatabase;
let database: Database;
let explainer: pg.Client;
let lenderId: number;

/** Statements sent while `capturing` (the list reads; Prisma's and Kysely's alike): SELECTs unless a test asks for others. */
let captured: Array<{ text: string; values: unknown[] }> | null = null;
const SELECTS = /^\s*select\b/i;
let capturedKind = SELECTS;

function captureStatements(): void {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    const statement = typeof first === 'string' ? { text: first, values: second } : (first as { text?: string; values?: unknown[] } | undefined);
    if (captured && statement?.text && capturedKind.test(statement.text))
      captured.push({ text: statement.text, values: (statement.values as unknown[] | undefined) ?? [] });
    return query.apply(this, args);
  } as never);
}

const logger = pino({ level: 'silent' });
const contextOf = (actor: Actor) => ({ actor, environment: 'demo', requestedTenantId: null, db: database.prisma, logger }) as unknown as ServiceContext;
const staff: Actor = {
  kind: 'login',
  accountId: '00000000-0000-4000-8000-000000000001',
  userId: '00000000-0000-4000-8000-0000000000ff',
  role: 'STAFF',
  sessionEpoch: 0,
  scopes: ['staff'],
};
const member: Actor = {
  kind: 'login',
  accountId: '00000000-0000-4000-8000-000000000002',
  userId: '00000000-0000-4000-8000-0000000000fe',
  role: 'MEMBER',
  sessionEpoch: 0,
  scopes: [],
};
const lender = (): Actor => ({ kind: 'lender', lenderId, clientId: 'plan-client', scopes: [] });
const integrator: Actor = {
  kind: 'platform',
  accountId: '00000000-0000-4000-8000-000000000002',
  apiKeyId: '00000000-0000-4000-8000-0000000000fd',
  scopes: ['profile:read'],
};

/** Each list as the code reads it: a name, and the calls whose statements are checked. */
const LISTS: Array<{ name: string; run: () => Promise<unknown> }> = [
  { name: 'board, staff, a full page', run: () => listBoardApplications(contextOf(staff), {}, { first: 200 }) },
  {
    name: 'board, staff, the next page',
    run: async () => {
      const page = await listBoardApplications(contextOf(staff), {}, { first: 50 });
      return listBoardApplications(contextOf(staff), {}, { first: 50, after: page.pageInfo.endCursor! });
    },
  },
  { name: 'board, staff, by status', run: () => listBoardApplications(contextOf(staff), { status: 'Offered' }, { first: 200 }) },
  { name: 'board, staff, by lender', run: () => listBoardApplications(contextOf(staff), { lenderId }, { first: 200 }) },
  {
    name: 'board, staff, changed since',
    run: () => listBoardApplications(contextOf(staff), { updatedSince: new Date(Date.now() - 3_600_000).toISOString() }, { first: 200 }),
  },
  { name: "board, a member: its account's rows", run: () => listBoardApplications(contextOf(member), {}, { first: 200 }) },
  { name: 'board, a member, by status', run: () => listBoardApplications(contextOf(member), { status: 'In Review' }, { first: 200 }) },
  ...(['CREATED', 'AMOUNT', 'COMPANY', 'STATUS', 'LAST_CHANGE'] as const).flatMap((field) =>
    (['ASC', 'DESC'] as const).map((direction) => ({
      name: `board, staff, by ${field} ${direction}, the next page`,
      run: async () => {
        const page = await listBoardApplications(contextOf(staff), {}, { first: 50, orderBy: { field, direction } });
        return listBoardApplications(contextOf(staff), {}, { first: 50, after: page.pageInfo.endCursor!, orderBy: { field, direction } });
      },
    })),
  ),
  ...(['CREATED', 'AMOUNT', 'COMPANY'] as const).map((field) => ({
    name: `board, staff, by status, ordered by ${field}`,
    run: () => listBoardApplications(contextOf(staff), { status: 'Offered' }, { first: 200, orderBy: { field, direction: 'ASC' } }),
  })),
  ...(['CREATED', 'AMOUNT', 'COMPANY', 'STATUS'] as const).map((field) => ({
    name: `board, a member, ordered by ${field}`,
    run: () => listBoardApplications(contextOf(member), {}, { first: 200, orderBy: { field, direction: 'DESC' } }),
  })),
  { name: 'board, staff, search by company', run: () => listBoardApplications(contextOf(staff), { search: 'plan 12' }, { first: 50 }) },
  { name: 'board, staff, search by lender reference', run: () => listBoardApplications(contextOf(staff), { search: 'PLAN-77' }, { first: 50 }) },
  {
    name: 'board, staff, search by application id',
    run: () => listBoardApplications(contextOf(staff), { search: '77' }, { first: 50, orderBy: { field: 'COMPANY', direction: 'ASC' } }),
  },
  { name: 'board, a member, search', run: () => listBoardApplications(contextOf(member), { search: 'plan' }, { first: 50 }) },
  {
    name: 'board, staff, total and counts per status',
    run: async () => {
      const page = await listBoardApplications(contextOf(staff), { status: 'Offered' }, { first: 10 });
      return [await page.counts.total(), await page.counts.byStatus()];
    },
  },
  {
    name: 'board, staff, total and counts of a search',
    run: async () => {
      const page = await listBoardApplications(contextOf(staff), { search: 'plan 1' }, { first: 10 });
      return [await page.counts.total(), await page.counts.byStatus()];
    },
  },
  {
    name: 'board, a member, total and counts',
    run: async () => {
      const page = await listBoardApplications(contextOf(member), {}, { first: 10 });
      return [await page.counts.total(), await page.counts.byStatus()];
    },
  },
  { name: 'lender API, a full page', run: () => listLenderApplications(contextOf(lender()), { limit: 200 }) },
  {
    name: 'lender API, the next page',
    run: async () => {
      const page = await listLenderApplications(contextOf(lender()), { limit: 50 });
      return listLenderApplications(contextOf(lender()), { limit: 50, after: page.at(-1)!.application.id as number });
    },
  },
  { name: 'lender API, by reference', run: () => listLenderApplications(contextOf(lender()), { reference: 'PLAN-1', limit: 50 }) },
  { name: 'webhook deliveries, a full page', run: () => listDeliveries(contextOf(staff), {}, { first: 200 }) },
  {
    name: 'webhook deliveries, the next page',
    run: async () => {
      const page = await listDeliveries(contextOf(staff), {}, { first: 50 });
      return listDeliveries(contextOf(staff), {}, { first: 50, after: page.pageInfo.endCursor! });
    },
  },
  { name: 'webhook deliveries, the dead letters', run: () => listDeliveries(contextOf(staff), { status: 'DEAD' }, { first: 200 }) },
  { name: "lender API, a lender's deliveries, a full page", run: () => listLenderDeliveries(contextOf(lender()), { first: 200 }) },
  {
    name: "lender API, a lender's deliveries, the next page",
    run: async () => {
      const page = await listLenderDeliveries(contextOf(lender()), { first: 50 });
      return listLenderDeliveries(contextOf(lender()), { first: 50, after: page.pageInfo.endCursor! });
    },
  },
  { name: "lender API, a lender's failed deliveries", run: () => listLenderDeliveries(contextOf(lender()), { status: 'FAILED', first: 200 }) },
  { name: "lender API, a lender's events, the first page", run: () => listLenderEvents(contextOf(lender()), { first: 200 }) },
  {
    name: "lender API, a lender's events, the next page",
    run: async () => {
      const page = await listLenderEvents(contextOf(lender()), { first: 50 });
      return listLenderEvents(contextOf(lender()), { first: 50, after: page.pageInfo.endCursor! });
    },
  },
  { name: 'review queue, a full page', run: () => listReviewQueue(contextOf(staff), {}, { first: 200 }) },
  {
    name: 'review queue, the next page',
    run: async () => {
      const page = await listReviewQueue(contextOf(staff), {}, { first: 50 });
      return listReviewQueue(contextOf(staff), {}, { first: 50, after: page.pageInfo.endCursor! });
    },
  },
  { name: "tenants by cursor, an integrator's first page", run: () => listTenantsAfter(contextOf(integrator), null, 200) },
  {
    name: 'tenants by cursor, the next page',
    run: async () => {
      const first = await listTenantsAfter(contextOf(integrator), null, 50);
      expect(first.nextAfter).not.toBeNull();
      return listTenantsAfter(contextOf(integrator), first.nextAfter, 50);
    },
  },
  { name: 'review queue, by state', run: () => listReviewQueue(contextOf(staff), { state: 'PENDING_REVIEW' }, { first: 200 }) },
  { name: "tenants by offset, an integrator's first page and total", run: () => listTenants(contextOf(integrator), { offset: 0, limit: 20 }) },
  { name: "tenants by offset, an integrator's last page and total", run: () => listTenants(contextOf(integrator), { offset: 50, limit: 20 }) },
];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Parent Relationship'?: string;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** Runs `run`, which must send exactly one statement of this kind, and returns that statement's planned nodes (EXPLAIN, not run). */
async function planOfTheOneStatement(run: () => Promise<unknown>, kind = SELECTS): Promise<PlanNode[]> {
  captured = [];
  capturedKind = kind;
  try {
    await run();
  } finally {
    capturedKind = SELECTS;
  }
  const statements = captured;
  captured = null;
  expect(statements).toHaveLength(1);
  const { text, values } = statements[0]!;
  const explained = await explainer.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>({ text: `EXPLAIN (FORMAT JSON) ${text}`, values });
  return nodesOf(explained.rows[0]!['QUERY PLAN'][0]!.Plan);
}

function scansOf(node: PlanNode): Array<{ type: string; relation?: string }> {
  return [{ type: node['Node Type'], relation: node['Relation Name'] }, ...(node.Plans ?? []).flatMap(scansOf)];
}

beforeAll(async () => {
  // Installed before the pool opens its connections, which bind their query method once.
  captureStatements();
  testDatabase = await createTestDatabase();
  database = await openDatabase({ databaseUrl: testDatabase.url, dataDir: '', poolSize: 2, migrate: false });
  explainer = new pg.Client({ connectionString: testDatabase.url });
  await explainer.connect();
  await explainer.query(SEED);
  const busiest = await explainer.query<{ lenderId: number }>('SELECT "lenderId" FROM lender_application GROUP BY "lenderId" ORDER BY count(*) DESC LIMIT 1');
  lenderId = busiest.rows[0]!.lenderId;
}, 300_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await explainer?.end();
  await database?.close();
  await testDatabase?.drop();
});

describe('list statements on a seeded database', () => {
  it('the seed holds a few thousand rows per growing table', async () => {
    const counts = await explainer.query<{ applications: number; deliveries: number; selections: number }>(
      'SELECT (SELECT count(*) FROM lender_application)::int AS applications, (SELECT count(*) FROM webhook_delivery)::int AS deliveries, (SELECT count(*) FROM review_selection)::int AS selections',
    );
    expect(counts.rows[0]!.applications).toBeGreaterThan(2_000);
    expect(counts.rows[0]!.deliveries).toBeGreaterThan(2_000);
    expect(counts.rows[0]!.selections).toBeGreaterThan(1_000);
  });

  it.each(LISTS)('$name: one statement per page, no sequential scan of a growing table', async ({ run }) => {
    captured = [];
    const result = await run();
    const statements = captured;
    captured = null;
    expect(result).toBeDefined();
    expect(statements.length).toBeGreaterThan(0);
    for (const { text, values } of statements) {
      const explained = await explainer.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>({ text: `EXPLAIN (FORMAT JSON) ${text}`, values });
      const scans = scansOf(explained.rows[0]!['QUERY PLAN'][0]!.Plan);
      const seqScans = scans.filter((s) => s.type === 'Seq Scan' && s.relation !== undefined && GROWING_TABLES.has(s.relation));
      expect({ statement: text, seqScans }).toEqual({ statement: text, seqScans: [] });
    }
  });

  it("a tenants offset page and its total read the page's rows only, however deep (a seek by position; the list's last position)", async () => {
    captured = [];
    const page = await listTenants(contextOf(integrator), { offset: 40, limit: 10 });
    const statements = captured;
    captured = null;
    expect(page).toMatchObject({ total: 60, offset: 40, limit: 10 });
    expect(page.items).toHaveLength(10);
    expect(statements).toHaveLength(2);
    for (const { text, values } of statements) {
      const explained = await explainer.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>({ text: `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values });
      const tenantNodes = nodesOf(explained.rows[0]!['QUERY PLAN'][0]!.Plan).filter((node) => node['Relation Name'] === 'tenant');
      // Walking to offset 40 would read 50 rows, counting the account's tenants 60.
      expect({ statement: text, tenantNodes }).toEqual({
        statement: text,
        tenantNodes: tenantNodes.map((node) =>
          expect.objectContaining({ 'Node Type': expect.stringMatching(/^Index (Only )?Scan/), 'Actual Rows': expect.toSatisfy((rows: number) => rows <= 10) }),
        ),
      });
      expect(tenantNodes.length).toBeGreaterThan(0);
    }
  });

  it('the delivery backlog readiness reports is one statement on the partial index of the due undelivered deliveries', async () => {
    const nodes = await planOfTheOneStatement(() => readDeliveryBacklog(database.prisma, new Date()));
    const deliveryNodes = nodes.filter((node) => node['Relation Name'] === 'webhook_delivery');
    expect(deliveryNodes.map((node) => [node['Node Type'], node['Index Name']])).toEqual([
      [expect.stringMatching(/^Index (Only )?Scan$/), 'webhook_delivery_due_idx'],
    ]);
  });

  it("claiming due deliveries looks for an earlier undelivered one of each candidate's application with one index probe, not a scan", async () => {
    // Nothing is claimable a second before the epoch: only the statement is wanted (EXPLAIN does not run its UPDATE).
    const nodes = await planOfTheOneStatement(() => claimDueDeliveries(database.prisma, { now: new Date(0), lapseMs: 60_000, limit: 50 }), /^\s*with\b/i);
    const orderChecks = nodes.filter((node) => node['Index Name'] === 'webhook_delivery_undelivered_order_idx');
    expect(orderChecks).toEqual([
      expect.objectContaining({
        'Node Type': expect.stringMatching(/^Index (Only )?Scan$/),
        'Parent Relationship': 'SubPlan',
        'Index Cond': expect.stringMatching(/"lenderApplicationId" = d\."lenderApplicationId"/),
      }),
    ]);
  });

  it("the lender API's `after` page enters the lender's index at the cursor, however deep: the lender is a value, the cursor's position read once", async () => {
    const everyId = (
      await explainer.query<{ id: number }>('SELECT id FROM lender_application WHERE "lenderId" = $1 ORDER BY "createdAt", id', [lenderId])
    ).rows.map((r) => r.id);
    expect(everyId.length).toBeGreaterThan(200);
    // Deep in the list: all but the last 30 rows lie before the cursor.
    const after = everyId[everyId.length - 31]!;
    captured = [];
    const page = await listLenderApplications(contextOf(lender()), { limit: 10, after });
    const statements = captured;
    captured = null;
    expect(page.map((d) => d.application.id)).toEqual(everyId.slice(everyId.length - 30, everyId.length - 20));
    expect(statements).toHaveLength(1);
    const { text, values } = statements[0]!;
    const explained = await explainer.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>({ text: `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values });
    const listNodes = nodesOf(explained.rows[0]!['QUERY PLAN'][0]!.Plan).filter(
      (node) => node['Index Name'] === 'lender_application_lenderId_createdAt_id_idx',
    );
    // One range scan of the lender's index, starting at the cursor (the row comparison is an index
    // condition, not a filter), reading the page's rows only; the cursor's row is read by its key, once.
    expect(listNodes).toEqual([
      expect.objectContaining({
        'Node Type': 'Index Scan',
        'Index Cond': expect.stringMatching(/"lenderId" = \d+.*ROW\("createdAt", id\) > ROW/),
        'Actual Rows': expect.toSatisfy((rows: number) => rows <= 10),
      }),
    ]);
    const cursorNodes = nodesOf(explained.rows[0]!['QUERY PLAN'][0]!.Plan).filter(
      (node) => node['Relation Name'] === 'lender_application' && node['Index Name'] !== 'lender_application_lenderId_createdAt_id_idx',
    );
    expect(cursorNodes).toEqual([expect.objectContaining({ 'Index Name': 'lender_application_pkey', 'Parent Relationship': 'InitPlan' })]);
  });

  it('the row the dashboard reads again after a live event (BOARD_ROW) is looked up by its key, for staff and for a member', async () => {
    const [row] = (
      await explainer.query<{ id: number }>(
        `SELECT a.id FROM lender_application a JOIN profile p ON p.id = a."profileId" WHERE p."ownerAccountId" = $1 ORDER BY a."updatedAt" LIMIT 1`,
        [member.kind === 'login' ? member.accountId : ''],
      )
    ).rows;
    for (const caller of [staff, member]) {
      const nodes = await planOfTheOneStatement(() => listBoardApplications(contextOf(caller), { applicationId: row!.id }, { first: 1 }));
      const applicationNodes = nodes.filter((node) => node['Relation Name'] === 'lender_application');
      expect(applicationNodes).toEqual([
        expect.objectContaining({ 'Node Type': expect.stringMatching(/^Index (Only )?Scan$/), 'Index Name': 'lender_application_pkey' }),
      ]);
    }
  });

  it("the board's total and counts per status read the counters, never the applications (staff: per lender; a member: per profile of its account)", async () => {
    for (const [caller, counters] of [
      [staff, 'application_count_by_lender'],
      [member, 'application_count_by_profile'],
    ] as const) {
      for (const filter of [{}, { lenderId }, { status: 'Offered' }]) {
        const nodes = await planOfTheOneStatement(async () => {
          const page = await listBoardApplications(contextOf(caller), filter, { first: 1 });
          captured = [];
          return page.counts.byStatus();
        });
        expect(nodes.filter((node) => node['Relation Name'] === 'lender_application')).toEqual([]);
        // The per-lender counters grow with lenders times statuses only (a scan of them is fine);
        // the per-profile ones with profiles, so they are read by key, the account's profiles'.
        const counterNodes = nodes.filter((node) => node['Relation Name'] === counters);
        expect(counterNodes).toHaveLength(1);
        if (counters === 'application_count_by_profile') expect(counterNodes[0]!['Node Type']).toMatch(/^(Index (Only )?Scan|Bitmap Heap Scan)$/);
      }
    }
  });

  it('a page is one statement, whatever the number of rows', async () => {
    captured = [];
    await listBoardApplications(contextOf(staff), {}, { first: 200 });
    await listLenderApplications(contextOf(lender()), { limit: 200 });
    await listDeliveries(contextOf(staff), {}, { first: 200 });
    await listReviewQueue(contextOf(staff), {}, { first: 200 });
    const statements = captured;
    captured = null;
    expect(statements).toHaveLength(4);
  });
});
