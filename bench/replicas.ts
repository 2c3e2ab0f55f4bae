/**
 * `npm run bench -- replicas` (issue 27): what a second replica adds, on this machine.
 *  - REST reads: a lender reading one of its applications (`GET /api/platform/v1/funding/applications/{id}`,
 *    token verified, one SQL read) through one REST adapter (`start:service -- rest`), then through
 *    two, the load generator's connections split evenly between them; req/s summed over the adapters.
 *  - Webhook deliveries: PREQUEUED deliveries (outbox rows) committed in one
 *    transaction while one worker (`start:service -- worker`), then two, idle; timed from that commit
 *    until the local lender (answering 204) has every one.
 * Reported as each figure with one and with two replicas, and two ÷ one as the ratio.
 *
 * Not pinned (unlike bench/load.ts's pairs): a replica is worth what it gets from another core, so
 * the servers may use every core; on a 2-core machine the load generator and PostgreSQL take their
 * share of the same cores, so a ratio near 1 there says "no spare core", not "replicas do not
 * scale". Read it with the machine line of results.json, and on a machine with cores to spare.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { recordResults } from './results.js';
import { loadConfig } from '../src/kernel/config.js';
import { issueLenderCredentials } from '../src/modules/identity/bootstrap.js';
import { queueDelivery } from '../src/modules/webhooks/webhook-delivery.js';
import { applyMigrations } from '../src/infra/migrations.js';
import { startRuntime } from '../src/processes/runtime.js';
import { insertDemoLenders } from '../prisma/seed/seed-demo-data.js';
import { adminQuery, databaseUrlFor } from '../test/support/postgres-admin.js';
import { buildServer, freePort, startEntry, waitForHealth, type RunningProcess } from '../test/support/processes.js';
import { generateSigningJwk } from '../src/infra/signing-keys.js';

const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const PREQUEUED = Number(process.env.BENCH_PREQUEUED ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

/** A service process as `npm run start:service -- <name>` runs it (compiled, production, default log level). */
function startService(name: string, env: Record<string, string>): RunningProcess {
  return startEntry(
    'src/processes/service.ts',
    [name],
    {
      NODE_ENV: process.env.NODE_ENV ?? 'production',
      RATE_LIMIT_PER_ADDRESS: '1000000000',
      RATE_LIMIT_PER_CREDENTIAL: '1000000000',
      ...env,
    },
    { compiled: true },
  );
}

/** A local lender answering 204 to every delivery, counting the distinct ones. */
async function startLender(): Promise<{ url: string; delivered: Set<string>; close(): Promise<void> }> {
  const delivered = new Set<string>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered.add(String(req.headers['webhook-id']));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, delivered, close: () => new Promise((r) => server.close(() => r())) };
}

/** Load split over the adapters (CONNECTIONS in all), for `seconds`; req/s summed over them. */
async function readLoad(urls: string[], path: string, authorization: string, seconds: number): Promise<{ rps: number; p99: number }> {
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({ url: `${url}${path}`, connections: Math.max(1, Math.round(CONNECTIONS / urls.length)), duration: seconds, headers: { authorization } }),
    ),
  );
  for (const r of results) if (r.non2xx > 0 || r.errors > 0) throw new Error(`REST reads: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: results.reduce((sum, r) => sum + r.requests.average, 0), p99: Math.max(...results.map((r) => r.latency.p99)) };
}

const dbName = `fg_bench_replicas_${process.pid}`;
const procs: RunningProcess[] = [];
const lender = await startLender();
try {
  buildServer();
  await adminQuery(serverUrl, `CREATE DATABASE ${dbName}`);
  const url = databaseUrlFor(serverUrl, dbName);
  await applyMigrations(url);
  const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
  const publicUrl = `http://127.0.0.1:${ports[0]}`;
  const common = {
    DATABASE_URL: url,
    SEED_DEMO_DATA: 'false',
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
  // This process queues deliveries as the services do (and holds the signing keys the services share).
  // One key set for this process and every service (as the Secret gives them all one).
  const env = { ...common, AUTH_SIGNING_KEYS: JSON.stringify({ keys: [await generateSigningJwk()] }) };
  const runtime = await startRuntime(loadConfig({}, { ...env, PORT: 0, LOG_LEVEL: 'silent' } as never), { prepareDatabase: false });
  const db = runtime.database.prisma;
  await insertDemoLenders(db);
  const lenderRow = await db.lender.findFirstOrThrow({ orderBy: { id: 'asc' } });
  await db.lender.update({ where: { id: lenderRow.id }, data: { applicationUrl: lender.url, updateUrl: null } });
  const credentials = await issueLenderCredentials(db, lenderRow.id, 'demo', publicUrl);
  const profile = await db.profile.create({ data: { environment: 'demo' } });
  const readTarget = await db.lenderApplication.create({
    data: { lenderId: lenderRow.id, profileId: profile.id, status: 'In Review', payload: { application: {} } },
  });

  const rests = [0, 1].map((i) => {
    const proc = startService('rest', { ...env, PORT: String(ports[i]) });
    procs.push(proc);
    return { proc, url: `http://127.0.0.1:${ports[i]}` };
  });
  await Promise.all(rests.map((r) => waitForHealth(r.url, r.proc)));
  const tokenRes = await fetch(`${publicUrl}/oauth/token`, {
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
  const authorization = `Bearer ${((await tokenRes.json()) as { id_token: string }).id_token}`;
  const path = `/api/platform/v1/funding/applications/${readTarget.id}`;

  const reads: Record<1 | 2, { rps: number; p99: number }> = { 1: { rps: 0, p99: 0 }, 2: { rps: 0, p99: 0 } };
  for (const replicas of [1, 2] as const) {
    const urls = rests.slice(0, replicas).map((r) => r.url);
    await readLoad(urls, path, authorization, WARM_UP_SECONDS);
    reads[replicas] = await readLoad(urls, path, authorization, SECONDS);
  }

  /** PREQUEUED deliveries committed at once, then drained by the workers running now. */
  async function drain(): Promise<number> {
    const applications = await Promise.all(
      Array.from({ length: PREQUEUED }, () => db.lenderApplication.create({ data: { lenderId: lenderRow.id, profileId: profile.id, status: 'In Review' } })),
    );
    const before = lender.delivered.size;
    const start = performance.now();
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
      { timeout: 120_000 },
    );
    while (lender.delivered.size - before < PREQUEUED) await new Promise((r) => setTimeout(r, 20));
    return PREQUEUED / ((performance.now() - start) / 1000);
  }
  const deliveries: Record<1 | 2, number> = { 1: 0, 2: 0 };
  for (const replicas of [1, 2] as const) {
    while (procs.filter((p) => p.child.spawnargs.includes('worker')).length < replicas) {
      const port = ports[1 + replicas]!;
      const worker = startService('worker', { ...env, PORT: String(port) });
      procs.push(worker);
      await waitForHealth(`http://127.0.0.1:${port}`, worker);
    }
    deliveries[replicas] = await drain();
  }

  const readRatio = reads[2].rps / reads[1].rps;
  const deliveryRatio = deliveries[2] / deliveries[1];
  console.log(`REST reads: ${reads[1].rps.toFixed(0)}/s with one adapter, ${reads[2].rps.toFixed(0)}/s with two (${readRatio.toFixed(2)}x)`);
  console.log(`deliveries: ${deliveries[1].toFixed(0)}/s with one worker, ${deliveries[2].toFixed(0)}/s with two (${deliveryRatio.toFixed(2)}x)`);
  recordResults('replicas', [
    { case: 'REST reads, one REST adapter', perSecond: reads[1].rps, p99Ms: reads[1].p99 },
    {
      case: 'REST reads, two REST adapters',
      perSecond: reads[2].rps,
      p99Ms: reads[2].p99,
      baseline: 'REST reads, one REST adapter',
      ratio: readRatio,
      note: 'connections split evenly over the adapters; servers not pinned',
    },
    { case: `webhook deliveries, ${PREQUEUED} pre-queued, one worker`, perSecond: deliveries[1] },
    {
      case: `webhook deliveries, ${PREQUEUED} pre-queued, two workers`,
      perSecond: deliveries[2],
      baseline: `webhook deliveries, ${PREQUEUED} pre-queued, one worker`,
      ratio: deliveryRatio,
      note: 'from the commit of the queued deliveries to the last 204; workers not pinned',
    },
  ]);
  await runtime.close();
} finally {
  await Promise.all(procs.map((p) => p.stop()));
  await lender.close();
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
}
