/**
 * The distributed deployment (`start:distributed`) under faults, with real parts:
 *  - a service killed with SIGKILL (the webhook worker, then a subgraph) is restarted by the
 *    supervisor, while the other services go on answering REST and GraphQL throughout.
 * Each asserts behaviour; the times it measured are printed (docs/benchmarks.md), not asserted.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../prisma/seed/demo-identities.js';
import { API_KEY_SCOPES } from '../src/kernel/scopes.js';
import { graphql } from './support/graphql-client.js';
import { bearer, createApiKey, platformToken, signIn } from './support/identities.js';
import { eventually } from './support/lender-receiver.js';
import { adminQuery, databaseUrlFor } from './support/postgres-admin.js';
import { startEntry, waitForHealth, type RunningProcess } from './support/processes.js';
import type { TestApp } from './support/test-app.js';
import { redisServerInstalled, startThrowawayRedis, type ThrowawayRedis } from './support/throwaway-redis.js';

const baseUrl = inject('postgresUrl');

/** A request's outcome and how long it took. */
interface Timed {
  ok: boolean;
  ms: number;
  what: string;
  detail?: string;
}

async function timed(what: string, request: () => Promise<{ ok: boolean; detail?: string }>): Promise<Timed> {
  const started = performance.now();
  try {
    const { ok, detail } = await request();
    return { ok, ms: performance.now() - started, what, ...(detail === undefined ? {} : { detail }) };
  } catch (err) {
    return { ok: false, ms: performance.now() - started, what, detail: String(err) };
  }
}

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

  /** Polls both reads until `until` resolves, and answers every outcome. */
  async function pollWhile(until: Promise<unknown>): Promise<Timed[]> {
    const outcomes: Timed[] = [];
    let done = false;
    const finished = until.finally(() => (done = true));
    while (!done) {
      outcomes.push(...(await Promise.all([restRead(), graphqlRead()])));
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

  it('restarts a killed worker, then a killed subgraph, while the other services answer throughout', async () => {
    for (const { service, url, answers } of [
      { service: 'worker', url: worker, answers: async () => (await fetch(`${worker}/health`)).ok },
      {
        service: 'profiles',
        url: profilesSubgraph,
        // Through the gateway: a query the profiles subgraph alone answers.
        answers: async () => {
          const answer = await graphql<{ questionnaires: unknown[] }>(gateway, '{ questionnaires { id } }', {}, platformAuth);
          return answer.errors === undefined && (answer.data?.questionnaires.length ?? 0) > 0;
        },
      },
    ]) {
      expect(await answers()).toBe(true);
      const pid = pidOf(service);
      expect(pid, `the supervisor names ${service}'s pid`).toEqual(expect.any(Number));
      const killedAt = performance.now();
      process.kill(pid!, 'SIGKILL');
      let backAfterMs = 0;
      const back = (async () => {
        // Down first (the kill takes effect), then answering again under a new process.
        await eventually(async () => pidOf(service), (now) => now !== undefined && now !== pid, 120_000);
        await eventually(async () => answers().catch(() => false), (ok) => ok, 60_000);
        backAfterMs = performance.now() - killedAt;
      })();
      const outcomes = await pollWhile(back);
      await back;
      console.info(`${service} killed: back after ${Math.round(backAfterMs)} ms; ${outcomes.length} reads meanwhile, slowest ${Math.round(Math.max(...outcomes.map((o) => o.ms)))} ms`);
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
    const ready = await eventually(async () => (await fetch(`${gateway}/health/ready`)).status, (status) => status === 200, 30_000);
    expect(ready).toBe(200);
  }, 300_000);
});
