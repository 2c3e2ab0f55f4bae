/**
 * Every stateless service as two replicas against one PostgreSQL and one Redis (issue 27), as real
 * processes (`start:service`), the way the Kubernetes manifests run them: two REST adapters, two
 * webhook workers, two gateways (over one process per subgraph), after the migration (`db:migrate`).
 *
 *  - A lender subscribed at gateway A hears a status change committed through REST adapter B, and
 *    one at gateway B a change through adapter A (Redis event bus -> applications subgraph -> gateway).
 *  - APPLICATIONS applications, each moved twice by its lender (acknowledgement, then rejection)
 *    through alternate adapters, queue two update webhooks each to a local lender answering 204 and,
 *    at random, 500 to one attempt in ten. Half-way through, one worker is killed with SIGKILL.
 *    Every delivery ends DELIVERED (nothing lost), each is answered 2xx exactly once (twice at most,
 *    with the same webhook-id lenders de-duplicate on, only for attempts already under way at the
 *    kill), an application's second change never reaches the lender before its first was accepted,
 *    and both workers delivered. Gateway A is SIGKILLed with it: a staff dashboard following every
 *    status change there reconnects to gateway B and catches up with the board's `updatedSince`;
 *    what it heard on A, the catch-up and what it hears on B give every application's last status.
 *  - Each process's metrics carry `service` and `instance` labels (INSTANCE_ID, else hostname/pid).
 *  - A per-credential rate limit of RATE_LIMIT requests a minute allows RATE_LIMIT in total across
 *    both adapters (counted in Redis), and the sign-in throttle refuses the sixth failed attempt for
 *    one email whichever adapter the attempts went to.
 *
 * Volume: the issue's 500 applications (1,000 deliveries, about 1,100 attempts), created in one
 * statement; their moves go ten at a time through the two adapters.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import http from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { redisAnswers, testRedisUrl as redisUrl } from './support/redis-availability.js';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../prisma/seed/demo-identities.js';
import { openDatabase, type Database } from '../src/infra/database.js';
import { API_KEY_SCOPES } from '../src/kernel/scopes.js';
import { issueLenderCredentials } from '../src/modules/identity/bootstrap.js';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { graphql, settle, subscribe, type GraphQLResponse } from './support/graphql-client.js';
import { bearer, createApiKey, lenderIdToken, platformToken, signIn } from './support/identities.js';
import { eventually } from './support/lender-receiver.js';
import { startEntry, waitForHealth, type RunningProcess } from './support/processes.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { postJson, testSigningKeys, type TestApp } from './support/test-app.js';

const APPLICATIONS = 500;
// Above the lender credential's own requests in the run (two moves per application within a
// minute or so), which the limit would otherwise refuse.
const RATE_LIMIT = 2 * APPLICATIONS + 200;

/** One request the lender received: which delivery (webhook-id), in which order, and what it answered. */
interface Receipt {
  id: string;
  seq: number;
  answered: number;
}

/** A lender answering 204, or 500 to about one attempt in ten. */
async function startFlakyLender(): Promise<{ url: string; receipts: Receipt[]; close(): Promise<void> }> {
  const receipts: Receipt[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answered = Math.random() < 0.1 ? 500 : 204;
      receipts.push({ id: String(req.headers['webhook-id']), seq: receipts.length, answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    receipts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface StatusEvent {
  applicationId: number;
  status: string;
}

/** A dashboard's live feed on one gateway (the stock graphql-ws client): every status change it hears. */
function follow(gateway: string, auth: Record<string, string>, heard: (event: StatusEvent) => void) {
  let closed!: () => void;
  const client = createClient({
    url: `${gateway.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams: auth,
    onNonLazyError: () => {},
  });
  const connected = new Promise<void>((resolve) => client.on('connected', () => resolve()));
  client.on('closed', () => closed());
  client.subscribe<{ applicationStatusChanged: StatusEvent }>(
    { query: 'subscription { applicationStatusChanged { applicationId status } }' },
    { next: (r) => r.data && heard(r.data.applicationStatusChanged), error: () => {}, complete: () => {} },
  );
  return { connected, closed: new Promise<void>((resolve) => (closed = resolve)), dispose: async () => client.dispose() };
}

/** The board rows changed at or after `since`, every page (the dashboard's catch-up after a reconnect). */
async function boardSince(gateway: string, auth: Record<string, string>, since: string): Promise<Array<{ id: number; status: string }>> {
  const rows: Array<{ id: number; status: string }> = [];
  for (let after: string | null = null; ;) {
    const page: GraphQLResponse<{
      lenderApplicationBoard: { nodes: Array<{ id: number; status: string }>; pageInfo: { endCursor: string | null; hasNextPage: boolean } };
    }> = await graphql(
      gateway,
      'query($filter: LenderApplicationFilter, $after: String) { lenderApplicationBoard(filter: $filter, first: 200, after: $after) { nodes { id status } pageInfo { endCursor hasNextPage } } }',
      { filter: { updatedSince: since }, after },
      auth,
    );
    expect(page.errors).toBeUndefined();
    rows.push(...page.data!.lenderApplicationBoard.nodes);
    if (!page.data!.lenderApplicationBoard.pageInfo.hasNextPage) return rows;
    after = page.data!.lenderApplicationBoard.pageInfo.endCursor;
  }
}

/** Runs `tasks` at most `width` at a time. */
async function inBatches<T>(tasks: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < tasks.length; i += width) results.push(...(await Promise.all(tasks.slice(i, i + width).map((t) => t()))));
  return results;
}

describe.skipIf(!(await redisAnswers(redisUrl)))('two replicas of every stateless service on one database and Redis', () => {
  let database: TestDatabase | undefined;
  let db: Database | undefined;
  let lender: Awaited<ReturnType<typeof startFlakyLender>> | undefined;
  const processes: RunningProcess[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await lender?.close();
    await db?.close();
    await database?.drop();
  });

  it('share events, deliveries, rate limits and throttles; a killed worker or gateway loses nothing', async () => {
    database = await createTestDatabase();
    lender = await startFlakyLender();
    // Below Linux's ephemeral range (32768+), where outgoing connections could take a port picked
    // early (freePort) before its process listens; apart from test/distributed.test.ts's 20000+.
    const base = 12_000 + randomInt(160) * 50;
    const ports = {
      restA: base,
      restB: base + 1,
      workerA: base + 2,
      workerB: base + 3,
      gatewayA: base + 4,
      gatewayB: base + 5,
      profiles: base + 11,
      matches: base + 12,
      applications: base + 13,
      tenants: base + 14,
    };
    const url = (port: number) => `http://127.0.0.1:${port}`;
    const [restA, restB, gatewayA, gatewayB] = [url(ports.restA), url(ports.restB), url(ports.gatewayA), url(ports.gatewayB)];
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      // One deployment's namespace, its own: every process shares it, and no other test's counters
      // or events on the shared Redis meet this run's.
      REDIS_KEY_PREFIX: `fg-test:replicas-${randomUUID().slice(0, 8)}:`,
      HOST: '127.0.0.1',
      // One issuer (the public address in front of both adapters), one key set, as the Secret gives them.
      PUBLIC_URL: restA,
      AUTH_SIGNING_KEYS: await testSigningKeys(),
      // What the gateways present to the subgraphs, as the subgraph Secret gives it to them.
      SUBGRAPH_SECRET: randomBytes(32).toString('base64url'),
      DEPLOY_ENV: 'demo',
      LOG_LEVEL: 'warn',
      WEBHOOK_RETRY_DELAYS: '0,0.2,0.2,0.2,0.2,0.2,0.2,0.2',
      RATE_LIMIT_PER_CREDENTIAL: String(RATE_LIMIT),
      // Client addresses from X-Forwarded-For (as behind an ingress): the sign-in check uses an
      // address of its own, so no other test's failures on 127.0.0.1 (shared Redis) count against it.
      TRUST_PROXY: 'loopback',
      PROFILES_URL: `${url(ports.profiles)}/graphql`,
      MATCHES_URL: `${url(ports.matches)}/graphql`,
      APPLICATIONS_URL: `${url(ports.applications)}/graphql`,
      TENANTS_URL: `${url(ports.tenants)}/graphql`,
    };
    const migrate = startEntry('src/processes/cli/migrate.ts', [], env);
    processes.push(migrate);
    expect(await new Promise<number | null>((resolve) => migrate.child.once('exit', resolve)), migrate.output()).toBe(0);

    const start = (service: string, port: number, extra: Record<string, string> = {}) => {
      const proc = startEntry('src/processes/service.ts', [service], { ...env, ...extra, PORT: String(port) });
      processes.push(proc);
      return proc;
    };
    // The workers log each attempt (info), so the test can tell which one delivered what.
    const workers = [start('worker', ports.workerA, { LOG_LEVEL: 'info' }), start('worker', ports.workerB, { LOG_LEVEL: 'info' })];
    const backends: Array<[RunningProcess, string]> = [
      [start('rest', ports.restA), restA],
      [start('rest', ports.restB), restB],
      [workers[0]!, url(ports.workerA)],
      [workers[1]!, url(ports.workerB)],
      ...(['profiles', 'matches', 'applications', 'tenants'] as const).map((s) => [start(s, ports[s]), url(ports[s])] as [RunningProcess, string]),
    ];
    await Promise.all(backends.map(([proc, base]) => waitForHealth(base, proc, 300_000)));
    const gateways: Array<[RunningProcess, string]> = [
      [start('gateway', ports.gatewayA, { INSTANCE_ID: 'gateway-a' }), gatewayA],
      [start('gateway', ports.gatewayB), gatewayB],
    ];
    await Promise.all(gateways.map(([proc, base]) => waitForHealth(base, proc, 300_000)));

    // 0. Each process's metrics name its service and its instance (INSTANCE_ID, else hostname/pid),
    // so the replicas of a service stay apart (demo: /metrics open on the main port).
    const labelsOf = async (base: string) => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith('process_cpu_user_seconds_total{'));
      return Object.fromEntries([...(line ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    };
    const host = hostname();
    expect(await labelsOf(restA)).toEqual({ service: 'rest', instance: `${host}/${backends[0]![0].child.pid}` });
    expect(await labelsOf(restB)).toEqual({ service: 'rest', instance: `${host}/${backends[1]![0].child.pid}` });
    expect(await labelsOf(url(ports.workerB))).toEqual({ service: 'worker', instance: `${host}/${workers[1]!.child.pid}` });
    expect(await labelsOf(gatewayA)).toEqual({ service: 'gateway', instance: 'gateway-a' });
    expect(await labelsOf(gatewayB)).toMatchObject({ service: 'gateway' });

    // A lender of its own (an id no other test's database uses: rate-limit keys in the shared Redis
    // name lenders by id), its webhooks to the flaky receiver, and its applications.
    db = await openDatabase({ databaseUrl: database.url, dataDir: 'unused', poolSize: 2, migrate: false });
    const prisma = db.prisma;
    const lenderRow = await prisma.lender.create({
      data: {
        id: 500_000 + randomInt(400_000),
        name: 'Replica Lender',
        slug: `replica-lender-${randomUUID().slice(0, 8)}`,
        applicationUrl: lender.url,
        updateUrl: lender.url,
      },
    });
    const credentials = await issueLenderCredentials(prisma, lenderRow.id, 'demo', restA);
    const lenderAuth = bearer(await lenderIdToken({ url: restA } as TestApp, credentials));
    const profile = await prisma.profile.create({ data: { environment: 'demo' } });
    const newApplication = async () =>
      (await prisma.lenderApplication.create({ data: { lenderId: lenderRow.id, profileId: profile.id, status: 'In Review', payload: { application: {} } } }))
        .id;
    const move = (base: string, id: string | number, change: 'acknowledgement' | 'rejection') =>
      postJson(
        `${base}/api/platform/v1/funding/applications/${id}/${change}`,
        change === 'acknowledgement' ? { reference: `REP-${id}` } : { reason: 'Ineligible' },
        lenderAuth,
      );

    // 1. A subscriber on one gateway hears a change committed through the other REST adapter.
    for (const [gateway, rest] of [
      [gatewayA, restB],
      [gatewayB, restA],
    ] as const) {
      const id = await newApplication();
      const events = await subscribe(gateway, 'subscription { applicationStatusChanged { applicationId status } }', {}, lenderAuth);
      try {
        await settle(800);
        expect((await move(rest, id, 'acknowledgement')).status).toBe(200);
        expect(await events.next()).toEqual({ data: { applicationStatusChanged: { applicationId: id, status: 'In Review' } } });
      } finally {
        await events.close();
      }
    }

    // 2. Deliveries from both adapters through both workers; one worker SIGKILLed half-way, and
    // gateway A with it. A dashboard (staff) following every status change on gateway A reconnects
    // to gateway B and catches up with the board's `updatedSince`, as web/dashboard does: together
    // with what it heard before and after, it knows every application's last status.
    const ids: Array<string | number> = (
      await prisma.lenderApplication.createManyAndReturn({
        data: Array.from({ length: APPLICATIONS }, () => ({
          lenderId: lenderRow.id,
          profileId: profile.id,
          status: 'In Review' as const,
          payload: { application: {} },
        })),
        select: { id: true },
      })
    ).map((row) => row.id);
    const staff = bearer(await signIn({ url: restA } as TestApp, DEMO_CREDENTIALS.staff.email, DEMO_CREDENTIALS.staff.password));
    const dashboard = { heardOnA: [] as StatusEvent[], lastHeardAt: Date.now(), heardOnB: [] as StatusEvent[] };
    const onA = follow(gatewayA, staff, (event) => {
      dashboard.heardOnA.push(event);
      dashboard.lastHeardAt = Date.now();
    });
    await onA.connected;
    await settle(800);
    const changeAll = (subset: Array<string | number>, offset: number) =>
      inBatches(
        subset.map((id, i) => async () => {
          const [first, second] = (offset + i) % 2 === 0 ? [restA, restB] : [restB, restA];
          const ack = await move(first, id, 'acknowledgement');
          expect(ack.status, await ack.clone().text()).toBe(200);
          const rejection = await move(second, id, 'rejection');
          expect(rejection.status, await rejection.clone().text()).toBe(200);
        }),
        10,
      );
    const half = Math.floor(APPLICATIONS / 2);
    await changeAll(ids.slice(0, half), 0);
    // Kill while the first half is still being delivered (some attempts in flight).
    await eventually(
      async () => lender!.receipts.length,
      (n) => n >= half / 2,
      120_000,
    );
    workers[0]!.child.kill('SIGKILL');
    gateways[0]![0].child.kill('SIGKILL');
    await onA.closed;
    // The receiver numbers an attempt once its body has arrived, so an attempt the killed worker sent
    // just before the kill may be numbered a moment after it: every attempt numbered within 2 s of
    // the kill counts as possibly under way at it.
    await settle(2_000);
    const killedAt = lender.receipts.length;
    // Reconnected to the other gateway, then caught up on everything changed since a little before
    // the last event heard (a row the catch-up and an event both bring is simply read twice).
    const onB = follow(gatewayB, staff, (event) => dashboard.heardOnB.push(event));
    await onB.connected;
    await settle(800);
    const caughtUp = await boardSince(gatewayB, staff, new Date(dashboard.lastHeardAt - 2_000).toISOString());
    await changeAll(ids.slice(half), half);

    const deliveries = await eventually(
      () => prisma.webhookDelivery.findMany({ where: { lenderId: lenderRow.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
      (rows) => rows.length === 2 * APPLICATIONS + 2 && rows.every((d) => d.status === 'DELIVERED'),
      240_000,
    );
    const byId = new Map<string, Receipt[]>();
    for (const receipt of lender.receipts) byId.set(receipt.id, [...(byId.get(receipt.id) ?? []), receipt]);
    for (const delivery of deliveries) {
      const receipts = byId.get(delivery.id) ?? [];
      const accepted = receipts.filter((r) => r.answered < 300);
      const underWayAtKill = receipts.some((r) => r.seq < killedAt);
      // Answered 2xx once; a second time only if its attempt may have been cut short by the kill.
      expect(accepted.length, `${delivery.id}: ${JSON.stringify(receipts)}`).toBeGreaterThanOrEqual(1);
      expect(accepted.length, `${delivery.id}: ${JSON.stringify(receipts)}`).toBeLessThanOrEqual(underWayAtKill ? 2 : 1);
    }
    expect(new Set(lender.receipts.map((r) => r.id))).toEqual(new Set(deliveries.map((d) => d.id)));
    expect(lender.receipts.some((r) => r.answered === 500)).toBe(true);
    // In order per application: its later delivery reaches the lender only after the earlier one was accepted.
    const perApplication = new Map<number | string, typeof deliveries>();
    for (const d of deliveries) perApplication.set(d.lenderApplicationId, [...(perApplication.get(d.lenderApplicationId) ?? []), d]);
    for (const [application, rows] of perApplication) {
      for (let i = 1; i < rows.length; i++) {
        const earlierAccepted = Math.min(
          ...byId
            .get(rows[i - 1]!.id)!
            .filter((r) => r.answered < 300)
            .map((r) => r.seq),
        );
        const laterFirstSeen = Math.min(...byId.get(rows[i]!.id)!.map((r) => r.seq));
        expect(laterFirstSeen, `application ${application}`).toBeGreaterThan(earlierAccepted);
      }
    }
    // Both workers delivered (each logs its attempts).
    const delivered = (w: RunningProcess) =>
      w
        .output()
        .split('\n')
        .filter((l) => l.includes('"msg":"webhook delivery attempt"') && l.includes('"outcome":"delivered"')).length;
    expect(delivered(workers[0]!), 'the killed worker delivered before the kill').toBeGreaterThan(0);
    expect(delivered(workers[1]!), 'the surviving worker delivered').toBeGreaterThan(0);

    // The dashboard lost nothing: its last word on every application is the final one, Rejected.
    await eventually(
      async () => dashboard.heardOnB.filter((e) => e.status === 'Rejected').length,
      (n) => n >= APPLICATIONS - half,
      60_000,
    );
    await onB.dispose();
    const lastStatus = new Map<number, string>();
    for (const event of dashboard.heardOnA) lastStatus.set(event.applicationId, event.status);
    for (const row of caughtUp) lastStatus.set(row.id, row.status);
    for (const event of dashboard.heardOnB) lastStatus.set(event.applicationId, event.status);
    expect(ids.map((id) => [id, lastStatus.get(Number(id))])).toEqual(ids.map((id) => [id, 'Rejected']));
    expect(dashboard.heardOnA.length, 'events heard on gateway A before its kill').toBeGreaterThan(0);

    // 3. One credential's rate limit counts across both adapters (Redis), and so does the sign-in throttle.
    const app = { url: restA } as TestApp;
    const login = await signIn(app, DEMO_CREDENTIALS.integrator.email, DEMO_CREDENTIALS.integrator.password);
    const key = await createApiKey(app, login, { name: `replicas-${randomUUID()}`, scopes: [...API_KEY_SCOPES] });
    const token = bearer((await platformToken(app, key.key)).access_token);
    const statuses = await inBatches(
      Array.from(
        { length: RATE_LIMIT + 20 },
        (_, i) => async () => (await fetch(`${i % 2 === 0 ? restA : restB}/api/platform/v1/tenants`, { headers: token })).status,
      ),
      20,
    );
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect(statuses.filter((s) => s !== 429).every((s) => s === 200)).toBe(true);

    const email = `nobody-${randomUUID()}@example.test`;
    const from = { 'x-forwarded-for': `198.19.${randomInt(250)}.${randomInt(1, 250)}` };
    const attempts: number[] = [];
    for (let i = 0; i < 6; i++)
      attempts.push((await postJson(`${i % 2 === 0 ? restA : restB}/api/platform/v1/auth/login`, { email, password: 'wrong' }, from)).status);
    expect(attempts).toEqual([401, 401, 401, 401, 401, 429]);
  }, 900_000);
});
