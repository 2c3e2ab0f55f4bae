/**
 * `npm run bench` (event latency): from the COMMIT of a change to its receipt at graphql-ws
 * subscribers, with 1 and with 1,000 subscribers, on a real PostgreSQL and `npm start`'s compiled
 * build in its own process.
 *
 * Subscribers are spread over AUDIENCES lenders (10 unless BENCH_AUDIENCES; an audience is what one
 * credential may see, so the fan-out executes each event once per audience and must route between
 * them); events go to each lender in turn. A lender acknowledges one of its applications through the
 * REST API; every subscriber of that lender (`subscription { applicationStatusChanged { applicationId
 * status } }`) must receive it, and no other lender's subscriber may.
 * The commit is timed by PostgreSQL itself: a deferred trigger on this bench's own database takes
 * clock_timestamp() at COMMIT and sends it in a NOTIFY; receipts are wall-clock times
 * (performance.timeOrigin + now()) on the same machine. Subscribers live in a worker thread.
 * In-run baseline: the same acknowledgement POST's own round trip.
 */
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { dropLeftoverDatabases } from './bench-databases.js';
import { recordResults } from './results.js';
import { startMeasuredServer } from './servers.js';
import { loadConfig } from '../src/kernel/config.js';
import { issueLenderCredentials } from '../src/modules/identity/bootstrap.js';
import { applyMigrations } from '../src/infra/migrations.js';
import { startRuntime } from '../src/processes/runtime.js';
import { insertDemoLenders } from '../prisma/seed/seed-demo-data.js';
import { adminQuery, databaseUrlFor } from '../test/support/postgres-admin.js';
import { buildServer, freePort, waitForHealth, type RunningProcess } from '../test/support/processes.js';

const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 60);
const WARM_UP_EVENTS = 5;
const SUBSCRIBER_COUNTS = (process.env.BENCH_SUBSCRIBERS ?? '1,1000').split(',').map(Number);
const QUERY = 'subscription { applicationStatusChanged { applicationId status } }';
const AUDIENCES = Number(process.env.BENCH_AUDIENCES ?? 10);

/** The worker runs TypeScript like this script: tsx registered in the worker first (Node 20 workers ignore `--import`). */
const SUBSCRIBER_WORKER = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(new URL('./event-subscribers.ts', import.meta.url).href)}); })`;

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;

const dbName = `fg_bench_events_${process.pid}`;
// Databases of earlier runs of this suite that were stopped before their cleanup (bench/bench-databases.ts).
await dropLeftoverDatabases('events_');
const procs: RunningProcess[] = [];
try {
  buildServer();
  await adminQuery(serverUrl, `CREATE DATABASE ${dbName}`);
  const url = databaseUrlFor(serverUrl, dbName);
  await applyMigrations(url);
  // Bench-only trigger (this database is dropped at the end): NOTIFY is delivered at commit.
  // A deferred constraint trigger runs at COMMIT, after every statement of the transaction: its
  // clock_timestamp() is the commit time (early by the WAL flush at most, which only adds to the
  // measured latency). The notification carries it; it is read here whenever it arrives.
  await adminQuery(
    url,
    `CREATE FUNCTION bench_notify_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('bench_commit', NEW.id::text || ' ' || (extract(epoch from clock_timestamp()) * 1000)::text); RETURN NULL; END $$`,
  );
  await adminQuery(
    url,
    `CREATE CONSTRAINT TRIGGER bench_status_commit AFTER UPDATE OF status ON lender_application DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION bench_notify_commit()`,
  );

  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: url,
    SEED_DEMO_DATA: 'false',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: appUrl,
    RATE_LIMIT_PER_ADDRESS: '10000000',
    RATE_LIMIT_PER_CREDENTIAL: '10000000',
    // Every subscriber is the same lender: one socket and one subscription each, over the per-credential caps.
    GRAPHQL_WS_MAX_SOCKETS_PER_CREDENTIAL: String(Math.max(...SUBSCRIBER_COUNTS) + 10),
    GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL: String(Math.max(...SUBSCRIBER_COUNTS) + 10),
  };
  const runtime = await startRuntime(loadConfig({}, { ...env, PORT: 0, LOG_LEVEL: 'silent' } as never), { prepareDatabase: false });
  const db = runtime.database.prisma;
  await insertDemoLenders(db);
  const lenderRows = await db.lender.findMany({ orderBy: { id: 'asc' }, take: AUDIENCES, select: { id: true } });
  if (lenderRows.length < AUDIENCES) throw new Error(`${AUDIENCES} audiences need as many lenders; the demo catalogue has ${lenderRows.length}`);
  const lenderCredentials = [];
  for (const lender of lenderRows) lenderCredentials.push(await issueLenderCredentials(db, lender.id, 'demo', appUrl));
  const profile = await db.profile.create({ data: { environment: 'demo' } });

  const app = startMeasuredServer('src/processes/main.ts', env);
  procs.push(app);
  await waitForHealth(appUrl, app);
  /** One bearer token per audience (lender), in the lenders' order. */
  const authorizations: string[] = [];
  for (const credentials of lenderCredentials) {
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
    authorizations.push(`Bearer ${token.id_token}`);
  }

  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  const commits = new Map<number, number>();
  // The database is dropped at the end (with FORCE): its termination of this connection is expected.
  listener.on('error', () => {});
  listener.on('notification', (n) => {
    const [id, committedAtMs] = (n.payload ?? '').split(' ').map(Number);
    commits.set(id as number, committedAtMs as number);
  });
  await listener.query('LISTEN bench_commit');

  type Case = { subscribers: number; eventP50: number; eventP99: number; postP50: number; postP99: number; missing: number; received: number };
  const cases: Case[] = [];
  for (const subscribers of SUBSCRIBER_COUNTS) {
    const worker = new Worker(SUBSCRIBER_WORKER, {
      eval: true,
      workerData: { url: `${appUrl.replace('http', 'ws')}/graphql`, authorizations, count: subscribers, query: QUERY },
    });
    const replies: Array<(m: any) => void> = [];
    worker.on('message', (m: { type: string; error?: string }) => {
      if (m.type === 'error') return void console.error('subscriber error:', m.error);
      replies.shift()?.(m);
    });
    let failure: Error | undefined;
    worker.on('error', (e) => (failure = e));
    worker.on('exit', (code) => (failure ??= new Error(`subscriber worker exited (${code})`)));
    // Every wait on the worker gives up once it failed, rather than hanging the run.
    const reply = <T>() =>
      new Promise<T>((resolve, reject) => {
        const check = setInterval(() => failure && (clearInterval(check), reject(failure)), 100);
        replies.push((m) => (clearInterval(check), resolve(m)));
      });
    await reply<{ type: 'connected' }>();

    const eventLatencies: number[] = [];
    const postLatencies: number[] = [];
    let missing = 0;
    let received = 0;
    for (let i = 0; i < WARM_UP_EVENTS + EVENTS; i++) {
      const audience = i % authorizations.length;
      const authorization = authorizations[audience]!;
      // The subscribers of this audience: the worker gives subscriber k the authorization k % audiences.
      const expected = Math.floor(subscribers / authorizations.length) + (audience < subscribers % authorizations.length ? 1 : 0);
      const a = await db.lenderApplication.create({ data: { lenderId: lenderRows[audience]!.id, profileId: profile.id, status: 'In Review' } });
      const collected = reply<{ times: number[]; foreign: number }>();
      worker.postMessage({ type: 'collect', applicationId: a.id, audience, expected, timeoutMs: 5000 });
      const start = performance.now();
      const res = await fetch(`${appUrl}/api/platform/v1/funding/applications/${a.id}/acknowledgement`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ reference: `B-${a.id}` }),
      });
      const postMs = performance.now() - start;
      if (res.status !== 200) throw new Error(`acknowledgement ${res.status}: ${await res.text()}`);
      const { times, foreign } = await collected;
      if (foreign > 0) throw new Error(`application ${a.id} reached ${foreign} subscriber(s) of other lenders`);
      for (const deadline = Date.now() + 5000; !commits.has(a.id) && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 1));
      const committedAt = commits.get(a.id);
      if (committedAt === undefined)
        throw new Error(
          `no commit notification for application ${a.id}; server exit ${app.child.exitCode} ${app.child.signalCode}, output:\n${app.output().slice(-3000)}`,
        );
      commits.delete(a.id);
      if (i < WARM_UP_EVENTS) continue;
      postLatencies.push(postMs);
      missing += expected - times.length;
      received += times.length;
      for (const t of times) eventLatencies.push(t - committedAt);
    }
    const closed = reply();
    worker.postMessage({ type: 'close' });
    await closed;
    await worker.terminate();
    eventLatencies.sort((x, y) => x - y);
    postLatencies.sort((x, y) => x - y);
    const row = {
      subscribers,
      eventP50: percentile(eventLatencies, 0.5),
      eventP99: percentile(eventLatencies, 0.99),
      postP50: percentile(postLatencies, 0.5),
      postP99: percentile(postLatencies, 0.99),
      missing,
      received,
    };
    cases.push(row);
    console.log(
      `${subscribers} subscriber(s), ${EVENTS} events: commit -> subscriber p50 ${row.eventP50.toFixed(1)} ms, p99 ${row.eventP99.toFixed(1)} ms; ${received} received, ${missing} missing; acknowledgement POST p50 ${row.postP50.toFixed(1)} ms, p99 ${row.postP99.toFixed(1)} ms`,
    );
  }
  await listener.end();

  recordResults(
    'event-latency',
    cases.flatMap((c) => [
      { case: `acknowledgement POST (REST), ${c.subscribers} subscriber(s) listening`, p50Ms: c.postP50, p99Ms: c.postP99 },
      {
        case: `event from commit to ${c.subscribers} graphql-ws subscriber(s)`,
        p50Ms: c.eventP50,
        p99Ms: c.eventP99,
        value: c.missing,
        unit: 'events missing',
        baseline: `acknowledgement POST (REST), ${c.subscribers} subscriber(s) listening`,
        ...(c.subscribers === 1000 && AUDIENCES >= 10
          ? { target: 'p99 < 100 ms with 1,000 subscribers in 10 audiences, none missing', met: c.eventP99 < 100 && c.missing === 0 }
          : {}),
        note: `${EVENTS} events, ${c.received} receipts; subscribers spread over ${Math.min(AUDIENCES, c.subscribers)} audience(s) (lenders), each event reaching its lender's share`,
      },
    ]),
  );
  await runtime.close();
} finally {
  await Promise.all(procs.map((p) => p.stop()));
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
}
