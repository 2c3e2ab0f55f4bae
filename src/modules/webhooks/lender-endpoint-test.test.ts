/**
 * POST /endpoints/{kind}/test through real HTTP to a real local lender receiver: a signed test event
 * (verified with `standardwebhooks`) reaches the URL for the kind, and the answer gives the
 * receiver's status and latency, a failure included; nothing is queued; another lender's test never
 * reaches this lender's receiver; bad input is a 400 naming the field; an integrator token a 401.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from '../identity/bootstrap.js';
import { bearer, leastPrivilegedLender, lenderCredentials, platformToken, signUpIntegrator } from '../../../test/support/identities.js';
import { startLenderReceiver, type LenderReceiver } from '../../../test/support/lender-receiver.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { expectJson } from '../../../test/support/rest-calls.js';

let app: TestApp;
let applications: LenderReceiver;
let updates: LenderReceiver;
let lenderA: LenderCredentials;
let lenderB: LenderCredentials;
let authA: Record<string, string>;
let authB: Record<string, string>;
const db = () => app.runtime.database.prisma;
const L = '/api/platform/v1/funding';

const testEvent = (kind: string, auth: Record<string, string>) => postJson(`${app.url}${L}/endpoints/${kind}/test`, undefined, auth);

beforeAll(async () => {
  app = await startTestApp({ config: { WEBHOOK_TIMEOUT_MS: 2000 } });
  [applications, updates] = [await startLenderReceiver(), await startLenderReceiver()];
  const [first, second] = await db().lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 2 });
  await db().lender.update({ where: { id: first!.id }, data: { applicationUrl: applications.url, updateUrl: updates.url } });
  lenderA = await lenderCredentials(app, first!.id);
  lenderB = await lenderCredentials(app, second!.id);
  authA = await leastPrivilegedLender(app, lenderA);
  authB = await leastPrivilegedLender(app, lenderB);
});
afterAll(async () => {
  await app?.close();
  await applications?.close();
  await updates?.close();
});

describe('POST /endpoints/{kind}/test', () => {
  it('sends a signed created test event to the application URL now and answers the status and latency; nothing is queued', async () => {
    const deliveriesBefore = await db().webhookDelivery.count({ where: { lenderId: lenderA.lenderId } });
    const answer = await expectJson(await testEvent('created', authA), 200);
    expect(answer).toMatchObject({ url: applications.url, statusCode: 204, error: null, delivered: true });
    expect(answer.latencyMs).toBeGreaterThanOrEqual(0);
    expect(applications.received).toHaveLength(1);
    const [request] = applications.received;
    expect(request!.headers['webhook-id']).toBe(answer.webhookId);
    expect(request!.headers['webhook-event-type']).toBe('application.created');
    const verified = new Webhook(lenderA.webhookSecret).verify(request!.body, request!.headers as Record<string, string>);
    expect(verified).toMatchObject({ test: true, type: 'application.created' });
    expect(await db().webhookDelivery.count({ where: { lenderId: lenderA.lenderId } })).toBe(deliveriesBefore);
  });

  it("sends an updated test event to the update URL, and answers the receiver's failure", async () => {
    updates.answers = [503];
    const answer = await expectJson(await testEvent('updated', authA), 200);
    expect(answer).toMatchObject({ url: updates.url, statusCode: 503, error: 'answered 503, not 204', delivered: false });
    expect(updates.received.map((r) => r.headers['webhook-event-type'])).toEqual(['application.updated']);
    // Without an update URL, the application URL takes updates.
    await db().lender.update({ where: { id: lenderA.lenderId }, data: { updateUrl: null } });
    try {
      expect(await expectJson(await testEvent('updated', authA), 200)).toMatchObject({ url: applications.url, statusCode: 204 });
    } finally {
      await db().lender.update({ where: { id: lenderA.lenderId }, data: { updateUrl: updates.url } });
    }
  });

  it("another lender's test event never reaches this lender's receivers; bad input is a 400 naming the field; an integrator token a 401", async () => {
    const received = applications.received.length + updates.received.length;
    const ofB = await expectJson(await testEvent('created', authB), 200);
    expect(ofB.url).not.toBe(applications.url);
    const invalid = await testEvent('deleted', authA);
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).errors).toEqual([
      expect.objectContaining({ pointer: expect.stringContaining('kind'), message: 'must be created or updated' }),
    ]);
    const integrator = await signUpIntegrator(app, `endpoint-${randomUUID().slice(0, 6)}`);
    expect((await testEvent('created', bearer((await platformToken(app, integrator.apiKey)).access_token))).status).toBe(401);
    expect((await testEvent('created', {})).status).toBe(401);
    expect(applications.received.length + updates.received.length).toBe(received);
  });
});
