/**
 * An integrator account's webhooks through real HTTP, with a real local receiver: an ADMIN
 * subscribes an endpoint (secret shown once), a lender offers on a client's application through the
 * lender API, and the receiver gets a signed `offer.created` that the `standardwebhooks` package
 * verifies; the account's event log lists the change's events; its delivery log shows the delivery,
 * a replay sends it again with the same `webhook-id`, a failed one is replayed once the endpoint
 * answers. The lender's own deliveries are untouched (its sequence numbers, its lists). A MEMBER
 * reads but does not change; another account, a tenant token, a platform token and a lender token
 * are refused.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from '../identity/bootstrap.js';
import {
  bearer,
  createTenant,
  leastPrivilegedLender,
  lenderCredentials,
  platformToken,
  signIn,
  signUpIntegrator,
  type Integrator,
} from '../../../test/support/identities.js';
import { lenderOffers, storedApplicationDocument } from '../../../test/support/lender-applications.js';
import { eventually, startLenderReceiver, type LenderReceiver, type ReceivedWebhook } from '../../../test/support/lender-receiver.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { expectJson, sendJson } from '../../../test/support/rest-calls.js';

const P = '/api/platform/v1';
let app: TestApp;
let receiver: LenderReceiver;
let lender: LenderCredentials;
let lenderAuth: Record<string, string>;
let lenderToken: string;
let admin: Integrator;
let memberAuth: Record<string, string>;
let adminAuth: Record<string, string>;
let other: Integrator;
const db = () => app.runtime.database.prisma;

const get = (path: string, auth: Record<string, string>) => fetch(`${app.url}${P}${path}`, { headers: auth });
const post = (path: string, body: unknown, auth: Record<string, string>) => postJson(`${app.url}${P}${path}`, body, auth);
const patch = (path: string, body: unknown, auth: Record<string, string>) => sendJson(app.url, 'PATCH', `${P}${path}`, auth, body);
const del = (path: string, auth: Record<string, string>) => sendJson(app.url, 'DELETE', `${P}${path}`, auth);

/** An In Review application of a profile the account owns, at the lender whose URLs are the receiver's. */
async function clientApplication(accountId = admin.accountId): Promise<number> {
  const profile = await db().profile.create({ data: { environment: 'demo', ownerAccountId: accountId } });
  const row = await db().lenderApplication.create({
    data: { lenderId: lender.lenderId, profileId: profile.id, status: 'In Review', payload: storedApplicationDocument({ lenderId: lender.lenderId }) },
  });
  return row.id;
}

/** Requests the receiver got at one path (each endpoint gets a path of its own on the one server). */
const receivedAt = (path: string): ReceivedWebhook[] => receiver.received.filter((r) => r.path === path);

async function createEndpoint(eventTypes: string[], path = `/hooks/${randomUUID()}`): Promise<{ id: string; secret: string; url: string; path: string }> {
  const url = receiver.url.replace('/webhooks', path);
  const created = await expectJson(await post('/webhook-endpoints', { url, eventTypes, description: 'test receiver' }, adminAuth), 201);
  return { ...created, path };
}

const bodiesFor = (path: string, applicationId: number) => receivedAt(path).filter((r) => JSON.parse(r.body).data?.applicationId === applicationId);

beforeAll(async () => {
  app = await startTestApp({ config: { WEBHOOK_RETRY_DELAYS: [0, 0.3], WEBHOOK_TIMEOUT_MS: 2000 } });
  receiver = await startLenderReceiver();
  const [first] = await db().lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 1 });
  await db().lender.update({ where: { id: first!.id }, data: { applicationUrl: receiver.url, updateUrl: null } });
  lender = await lenderCredentials(app, first!.id);
  lenderAuth = await leastPrivilegedLender(app, lender);
  lenderToken = lenderAuth.authorization!.slice('Bearer '.length);
  admin = await signUpIntegrator(app);
  adminAuth = bearer(admin.loginToken);
  const memberEmail = `member-${randomUUID().slice(0, 8)}@example.test`;
  const memberPassword = `pw-${randomUUID()}`;
  await expectJson(await post('/users', { email: memberEmail, password: memberPassword, role: 'MEMBER' }, adminAuth), 201);
  memberAuth = bearer(await signIn(app, memberEmail, memberPassword));
  other = await signUpIntegrator(app);
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

describe('webhook endpoints', () => {
  it('an ADMIN creates one (secret shown once), a MEMBER lists it without the secret, another account sees none of it', async () => {
    const endpoint = await createEndpoint(['offer.created']);
    expect(endpoint.secret).toMatch(/^whsec_/);
    const listed = await expectJson(await get('/webhook-endpoints', memberAuth), 200);
    const mine = listed.nodes.find((e: { id: string }) => e.id === endpoint.id);
    expect(mine).toMatchObject({ url: endpoint.url, eventTypes: ['offer.created'], enabled: true, description: 'test receiver' });
    expect(JSON.stringify(listed)).not.toContain(endpoint.secret);
    expect(await expectJson(await get(`/webhook-endpoints/${endpoint.id}`, memberAuth), 200)).toMatchObject({ id: endpoint.id });
    const othersList = await expectJson(await get('/webhook-endpoints', bearer(other.loginToken)), 200);
    expect(othersList.nodes.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
    await expectJson(await get(`/webhook-endpoints/${endpoint.id}`, bearer(other.loginToken)), 404);
    await expectJson(await patch(`/webhook-endpoints/${endpoint.id}`, { enabled: false }, bearer(other.loginToken)), 404);
    await expectJson(await del(`/webhook-endpoints/${endpoint.id}`, bearer(other.loginToken)), 404);
  });

  it('a MEMBER, a platform token and a tenant token may not create, change or delete one; a lender token is not taken here', async () => {
    const endpoint = await createEndpoint(['offer.created']);
    const body = { url: 'https://hooks.example.com/x', eventTypes: ['offer.created'] };
    const tenant = await createTenant(app, admin.platformToken);
    const tenantToken = (await platformToken(app, admin.apiKey, tenant.id)).access_token;
    for (const auth of [memberAuth, bearer(admin.platformToken), bearer(tenantToken)]) {
      await expectJson(await post('/webhook-endpoints', body, auth), 403);
      await expectJson(await patch(`/webhook-endpoints/${endpoint.id}`, { enabled: false }, auth), 403);
      await expectJson(await del(`/webhook-endpoints/${endpoint.id}`, auth), 403);
    }
    for (const auth of [bearer(admin.platformToken), bearer(tenantToken)]) await expectJson(await get('/webhook-endpoints', auth), 403);
    await expectJson(await get('/webhook-endpoints', lenderAuth), 401);
    await expectJson(await post('/webhook-endpoints', body, lenderAuth), 401);
  });

  it('refuses a URL the webhook URL policy refuses (422) and bad event types (400), naming the field', async () => {
    const refused = await expectJson(await post('/webhook-endpoints', { url: 'ftp://hooks.example.com/x', eventTypes: ['offer.created'] }, adminAuth), 422);
    expect(refused.errors ?? refused.fields ?? refused).toEqual(expect.arrayContaining([expect.objectContaining({ pointer: '/url' })]));
    const unknownType = await expectJson(await post('/webhook-endpoints', { url: 'https://hooks.example.com/x', eventTypes: ['offer.eaten'] }, adminAuth), 400);
    expect(JSON.stringify(unknownType)).toContain('/eventTypes/0');
    const none = await expectJson(await post('/webhook-endpoints', { url: 'https://hooks.example.com/x', eventTypes: [] }, adminAuth), 400);
    expect(JSON.stringify(none)).toContain('/eventTypes');
  });

  it('an ADMIN changes the URL, event types and enabled flag, and deletes one', async () => {
    const endpoint = await createEndpoint(['offer.created']);
    const patched = await expectJson(
      await patch(`/webhook-endpoints/${endpoint.id}`, { eventTypes: ['offer.created', 'application.status_changed'], enabled: false }, adminAuth),
      200,
    );
    expect(patched).toMatchObject({ eventTypes: ['offer.created', 'application.status_changed'], enabled: false, url: endpoint.url });
    expect(patched).not.toHaveProperty('secret');
    await expectJson(await patch(`/webhook-endpoints/${endpoint.id}`, {}, adminAuth), 400);
    const deleted = await del(`/webhook-endpoints/${endpoint.id}`, adminAuth);
    expect(deleted.status).toBe(204);
    await expectJson(await get(`/webhook-endpoints/${endpoint.id}`, adminAuth), 404);
  });
});

describe('events delivered to an endpoint', () => {
  it("sends a signed offer.created when the lender offers on a client's application, verified with standardwebhooks; replay sends the same webhook-id", async () => {
    const endpoint = await createEndpoint(['offer.created']);
    const applicationId = await clientApplication();
    await lenderOffers(app, lenderToken, applicationId, `OFFER-${applicationId}`);
    const [received] = await eventually(
      async () => bodiesFor(endpoint.path, applicationId),
      (r) => r.length === 1,
    );
    const verified = new Webhook(endpoint.secret).verify(received!.body, received!.headers as Record<string, string>) as {
      type: string;
      data: Record<string, any>;
    };
    expect(verified).toMatchObject({
      type: 'offer.created',
      data: { applicationId, lenderId: lender.lenderId, previousStatus: 'In Review', status: 'Offered' },
    });
    expect(verified.data.application.offer).toMatchObject({ reference: `OFFER-${applicationId}` });
    expect(received!.headers['webhook-event-type']).toBe('offer.created');
    expect(received!.headers['webhook-sequence']).toBe('1');
    expect(received!.body).not.toContain('authorizationToken');
    // Another account's secret does not verify it.
    expect(() =>
      new Webhook(`whsec_${Buffer.from(randomUUID()).toString('base64')}`).verify(received!.body, received!.headers as Record<string, string>),
    ).toThrow();

    // The lender's own delivery of the change is its first (its numbers are its own).
    const lenderDelivery = await db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: applicationId, integratorEndpointId: null } });
    expect(lenderDelivery.sequence).toBe(1);
    const lenderList = await expectJson(await fetch(`${app.url}${P}/funding/deliveries?applicationId=${applicationId}`, { headers: lenderAuth }), 200);
    expect(lenderList.nodes.map((d: { id: string }) => d.id)).toEqual([lenderDelivery.id]);

    // The account's delivery log, as a MEMBER reads it.
    const deliveries = await eventually(
      async () => expectJson(await get(`/webhook-deliveries?applicationId=${applicationId}&endpointId=${endpoint.id}`, memberAuth), 200),
      (page) => page.nodes[0]?.status === 'DELIVERED',
    );
    expect(deliveries.nodes).toHaveLength(1);
    const [delivery] = deliveries.nodes;
    expect(delivery).toMatchObject({
      id: received!.headers['webhook-id'],
      endpointId: endpoint.id,
      eventType: 'offer.created',
      applicationId,
      status: 'DELIVERED',
      requestBody: verified,
    });
    expect(delivery.attempts[0]).toMatchObject({
      statusCode: 204,
      requestHeaders: { 'webhook-signature': '[redacted]', 'webhook-event-type': 'offer.created' },
    });
    await expectJson(await get(`/webhook-deliveries?applicationId=${applicationId}`, bearer(other.loginToken)), 200).then((page) =>
      expect(page.nodes).toEqual([]),
    );

    // A MEMBER may not send it again; another account's ADMIN does not see it; this account's ADMIN replays it.
    await expectJson(await post(`/webhook-deliveries/${delivery.id}/redeliver`, undefined, memberAuth), 403);
    await expectJson(await post('/webhook-deliveries/replay', { status: 'FAILED' }, memberAuth), 403);
    await expectJson(await post(`/webhook-deliveries/${delivery.id}/redeliver`, undefined, bearer(other.loginToken)), 404);
    const from = new Date(Date.parse(delivery.createdAt) - 1000).toISOString();
    const to = new Date(Date.parse(delivery.createdAt) + 1000).toISOString();
    const replay = await expectJson(await post('/webhook-deliveries/replay', { from, to }, adminAuth), 200);
    expect(replay.queued).toBeGreaterThanOrEqual(1);
    const again = await eventually(
      async () => bodiesFor(endpoint.path, applicationId),
      (r) => r.length === 2,
    );
    expect(again[1]!.headers['webhook-id']).toBe(received!.headers['webhook-id']);
    expect(new Webhook(endpoint.secret).verify(again[1]!.body, again[1]!.headers as Record<string, string>)).toEqual(verified);
    // Redelivering one is the same use case: once more, the same id.
    await eventually(
      async () => db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } }),
      (d) => d.status === 'DELIVERED',
    );
    const redelivered = await expectJson(await post(`/webhook-deliveries/${delivery.id}/redeliver`, undefined, adminAuth), 200);
    expect(redelivered).toMatchObject({ id: delivery.id, endpointId: endpoint.id });
    const thrice = await eventually(
      async () => bodiesFor(endpoint.path, applicationId),
      (r) => r.length >= 3,
    );
    expect(new Set(thrice.map((r) => r.headers['webhook-id']))).toEqual(new Set([received!.headers['webhook-id']]));
  });

  it('lists every event of the change in the event log, subscribed or not, with the bodies the webhooks carry, from a cursor', async () => {
    const endpoint = await createEndpoint(['offer.created']);
    const applicationId = await clientApplication();
    await lenderOffers(app, lenderToken, applicationId);
    const [received] = await eventually(
      async () => bodiesFor(endpoint.path, applicationId),
      (r) => r.length === 1,
    );
    const all = async (auth: Record<string, string>) => {
      const nodes: Array<{ id: string; type: string; applicationId: number; data: unknown; timestamp: string }> = [];
      let after: string | undefined;
      for (;;) {
        const page = await expectJson(await get(`/events?first=2${after ? `&after=${after}` : ''}`, auth), 200);
        nodes.push(...page.nodes);
        after = page.pageInfo.endCursor ?? after;
        if (!page.pageInfo.hasNextPage) return nodes;
      }
    };
    const stored = await db().integratorEvent.findMany({
      where: { lenderApplicationId: applicationId },
      select: { accountId: true, type: true, transactionId: true, createdAt: true },
    });
    expect(stored.map((e) => [e.accountId, e.type])).toEqual(
      expect.arrayContaining([
        [admin.accountId, 'APPLICATION_STATUS_CHANGED'],
        [admin.accountId, 'OFFER_CREATED'],
      ]),
    );
    const firstPage = await expectJson(await get('/events?first=200', memberAuth), 200);
    expect(
      firstPage.nodes.length,
      JSON.stringify({ stored: stored.map((e) => ({ ...e, transactionId: String(e.transactionId) })), firstPage }),
    ).toBeGreaterThan(0);
    const events = await eventually(
      () => all(memberAuth),
      (nodes) => nodes.filter((n) => n.applicationId === applicationId).length === 2,
    );
    const mine = events.filter((n) => n.applicationId === applicationId);
    expect(mine.map((n) => n.type)).toEqual(['application.status_changed', 'offer.created']);
    const sent = JSON.parse(received!.body);
    expect(mine[1]).toMatchObject({ type: sent.type, timestamp: sent.timestamp, data: sent.data });
    expect(new Set(events.map((n) => n.id)).size).toBe(events.length);
    const others = await all(bearer(other.loginToken));
    expect(others.filter((n) => n.applicationId === applicationId)).toEqual([]);
    await expectJson(await get('/events', bearer(admin.platformToken)), 403);
    await expectJson(await get('/events', lenderAuth), 401);
    await expectJson(await get('/events?after=not-a-cursor', memberAuth), 400);
  });

  it('retries a failing endpoint on the schedule, dead-letters it, and a replay of the failed ones delivers it', async () => {
    const endpoint = await createEndpoint(['application.status_changed']);
    const applicationId = await clientApplication();
    // This endpoint's first two attempts fail (its retries run out).
    receiver.answersAt.set(endpoint.path, [500, 500]);
    await lenderOffers(app, lenderToken, applicationId);
    const dead = await eventually(
      async () => expectJson(await get(`/webhook-deliveries?endpointId=${endpoint.id}&status=DEAD`, adminAuth), 200),
      (page) => page.nodes.length === 1,
    );
    expect(dead.nodes[0]).toMatchObject({ eventType: 'application.status_changed', attemptCount: 2 });
    expect(dead.nodes[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500]);
    const replay = await expectJson(await post('/webhook-deliveries/replay', { status: 'FAILED' }, adminAuth), 200);
    expect(replay.queued).toBeGreaterThanOrEqual(1);
    const delivered = await eventually(
      async () => db().webhookDelivery.findUniqueOrThrow({ where: { id: dead.nodes[0].id } }),
      (d) => d.status === 'DELIVERED',
    );
    expect(delivered.sequence).toBe(1);
    const bodies = bodiesFor(endpoint.path, applicationId);
    expect(new Set(bodies.map((b) => b.headers['webhook-id']))).toEqual(new Set([dead.nodes[0].id]));
    expect(new Webhook(endpoint.secret).verify(bodies.at(-1)!.body, bodies.at(-1)!.headers as Record<string, string>)).toMatchObject({
      type: 'application.status_changed',
    });
  });

  it("sends nothing to a disabled endpoint, nor to an endpoint not subscribed to the type, nor for another account's clients", async () => {
    const disabled = await createEndpoint(['offer.created']);
    await expectJson(await patch(`/webhook-endpoints/${disabled.id}`, { enabled: false }, adminAuth), 200);
    const otherClient = await clientApplication(other.accountId);
    const mineApplication = await clientApplication();
    await lenderOffers(app, lenderToken, otherClient);
    await lenderOffers(app, lenderToken, mineApplication);
    await eventually(
      async () =>
        db().webhookDelivery.count({ where: { lenderApplicationId: { in: [otherClient, mineApplication] }, integratorEndpointId: null, status: 'DELIVERED' } }),
      (n) => n === 2,
    );
    expect(await db().webhookDelivery.count({ where: { integratorEndpointId: disabled.id } })).toBe(0);
    expect(await db().webhookDelivery.count({ where: { lenderApplicationId: otherClient, accountId: admin.accountId } })).toBe(0);
  });
});
