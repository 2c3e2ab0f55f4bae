/**
 * Webhook delivery to a real local lender receiver: only 204 is delivered; failures and timeouts
 * are retried on the schedule (shortened here by configuration) with a stable webhook-id and a
 * Standard Webhooks signature; an exhausted schedule dead-letters the delivery; staff redeliver.
 * The worker keeps an application's changes in order, records deliveries that complete together,
 * and keeps connections to a lender alive only while its checked addresses stay the same.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from '../identity/bootstrap.js';
import { closeLenderConnections, lenderAgent } from './lender-connections.js';
import pg from 'pg';
import { queueDeliveries, queueDelivery } from './webhook-delivery.js';
import { claimDueDeliveries, recordDelivered } from './delivery-attempt-store.js';
import { sentDocument } from './authorization-token.js';
import { DELIVERY_WAKEUP_CHANNEL } from './delivery-wakeups.js';
import { graphql } from '../../../test/support/graphql-client.js';
import { bearer, lenderCredentials, lenderIdToken, signIn } from '../../../test/support/identities.js';
import { storedApplicationDocument } from '../../../test/support/lender-applications.js';
import { eventually, startLenderReceiver, type LenderReceiver } from '../../../test/support/lender-receiver.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let receiver: LenderReceiver;
let lender: LenderCredentials;
const db = () => app.runtime.database.prisma;

beforeAll(async () => {
  app = await startTestApp({ config: { WEBHOOK_RETRY_DELAYS: [0, 0.3, 0.3], WEBHOOK_TIMEOUT_MS: 500 } });
  receiver = await startLenderReceiver();
  const first = await db().lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
  await db().lender.update({ where: { id: first.id }, data: { applicationUrl: receiver.url, updateUrl: null } });
  lender = await lenderCredentials(app, first.id);
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

async function acknowledgedApplication(): Promise<number> {
  const profile = await db().profile.create({ data: { environment: 'demo' } });
  const row = await db().lenderApplication.create({
    data: { lenderId: lender.lenderId, profileId: profile.id, status: 'In Review', payload: storedApplicationDocument({ lenderId: lender.lenderId }) },
  });
  const res = await postJson(
    `${app.url}/api/platform/v1/funding/applications/${row.id}/acknowledgement`,
    { reference: `W-${row.id}` },
    bearer(await lenderIdToken(app, lender)),
  );
  expect(res.status).toBe(200);
  return row.id;
}
const deliveryOf = (applicationId: number) => db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: applicationId } });
const requestsFor = (applicationId: number) => receiver.received.filter((r) => JSON.parse(r.body).application?.id === applicationId);

describe('delivery', () => {
  it('retries a lender answering 500 twice, then delivers on 204, with one stable webhook-id and a valid signature', async () => {
    receiver.answers = [500, 503];
    const id = await acknowledgedApplication();
    const delivered = await eventually(
      () => deliveryOf(id),
      (d) => d.status === 'DELIVERED',
    );
    expect(delivered).toMatchObject({ attempts: 3, lastStatusCode: 204, event: 'APPLICATION_UPDATED' });
    const requests = requestsFor(id);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivered.id]));
    const last = requests.at(-1)!;
    const verified = new Webhook(lender.webhookSecret).verify(last.body, last.headers as Record<string, string>) as { application: { status: string } };
    expect(verified.application).toMatchObject({ id, status: 'In Review', reference: `W-${id}` });
  });

  it('a lender that never answers in time is retried, then dead-lettered; staff redeliver it', async () => {
    receiver.answers = ['hang', 500, 500];
    const id = await acknowledgedApplication();
    const dead = await eventually(
      () => deliveryOf(id),
      (d) => d.status === 'DEAD',
    );
    expect(dead.attempts).toBe(3);
    expect(dead.lastError).toMatch(/TimeoutError|answered 500/);

    const { createAccountWithUser } = await import('../identity/bootstrap.js');
    await createAccountWithUser(db(), {
      environment: 'demo',
      accountName: 'ops',
      email: 'deliveries@example.test',
      password: 'deliveries-password',
      role: 'STAFF',
    });
    const staff = bearer(await signIn(app, 'deliveries@example.test', 'deliveries-password'));
    const letters = await graphql(app.url, '{ webhookDeliveries(status: "DEAD", first: 200) { nodes { id lenderApplicationId attempts } } }', {}, staff);
    expect(letters.data?.webhookDeliveries.nodes).toContainEqual({ id: dead.id, lenderApplicationId: id, attempts: 3 });
    const again = await graphql(app.url, 'mutation($d: ID!) { redeliverWebhook(deliveryId: $d) { status } }', { d: dead.id }, staff);
    expect(again.data?.redeliverWebhook).toEqual({ status: 'PENDING' });
    await eventually(
      () => deliveryOf(id),
      (d) => d.status === 'DELIVERED',
    );
  });
});

describe("the client's decision reaches the lender's update URL", () => {
  it('an accepted offer is delivered to the update URL with status Client Accepted', async () => {
    const { marketplaceV1Token, signUpIntegrator } = await import('../../../test/support/identities.js');
    const updates = await startLenderReceiver();
    try {
      await db().lender.update({ where: { id: lender.lenderId }, data: { updateUrl: updates.url } });
      const jwt = (await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt;
      const { uuid } = await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, bearer(jwt))).json();
      const row = await db().lenderApplication.create({
        data: { lenderId: lender.lenderId, profileId: uuid, status: 'In Review', payload: storedApplicationDocument({ lenderId: lender.lenderId }) },
      });
      const offer = { reference: `U-${row.id}`, status: 'FINAL', termLoan: { maximumAmount: { code: 'GBP', value: 50000 }, term: 24, interestRate: 0.7 } };
      expect((await postJson(`${app.url}/api/platform/v1/funding/applications/${row.id}/offer`, offer, bearer(await lenderIdToken(app, lender)))).status).toBe(
        200,
      );
      expect((await postJson(`${app.url}/api/marketplace/v1/lender-applications/${row.id}/accept`, undefined, bearer(jwt))).status).toBe(200);
      const accepted = await eventually(
        async () =>
          updates.received.map((r) => JSON.parse(r.body) as { application: { id: number; status: string } }).filter((d) => d.application.id === row.id),
        (docs) => docs.some((d) => d.application.status === 'Client Accepted'),
      );
      expect(accepted.map((d) => d.application.status)).toEqual(['Offered', 'Client Accepted']);
      const last = updates.received.at(-1)!;
      expect(() => new Webhook(lender.webhookSecret).verify(last.body, last.headers as Record<string, string>)).not.toThrow();
    } finally {
      await db().lender.update({ where: { id: lender.lenderId }, data: { updateUrl: null } });
      await updates.close();
    }
  });
});

describe('the worker', () => {
  const queue = async (applicationId: number, url: string) =>
    db().$transaction((tx) =>
      queueDelivery(app.runtime.contextFor(), tx, {
        lenderApplicationId: applicationId,
        lenderId: lender.lenderId,
        event: 'APPLICATION_UPDATED',
        url,
        payload: { application: { id: applicationId } },
      }),
    );
  const newApplication = async () => {
    const profile = await db().profile.create({ data: { environment: 'demo' } });
    return (await db().lenderApplication.create({ data: { lenderId: lender.lenderId, profileId: profile.id, status: 'In Review' } })).id;
  };

  it("sends an application's second change only after its first, which is retried, has been delivered", async () => {
    receiver.answers = [500];
    const applicationId = await newApplication();
    const first = await queue(applicationId, receiver.url);
    const second = await queue(applicationId, receiver.url);
    await eventually(
      () => db().webhookDelivery.findMany({ where: { id: { in: [first, second] } } }),
      (rows) => rows.every((r) => r.status === 'DELIVERED'),
    );
    expect(requestsFor(applicationId).map((r) => r.headers['webhook-id'])).toEqual([first, first, second]);
    // Waiting behind the earlier delivery is not an attempt.
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: second } })).toMatchObject({ attempts: 1, lastStatusCode: 204 });
  });

  it("numbers an application's deliveries 1, 2, … whoever writes them at once, and sends each with its number and event type", async () => {
    const applicationId = await newApplication();
    // Ten writers at once, each its own transaction, none holding the application's row beforehand:
    // the numbering trigger orders them itself (its unique index would refuse a number given twice).
    const ids = await Promise.all(Array.from({ length: 10 }, () => queue(applicationId, receiver.url)));
    const rows = await db().webhookDelivery.findMany({ where: { lenderApplicationId: applicationId }, orderBy: { sequence: 'asc' } });
    expect(rows.map((row) => row.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
    await eventually(
      () => db().webhookDelivery.findMany({ where: { lenderApplicationId: applicationId } }),
      (all) => all.every((r) => r.status === 'DELIVERED'),
    );
    const sent = requestsFor(applicationId).map((r) => ({
      id: r.headers['webhook-id'],
      sequence: Number(r.headers['webhook-sequence']),
      event: r.headers['webhook-event-type'],
    }));
    expect(sent).toEqual(rows.map((row) => ({ id: row.id, sequence: row.sequence, event: 'application.updated' })));
  });

  it('records deliveries that complete together, each with its status, delivery time and one attempt row', async () => {
    const applications = await Promise.all(Array.from({ length: 12 }, () => newApplication()));
    const ids = await db().$transaction(async (tx) => {
      const queued: string[] = [];
      for (const applicationId of applications) {
        queued.push(
          await queueDelivery(app.runtime.contextFor(), tx, {
            lenderApplicationId: applicationId,
            lenderId: lender.lenderId,
            event: 'APPLICATION_UPDATED',
            url: receiver.url,
            payload: { application: { id: applicationId } },
          }),
        );
      }
      return queued;
    });
    const rows = await eventually(
      () => db().webhookDelivery.findMany({ where: { id: { in: ids } }, include: { attemptLog: true } }),
      (found) => found.every((r) => r.status === 'DELIVERED'),
    );
    for (const row of rows) {
      expect(row).toMatchObject({ attempts: 1, lastStatusCode: 204, lastError: null, nextAttemptAt: null });
      expect(row.attemptLog).toHaveLength(1);
      expect(row.attemptLog[0]).toMatchObject({ statusCode: 204, error: null });
      expect(row.deliveredAt?.getTime()).toBe(row.attemptLog[0]!.attemptedAt.getTime());
      // Stored as UTC, as Prisma writes timestamps: within a minute of this clock.
      expect(Math.abs(row.deliveredAt!.getTime() - Date.now())).toBeLessThan(60_000);
      expect(Math.abs(row.updatedAt.getTime() - Date.now())).toBeLessThan(60_000);
    }
  });

  it("queues one operation's deliveries together; failures that finish together each keep their own retry schedule", async () => {
    // Every delivery's first attempt fails (500), its retry is answered 204.
    const attempted = new Set<string>();
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const id = String(req.headers['webhook-id']);
        const first = !attempted.has(id);
        attempted.add(id);
        res.writeHead(first ? 500 : 204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const applications = await Promise.all(Array.from({ length: 8 }, () => newApplication()));
      const ids = await db().$transaction((tx) =>
        queueDeliveries(
          app.runtime.contextFor(),
          tx,
          applications.map((applicationId) => ({
            lenderApplicationId: applicationId,
            lenderId: lender.lenderId,
            event: 'APPLICATION_UPDATED' as const,
            url,
            payload: { application: { id: applicationId } },
          })),
        ),
      );
      expect(new Set(ids).size).toBe(applications.length);
      const rows = await eventually(
        () => db().webhookDelivery.findMany({ where: { id: { in: ids } }, include: { attemptLog: { orderBy: { attemptedAt: 'asc' } } } }),
        (found) => found.length === ids.length && found.every((r) => r.status === 'DELIVERED'),
      );
      for (const row of rows) {
        expect(applications[ids.indexOf(row.id)]).toBe(row.lenderApplicationId);
        expect(row).toMatchObject({ attempts: 2, lastStatusCode: 204, lastError: null });
        const [failed, delivered] = row.attemptLog;
        expect(row.attemptLog).toHaveLength(2);
        expect(failed).toMatchObject({ statusCode: 500, error: 'answered 500, not 204' });
        expect(delivered).toMatchObject({ statusCode: 204, error: null });
        // The retry waited for its scheduled delay (0.3 s here, less at most 20% jitter).
        expect(delivered!.attemptedAt.getTime() - failed!.attemptedAt.getTime()).toBeGreaterThanOrEqual(0.3 * 1000 * (1 - 0.2));
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('reuses one kept-alive connection for consecutive deliveries to a lender', async () => {
    let connections = 0;
    const hooks: string[] = [];
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        hooks.push(String(req.headers['webhook-id']));
        res.writeHead(204).end();
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      for (let i = 0; i < 3; i++) {
        const id = await queue(await newApplication(), url);
        await eventually(
          () => db().webhookDelivery.findUniqueOrThrow({ where: { id } }),
          (d) => d.status === 'DELIVERED',
        );
      }
      expect(hooks).toHaveLength(3);
      expect(connections).toBe(1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('connections to lenders', () => {
  it("connect only to a host's latest checked addresses: a change replaces the kept-alive connections", async () => {
    const server = http.createServer((req, res) => void req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://lender.invalid:${(server.address() as AddressInfo).port}/hook`);
    try {
      const pinned = lenderAgent({ url, addresses: ['127.0.0.1'] });
      // The host does not resolve: the request reaches the server only through the pinned address.
      const answer = await request(url, { method: 'POST', body: '{}', dispatcher: pinned });
      await answer.body.dump();
      expect(answer.statusCode).toBe(204);
      expect(lenderAgent({ url, addresses: ['127.0.0.1'] })).toBe(pinned);

      // The host now resolves (and is checked) elsewhere: the open connection to 127.0.0.1 is not reused.
      const moved = lenderAgent({ url, addresses: ['127.0.0.2'] });
      expect(moved).not.toBe(pinned);
      await expect(request(url, { method: 'POST', body: '{}', dispatcher: moved })).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await closeLenderConnections();
      server.closeAllConnections();
      server.close();
    }
  });
});

// Last: claims made here at an hour from now would take any delivery still pending then.
describe('claims', () => {
  const HOUR = 3_600_000;
  const claimAt = (now: Date, lapseMs = 2 * HOUR) => claimDueDeliveries(db(), { now, lapseMs, limit: 50 });
  /** Deliveries of one application, due in an hour (the test app's worker leaves them alone), created in this order. */
  const dueInAnHour = async (count: number) => {
    const profile = await db().profile.create({ data: { environment: 'demo' } });
    const application = await db().lenderApplication.create({
      data: { lenderId: lender.lenderId, profileId: profile.id, status: 'In Review', acknowledgedAt: new Date() },
    });
    const dueAt = new Date(Date.now() + HOUR);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const row = await db().webhookDelivery.create({
        data: {
          lenderApplicationId: application.id,
          lenderId: lender.lenderId,
          event: 'APPLICATION_UPDATED',
          url: receiver.url,
          nextAttemptAt: dueAt,
          createdAt: new Date(Date.now() + i),
          payload: { application: { id: application.id }, apiProvider: { name: 'fg', authorizationToken: 'stored-by-mistake' } },
        },
      });
      ids.push(row.id);
    }
    return { ids, dueAt };
  };

  it('two workers claiming at once take a delivery once; it is taken again only once its claim lapsed, and never once recorded', async () => {
    const {
      ids: [id],
      dueAt,
    } = await dueInAnHour(1);
    const mine = <T extends { id: string }>(claimed: T[]) => claimed.filter((d) => d.id === id);
    const [first, second] = await Promise.all([claimAt(dueAt), claimAt(dueAt)]);
    expect([...mine(first), ...mine(second)]).toHaveLength(1);
    const claimed = mine([...first, ...second])[0]!;
    expect(claimed).toMatchObject({ attempts: 0, url: receiver.url, lenderSlug: expect.any(String), requestId: null });
    // The document as sent: the token of the moment in apiProvider, never a stored one.
    expect(JSON.parse(sentDocument(claimed.document, claimed.apiProvider, 'tok'))).toEqual({
      application: { id: expect.any(Number) },
      apiProvider: { name: 'fg', authorizationToken: 'tok' },
    });
    // Held while the claim is young; a claim older than the lapse (its worker died mid-attempt) is taken over.
    expect(mine(await claimAt(new Date(dueAt.getTime() + HOUR)))).toHaveLength(0);
    expect(mine(await claimAt(new Date(dueAt.getTime() + 2 * HOUR)))).toHaveLength(1);
    await recordDelivered(db(), { deliveryId: id!, attempts: 1, attemptedAt: dueAt, latencyMs: 1 });
    expect(mine(await claimAt(new Date(dueAt.getTime() + 10 * HOUR)))).toHaveLength(0);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'DELIVERED', attempts: 1, attemptStartedAt: null });
  });

  it("an application's later delivery is claimed only once the earlier one is recorded, whose record wakes the workers", async () => {
    const {
      ids: [earlier, later],
      dueAt,
    } = await dueInAnHour(2);
    const listener = new pg.Client({ connectionString: app.database.url });
    await listener.connect();
    try {
      const wakeups: string[] = [];
      listener.on('notification', (message) => wakeups.push(message.payload ?? ''));
      await listener.query(`LISTEN ${DELIVERY_WAKEUP_CHANNEL}`);
      const ours = (claimed: Array<{ id: string }>) => claimed.map((d) => d.id).filter((id) => id === earlier || id === later);
      expect(ours(await claimAt(dueAt))).toEqual([earlier]);
      expect(ours(await claimAt(dueAt))).toEqual([]);
      const before = wakeups.length;
      await recordDelivered(db(), { deliveryId: earlier!, attempts: 1, attemptedAt: dueAt, latencyMs: 1 });
      await eventually(
        async () => wakeups.length,
        (n) => n > before,
      );
      expect(JSON.parse(wakeups.at(-1)!)).toMatchObject({ startAfter: null });
      expect(ours(await claimAt(dueAt))).toEqual([later]);
    } finally {
      await listener.end();
    }
  });
});
