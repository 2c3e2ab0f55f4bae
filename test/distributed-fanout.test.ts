/**
 * Subscription fan-out in the distributed deployment (issue 27), against real processes
 * (`start:distributed`: one process per subgraph, the REST adapter, the worker, the gateway) with the
 * stock graphql-ws client. The gateway authenticates each connection once and groups subscribers by
 * the single process's audience rule (subscription-fanout.ts, visibilityKeyOf), so:
 *
 *  - many subscribers in a few audiences each receive every event they may see, in order, and none
 *    receives another account's tenants or another lender's applications; a credential of the wrong
 *    kind for a subscription is refused and hears nothing;
 *  - each event is executed once per audience group that hears it, counted by
 *    `graphql_subscription_event_executions_total` at the gateway and at the subgraph that runs it;
 *  - a revoked key's subscribers hear nothing after the revocation and their sockets are closed
 *    (4403, saying why) by the credential re-check, as without fan-out, while the other key of the
 *    same audience, in the same group, keeps receiving every event, although the group's stream to
 *    the subgraph was the revoked key's (another member's takes over).
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import { redisAnswers, testRedisUrl as redisUrl } from './support/redis-availability.js';
import WebSocket from 'ws';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { settle, type GraphQLResponse } from './support/graphql-client.js';
import { adminQuery, databaseUrlFor } from './support/postgres-admin.js';
import { startEntry, waitForHealth, type RunningProcess } from './support/processes.js';
import { bearer, createApiKey, lenderIdToken, platformToken, signUpIntegrator, type Integrator } from './support/identities.js';
import { UNRELATED_KEY_SCOPE } from './support/credentials.js';
import { eventually } from './support/lender-receiver.js';
import { postJson, type TestApp } from './support/test-app.js';
import { issueLenderCredentials } from '../src/modules/identity/bootstrap.js';
import { openDatabase, type Database } from '../src/infra/database.js';

const baseUrl = inject('postgresUrl');

const TENANT_CREATED = 'subscription FanOutTenants { tenantCreated { id referenceId } }';
const STATUS_CHANGED = 'subscription FanOutApplications { applicationStatusChanged { applicationId status } }';

/** A stock graphql-ws client on its own socket: every message it receives, and how its socket closed. */
interface Subscriber {
  name: string;
  received: GraphQLResponse[];
  closedWith: number | undefined;
  closeReason?: string;
  ended: boolean;
  failure?: unknown;
  dispose(): Promise<void>;
}

async function subscriber(name: string, gateway: string, query: string, auth: Record<string, string>): Promise<Subscriber> {
  const client: Client = createClient({
    url: `${gateway.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams: auth,
    // The close is recorded below (closedWith), not printed.
    onNonLazyError: () => {},
  });
  const result: Subscriber = { name, received: [], closedWith: undefined, ended: false, dispose: () => client.dispose() as Promise<void> };
  client.on('closed', (event) => {
    result.closedWith ??= (event as { code: number }).code;
    result.closeReason ??= (event as { reason: string }).reason;
  });
  await new Promise<void>((resolve, reject) => {
    client.on('connected', () => resolve());
    client.on('closed', (event) => reject(new Error(`${name}: closed before connecting (${(event as { code: number }).code})`)));
  });
  client.subscribe(
    { query },
    {
      next: (value) => void result.received.push(value as GraphQLResponse),
      error: (err) => {
        result.ended = true;
        result.failure = err;
        if (Array.isArray(err)) result.received.push({ errors: err as never });
      },
      complete: () => void (result.ended = true),
    },
  );
  return result;
}

/** The sum of a counter's series for one operation in a process's /metrics (demo: open on the main port). */
async function executions(base: string, operation: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('graphql_subscription_event_executions_total{') && line.includes(`operation="${operation}"`))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

async function subgraphExecutions(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('graphql_subscription_event_executions_total{'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe.skipIf(!(await redisAnswers(redisUrl)))('subscription fan-out in the distributed deployment', () => {
  const dbName = `fg_fan_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let supervisor: RunningProcess | undefined;
  let db: Database | undefined;
  const subscribers: Subscriber[] = [];
  afterAll(async () => {
    // FANOUT_LOG=<file> keeps the deployment's output for a look after a failure.
    if (process.env.FANOUT_LOG) (await import('node:fs')).writeFileSync(process.env.FANOUT_LOG, supervisor?.output() ?? '');
    await Promise.all(subscribers.map((s) => s.dispose().catch(() => {})));
    await db?.close();
    await supervisor?.stop();
    await adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('executes each event once per audience group, delivers only what each subscriber may see, and still closes a revoked key', async () => {
    await adminQuery(baseUrl, `CREATE DATABASE ${dbName}`);
    // Apart from test/distributed.test.ts's ports (20000 + 50k) and test/replicas.test.ts's (12000-20000).
    const basePort = 23_000 + Math.floor(Math.random() * 160) * 50;
    supervisor = startEntry('src/processes/distributed.ts', [], {
      DATABASE_URL: databaseUrlFor(baseUrl, dbName),
      REDIS_URL: redisUrl,
      // The deployment's own Redis namespace: the supervisor hands it to every process.
      REDIS_KEY_PREFIX: `fg-test:fanout-${randomUUID().slice(0, 8)}:`,
      BASE_PORT: String(basePort),
      DATA_DIR: path.join(tmpdir(), dbName),
      HOST: '127.0.0.1',
      DEPLOY_ENV: 'demo',
      LOG_LEVEL: 'warn',
      // The gateway (and each subgraph) re-checks every socket's credential each second.
      GRAPHQL_WS_CREDENTIAL_RECHECK_MS: '1000',
      JOB_POLL_SECONDS: '3600',
    });
    const gateway = `http://127.0.0.1:${basePort}`;
    const rest = `http://127.0.0.1:${basePort + 1}`;
    const applicationsSubgraph = `http://127.0.0.1:${basePort + 13}`;
    const tenantsSubgraph = `http://127.0.0.1:${basePort + 14}`;
    await waitForHealth(gateway, supervisor, 240_000);

    db = await openDatabase({ databaseUrl: databaseUrlFor(baseUrl, dbName), dataDir: 'unused', poolSize: 2, migrate: false });
    const prisma = db.prisma;
    const app = { url: rest, runtime: { database: { prisma }, config: { DEPLOY_ENV: 'demo' } } } as unknown as TestApp;

    // Two accounts. In account A, two audiences: keys holding one unrelated scope, and keys holding
    // two (scopes are part of the audience); tenants.subscribe needs no scope.
    const [accountA, accountB] = [await signUpIntegrator(app), await signUpIntegrator(app)];
    const keyToken = async (owner: Integrator, scopes: string[]) => {
      const key = await createApiKey(app, owner.loginToken, { name: `fanout-${randomUUID().slice(0, 8)}`, scopes });
      return { keyId: key.id, auth: bearer((await platformToken(app, key.key)).access_token) };
    };
    const revokedKey = await keyToken(accountA, [UNRELATED_KEY_SCOPE]);
    const keptKey = await keyToken(accountA, [UNRELATED_KEY_SCOPE]);
    const wideKey = await keyToken(accountA, [UNRELATED_KEY_SCOPE, 'insights:read']);
    const otherKey = await keyToken(accountB, [UNRELATED_KEY_SCOPE]);

    // Two lenders, each with its own credentials and an application.
    const lenders = await prisma.lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 2 });
    const profile = await prisma.profile.create({ data: { environment: 'demo' } });
    const lenderSide = await Promise.all(
      lenders.map(async (lender) => {
        const credentials = await issueLenderCredentials(prisma, lender.id, 'demo', rest);
        const auth = bearer(await lenderIdToken(app, credentials));
        const application = await prisma.lenderApplication.create({
          data: { lenderId: lender.id, profileId: profile.id, status: 'In Review', payload: { application: {} } },
        });
        return { auth, applicationId: application.id };
      }),
    );

    // The revoked key's subscriber subscribes first: its subgraph stream is its group's.
    const open = async (name: string, query: string, auth: Record<string, string>) => {
      const s = await subscriber(name, gateway, query, auth);
      subscribers.push(s);
      return s;
    };
    const revoked = [await open('revoked-0', TENANT_CREATED, revokedKey.auth), await open('revoked-1', TENANT_CREATED, revokedKey.auth)];
    const kept = await Promise.all([0, 1, 2, 3].map((i) => open(`kept-${i}`, TENANT_CREATED, keptKey.auth)));
    const wide = await Promise.all([0, 1, 2].map((i) => open(`wide-${i}`, TENANT_CREATED, wideKey.auth)));
    const other = await Promise.all([0, 1, 2].map((i) => open(`other-${i}`, TENANT_CREATED, otherKey.auth)));
    const lenderOne = await Promise.all([0, 1, 2].map((i) => open(`lender-one-${i}`, STATUS_CHANGED, lenderSide[0]!.auth)));
    const lenderTwo = await Promise.all([0, 1].map((i) => open(`lender-two-${i}`, STATUS_CHANGED, lenderSide[1]!.auth)));
    // A lender's token asking for tenants (the wrong kind), an integrator's key asking for application changes.
    const lenderForTenants = await open('lender-for-tenants', TENANT_CREATED, lenderSide[0]!.auth);
    const keyForApplications = await open('key-for-applications', STATUS_CHANGED, keptKey.auth);
    await settle(1_500);

    const createTenant = async (owner: Integrator, referenceId: string) => {
      const res = await postJson(`${rest}/api/business/v1/tenants`, { referenceId }, bearer(owner.platformToken));
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: string };
      return { data: { tenantCreated: { id, referenceId } } };
    };
    /** Runs `event` and returns how many executions the gateway and the subgraph counted for it. */
    const counted = async (operation: string, subgraph: string, event: () => Promise<void>, expectedGroups: number) => {
      const before = [await executions(gateway, operation), await subgraphExecutions(subgraph)];
      await event();
      // Counted as the event arrives: wait for every group's execution, then make sure no more come.
      await eventually(
        async () => executions(gateway, operation),
        (n) => n - before[0]! >= expectedGroups,
        30_000,
      );
      await settle(500);
      return [(await executions(gateway, operation)) - before[0]!, (await subgraphExecutions(subgraph)) - before[1]!];
    };

    // 1. A tenant of account A: nine subscribers in two groups (the revoked and the kept key: one
    // audience, one group; the wider key: another), so two executions; account B hears nothing.
    let firstA!: Awaited<ReturnType<typeof createTenant>>;
    expect(await counted('FanOutTenants', tenantsSubgraph, async () => void (firstA = await createTenant(accountA, 'fanout-a1')), 2)).toEqual([2, 2]);
    const firstB = await createTenant(accountB, 'fanout-b1');
    await eventually(async () => other.every((s) => s.received.length === 1), Boolean, 30_000);
    await eventually(async () => [...revoked, ...kept, ...wide].every((s) => s.received.length === 1), Boolean, 30_000);
    for (const s of [...revoked, ...kept, ...wide]) expect(s.received, s.name).toEqual([firstA]);
    for (const s of other) expect(s.received, s.name).toEqual([firstB]);

    // 2. A status change of lender one's application: one execution, its three subscribers only.
    const acknowledged = { data: { applicationStatusChanged: { applicationId: lenderSide[0]!.applicationId, status: 'In Review' } } };
    const acknowledge = async () => {
      const res = await postJson(
        `${rest}/api/platform/v1/funding/applications/${lenderSide[0]!.applicationId}/acknowledgement`,
        { reference: 'FAN-1' },
        lenderSide[0]!.auth,
      );
      expect(res.status).toBe(200);
    };
    expect(await counted('FanOutApplications', applicationsSubgraph, acknowledge, 1)).toEqual([1, 1]);
    await eventually(async () => lenderOne.every((s) => s.received.length === 1), Boolean, 30_000);
    for (const s of lenderOne) expect(s.received, s.name).toEqual([acknowledged]);

    // 3. The key of the opening subscriber is revoked. Its subscribers hear no event after that (told
    // why if an event comes before the re-check) and their sockets are closed (4403); the kept key's,
    // in the same group, go on receiving every event, also after the subgraph closed the revoked
    // key's stream (the group's, until another member's took over).
    const revoke = await fetch(`${rest}/api/platform/v1/api-key/${revokedKey.keyId}`, { method: 'DELETE', headers: bearer(accountA.loginToken) });
    expect(revoke.status).toBe(204);
    const secondA = await createTenant(accountA, 'fanout-a2');
    await eventually(async () => revoked.every((s) => s.closedWith !== undefined), Boolean, 30_000);
    for (const s of revoked) {
      expect([s.closedWith, s.closeReason], s.name).toEqual([4403, 'Forbidden: Invalid token: its API key has been revoked']);
      expect(
        s.received.slice(1).every((r) => r.data === undefined),
        s.name,
      ).toBe(true);
    }
    await settle(2_500); // several re-checks: the subgraph has closed the revoked key's stream by now
    const thirdA = await createTenant(accountA, 'fanout-a3');
    await eventually(async () => [...kept, ...wide].every((s) => s.received.length === 3), Boolean, 30_000);
    for (const s of [...kept, ...wide]) expect(s.received, s.name).toEqual([firstA, secondA, thirdA]);
    for (const s of revoked)
      expect(
        s.received.filter((r) => r.data),
        s.name,
      ).toEqual([firstA]);

    // Nobody heard anything else: not another account's tenant, not another lender's application.
    await settle(1_000);
    for (const s of other) expect(s.received, s.name).toEqual([firstB]);
    for (const s of lenderOne) expect(s.received, s.name).toEqual([acknowledged]);
    for (const s of lenderTwo) expect(s.received, s.name).toEqual([]);
    // A lender's token is refused tenant events; an integrator's key may follow its own account's
    // applications, and lender one's application is none of them.
    expect(lenderForTenants.received.filter((r) => r.data)).toEqual([]);
    expect(lenderForTenants.received.flatMap((r) => r.errors ?? []).map((e) => e.extensions?.code)).toEqual([
      expect.stringMatching(/^(FORBIDDEN|UNAUTHENTICATED)$/),
    ]);
    expect(keyForApplications.received).toEqual([]);
  }, 420_000);
});
