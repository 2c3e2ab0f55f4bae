/**
 * GET /deliveries/{id} through real HTTP, with a real local receiver that answers with headers and
 * bodies: each attempt shows the headers sent (signature redacted) and what the receiver answered
 * (status, allow-listed headers, the first 2 KB of a textual body, never a binary one), its latency
 * and error; the list shows the same answers; a second lender walking the ids gets 404s; a bad id is
 * a 400 naming the field.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from '../identity/bootstrap.js';
import { leastPrivilegedLender, lenderCredentials } from '../../../test/support/identities.js';
import { storedApplicationDocument } from '../../../test/support/lender-applications.js';
import { eventually, startLenderReceiver, type LenderReceiver } from '../../../test/support/lender-receiver.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { expectJson } from '../../../test/support/rest-calls.js';

let app: TestApp;
let receiver: LenderReceiver;
let lenderA: LenderCredentials;
let lenderB: LenderCredentials;
let authA: Record<string, string>;
let authB: Record<string, string>;
const db = () => app.runtime.database.prisma;
const L = '/api/platform/v1/funding';
const get = (path: string, auth: Record<string, string>) => fetch(`${app.url}${L}${path}`, { headers: auth });

async function acknowledgedApplication(): Promise<number> {
  const profile = await db().profile.create({ data: { environment: 'demo' } });
  const payload = { apiProvider: { url: `${app.url}${L}`, updateUrl: `${app.url}${L}` }, ...storedApplicationDocument({ lenderId: lenderA.lenderId }) };
  const row = await db().lenderApplication.create({ data: { lenderId: lenderA.lenderId, profileId: profile.id, status: 'In Review', payload } });
  await expectJson(await postJson(`${app.url}${L}/applications/${row.id}/acknowledgement`, { reference: `R-${row.id}` }, authA), 200);
  return row.id;
}

beforeAll(async () => {
  app = await startTestApp({ config: { WEBHOOK_RETRY_DELAYS: [0, 0, 0.3], WEBHOOK_TIMEOUT_MS: 5000 } });
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

describe('GET /deliveries/{id}', () => {
  it("shows each attempt's request headers and the receiver's answer: allow-listed headers, a 2 KB text excerpt, no binary body", async () => {
    const long = `${'é'.repeat(1500)}tail`;
    receiver.answers = [
      {
        status: 500,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '30', 'set-cookie': 'session=secret', 'x-request-id': 'recv-1' },
        body: long,
      },
      { status: 503, headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([0, 1, 2, 3]) },
      { status: 204, headers: { 'x-request-id': 'recv-3' } },
    ];
    const applicationId = await acknowledgedApplication();
    const delivered = await eventually(
      () => db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: applicationId } }),
      (d) => d.status === 'DELIVERED',
    );
    const delivery = await expectJson(await get(`/deliveries/${delivered.id}`, authA), 200);
    expect(delivery).toMatchObject({ id: delivered.id, applicationId, status: 'DELIVERED', attemptCount: 3 });
    const [third, second, first] = delivery.attempts;
    expect(first).toMatchObject({ statusCode: 500, error: 'answered 500, not 204' });
    expect(first.requestHeaders).toMatchObject({ 'webhook-id': delivered.id, 'webhook-signature': '[redacted]', 'content-type': 'application/json' });
    expect(first.response.headers).toEqual({
      'content-type': 'text/plain; charset=utf-8',
      'retry-after': '30',
      'x-request-id': 'recv-1',
      date: expect.any(String),
    });
    expect(Buffer.byteLength(first.response.body)).toBeLessThanOrEqual(2048 + 2);
    expect(long.startsWith(first.response.body.replace(/\uFFFD$/, ''))).toBe(true);
    expect(first.response.body.length).toBeGreaterThan(1000);
    expect(first.response.bodyTruncated).toBe(true);
    expect(second).toMatchObject({ statusCode: 503, response: { headers: { 'content-type': 'application/octet-stream' }, body: null, bodyTruncated: false } });
    expect(third).toMatchObject({ statusCode: 204, error: null, response: { headers: { 'x-request-id': 'recv-3' }, body: '', bodyTruncated: false } });
    for (const attempt of delivery.attempts) expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(delivery)).not.toContain('session=secret');
    expect(JSON.stringify(delivery)).not.toContain(lenderA.webhookSecret);
    // The list shows the same answers.
    const page = await expectJson(await get(`/deliveries?applicationId=${applicationId}`, authA), 200);
    expect(page.nodes[0].attempts).toEqual(delivery.attempts);
  });

  it('a timeout has no answer; another lender walking the ids gets 404s; a bad id is a 400', async () => {
    receiver.answers = ['hang'];
    const applicationId = await acknowledgedApplication();
    const failed = await eventually(
      () => db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: applicationId } }),
      (d) => d.attempts >= 1 && d.status !== 'PENDING',
      30_000,
    );
    const delivery = await expectJson(await get(`/deliveries/${failed.id}`, authA), 200);
    expect(delivery.attempts.at(-1)).toMatchObject({ statusCode: null, response: null, error: expect.stringContaining('timeout') });
    const ids = (await db().webhookDelivery.findMany({ where: { lenderId: lenderA.lenderId }, select: { id: true } })).map((d) => d.id);
    for (const id of [...ids, randomUUID()]) expect((await get(`/deliveries/${id}`, authB)).status).toBe(404);
    const bad = await get('/deliveries/not-a-uuid', authA);
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toEqual([expect.objectContaining({ pointer: expect.stringContaining('id') })]);
  }, 60_000);
});
