import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { redisAnswers, testRedisUrl as redisUrl } from './support/redis-availability.js';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { graphql, settle, subscribe } from './support/graphql-client.js';
import { adminQuery, databaseUrlFor } from './support/postgres-admin.js';
import { startEntry, waitForHealth, type RunningProcess } from './support/processes.js';
import { DEMO_CREDENTIALS } from '../prisma/seed/demo-identities.js';
import { bearer, demoIntegratorToken, lenderIdToken } from './support/identities.js';
import { issueLenderCredentials } from '../src/modules/identity/bootstrap.js';
import { openDatabase } from '../src/infra/database.js';
import { eventually, startLenderReceiver } from './support/lender-receiver.js';
import { postJson } from './support/test-app.js';

// The distributed deployment runs on the run's PostgreSQL server (embedded or DATABASE_URL's) and needs
// Redis for events: it runs whenever Redis answers (CI starts one).
const baseUrl = inject('postgresUrl');

describe.skipIf(!(await redisAnswers(redisUrl)))('distributed mode: every subgraph, the gateway and the REST adapter as processes', () => {
  const dbName = `fg_dist_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let supervisor: RunningProcess | undefined;
  afterAll(async () => {
    await supervisor?.stop();
    await adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('serves the tenant slice over real HTTP and WebSocket between processes', async () => {
    await adminQuery(baseUrl, `CREATE DATABASE ${dbName}`);
    // Below Linux's ephemeral range (32768+), where outgoing connections could already hold a port.
    const basePort = 20_000 + Math.floor(Math.random() * 250) * 50;
    supervisor = startEntry('src/processes/distributed.ts', [], {
      DATABASE_URL: databaseUrlFor(baseUrl, dbName),
      REDIS_URL: redisUrl,
      BASE_PORT: String(basePort),
      DATA_DIR: path.join(tmpdir(), dbName),
      HOST: '127.0.0.1',
      // The worker polls once at start and then not within this test: a delivery queued later reaches it
      // only through the NOTIFY sent at commit by the process that queued it.
      JOB_POLL_SECONDS: '3600',
    });
    const gateway = `http://127.0.0.1:${basePort}`;
    const rest = `http://127.0.0.1:${basePort + 1}`;
    // The gateway's liveness is its own; its readiness names the supergraph and every subgraph.
    expect(await waitForHealth(gateway, supervisor, 150_000)).toEqual({ status: 'ok', service: 'gateway', supergraph: 'loaded' });
    expect(await (await fetch(`${gateway}/health/ready`)).json()).toEqual({
      status: 'ready',
      service: 'gateway',
      checks: { supergraph: 'ready', profiles: 'ready', matches: 'ready', applications: 'ready', tenants: 'ready' },
    });
    for (const port of [basePort + 1, basePort + 2, basePort + 11, basePort + 12, basePort + 13, basePort + 14]) {
      const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as { status: string; database?: string };
      expect(health).toMatchObject({ status: 'ok', database: 'ready' });
    }

    // The subgraphs answer the gateway only (the secret start:distributed made for this run): straight
    // to a subgraph's port, a malformed body is refused before it is read, and _service is not answered.
    for (const port of [basePort + 11, basePort + 12, basePort + 13, basePort + 14]) {
      const malformed = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query": [[[',
      });
      expect(malformed.status).toBe(401);
      expect(await malformed.json()).toMatchObject({ status: 401, detail: expect.stringContaining('answers the gateway only') });
      const sdl = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ _service { sdl } }' }),
      });
      expect(sdl.status).toBe(401);
      await sdl.body?.cancel();
    }

    // The REST adapter and the gateway compress their text answers (the reference's renderer, as the
    // build compressed it; the document, GraphQL answers, also those the REST adapter forwards to the gateway).
    for (const url of [
      `${rest}/docs/assets/scalar/standalone.esm.js`,
      `${rest}/openapi.json`,
      `${gateway}/graphql?query=${encodeURIComponent('{ __schema { types { name description } } }')}`,
      `${rest}/graphql?query=${encodeURIComponent('{ __schema { types { name description } } }')}`,
    ]) {
      const answer = await fetch(url, { headers: { 'accept-encoding': 'gzip', accept: 'application/json' } });
      expect(answer.status, url).toBe(200);
      expect(answer.headers.get('content-encoding'), url).toBe('gzip');
      await answer.arrayBuffer();
    }

    // A token issued by the REST process verifies in every subgraph process (shared keys and issuer);
    // the gateway forwards it over HTTP and, for subscriptions, in connection_init.
    const { email, password } = DEMO_CREDENTIALS.integrator;
    const auth = bearer(await demoIntegratorToken(rest, email, password));
    const anonymous = await graphql(gateway, '{ tenants { total } }');
    expect(anonymous.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });

    // The event is published by the REST process and delivered by the tenants subgraph process,
    // through Redis, then through the gateway process to this graphql-ws client.
    const sub = await subscribe(gateway, 'subscription { tenantCreated { id referenceId } }', {}, auth);
    try {
      await settle(800);
      const res = await postJson(`${rest}/api/business/v1/tenants`, { referenceId: 'distributed-1' }, auth);
      expect(res.status).toBe(201);
      const tenant = (await res.json()) as { id: string };
      expect(await sub.next()).toEqual({ data: { tenantCreated: { id: tenant.id, referenceId: 'distributed-1' } } });

      const federated = await graphql(gateway, 'query($id: ID!) { tenant(id: $id) { referenceId } }', { id: tenant.id }, auth);
      expect(federated).toEqual({ data: { tenant: { referenceId: 'distributed-1' } } });
      const lenders = await graphql(gateway, '{ lenders { id products { productType } } }', {}, auth);
      expect((lenders.data?.lenders as unknown[]).length).toBeGreaterThan(0);
      const missing = await graphql(gateway, '{ tenant(id: "00000000-0000-4000-8000-000000000000") { id } }', {}, auth);
      expect(missing.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    } finally {
      await sub.close();
    }

    // A lender's status change made through the REST process reaches a lender subscribed at the
    // gateway (served by the applications subgraph process), through Redis; and its webhook is
    // delivered by the worker process, woken by the REST process's NOTIFY (not by polling).
    const receiver = await startLenderReceiver();
    const db = await openDatabase({ databaseUrl: databaseUrlFor(baseUrl, dbName), dataDir: 'unused', poolSize: 1, migrate: false });
    try {
      const lender = await db.prisma.lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
      await db.prisma.lender.update({ where: { id: lender.id }, data: { applicationUrl: receiver.url } });
      const credentials = await issueLenderCredentials(db.prisma, lender.id, 'demo', rest);
      const profile = await db.prisma.profile.create({ data: { environment: 'demo' } });
      const application = await db.prisma.lenderApplication.create({
        data: { lenderId: lender.id, profileId: profile.id, status: 'In Review', payload: { application: {} } },
      });
      const idToken = await lenderIdToken({ url: rest } as never, credentials);
      const events = await subscribe(gateway, 'subscription { applicationStatusChanged { applicationId status } }', {}, { authorization: `Bearer ${idToken}` });
      try {
        await settle(800);
        const ack = await postJson(`${rest}/api/platform/v1/funding/applications/${application.id}/acknowledgement`, { reference: 'DIST-1' }, bearer(idToken));
        expect(ack.status).toBe(200);
        expect(await events.next()).toEqual({ data: { applicationStatusChanged: { applicationId: application.id, status: 'In Review' } } });
        const delivery = await eventually(
          () => db.prisma.webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: application.id } }),
          (d) => d.status === 'DELIVERED',
        );
        expect(receiver.received).toHaveLength(1);
        // The worker logs the attempt after recording it: wait for the line to come through.
        const attemptLines = () =>
          supervisor!
            .output()
            .split('\n')
            .filter((line) => line.includes(delivery.id) && line.includes('"msg":"webhook delivery attempt"') && line.endsWith('}'));
        const attempts = await eventually(
          async () => attemptLines(),
          (lines) => lines.length > 0,
        );
        expect(attempts.map((line) => JSON.parse(line) as { outcome: string; wokenBy: string })).toEqual([
          expect.objectContaining({ outcome: 'delivered', wokenBy: 'notification' }),
        ]);
      } finally {
        await events.close();
      }
    } finally {
      await db.close();
      await receiver.close();
    }
  }, 240_000); // seven processes starting on two busy cores (CI runs the other files beside it)
});
