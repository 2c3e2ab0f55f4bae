/**
 * The lender API's deliveries through real HTTP, with a real local lender receiver: a lender with a
 * least-privileged token (`openid` alone) lists its deliveries with what each sent (secrets
 * redacted) and its attempts, pages and filters them, redelivers one and replays its failed ones
 * and a time range (each a new attempt of the same webhook-id, received), within the replay's
 * bounds and rate limit, audited; a second lender sees and replays none of them; an integrator
 * token is refused; bad input is a 400 naming the field.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from '../identity/bootstrap.js';
import { createLogger, logDestination } from '../../infra/logger.js';
import { capturedLogLines } from '../../../test/support/log-lines.js';
import { bearer, leastPrivilegedLender, lenderCredentials, platformToken, signUpIntegrator } from '../../../test/support/identities.js';
import { storedApplicationDocument } from '../../../test/support/lender-applications.js';
import { eventually, startLenderReceiver, type LenderReceiver } from '../../../test/support/lender-receiver.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { expectJson } from '../../../test/support/rest-calls.js';
import { MAX_REPLAYS_PER_HOUR } from './lender-deliveries.js';

const { stream: logStream, lines: logLines } = capturedLogLines();
let app: TestApp;
let receiver: LenderReceiver;
let lenderA: LenderCredentials;
let lenderB: LenderCredentials;
let authA: Record<string, string>;
let authB: Record<string, string>;
const db = () => app.runtime.database.prisma;
const L = '/api/platform/v1/funding';

const get = async (path: string, auth: Record<string, string>) => fetch(`${app.url}${L}${path}`, { headers: auth });
const post = (path: string, body: unknown, auth: Record<string, string>) => postJson(`${app.url}${L}${path}`, body, auth);

/** An application of lender A acknowledged through the API: its update delivery is queued and sent to the receiver. */
async function acknowledgedApplication(): Promise<number> {
  const profile = await db().profile.create({ data: { environment: 'demo' } });
  const payload = { apiProvider: { url: `${app.url}${L}`, updateUrl: `${app.url}${L}` }, ...storedApplicationDocument({ lenderId: lenderA.lenderId }) };
  const row = await db().lenderApplication.create({ data: { lenderId: lenderA.lenderId, profileId: profile.id, status: 'In Review', payload } });
  await expectJson(await post(`/applications/${row.id}/acknowledgement`, { reference: `D-${row.id}` }, authA), 200);
  return row.id;
}
const deliveryOf = (applicationId: number) => db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: applicationId } });
const requestsFor = (applicationId: number) => receiver.received.filter((r) => JSON.parse(r.body).application?.id === applicationId);

/** An application whose delivery the receiver failed until its retries ran out (DEAD). */
async function deadDelivery(): Promise<{ applicationId: number; deliveryId: string }> {
  receiver.answers = [500, 500];
  const applicationId = await acknowledgedApplication();
  const dead = await eventually(
    () => deliveryOf(applicationId),
    (d) => d.status === 'DEAD',
  );
  return { applicationId, deliveryId: dead.id };
}

beforeAll(async () => {
  app = await startTestApp({
    config: { WEBHOOK_RETRY_DELAYS: [0, 0.3], WEBHOOK_TIMEOUT_MS: 2000 },
    logger: createLogger('info', 'lender-deliveries-test', logDestination('json', logStream)),
  });
  receiver = await startLenderReceiver();
  const [first, second] = await db().lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 2 });
  await db().lender.update({ where: { id: first!.id }, data: { applicationUrl: receiver.url, updateUrl: null } });
  lenderA = await lenderCredentials(app, first!.id);
  lenderB = await lenderCredentials(app, second!.id);
  authA = await leastPrivilegedLender(app, lenderA);
  authB = await leastPrivilegedLender(app, lenderB);
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

describe('GET /deliveries', () => {
  it('lists a failed delivery with its attempts (status, latency, error, the headers sent), the body as sent, and no secret', async () => {
    const { applicationId, deliveryId } = await deadDelivery();
    const page = await expectJson(await get(`/deliveries?applicationId=${applicationId}`, authA), 200);
    expect(page.nodes).toHaveLength(1);
    const [delivery] = page.nodes;
    expect(delivery).toMatchObject({
      id: deliveryId,
      applicationId,
      eventType: 'application.updated',
      sequence: 1,
      status: 'DEAD',
      attemptCount: 2,
      url: receiver.url,
    });
    expect(delivery.attempts).toHaveLength(2);
    for (const attempt of delivery.attempts) {
      expect(attempt).toMatchObject({ statusCode: 500, error: 'answered 500, not 204' });
      expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
      expect(attempt.requestHeaders).toMatchObject({
        'webhook-id': deliveryId,
        'webhook-event-type': 'application.updated',
        'webhook-sequence': '1',
        'webhook-signature': '[redacted]',
        'webhook-timestamp': String(Math.floor(Date.parse(attempt.attemptedAt) / 1000)),
        'content-type': 'application/json',
      });
    }
    // The body is the one the receiver got, its application token redacted.
    const received = JSON.parse(requestsFor(applicationId)[0]!.body);
    expect(delivery.requestBody.application).toEqual(received.application);
    const text = JSON.stringify(page);
    for (const secret of [
      lenderA.webhookSecret,
      lenderA.clientSecret,
      lenderA.password,
      lenderB.webhookSecret,
      requestsFor(applicationId)[0]!.headers['webhook-signature'] as string,
    ]) {
      expect(text).not.toContain(secret);
    }
    // The application's token was sent; it is shown redacted.
    expect(received.apiProvider.authorizationToken).toEqual(expect.any(String));
    expect(delivery.requestBody.apiProvider).toEqual({ ...received.apiProvider, authorizationToken: '[redacted]' });
    expect(text).not.toContain(received.apiProvider.authorizationToken);
  });

  it('pages newest first through every delivery exactly once, and filters by status', async () => {
    for (let i = 0; i < 3; i++) await acknowledgedApplication();
    await eventually(
      () => db().webhookDelivery.count({ where: { lenderId: lenderA.lenderId, status: 'PENDING' } }),
      (n) => n === 0,
    );
    const all = await db().webhookDelivery.findMany({
      where: { lenderId: lenderA.lenderId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true },
    });
    const listed: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const page: { nodes: Array<{ id: string }>; pageInfo: { endCursor: string | null; hasNextPage: boolean } } = await expectJson(
        await get(`/deliveries?first=2${after ? `&after=${after}` : ''}`, authA),
        200,
      );
      expect(page.nodes.length).toBeLessThanOrEqual(2);
      listed.push(...page.nodes.map((n) => n.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(listed).toEqual(all.map((d) => d.id));
    const delivered = await expectJson(await get('/deliveries?status=DELIVERED&first=200', authA), 200);
    expect(delivered.nodes.length).toBeGreaterThanOrEqual(3);
    expect(delivered.nodes.every((d: { status: string }) => d.status === 'DELIVERED')).toBe(true);
  });

  it('bad input is a 400 naming the field', async () => {
    for (const [query, field] of [
      ['status=NOPE', 'status'],
      ['first=0', 'first'],
      ['first=201', 'first'],
      ['applicationId=ten', 'applicationId'],
      ['after=not-a-cursor', 'after'],
      ['colour=red', ''],
    ] as const) {
      const res = await get(`/deliveries?${query}`, authA);
      expect(res.status, query).toBe(400);
      const problem = await res.json();
      expect(JSON.stringify(problem.errors ?? problem), query).toContain(field || 'colour');
    }
  });
});

describe('a second lender and other credentials', () => {
  it("lender B lists none of lender A's deliveries, and redelivering one of them is a 404 that sends nothing", async () => {
    const { applicationId, deliveryId } = await deadDelivery();
    const everything = await expectJson(await get('/deliveries?first=200', authB), 200);
    expect(everything.nodes.map((d: { id: string }) => d.id)).not.toContain(deliveryId);
    expect(everything.nodes.every((d: { url: string }) => d.url !== receiver.url)).toBe(true);
    expect((await expectJson(await get(`/deliveries?applicationId=${applicationId}`, authB), 200)).nodes).toEqual([]);
    const sentBefore = requestsFor(applicationId).length;
    const refused = await post(`/deliveries/${deliveryId}/redeliver`, undefined, authB);
    expect(refused.status).toBe(404);
    expect(JSON.stringify(await refused.json())).not.toContain(receiver.url);
    const replayed = await expectJson(await post('/deliveries/replay', { status: 'FAILED' }, authB), 200);
    expect(replayed.queued).toBe(0);
    expect((await deliveryOf(applicationId)).status).toBe('DEAD');
    await new Promise((r) => setTimeout(r, 500));
    expect(requestsFor(applicationId)).toHaveLength(sentBefore);
  });

  it('an integrator token is refused (401) on every delivery operation; no token is a 401 too', async () => {
    const integrator = await signUpIntegrator(app, `deliveries-${randomUUID().slice(0, 6)}`);
    const platform = bearer((await platformToken(app, integrator.apiKey)).access_token);
    for (const auth of [platform, {}]) {
      expect((await get('/deliveries', auth)).status).toBe(401);
      expect((await post(`/deliveries/${randomUUID()}/redeliver`, undefined, auth)).status).toBe(401);
      expect((await post('/deliveries/replay', { status: 'FAILED' }, auth)).status).toBe(401);
    }
  });
});

describe('redelivery and replay', () => {
  it('redeliver sends a new attempt of the same webhook-id to the receiver; one already waiting or being attempted is a 409; a malformed id a 400 naming it', async () => {
    const { applicationId, deliveryId } = await deadDelivery();
    const answered = await expectJson(await post(`/deliveries/${deliveryId}/redeliver`, undefined, authA), 200);
    expect(answered).toMatchObject({ id: deliveryId, status: 'PENDING', attemptCount: 0 });
    await eventually(
      () => deliveryOf(applicationId),
      (d) => d.status === 'DELIVERED',
    );
    const requests = requestsFor(applicationId);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([deliveryId]));
    expect(logLines.some((l) => l.audit === 'deliveries.replayed' && l.deliveryId === deliveryId && l.lenderId === lenderA.lenderId)).toBe(true);

    const waiting = await db().webhookDelivery.create({
      data: {
        lenderApplicationId: applicationId,
        lenderId: lenderA.lenderId,
        event: 'APPLICATION_UPDATED',
        url: receiver.url,
        payload: {},
        nextAttemptAt: new Date(Date.now() + 3_600_000),
      },
    });
    expect((await post(`/deliveries/${waiting.id}/redeliver`, undefined, authA)).status).toBe(409);
    // One a worker is attempting right now (claimed, its attempt not yet recorded) is not sent twice at once.
    await db().webhookDelivery.update({ where: { id: waiting.id }, data: { status: 'FAILED', attempts: 1, attemptStartedAt: new Date() } });
    expect((await post(`/deliveries/${waiting.id}/redeliver`, undefined, authA)).status).toBe(409);
    expect((await db().webhookDelivery.findUniqueOrThrow({ where: { id: waiting.id } })).status).toBe('FAILED');
    await db().webhookDelivery.delete({ where: { id: waiting.id } });
    const malformed = await post('/deliveries/not-a-uuid/redeliver', undefined, authA);
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(await malformed.json())).toContain('id');
  });

  it('replay of the failed deliveries queues each again, received with the same webhook-id; a time range replays the delivered ones; each replay is recorded and audited', async () => {
    const first = await deadDelivery();
    const second = await deadDelivery();
    const failed = await db().webhookDelivery.count({ where: { lenderId: lenderA.lenderId, status: { in: ['FAILED', 'DEAD'] } } });
    expect(failed).toBeGreaterThanOrEqual(2);
    const replayed = await expectJson(await post('/deliveries/replay', { status: 'FAILED' }, authA), 200);
    expect(replayed).toEqual({ queued: failed, more: false, nextFrom: null });
    for (const { applicationId, deliveryId } of [first, second]) {
      await eventually(
        () => deliveryOf(applicationId),
        (d) => d.status === 'DELIVERED',
      );
      expect(requestsFor(applicationId).at(-1)!.headers['webhook-id']).toBe(deliveryId);
    }
    const from = (await deliveryOf(first.applicationId)).createdAt;
    const to = new Date((await deliveryOf(second.applicationId)).createdAt.getTime() + 1);
    const ranged = await expectJson(await post('/deliveries/replay', { from: from.toISOString(), to: to.toISOString() }, authA), 200);
    expect(ranged.queued).toBe(2);
    await eventually(
      () => Promise.all([first, second].map((d) => requestsFor(d.applicationId).length)),
      (counts) => counts.every((n) => n === 4),
    );
    expect(requestsFor(second.applicationId).map((r) => r.headers['webhook-id'])).toEqual(Array(4).fill(second.deliveryId));
    const recorded = await db().webhookReplay.findMany({ where: { lenderId: lenderA.lenderId }, orderBy: { createdAt: 'asc' } });
    expect(recorded.map((r) => [r.filter, r.queued])).toEqual(
      expect.arrayContaining([
        [{ status: 'FAILED' }, failed],
        [{ from: from.toISOString(), to: to.toISOString() }, 2],
      ]),
    );
    expect(logLines.filter((l) => l.audit === 'deliveries.replayed' && l.lenderId === lenderA.lenderId && l.filter)).toHaveLength(2);
  });

  it('replay input is checked, naming the field: neither or both kinds, a missing end, an empty or too long range', async () => {
    const now = Date.now();
    const at = (offsetDays: number) => new Date(now + offsetDays * 86_400_000).toISOString();
    for (const [body, field, message] of [
      [{}, '/from', 'is required'],
      [{ status: 'DEAD' }, '/status', 'must be FAILED'],
      [{ status: 'FAILED', from: at(-1), to: at(0) }, '/status', 'not both'],
      [{ from: at(-1) }, '/to', 'is required with from'],
      [{ from: at(0), to: at(-1) }, '/to', 'must be after from'],
      [{ from: at(-40), to: at(0) }, '/to', 'at most 31 days'],
      [{ from: 'yesterday', to: at(0) }, '/from', 'ISO 8601'],
    ] as const) {
      const res = await post('/deliveries/replay', body, authA);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const problem = await res.json();
      expect(problem.errors, JSON.stringify(body)).toEqual(
        expect.arrayContaining([expect.objectContaining({ pointer: field, message: expect.stringContaining(message) })]),
      );
    }
  });

  it(`a lender's replays are limited to ${MAX_REPLAYS_PER_HOUR} an hour: then 429 with Retry-After, and nothing is queued`, async () => {
    const { applicationId } = await (async () => {
      // Lender B's own failed delivery, so that its refused replay has something it would have sent.
      const profile = await db().profile.create({ data: { environment: 'demo' } });
      const row = await db().lenderApplication.create({
        data: { lenderId: lenderB.lenderId, profileId: profile.id, status: 'In Review', payload: storedApplicationDocument({ lenderId: lenderB.lenderId }) },
      });
      await db().webhookDelivery.create({
        data: {
          lenderApplicationId: row.id,
          lenderId: lenderB.lenderId,
          event: 'APPLICATION_UPDATED',
          url: 'http://127.0.0.1:9/unused',
          payload: {},
          status: 'DEAD',
          attempts: 2,
        },
      });
      return { applicationId: row.id };
    })();
    await db().webhookReplay.createMany({
      data: Array.from({ length: MAX_REPLAYS_PER_HOUR }, () => ({ lenderId: lenderB.lenderId, filter: { status: 'FAILED' }, queued: 0 })),
    });
    const recordedBefore = await db().webhookReplay.count({ where: { lenderId: lenderB.lenderId } });
    const refused = await post('/deliveries/replay', { status: 'FAILED' }, authB);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: applicationId } })).status).toBe('DEAD');
    expect(await db().webhookReplay.count({ where: { lenderId: lenderB.lenderId } })).toBe(recordedBefore);
  });
});
