/**
 * Every process exits within 5 s of SIGTERM, closing its WebSockets and queues: `npm start` (the
 * compiled build, plain node) with a live graphql-ws subscription and an idle keep-alive connection,
 * a signal arriving during start-up, and `npm run start:distributed` (supervisor and all seven
 * services, none left behind).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import { redisAnswers, testRedisUrl as redisUrl } from './support/redis-availability.js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../prisma/seed/demo-identities.js';
import { demoIntegratorToken } from './support/identities.js';
import { adminQuery, databaseUrlFor } from './support/postgres-admin.js';
import { buildServer, freePort, startEntry, waitForHealth, type RunningProcess } from './support/processes.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const EXIT_WITHIN_MS = 5_000;

/** Sends SIGTERM and resolves with the exit code and how long the process took to exit. */
function terminate(proc: RunningProcess): Promise<{ code: number | null; ms: number }> {
  const sent = Date.now();
  return new Promise((resolve) => {
    proc.child.once('exit', (code) => resolve({ code, ms: Date.now() - sent }));
    proc.child.kill('SIGTERM');
  });
}

/** The pids whose parent is `pid` (Linux /proc). */
function childPids(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      const stat = (() => {
        try {
          return readFileSync(`/proc/${entry}/stat`, 'utf8');
        } catch {
          return '';
        }
      })();
      // Fields after the command name (which may hold spaces) start with state, then ppid.
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
    })
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A graphql-ws connection holding a subscription; resolves `closed` with the close code the server sent. */
async function liveSubscription(baseUrl: string, authorization: string) {
  let closedWith: (code: number) => void = () => {};
  const closed = new Promise<number>((resolve) => (closedWith = resolve));
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    // The close is expected here, and asserted through `closed`.
    onNonLazyError: () => {},
    connectionParams: { authorization },
    on: { closed: (event) => closedWith((event as { code: number }).code) },
  });
  await new Promise<void>((resolve, reject) => {
    client.on('connected', () => resolve());
    client.on('error', reject);
  });
  client.subscribe({ query: 'subscription { tenantCreated { id } }' }, { next: () => {}, error: () => {}, complete: () => {} });
  return { closed, dispose: () => client.dispose() };
}

/** An HTTP keep-alive connection left open after a request, as a client's connection pool does. */
async function idleKeepAliveConnection(baseUrl: string): Promise<http.Agent> {
  const agent = new http.Agent({ keepAlive: true });
  await new Promise<void>((resolve, reject) => {
    http.get(`${baseUrl}/health`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
  });
  return agent;
}

const redisRuns = await redisAnswers(redisUrl);

describe('graceful shutdown', () => {
  let database: TestDatabase;
  const running: RunningProcess[] = [];
  beforeAll(async () => {
    buildServer();
    database = await createTestDatabase();
  }, 180_000);
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await database?.drop();
  });

  const singleProcessEnv = (port: number) => ({
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: path.join(tmpdir(), `fg-shutdown-${randomUUID()}`),
    SEED_DEMO_DATA: 'true', // the demo integrator signs in
  });

  it('npm start (compiled, plain node) exits within 5 s of SIGTERM, closing a live subscription and idle connections', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const proc = startEntry('src/processes/main.ts', [], singleProcessEnv(port), { compiled: true });
    running.push(proc);
    await waitForHealth(baseUrl, proc);
    const { email, password } = DEMO_CREDENTIALS.integrator;
    const token = await demoIntegratorToken(baseUrl, email, password);
    const subscription = await liveSubscription(baseUrl, `Bearer ${token}`);
    const agent = await idleKeepAliveConnection(baseUrl);

    const exit = await terminate(proc);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(EXIT_WITHIN_MS);
    // graphql-ws servers close their sockets with 1001 (going away) when disposed.
    expect(await subscription.closed).toBe(1001);
    expect(proc.output()).toMatch(/"msg":"shutting down"/);
    agent.destroy();
    await subscription.dispose();
  });

  it('a SIGTERM during start-up stops the process within 5 s', async () => {
    const port = await freePort();
    const proc = startEntry('src/processes/main.ts', [], singleProcessEnv(port), { compiled: true });
    running.push(proc);
    // Wait until the process is starting (its logger prints its first line), then stop it mid-way.
    const deadline = Date.now() + 30_000;
    while (!proc.output().includes('"level"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const exit = await terminate(proc);
    expect(exit.ms).toBeLessThan(EXIT_WITHIN_MS);
    expect(exit.code).toBe(0);
  });

  describe.skipIf(!redisRuns)('npm run start:distributed', () => {
    const dbName = `fg_shutdown_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const baseUrl = inject('postgresUrl');
    afterAll(async () => {
      await adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    });

    it('the supervisor and every service process exit within 5 s, none left running', async () => {
      await adminQuery(baseUrl, `CREATE DATABASE ${dbName}`);
      const basePort = 20_000 + Math.floor(Math.random() * 250) * 50;
      const supervisor = startEntry(
        'src/processes/distributed.ts',
        [],
        {
          DATABASE_URL: databaseUrlFor(baseUrl, dbName),
          REDIS_URL: redisUrl,
          BASE_PORT: String(basePort),
          DATA_DIR: path.join(tmpdir(), dbName),
          HOST: '127.0.0.1',
        },
        { compiled: true },
      );
      running.push(supervisor);
      const gateway = `http://127.0.0.1:${basePort}`;
      await waitForHealth(gateway, supervisor, 150_000);
      const services = childPids(supervisor.child.pid!);
      expect(services).toHaveLength(7);
      const { email, password } = DEMO_CREDENTIALS.integrator;
      const token = await demoIntegratorToken(`http://127.0.0.1:${basePort + 1}`, email, password);
      const subscription = await liveSubscription(gateway, `Bearer ${token}`);

      const exit = await terminate(supervisor);
      expect(exit.ms).toBeLessThan(EXIT_WITHIN_MS);
      expect(exit.code).toBe(0);
      expect(services.filter(alive)).toEqual([]);
      expect(await subscription.closed).toBe(1001);
      // Each service shut down by itself rather than being killed at the supervisor's deadline.
      expect(supervisor.output().match(/"msg":"shutting down"/g)?.length).toBe(8);
      await subscription.dispose();
    }, 200_000);
  });
});
