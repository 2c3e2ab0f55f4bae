/**
 * A credential change across a Redis outage of one process (its path to Redis cut, a TCP proxy whose
 * port closes; the other process keeps its own connections): the other process's cached answer ("active", for
 * 30 s) is dropped once the outage ends, not when it expires, both ways round:
 *  - the announcing process was cut off: Redis refused its announcement, so it sends it again when
 *    its connection is back (the listener never lost its connection, and never dropped anything);
 *  - the listening process was cut off: it missed the announcement, so it drops every cached answer
 *    when its connection is back.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Actor } from '../src/kernel/actor.js';
import { loadConfig } from '../src/kernel/config.js';
import { createLogger } from '../src/infra/logger.js';
import { CREDENTIAL_CHANGES_CHANNEL } from '../src/modules/identity/credential-status.js';
import { startRuntime, type Runtime } from '../src/processes/runtime.js';
import { redisAnswers, testRedisUrl as redisUrl } from './support/redis-availability.js';
import { testSigningKeys } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const prefix = `fg-test:${randomUUID().slice(0, 8)}:`;

interface RedisPath {
  port: number;
  /** Drops every connection and closes the port: connecting is refused, as with Redis down. */
  cut(): Promise<void>;
  /** Listens on the same port again. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP path to Redis for one process. Cut, its port is closed (connection refused), not merely
 * hanging up on each connection: a subscriber connection counts a connection that opens as a
 * reconnection, before the hang-up.
 */
async function redisPath(target: URL): Promise<RedisPath> {
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    open.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  await listen(0);
  const { port } = server.address() as net.AddressInfo;
  const cut = async () => {
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of open) socket.destroy();
    open.clear();
    await closed;
  };
  return { port, cut, resume: () => listen(port), close: cut };
}

describe.skipIf(!(await redisAnswers(redisUrl)))('credential changes across a Redis outage of one process', () => {
  let database: TestDatabase | undefined;
  let path: RedisPath | undefined;
  const runtimes: Runtime[] = [];
  let cutOff!: Runtime;
  let connected!: Runtime;
  const raw = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });

  beforeAll(async () => {
    database = await createTestDatabase();
    path = await redisPath(new URL(redisUrl));
    const start = async (url: string) => {
      const config = loadConfig(
        {},
        {
          DATABASE_URL: database!.url,
          DB_POOL_SIZE: 2,
          REDIS_URL: url,
          REDIS_KEY_PREFIX: prefix,
          AUTH_SIGNING_KEYS: await testSigningKeys(),
          SEED_DEMO_DATA: false,
        },
      );
      const runtime = await startRuntime(config, { prepareDatabase: false, logger: createLogger('silent') });
      runtimes.push(runtime);
      return runtime;
    };
    [cutOff, connected] = await Promise.all([start(`redis://127.0.0.1:${path.port}`), start(redisUrl)]);
    await raw.connect();
  });
  afterAll(async () => {
    await Promise.all(runtimes.map((r) => r.close()));
    await path?.close().catch(() => undefined);
    raw.disconnect();
    await database?.drop();
  });

  /** Both processes subscribed to credential changes (again, after a cut: nothing left in flight). */
  async function bothListening(): Promise<void> {
    const channel = `${prefix}${CREDENTIAL_CHANGES_CHANNEL}`;
    await vi.waitFor(async () => expect(await raw.pubsub('NUMSUB', channel)).toEqual([channel, 2]), { timeout: 15_000 });
  }

  /** A lender whose credentials each process holds as active (cached for 30 s), once both listen for changes. */
  async function activeLender(): Promise<{ actor: Actor; deactivate(): Promise<void>; id: string }> {
    // After an earlier cut, the reconnection drops what was cached before it: cache after it.
    await bothListening();
    const prisma = connected.database.prisma;
    const clientId = `outage-test-${randomUUID()}`;
    const lender = await prisma.lender.create({
      data: { name: 'Outage Lender', slug: `outage-lender-${randomUUID().slice(0, 8)}`, applicationUrl: 'https://lender.example/applications', clientId },
    });
    const actor: Actor = { kind: 'lender', lenderId: lender.id, clientId, scopes: [] };
    await cutOff.auth.credentialStatus.assertActive(actor);
    await connected.auth.credentialStatus.assertActive(actor);
    return {
      actor,
      id: `lender-client:${clientId}`,
      deactivate: async () => void (await prisma.lender.update({ where: { id: lender.id }, data: { active: false } })),
    };
  }

  const refused = (runtime: Runtime, actor: Actor) =>
    expect(runtime.auth.credentialStatus.assertActive(actor)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });

  it('an announcement Redis refused is sent again when the announcing process is connected again', async () => {
    const lender = await activeLender();
    await path!.cut();
    await lender.deactivate();
    // Made where it was made; Redis away for this process: nobody else is told yet.
    cutOff.auth.credentialStatus.forget(lender.id);
    await refused(cutOff, lender.actor);
    await new Promise((r) => setTimeout(r, 500));
    await expect(connected.auth.credentialStatus.assertActive(lender.actor)).resolves.toBeUndefined();

    await path!.resume();
    await vi.waitFor(() => refused(connected, lender.actor), { timeout: 15_000 });
    await bothListening();
  });

  it('a process that missed announcements drops its cached answers when it is connected again', async () => {
    const lender = await activeLender();
    await path!.cut();
    await lender.deactivate();
    connected.auth.credentialStatus.forget(lender.id);
    await refused(connected, lender.actor);
    // The cut-off process did not hear it: its cached answer stands.
    await new Promise((r) => setTimeout(r, 500));
    await expect(cutOff.auth.credentialStatus.assertActive(lender.actor)).resolves.toBeUndefined();

    await path!.resume();
    await vi.waitFor(() => refused(cutOff, lender.actor), { timeout: 15_000 });
    await bothListening();
  });
});
