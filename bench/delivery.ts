/**
 * `npm run bench` (fourth part): webhook delivery and live events, on a real PostgreSQL.
 *  - Worker capacity: N deliveries (outbox rows, as the services queue them) are committed in one
 *    transaction while the system's worker (`npm start`, its own process) idles, so every delivery
 *    is due when it starts; timed from that commit until the local lender (answering 204)
 *    has them all. Baseline in the same run, interleaved: N bare POSTs from a thread of this process
 *    to the same lender, as many at a time as the worker runs attempts, over kept-alive connections.
 *  - End to end: deliveries queued one transaction at a time by another process while the worker
 *    drains, then again with 10% of first attempts failing (retried after 0.1 s). That producer is
 *    bound by one commit (a WAL flush) per delivery, so the same is measured as the system is fed:
 *    BENCH_CLIENTS lenders' acknowledgement POSTs at a time through the REST API, each committing
 *    its status change with its APPLICATION_UPDATED delivery (the worker woken by its NOTIFY).
 *  - Event latency: a lender acknowledges applications through the REST API while subscribed over
 *    graphql-ws at the gateway; the time from the POST until the event arrives, next to the POST's
 *    own round trip.
 */
import { once } from 'node:events';
import os from 'node:os';
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { Agent, request } from 'undici';
import { recordResults } from './results.js';
import { loadConfig } from '../src/kernel/config.js';
import { issueLenderCredentials } from '../src/modules/identity/bootstrap.js';
import { queueDelivery } from '../src/modules/webhooks/webhook-delivery.js';
import { DELIVERY_CONCURRENCY } from '../src/processes/delivery-worker.js';
import { applyMigrations } from '../src/infra/migrations.js';
import { startRuntime } from '../src/processes/runtime.js';
import { insertDemoLenders } from '../prisma/seed/seed-demo-data.js';
import { adminQuery, databaseUrlFor } from '../test/support/postgres-admin.js';
import { buildServer, freePort, waitForHealth, type RunningProcess } from '../test/support/processes.js';
import { startMeasuredServer } from './servers.js';
import { commandCpuMs, treeCpuMs } from './process-cpu.js';

const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 400);
/** Deliveries fed by requests: enough for several seconds at the target rate, so one stall or autovacuum pass does not decide the figure. */
const FED_DELIVERIES = Number(process.env.BENCH_FED_DELIVERIES ?? 2500);
const PREQUEUED = Number(process.env.BENCH_PREQUEUED ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);

/** The baseline client: undici's request, as the worker uses it, and nothing else per POST. */
const BARE_POSTS_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { Agent, request } = require('undici');
const { url, count, concurrency } = workerData;
const dispatcher = new Agent({ keepAliveTimeout: 4000 });
const start = performance.now();
let next = 0;
Promise.all(Array.from({ length: concurrency }, async () => {
  while (next < count) {
    next++;
    const res = await request(url, { method: 'POST', body: '{"application":{"id":1}}', dispatcher, headers: { 'content-type': 'application/json', 'webhook-id': 'raw-' + Math.random() } });
    await res.body.dump();
  }
})).then(() => parentPort.postMessage((performance.now() - start) / 1000));
`;

/**
 * CPU per delivery (ms) of each process on the machine while requests feed the queue: the system's
 * server, PostgreSQL (every backend), and this process (the lenders' POSTs and the lender answering
 * the deliveries). Their sum bounds the rate the machine can reach: cores x 1000 / sum per second.
 */
interface CpuSplit {
  server: number;
  postgres: number;
  bench: number;
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;

/** A local lender: 204, or 500 on a first attempt with probability `failRate`. */
async function startLender(failRate: () => number): Promise<{ url: string; delivered: Set<string>; close(): Promise<void> }> {
  const delivered = new Set<string>();
  const attempted = new Set<string>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? Math.random());
      const first = !attempted.has(id);
      attempted.add(id);
      if (first && Math.random() < failRate()) return void res.writeHead(500).end();
      delivered.add(id);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, delivered, close: () => new Promise((r) => server.close(() => r())) };
}

const dbName = `fg_bench_delivery_${process.pid}`;
const procs: RunningProcess[] = [];
let failRate = 0;
const lender = await startLender(() => failRate);
try {
  buildServer();
  await adminQuery(serverUrl, `CREATE DATABASE ${dbName}`);
  const url = databaseUrlFor(serverUrl, dbName);
  await applyMigrations(url);
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const env = { DATABASE_URL: url, SEED_DEMO_DATA: 'false', HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: appUrl, WEBHOOK_RETRY_DELAYS: '0,0.1,0.1,0.1' };
  // This process queues deliveries as the services do; the system's worker (another process) delivers.
  const runtime = await startRuntime(loadConfig({}, { ...env, PORT: 0, WEBHOOK_RETRY_DELAYS: [0, 0.1], LOG_LEVEL: 'silent' } as never), {
    prepareDatabase: false,
  });
  const db = runtime.database.prisma;
  await insertDemoLenders(db);
  const lenderRow = await db.lender.findFirstOrThrow({ orderBy: { id: 'asc' } });
  // Created and updated applications alike are delivered to the local lender.
  await db.lender.update({ where: { id: lenderRow.id }, data: { applicationUrl: lender.url, updateUrl: null } });
  const credentials = await issueLenderCredentials(db, lenderRow.id, 'demo', appUrl);
  const profile = await db.profile.create({ data: { environment: 'demo' } });

  const app = startMeasuredServer('src/processes/main.ts', env);
  procs.push(app);
  await waitForHealth(appUrl, app);
  /** CPU used so far by the system's process (and any process it started), from /proc: the figure that holds on a shared machine. */
  const serverCpuMs = () => treeCpuMs(app.child.pid!);

  async function deliveryRun(label: string): Promise<{ label: string; perSecond: number; seconds: number; queuedPerSecond: number }> {
    const applications = await Promise.all(
      Array.from({ length: DELIVERIES }, () => db.lenderApplication.create({ data: { lenderId: lenderRow.id, profileId: profile.id, status: 'In Review' } })),
    );
    const before = lender.delivered.size;
    const start = performance.now();
    for (const a of applications) {
      await db.$transaction((tx) =>
        queueDelivery(runtime.contextFor(), tx, {
          lenderApplicationId: a.id,
          lenderId: lenderRow.id,
          event: 'APPLICATION_CREATED',
          url: lender.url,
          payload: { application: { id: a.id } },
        }),
      );
    }
    // The rate of the producer itself (one commit per delivery): deliveries cannot outpace it.
    const queuedPerSecond = DELIVERIES / ((performance.now() - start) / 1000);
    while (lender.delivered.size - before < DELIVERIES) await new Promise((r) => setTimeout(r, 20));
    const seconds = (performance.now() - start) / 1000;
    return { label, perSecond: DELIVERIES / seconds, seconds, queuedPerSecond };
  }

  /** A lender's id token, for its REST calls (acknowledgements). */
  async function lenderToken(): Promise<string> {
    const res = await fetch(`${appUrl}/oauth/token`, {
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
    });
    return ((await res.json()) as { id_token: string }).id_token;
  }

  /**
   * The lenders' HTTP client: undici's request over kept-alive connections, as the baseline's thread
   * uses it. fetch cost this process (the load generator, sharing the machine) several times as much
   * CPU per POST; the server receives the same requests either way.
   */
  const lenderClients = new Agent({ keepAliveTimeout: 4000, connections: CLIENTS });

  /**
   * End to end through the request path: `count` applications acknowledged by the lender through
   * REST, CLIENTS POSTs at a time; each POST commits the status change and its delivery. Timed from
   * the first POST until the lender has every delivery.
   */
  async function requestFedRun(
    label: string,
    idToken: string,
    count: number,
  ): Promise<{ label: string; perSecond: number; seconds: number; postsPerSecond: number; cpuSplit: CpuSplit }> {
    const applications = await Promise.all(
      Array.from({ length: count }, () => db.lenderApplication.create({ data: { lenderId: lenderRow.id, profileId: profile.id, status: 'In Review' } })),
    );
    const before = lender.delivered.size;
    const cpuBefore = serverCpuMs();
    const postgresBefore = commandCpuMs('postgres');
    const ownBefore = process.cpuUsage();
    const start = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < applications.length) {
          const a = applications[next++]!;
          const res = await request(`${appUrl}/api/platform/v1/funding/applications/${a.id}/acknowledgement`, {
            method: 'POST',
            dispatcher: lenderClients,
            // What fetch sends that the server acts on: the answer is compressed as it is for fetch.
            headers: { 'content-type': 'application/json', accept: '*/*', 'accept-encoding': 'gzip, deflate', authorization: `Bearer ${idToken}` },
            body: JSON.stringify({ reference: `R-${a.id}` }),
          });
          await res.body.dump();
          if (res.statusCode !== 200) throw new Error(`acknowledgement ${res.statusCode}`);
        }
      }),
    );
    // The rate of the requests themselves: deliveries cannot outpace what feeds them.
    const postsPerSecond = count / ((performance.now() - start) / 1000);
    while (lender.delivered.size - before < count) await new Promise((r) => setTimeout(r, 20));
    const seconds = (performance.now() - start) / 1000;
    const own = process.cpuUsage(ownBefore);
    const cpuSplit = {
      server: (serverCpuMs() - cpuBefore) / count,
      postgres: (commandCpuMs('postgres') - postgresBefore) / count,
      bench: (own.user + own.system) / 1000 / count,
    };
    return { label, perSecond: count / seconds, seconds, postsPerSecond, cpuSplit };
  }

  /** N deliveries committed at once while the worker idles; seconds from the commit to the last one delivered. */
  async function drainRun(count: number): Promise<{ seconds: number; firstArrivalSeconds: number; cpuMs: number }> {
    const applications = await Promise.all(
      Array.from({ length: count }, () => db.lenderApplication.create({ data: { lenderId: lenderRow.id, profileId: profile.id, status: 'In Review' } })),
    );
    const before = lender.delivered.size;
    // Read before the commit: its NOTIFY starts the worker at once. The server idles until then.
    const cpuBefore = serverCpuMs();
    await db.$transaction(
      async (tx) => {
        for (const a of applications) {
          await queueDelivery(runtime.contextFor(), tx, {
            lenderApplicationId: a.id,
            lenderId: lenderRow.id,
            event: 'APPLICATION_CREATED',
            url: lender.url,
            payload: { application: { id: a.id } },
          });
        }
      },
      { timeout: 600_000 },
    );
    const start = performance.now();
    let firstArrival = 0;
    while (lender.delivered.size - before < count) {
      if (!firstArrival && lender.delivered.size > before) firstArrival = performance.now();
      await new Promise((r) => setTimeout(r, 5));
    }
    return {
      seconds: (performance.now() - start) / 1000,
      firstArrivalSeconds: ((firstArrival || performance.now()) - start) / 1000,
      cpuMs: serverCpuMs() - cpuBefore,
    };
  }

  /**
   * The same number of bare POSTs to the same lender, DELIVERY_CONCURRENCY at a time over kept-alive
   * connections, from a thread of its own (as the worker has a process of its own): seconds taken.
   */
  async function barePosts(count: number): Promise<number> {
    const thread = new Worker(BARE_POSTS_THREAD, { eval: true, workerData: { url: lender.url, count, concurrency: DELIVERY_CONCURRENCY } });
    const [seconds] = (await once(thread, 'message')) as [number];
    await thread.terminate();
    return seconds;
  }

  console.log(
    `webhook delivery: ${PREQUEUED} pre-queued deliveries x ${ROUNDS} rounds; ${DELIVERIES} per end-to-end case queued one transaction at a time, ${FED_DELIVERIES} fed by requests`,
  );
  await drainRun(200);
  await barePosts(200);
  let workerSeconds = 0;
  let baselineSeconds = 0;
  let firstArrivalSeconds = 0;
  let drainCpuMs = 0;
  for (let round = 0; round < ROUNDS; round++) {
    baselineSeconds += await barePosts(PREQUEUED);
    const drained = await drainRun(PREQUEUED);
    workerSeconds += drained.seconds;
    drainCpuMs += drained.cpuMs;
    firstArrivalSeconds = Math.max(firstArrivalSeconds, drained.firstArrivalSeconds);
  }
  const baseline = {
    label: `baseline: bare POSTs to the lender (${DELIVERY_CONCURRENCY} at a time, kept alive, own thread)`,
    perSecond: (PREQUEUED * ROUNDS) / baselineSeconds,
  };
  const drain = { label: `worker draining ${PREQUEUED} pre-queued deliveries, lender answers 204`, perSecond: (PREQUEUED * ROUNDS) / workerSeconds };
  const clean = await deliveryRun('delivered by the worker, lender answers 204');
  failRate = 0.1;
  const flaky = await deliveryRun('delivered by the worker, 10% of first attempts fail');
  failRate = 0;
  const token = { id_token: await lenderToken() };
  // The acknowledgement path warmed up first, as the worker is (drainRun(200)): a server serves warm.
  await requestFedRun('warm-up', token.id_token, Math.ceil(FED_DELIVERIES / 2));
  const requestFed = await requestFedRun(
    `delivered by the worker, queued by ${CLIENTS} lenders' acknowledgement POSTs at a time (REST)`,
    token.id_token,
    FED_DELIVERIES,
  );

  // Event latency: acknowledge through REST, the subscriber at the gateway receives the event.
  const client = createClient({
    url: `${appUrl.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token.id_token}` },
  });
  const arrivals = new Map<number, number>();
  const subscribed = new Promise<void>((resolve) => {
    client.subscribe(
      { query: 'subscription { applicationStatusChanged { applicationId } }' },
      {
        next: (r) =>
          arrivals.set((r.data as { applicationStatusChanged: { applicationId: number } }).applicationStatusChanged.applicationId, performance.now()),
        error: (e) => console.error(e),
        complete: () => {},
      },
    );
    setTimeout(resolve, 1000);
  });
  await subscribed;
  const eventLatencies: number[] = [];
  const postLatencies: number[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const a = await db.lenderApplication.create({ data: { lenderId: lenderRow.id, profileId: profile.id, status: 'In Review' } });
    const start = performance.now();
    const res = await fetch(`${appUrl}/api/platform/v1/funding/applications/${a.id}/acknowledgement`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.id_token}` },
      body: JSON.stringify({ reference: `B-${a.id}` }),
    });
    postLatencies.push(performance.now() - start);
    if (res.status !== 200) throw new Error(`acknowledgement ${res.status}`);
    while (!arrivals.has(a.id)) await new Promise((r) => setTimeout(r, 1));
    eventLatencies.push((arrivals.get(a.id) as number) - start);
  }
  await client.dispose();
  eventLatencies.sort((x, y) => x - y);
  postLatencies.sort((x, y) => x - y);

  console.log('\n| case | deliveries/s | ratio to baseline |');
  console.log('|---|---:|---:|');
  console.log(`| ${baseline.label} | ${baseline.perSecond.toFixed(0)} | 1.00 (baseline) |`);
  for (const row of [drain, clean, flaky, requestFed])
    console.log(`| ${row.label} | ${row.perSecond.toFixed(0)} | ${(row.perSecond / baseline.perSecond).toFixed(2)} |`);
  const drainCpuMsPerDelivery = drainCpuMs / (PREQUEUED * ROUNDS);
  console.log(
    `\nserver CPU (process tree, /proc): ${drainCpuMsPerDelivery.toFixed(2)} ms per pre-queued delivery drained; ${requestFed.cpuSplit.server.toFixed(2)} ms per acknowledgement POST and its delivery`,
  );
  const split = requestFed.cpuSplit;
  const splitTotal = split.server + split.postgres + split.bench;
  const cores = os.cpus().length;
  const splitLine = `CPU per request-fed delivery: server ${split.server.toFixed(2)} ms, PostgreSQL ${split.postgres.toFixed(2)} ms, load generator and lender (this process) ${split.bench.toFixed(2)} ms; ${splitTotal.toFixed(2)} ms in all, so ${cores} cores reach at most ${((cores * 1000) / splitTotal).toFixed(0)}/s`;
  console.log(`\n${splitLine}`);
  console.log(
    `\nwhat fed the end-to-end cases: one transaction at a time ${clean.queuedPerSecond.toFixed(0)}/s and ${flaky.queuedPerSecond.toFixed(0)}/s; acknowledgement POSTs ${requestFed.postsPerSecond.toFixed(0)}/s`,
  );
  console.log(`\nfirst delivery after the commit of pre-queued deliveries: within ${(firstArrivalSeconds * 1000).toFixed(0)} ms`);
  console.log(
    `\nevents (${EVENTS}): POST acknowledgement p50 ${percentile(postLatencies, 0.5).toFixed(1)} ms, p99 ${percentile(postLatencies, 0.99).toFixed(1)} ms; event at the subscriber p50 ${percentile(eventLatencies, 0.5).toFixed(1)} ms, p99 ${percentile(eventLatencies, 0.99).toFixed(1)} ms (from the POST's start)`,
  );
  recordResults('delivery', [
    { case: baseline.label, perSecond: baseline.perSecond },
    {
      case: drain.label,
      perSecond: drain.perSecond,
      cpuMsPerRequest: drainCpuMsPerDelivery,
      baseline: baseline.label,
      ratio: drain.perSecond / baseline.perSecond,
      target: '>= 500 deliveries/s (lender answers 204)',
      met: drain.perSecond >= 500,
      note: `from the commit of the queued deliveries to the last delivery, mean of ${ROUNDS} rounds interleaved with the baseline; the first delivery arrived within ${(firstArrivalSeconds * 1000).toFixed(0)} ms (the worker woken by the commit's NOTIFY)`,
    },
    ...[clean, flaky].map((row) => ({
      case: row.label,
      perSecond: row.perSecond,
      baseline: baseline.label,
      ratio: row.perSecond / baseline.perSecond,
      note: `end to end: queued one transaction at a time by another process (${row.queuedPerSecond.toFixed(0)}/s) while the worker drains`,
    })),
    {
      case: requestFed.label,
      perSecond: requestFed.perSecond,
      cpuMsPerRequest: requestFed.cpuSplit.server,
      baseline: baseline.label,
      ratio: requestFed.perSecond / baseline.perSecond,
      target: '>= 500 deliveries/s end to end, the queue fed by requests',
      met: requestFed.perSecond >= 500,
      note: `end to end: from the first POST until the lender has all ${FED_DELIVERIES}; the same process serves the POSTs (${requestFed.postsPerSecond.toFixed(0)}/s) and runs the worker. ${splitLine}`,
    },
    { case: 'acknowledgement POST (REST)', p50Ms: percentile(postLatencies, 0.5), p99Ms: percentile(postLatencies, 0.99) },
    {
      case: 'event at 1 graphql-ws subscriber',
      p50Ms: percentile(eventLatencies, 0.5),
      p99Ms: percentile(eventLatencies, 0.99),
      note: 'from the POST start, 1 subscriber; the target (from the commit, 1,000 subscribers) is measured by bench/event-latency.ts',
    },
  ]);
  await runtime.close();
} finally {
  await Promise.all(procs.map((p) => p.stop()));
  await lender.close();
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
}
