/**
 * The database going away under traffic, and coming back, with the system as a real process:
 * - its PostgreSQL (DATABASE_URL) becomes unreachable for a while: every connection it had is cut,
 *   mid-query or mid-transaction, and new ones are refused (a TCP proxy stands between them, cut
 *   and resumed by the test, as a restart or failover looks from the client's side);
 * - the embedded server's postmaster is killed (SIGKILL): the process that owns it starts it again.
 * Either way the process keeps running, answers 503 with Retry-After (never a 500 or a reset) while
 * the database is away, answers 2xx again by itself once it is back, and every webhook delivery
 * queued before the outage is delivered.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/kernel/config.js';
import { queueDelivery } from '../src/modules/webhooks/webhook-delivery.js';
import { startRuntime, type Runtime } from '../src/processes/runtime.js';
import { startCuttableProxy, type CuttableProxy } from './support/cuttable-proxy.js';
import { bearer, createApiKey, platformToken, signIn, signUpIntegrator } from './support/identities.js';
import { eventually, startLenderReceiver, type LenderReceiver } from './support/lender-receiver.js';
import { freePort, startEntry, waitForHealth, type RunningProcess } from './support/processes.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { testSigningKeys, type TestApp } from './support/test-app.js';

/** How long the database stays away: long enough for many requests to meet the outage. */
const OUTAGE_MS = 4_000;
/** Recovery is asserted as behaviour, with room for a loaded machine: the 15 s, doubled. */
const RECOVERY_BOUND_MS = 30_000;

interface Answer {
  at: number;
  what: string;
  status: number | 'reset';
  retryAfter: string | null;
  code?: string;
}

/** A steady mix of reads, writes and GraphQL, one request at a time per lane, until stopped. */
function steadyTraffic(baseUrl: string, auth: Record<string, string>) {
  const answers: Answer[] = [];
  let running = true;
  const requests: Array<[string, () => Promise<Response>]> = [
    ['list tenants', () => fetch(`${baseUrl}/api/marketplace/v2/tenants`, { headers: auth })],
    [
      'create tenant',
      () =>
        fetch(`${baseUrl}/api/marketplace/v2/tenants`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ referenceId: `r-${Math.random()}` }),
        }),
    ],
    [
      'graphql lenders',
      () =>
        fetch(`${baseUrl}/graphql`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ query: '{ lenders { name } }' }),
        }),
    ],
  ];
  const lanes = requests.map(async ([what, send]) => {
    while (running) {
      const at = Date.now();
      try {
        const res = await send();
        const body = (await res.json().catch(() => ({}))) as { code?: string; errors?: Array<{ extensions?: { code?: string } }> };
        answers.push({ at, what, status: res.status, retryAfter: res.headers.get('retry-after'), code: body.code ?? body.errors?.[0]?.extensions?.code });
      } catch {
        answers.push({ at, what, status: 'reset', retryAfter: null });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(lanes);
    },
  };
}

/** Every answer is a success or a 503 telling when to retry (GraphQL: SERVICE_UNAVAILABLE); none is a 500 or a reset. */
function expectOnlySuccessOrUnavailable(answers: Answer[]): void {
  const wrong = answers.filter((a) => {
    if (a.status === 'reset') return true;
    if (a.status === 503) return a.retryAfter === null;
    if (a.what.startsWith('graphql')) return a.status !== 200 || (a.code !== undefined && a.code !== 'SERVICE_UNAVAILABLE');
    return a.status >= 300;
  });
  expect(wrong).toEqual([]);
}

const unavailable = (a: Answer) => a.status === 503 || a.code === 'SERVICE_UNAVAILABLE';

describe('a database that goes away under traffic', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it('DATABASE_URL unreachable for a while: 503 with Retry-After meanwhile, 2xx again by itself, deliveries all made', async () => {
    const database: TestDatabase = await createTestDatabase();
    cleanups.push(() => database.drop());
    const proxy: CuttableProxy = await startCuttableProxy(database.url);
    cleanups.push(() => proxy.close());
    const receiver: LenderReceiver = await startLenderReceiver();
    cleanups.push(() => receiver.close());
    const proxiedUrl = new URL(database.url);
    proxiedUrl.port = new URL(proxy.url).port;
    const port = await freePort();
    const env = {
      DATABASE_URL: proxiedUrl.toString(),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      AUTH_SIGNING_KEYS: await testSigningKeys(),
      SEED_DEMO_DATA: 'false',
      WEBHOOK_RETRY_DELAYS: '0.2,0.5,1,2,2,2,2,2,2,2',
      WEBHOOK_TIMEOUT_MS: '2000',
    };
    const system: RunningProcess = startEntry('src/processes/main.ts', [], env);
    cleanups.push(() => system.stop());
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHealth(baseUrl, system);

    // The test's own view of the database, not through the proxy.
    const runtime: Runtime = await startRuntime(
      loadConfig({}, { DATABASE_URL: database.url, PORT: 0, LOG_LEVEL: 'silent', AUTH_SIGNING_KEYS: env.AUTH_SIGNING_KEYS, SEED_DEMO_DATA: false }),
      { prepareDatabase: false },
    );
    cleanups.push(() => runtime.close());
    const integrator = await signUpIntegrator({ url: baseUrl, runtime } as TestApp);
    const auth = bearer(integrator.platformToken);

    const db = runtime.database.prisma;
    const lender = await db.lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
    const profile = await db.profile.create({ data: { environment: 'demo' } });
    const queueDeliveries = async (count: number) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const application = await db.lenderApplication.create({ data: { lenderId: lender.id, profileId: profile.id, status: 'In Review' } });
        ids.push(
          await db.$transaction((tx) =>
            queueDelivery(runtime.contextFor(), tx, {
              lenderApplicationId: application.id,
              lenderId: lender.id,
              event: 'APPLICATION_CREATED',
              url: receiver.url,
              payload: { application: { id: application.id } },
            }),
          ),
        );
      }
      return ids;
    };

    const traffic = steadyTraffic(baseUrl, auth);
    await eventually(
      async () => traffic.answers.length,
      (n) => n >= 6,
    );
    const before = await queueDeliveries(5);
    proxy.cut();
    const cutAt = Date.now();
    // Queued while the system cannot reach the database (another writer of the same database can).
    const during = await queueDeliveries(5);
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    proxy.resume();
    const resumedAt = Date.now();
    await eventually(
      async () => summary(traffic.answers.filter((a) => a.at > resumedAt)),
      (after) => after.recovered,
      RECOVERY_BOUND_MS,
    );
    await traffic.stop();

    expect(system.child.exitCode).toBeNull();
    expect(system.child.signalCode).toBeNull();
    expectOnlySuccessOrUnavailable(traffic.answers);
    expect(traffic.answers.filter((a) => a.at >= cutAt && a.at < resumedAt).some(unavailable)).toBe(true);
    expect(system.output()).not.toMatch(/Unhandled 'error' event|unhandled error in REST route/);

    const ids = [...before, ...during];
    await eventually(
      () => db.webhookDelivery.count({ where: { id: { in: ids }, status: 'DELIVERED' } }),
      (n) => n === ids.length,
      RECOVERY_BOUND_MS * 2,
    );
    expect(new Set(receiver.received.map((r) => String(r.headers['webhook-id'])))).toEqual(new Set(ids));
  });

  it('the embedded postmaster killed: the process that owns it starts it again, and the service answers again', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fg-pg-restart-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const system = startEntry('src/processes/main.ts', [], {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      AUTH_SIGNING_KEYS: await testSigningKeys(),
      SEED_DEMO_DATA: 'true',
    });
    cleanups.push(() => system.stop());
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHealth(baseUrl, system, 180_000);
    const app = { url: baseUrl } as TestApp;
    const login = await signIn(app, 'integrator@demo.funding-gateway.test', 'demo-integrator-password');
    // Tenants and the lender catalogue need no scope of a platform token.
    const key = await createApiKey(app, login, { name: `restart-${Date.now()}`, scopes: ['profile:read'] });
    const auth = bearer((await platformToken(app, key.key)).access_token);

    const traffic = steadyTraffic(baseUrl, auth);
    await eventually(
      async () => traffic.answers.length,
      (n) => n >= 6,
    );
    const postmasterPid = Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    process.kill(postmasterPid, 'SIGKILL');
    const killedAt = Date.now();
    await eventually(
      async () => ({ restarted: /embedded PostgreSQL serving again/.test(system.output()), ...summary(traffic.answers.filter((a) => a.at > killedAt + 500)) }),
      ({ restarted, recovered }) => restarted && recovered,
      RECOVERY_BOUND_MS,
    );
    await traffic.stop();
    expect(system.child.exitCode).toBeNull();
    expectOnlySuccessOrUnavailable(traffic.answers);
    const newPostmaster = Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    expect(newPostmaster).not.toBe(postmasterPid);
  });
});

/** How many of each kind of request succeeded among these answers; recovered once every kind has, twice. */
function summary(answers: Answer[]): { succeeded: Record<string, number>; last?: Answer; recovered: boolean } {
  const succeeded: Record<string, number> = {};
  for (const a of answers) if (a.status !== 'reset' && a.status < 300 && !unavailable(a)) succeeded[a.what] = (succeeded[a.what] ?? 0) + 1;
  const counts = Object.values(succeeded);
  return { succeeded, last: answers.at(-1), recovered: counts.length === 3 && counts.every((n) => n >= 2) };
}
