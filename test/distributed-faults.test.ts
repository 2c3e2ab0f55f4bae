/**
 * The distributed deployment (`start:distributed`) under faults, with real parts:
 *  - a service killed with SIGKILL (the webhook worker, then a subgraph, then the gateway) is
 *    restarted by the supervisor, while the other services go on answering REST and GraphQL throughout; a service that
 *    keeps exiting stops the deployment, named in the log, with no process left behind;
 *  - its Redis (a server of the test's own) stopped for a while: requests go on answering without
 *    waiting for Redis, readiness says the event bus is degraded, and when Redis returns what was
 *    missed is caught up (a revocation announced during the outage, cross-process events, the
 *    product catalogue).
 * Each asserts behaviour; the times it measured are printed (docs/benchmarks.md), not asserted.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../prisma/seed/demo-identities.js';
import { API_KEY_SCOPES } from '../src/kernel/scopes.js';
import { CREDENTIAL_STATUS_TTL_MS } from '../src/modules/identity/credential-status.js';
import { ACME_ANSWERS } from './support/answers.js';
import { graphql, settle, subscribe } from './support/graphql-client.js';
import { bearer, createApiKey, marketplaceV1Token, platformToken, signIn } from './support/identities.js';
import { eventually } from './support/lender-receiver.js';
import { adminQuery, databaseUrlFor } from './support/postgres-admin.js';
import { startEntry, waitForHealth, type RunningProcess } from './support/processes.js';
import { postJson, type TestApp } from './support/test-app.js';
import { redisServerInstalled, startThrowawayRedis, type ThrowawayRedis } from './support/throwaway-redis.js';
import { redisAnswers, testRedisUrl } from './support/redis-availability.js';

const baseUrl = inject('postgresUrl');

/** A request's outcome and how long it took. */
interface Timed {
  ok: boolean;
  /** When it was sent (performance.now()), and how long it took. */
  at: number;
  ms: number;
  what: string;
  detail?: string;
}

async function timed(what: string, request: () => Promise<{ ok: boolean; detail?: string }>): Promise<Timed> {
  const started = performance.now();
  try {
    const { ok, detail } = await request();
    return { ok, at: started, ms: performance.now() - started, what, ...(detail === undefined ? {} : { detail }) };
  } catch (err) {
    return { ok: false, at: started, ms: performance.now() - started, what, detail: String(err) };
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** The supervisor's JSON log lines (its own and its services', which write to the same output). */
function logLines(supervisor: RunningProcess): Array<Record<string, unknown>> {
  return supervisor
    .output()
    .split('\n')
    .flatMap((line) => {
      if (!line.startsWith('{') || !line.endsWith('}')) return [];
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

describe.skipIf(!redisServerInstalled())('the distributed deployment under faults', () => {
  const dbName = `fg_faults_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  // Below Linux's ephemeral range (32768+), where outgoing connections could already hold a port.
  const basePort = 20_000 + Math.floor(Math.random() * 250) * 50 + 25;
  const gateway = `http://127.0.0.1:${basePort}`;
  const rest = `http://127.0.0.1:${basePort + 1}`;
  const worker = `http://127.0.0.1:${basePort + 2}`;
  const profilesSubgraph = `http://127.0.0.1:${basePort + 11}`;
  const tenantsSubgraph = `http://127.0.0.1:${basePort + 14}`;
  const app = { url: rest } as TestApp;
  let redis: ThrowawayRedis | undefined;
  let supervisor: RunningProcess | undefined;
  let platformAuth: Record<string, string>;

  beforeAll(async () => {
    await adminQuery(baseUrl, `CREATE DATABASE ${dbName}`);
    redis = await startThrowawayRedis();
    supervisor = startEntry('src/processes/distributed.ts', [], {
      DATABASE_URL: databaseUrlFor(baseUrl, dbName),
      REDIS_URL: redis.url,
      BASE_PORT: String(basePort),
      DATA_DIR: path.join(tmpdir(), dbName),
      HOST: '127.0.0.1',
    });
    await waitForHealth(gateway, supervisor, 150_000);
    const login = await signIn(app, DEMO_CREDENTIALS.integrator.email, DEMO_CREDENTIALS.integrator.password);
    const key = await createApiKey(app, login, { name: `faults-${randomUUID()}`, scopes: [...API_KEY_SCOPES] });
    platformAuth = bearer((await platformToken(app, key.key)).access_token);
  }, 240_000); // seven processes starting on two busy cores

  afterAll(async () => {
    await supervisor?.stop();
    await redis?.stop();
    await adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  /** One REST read (the REST adapter) and one GraphQL read (the gateway and the tenants subgraph). */
  const restRead = () =>
    timed('rest', async () => {
      const res = await fetch(`${rest}/api/platform/v1/tenants?limit=5`, { headers: platformAuth, signal: AbortSignal.timeout(20_000) });
      await res.arrayBuffer();
      return { ok: res.status === 200, detail: String(res.status) };
    });
  const graphqlRead = (auth = platformAuth) =>
    timed('graphql', async () => {
      const answer = await graphql<{ tenants: { total: number } }>(gateway, '{ tenants { total } }', {}, auth);
      return { ok: answer.errors === undefined && typeof answer.data?.tenants.total === 'number', detail: JSON.stringify(answer.errors ?? null) };
    });

  /** Polls the reads until `until` resolves, and answers every outcome. */
  async function pollWhile(until: Promise<unknown>, reads: Array<() => Promise<Timed>>): Promise<Timed[]> {
    const outcomes: Timed[] = [];
    let done = false;
    const finished = until.finally(() => (done = true));
    while (!done) {
      outcomes.push(...(await Promise.all(reads.map((read) => read()))));
      await new Promise((r) => setTimeout(r, 250));
    }
    await finished;
    return outcomes;
  }

  /** The pid the supervisor last reported for a service (at its start or its restart). */
  const pidOf = (service: string) =>
    logLines(supervisor!)
      .filter((l) => l.service === service && (l.msg === 'service healthy' || l.msg === 'service healthy again'))
      .map((l) => l.pid as number)
      .at(-1);

  it('restarts a killed worker, then a killed subgraph, then the killed gateway, while the other services answer throughout', async () => {
    for (const { service, url, answers, reads } of [
      { service: 'worker', url: worker, answers: async () => (await fetch(`${worker}/health`)).ok, reads: [restRead, () => graphqlRead()] },
      {
        service: 'profiles',
        url: profilesSubgraph,
        // Through the gateway: a query the profiles subgraph alone answers.
        answers: async () => {
          const answer = await graphql<{ questionnaires: unknown[] }>(gateway, '{ questionnaires { id } }', {}, platformAuth);
          return answer.errors === undefined && (answer.data?.questionnaires.length ?? 0) > 0;
        },
        reads: [restRead, () => graphqlRead()],
      },
      // Without the gateway, GraphQL is down by design; the REST adapter answers on.
      { service: 'gateway', url: gateway, answers: async () => (await graphqlRead()).ok, reads: [restRead] },
    ]) {
      expect(await answers()).toBe(true);
      const pid = pidOf(service);
      expect(pid, `the supervisor names ${service}'s pid`).toEqual(expect.any(Number));
      const killedAt = performance.now();
      process.kill(pid!, 'SIGKILL');
      let backAfterMs = 0;
      const back = (async () => {
        // Down first (the kill takes effect), then answering again under a new process.
        await eventually(
          async () => pidOf(service),
          (now) => now !== undefined && now !== pid,
          120_000,
        );
        await eventually(
          async () => answers().catch(() => false),
          (ok) => ok,
          60_000,
        );
        backAfterMs = performance.now() - killedAt;
      })();
      const outcomes = await pollWhile(back, reads);
      await back;
      console.info(
        `${service} killed: back after ${Math.round(backAfterMs)} ms; ${outcomes.length} reads meanwhile, slowest ${Math.round(Math.max(...outcomes.map((o) => o.ms)))} ms`,
      );
      expect(outcomes.filter((o) => !o.ok)).toEqual([]);
      expect(outcomes.length).toBeGreaterThan(0);
      // Restarted, not stopped: the supervisor logged the exit and the new process; the others were left alone.
      const lines = logLines(supervisor!);
      expect(lines.filter((l) => l.msg === 'service exited unexpectedly; restarting it').map((l) => l.service)).toContain(service);
      expect(lines.some((l) => l.msg === 'shutting down' && l.name === 'funding-gateway:supervisor')).toBe(false);
      expect((await fetch(`${url}/health`)).ok).toBe(true);
    }
    expect(supervisor!.child.exitCode).toBeNull();
    // The gateway counts the restarted subgraph in again.
    const ready = await eventually(
      async () => (await fetch(`${gateway}/health/ready`)).status,
      (status) => status === 200,
      30_000,
    );
    expect(ready).toBe(200);
  }, 300_000);

  it('serves through a Redis outage without waiting for it, says the event bus is degraded, and catches up when Redis returns', async () => {
    // An integrator's profile and its search through the REST adapter (its catalogue loaded), and a
    // second key whose revocation is announced while Redis is away.
    const login = await signIn(app, DEMO_CREDENTIALS.integrator.email, DEMO_CREDENTIALS.integrator.password);
    const v1Key = await createApiKey(app, login, { name: `faults-v1-${randomUUID()}`, scopes: [...API_KEY_SCOPES] });
    const v1 = bearer((await marketplaceV1Token(app, v1Key.key)).jwt);
    const blank = await fetch(`${rest}/api/marketplace/v1/profiles/blank`, { method: 'POST', headers: v1 });
    const { uuid } = (await blank.json()) as { uuid: string };
    const answered = await fetch(`${rest}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${uuid}/answers`, {
      method: 'PUT',
      headers: { ...v1, 'content-type': 'application/json' },
      body: JSON.stringify(ACME_ANSWERS),
    });
    expect(answered.status).toBe(204);
    const search = async () => {
      const res = await fetch(`${rest}/api/marketplace/v1/profiles/${uuid}/funding/matches/results`, { headers: v1 });
      const body = (await res.json()) as { matches: Array<{ productId: number }> };
      expect(res.status, JSON.stringify(body)).toBe(200);
      return body;
    };
    expect((await search()).matches.length).toBeGreaterThan(0);
    const doomedKey = await createApiKey(app, login, { name: `faults-doomed-${randomUUID()}`, scopes: [...API_KEY_SCOPES] });
    const doomed = bearer((await platformToken(app, doomedKey.key)).access_token);
    const staff = bearer(await signIn(app, DEMO_CREDENTIALS.staff.email, DEMO_CREDENTIALS.staff.password));

    const mix = () => [
      timed('rest profile', async () => {
        const res = await fetch(`${rest}/api/marketplace/v1/profiles/${uuid}`, { headers: v1, signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        return { ok: res.status === 200, detail: String(res.status) };
      }),
      graphqlRead(),
      timed('login', async () => {
        const res = await postJson(`${rest}/api/platform/v1/auth/login`, {
          email: DEMO_CREDENTIALS.integrator.email,
          password: DEMO_CREDENTIALS.integrator.password,
        });
        await res.arrayBuffer();
        return { ok: res.status === 200, detail: String(res.status) };
      }),
    ];
    const before: Timed[] = [];
    for (let round = 0; round < 10; round++) before.push(...(await Promise.all(mix())));
    expect(before.filter((o) => !o.ok)).toEqual([]);
    const readiness = async (url: string) => {
      const res = await fetch(`${url}/health/ready`);
      return { status: res.status, body: (await res.json()) as { status: string; degraded?: string[]; checks: Record<string, unknown> } };
    };
    for (const url of [rest, tenantsSubgraph]) {
      const { status, body } = await readiness(url);
      expect(status).toBe(200);
      expect(body.checks.eventBus).toBe('ready');
      expect(body.degraded).toBeUndefined();
    }
    // A subscriber at the gateway, served by the tenants subgraph's process, hears events the REST
    // process publishes, through Redis.
    const sub = await subscribe(gateway, 'subscription { tenantCreated { id referenceId } }', {}, platformAuth);
    try {
      await settle(800);
      // The doomed key's standing is asked, and cached for CREDENTIAL_STATUS_TTL_MS, by the tenants subgraph.
      expect((await graphqlRead(doomed)).ok).toBe(true);
      const standingCachedAt = performance.now();

      await redis!.stop();
      const during: Timed[] = [];
      const outageStarted = performance.now();
      // Readiness says degraded (as soon as the connections notice), and still answers 200.
      for (const url of [rest, tenantsSubgraph]) {
        const { status, body } = await eventually(
          () => readiness(url),
          (r) => r.body.checks.eventBus === 'degraded',
          20_000,
        );
        expect(status).toBe(200);
        expect(body).toMatchObject({ status: 'ready', degraded: ['eventBus'], checks: { database: 'ready', eventBus: 'degraded' } });
      }
      // The revocation takes effect at once where it is made; its announcement waits for Redis.
      const revoked = await fetch(`${rest}/api/platform/v1/api-key/${doomedKey.id}`, { method: 'DELETE', headers: bearer(login) });
      expect(revoked.status).toBe(204);
      expect((await fetch(`${rest}/api/platform/v1/tenants?limit=5`, { headers: doomed })).status).toBe(401);
      // A product saved through one process (the matches subgraph, through the gateway) while the
      // others cannot hear of it.
      const lender = await graphql<{ createLender: { id: number } }>(
        gateway,
        'mutation($input: LenderInput!) { createLender(input: $input) { id } }',
        { input: { name: `Outage Lender ${randomUUID().slice(0, 8)}` } },
        staff,
      );
      expect(lender.errors).toBeUndefined();
      const saved = await graphql<{ saveLenderProduct: { products: Array<{ id: number; name: string }> } }>(
        gateway,
        'mutation($lenderId: Int!, $input: LenderProductInput!) { saveLenderProduct(lenderId: $lenderId, input: $input) { products { id name } } }',
        {
          lenderId: lender.data!.createLender.id,
          input: {
            productType: 'TERM_LOAN',
            name: 'After the outage',
            minAmount: 1,
            maxAmount: 10_000_000,
            minTermMonths: 0,
            maxTermMonths: 120,
            annualRateMin: 5,
            annualRateMax: 9,
          },
        },
        staff,
      );
      expect(saved.errors).toBeUndefined();
      const product = saved.data!.saveLenderProduct.products.find((p) => p.name === 'After the outage')!;
      while (performance.now() - outageStarted < 10_000) during.push(...(await Promise.all(mix())));
      const lines = logLines(supervisor!);
      expect(
        lines.filter((l) => l.msg === 'cross-process events degraded: Redis unreachable; events published here reach this process only').length,
      ).toBeGreaterThan(0);

      await redis!.start();
      const restoredAt = performance.now();
      for (const url of [rest, tenantsSubgraph]) {
        const { body } = await eventually(
          () => readiness(url),
          (r) => r.body.checks.eventBus === 'ready',
          30_000,
        );
        expect(body.degraded).toBeUndefined();
      }
      // The tenants subgraph heard nothing while Redis was away; back, it drops what it had cached.
      await eventually(
        async () => (await graphqlRead(doomed)).ok,
        (ok) => !ok,
        20_000,
      );
      const revocationHeardAfterMs = performance.now() - restoredAt;
      // Before its cached answer expired: dropped on reconnecting (and the revocation announced again), not aged out.
      expect(performance.now() - standingCachedAt).toBeLessThan(CREDENTIAL_STATUS_TTL_MS);

      // The REST adapter, which heard nothing of the product, matches it on its next search.
      expect((await search()).matches.map((m) => m.productId)).toContain(product.id);

      // Events cross processes again: the subscription made before the outage hears a tenant created now.
      const created = await postJson(`${rest}/api/business/v1/tenants`, { referenceId: 'after-outage' }, platformAuth);
      expect(created.status).toBe(201);
      const tenant = (await created.json()) as { id: string };
      expect(await sub.next()).toEqual({ data: { tenantCreated: { id: tenant.id, referenceId: 'after-outage' } } });

      const stats = (outcomes: Timed[], what: string) => {
        const ms = outcomes.filter((o) => o.what === what).map((o) => o.ms);
        return `${what} p50 ${Math.round(percentile(ms, 50))} / p99 ${Math.round(percentile(ms, 99))} / max ${Math.round(Math.max(...ms))} ms (${ms.length})`;
      };
      for (const what of ['rest profile', 'graphql', 'login']) console.info(`before: ${stats(before, what)}; Redis away: ${stats(during, what)}`);
      const slowest = [...during].sort((a, b) => b.ms - a.ms).slice(0, 3);
      console.info(
        `slowest while Redis was away: ${slowest.map((o) => `${o.what} ${Math.round(o.ms)} ms, sent ${Math.round(o.at - outageStarted)} ms into the outage`).join('; ')}`,
      );
      console.info(`revocation heard by the subgraph ${Math.round(revocationHeardAfterMs)} ms after Redis returned`);
      // Every request answered, and none waited for Redis: waiting in ioredis's offline queue for its
      // reconnects cost each read seconds and each sign-in several times more, a handful of rounds in
      // the whole outage, where a round without waiting takes tens of milliseconds. Bounds generous
      // for a loaded machine, far from what waiting costs: at least a round a second, no request over 5 s.
      expect(during.filter((o) => !o.ok)).toEqual([]);
      expect(during.length / 3).toBeGreaterThanOrEqual(10);
      expect(during.filter((o) => o.ms > 5_000)).toEqual([]);
    } finally {
      await sub.close();
    }
  }, 300_000);
});

describe.skipIf(!(await redisAnswers(testRedisUrl)))('the distributed deployment with a service that keeps exiting', () => {
  const dbName = `fg_faults_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const basePort = 20_000 + Math.floor(Math.random() * 250) * 50 + 35;
  let supervisor: RunningProcess | undefined;
  let occupier: net.Server | undefined;
  afterAll(async () => {
    await supervisor?.stop();
    await new Promise((resolve) => (occupier ? occupier.close(resolve) : resolve(undefined)));
    await adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('stops the deployment after five exits of one service in a row, naming it, and leaves no service running', async () => {
    await adminQuery(baseUrl, `CREATE DATABASE ${dbName}`);
    // The gateway's port is taken (a listener that drops every connection): the gateway exits at each start.
    occupier = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => occupier!.listen(basePort, '127.0.0.1', resolve));
    supervisor = startEntry('src/processes/distributed.ts', [], {
      DATABASE_URL: databaseUrlFor(baseUrl, dbName),
      REDIS_URL: testRedisUrl,
      REDIS_KEY_PREFIX: `fg-faults-${randomUUID().slice(0, 8)}:`,
      BASE_PORT: String(basePort),
      DATA_DIR: path.join(tmpdir(), dbName),
      HOST: '127.0.0.1',
    });
    const code = await new Promise<number | null>((resolve) => supervisor!.child.once('exit', resolve));
    expect(code, supervisor.output()).toBe(1);
    const lines = logLines(supervisor);
    expect(lines.filter((l) => l.msg === 'service exited unexpectedly; restarting it').map((l) => [l.service, l.exitsInARow])).toEqual([
      ['gateway', 1],
      ['gateway', 2],
      ['gateway', 3],
      ['gateway', 4],
    ]);
    expect(lines.find((l) => l.level === 60 && l.name === 'funding-gateway:supervisor')).toMatchObject({
      service: 'gateway',
      exitsInARow: 5,
      msg: 'service gateway exited 5 times in a row, each within 60 s of its start; stopping the deployment',
    });
    // The services that were running were stopped with it: none still answers.
    for (const port of [basePort + 1, basePort + 2, basePort + 11, basePort + 12, basePort + 13, basePort + 14]) {
      await expect(fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5_000) }), `port ${port}`).rejects.toThrow();
    }
  }, 240_000);
});
