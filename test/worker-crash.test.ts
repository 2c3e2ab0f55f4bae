/**
 * At-least-once delivery across a crash: the system's process is killed (SIGKILL) while a webhook
 * attempt is in flight; after a restart, every pending delivery is delivered, the interrupted one
 * again (same webhook-id, which lenders de-duplicate on), and nothing is lost or invented. The
 * interrupted attempt's claim holds for the webhook timeout and 5 s (25 s here, from the attempt's
 * start): the restarted worker takes the delivery up when it lapses.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/kernel/config.js';
import { queueDelivery } from '../src/modules/webhooks/webhook-delivery.js';
import { startRuntime, type Runtime } from '../src/processes/runtime.js';
import { eventually, startLenderReceiver, type LenderReceiver } from './support/lender-receiver.js';
import { freePort, startEntry, waitForHealth, type RunningProcess } from './support/processes.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { testSigningKeys } from './support/test-app.js';

describe('a worker killed mid-delivery', () => {
  let database: TestDatabase | undefined;
  let runtime: Runtime | undefined;
  let receiver: LenderReceiver | undefined;
  const processes: RunningProcess[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await runtime?.close();
    await receiver?.close();
    await database?.drop();
  });

  it('delivers exactly the pending deliveries after a restart', async () => {
    database = await createTestDatabase();
    receiver = await startLenderReceiver();
    receiver.answers = ['hang'];
    const port = await freePort();
    const env = {
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      AUTH_SIGNING_KEYS: await testSigningKeys(),
      SEED_DEMO_DATA: 'false',
      WEBHOOK_TIMEOUT_MS: '20000', // the hung attempt stays in flight until the kill
      WEBHOOK_RETRY_DELAYS: '0,0.2,0.2',
    };
    const system = startEntry('src/processes/main.ts', [], env);
    processes.push(system);
    await waitForHealth(`http://127.0.0.1:${port}`, system);

    // Queue five deliveries from another process, as the services queue them.
    runtime = await startRuntime(
      loadConfig({}, { DATABASE_URL: database.url, PORT: 0, LOG_LEVEL: 'silent', AUTH_SIGNING_KEYS: env.AUTH_SIGNING_KEYS, SEED_DEMO_DATA: false }),
      { prepareDatabase: false },
    );
    const db = runtime.database.prisma;
    const lender = await db.lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
    const profile = await db.profile.create({ data: { environment: 'demo' } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const application = await db.lenderApplication.create({ data: { lenderId: lender.id, profileId: profile.id, status: 'In Review' } });
      ids.push(
        await db.$transaction((tx) =>
          queueDelivery(runtime!.contextFor(), tx, {
            lenderApplicationId: application.id,
            lenderId: lender.id,
            event: 'APPLICATION_CREATED',
            url: receiver!.url,
            payload: { application: { id: application.id } },
          }),
        ),
      );
    }

    // One attempt hangs at the lender; kill the system while it is in flight.
    await eventually(
      () => db.webhookDelivery.count({ where: { id: { in: ids }, status: 'DELIVERED' } }),
      (n) => n === 4,
    );
    const inFlight = await db.webhookDelivery.findMany({ where: { id: { in: ids }, status: 'PENDING' } });
    expect(inFlight).toHaveLength(1);
    expect(receiver.received).toHaveLength(5);
    system.child.kill('SIGKILL');
    await new Promise((resolve) => system.child.once('exit', resolve));

    const restarted = startEntry('src/processes/main.ts', [], env);
    processes.push(restarted);
    await waitForHealth(`http://127.0.0.1:${port}`, restarted);
    const final = await eventually(
      () => db.webhookDelivery.findMany({ where: { id: { in: ids } } }),
      (rows) => rows.every((r) => r.status === 'DELIVERED'),
      30_000,
    );
    expect(final).toHaveLength(5);
    const received = receiver.received.map((r) => String(r.headers['webhook-id']));
    expect(new Set(received)).toEqual(new Set(ids));
    expect(received.filter((id) => id === inFlight[0]!.id)).toHaveLength(2);
    expect(received).toHaveLength(6);
  });
});
