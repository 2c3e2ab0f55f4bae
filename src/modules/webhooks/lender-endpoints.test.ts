/**
 * A lender's own endpoints and signing secret through real HTTP, with real local receivers, as the
 * least-privileged lender credential (`openid` alone): it reads its URLs, changes one (held to the
 * webhook URL policy), disables one (its deliveries wait, unattempted and never dead-lettered, and go
 * out in order once it is enabled again), and rotates its signing secret: during the overlap window a
 * delivery verifies with the old and with the new secret (`standardwebhooks`), after it with the new
 * one only. A second lender reads and changes only its own; other token kinds are refused.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from '../identity/bootstrap.js';
import { bearer, leastPrivilegedLender, lenderCredentials, platformToken, signUpIntegrator } from '../../../test/support/identities.js';
import { storedApplicationDocument } from '../../../test/support/lender-applications.js';
import { eventually, startLenderReceiver, type LenderReceiver } from '../../../test/support/lender-receiver.js';
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

const get = (path: string, auth: Record<string, string>) => fetch(`${app.url}${L}${path}`, { headers: auth });
const post = (path: string, body: unknown, auth: Record<string, string>) => postJson(`${app.url}${L}${path}`, body, auth);
const patch = (path: string, body: unknown, auth: Record<string, string>) =>
  fetch(`${app.url}${L}${path}`, { method: 'PATCH', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** An application of lender A acknowledged through the API: its update delivery is queued. */
async function acknowledgedApplication(): Promise<number> {
  const profile = await db().profile.create({ data: { environment: 'demo' } });
  const payload = { apiProvider: { url: `${app.url}${L}`, updateUrl: `${app.url}${L}` }, ...storedApplicationDocument({ lenderId: lenderA.lenderId }) };
  const row = await db().lenderApplication.create({ data: { lenderId: lenderA.lenderId, profileId: profile.id, status: 'In Review', payload } });
  await expectJson(await post(`/applications/${row.id}/acknowledgement`, { reference: `E-${row.id}` }, authA), 200);
  return row.id;
}
const requestsFor = (receiver: LenderReceiver, applicationId: number) => receiver.received.filter((r) => JSON.parse(r.body).application?.id === applicationId);

beforeAll(async () => {
  app = await startTestApp({ config: { WEBHOOK_RETRY_DELAYS: [0, 0.3], WEBHOOK_TIMEOUT_MS: 5000 } });
  [applications, updates] = [await startLenderReceiver(), await startLenderReceiver()];
  const [first, second] = await db().lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 2 });
  await db().lender.update({ where: { id: first!.id }, data: { applicationUrl: applications.url, updateUrl: null } });
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

describe('GET and PATCH /endpoints', () => {
  it("lists the lender's own URLs, enabled state and signing-secret status; another lender sees its own", async () => {
    const endpoints = await expectJson(await get('/endpoints', authA), 200);
    expect(endpoints).toEqual({
      endpoints: [
        { kind: 'created', url: applications.url, ownUrl: true, enabled: true, waiting: expect.any(Number) },
        { kind: 'updated', url: applications.url, ownUrl: false, enabled: true, waiting: expect.any(Number) },
      ],
      signingSecret: { status: 'ACTIVE', previousSecretValidUntil: null },
    });
    const ofB = await expectJson(await get('/endpoints', authB), 200);
    expect(JSON.stringify(ofB)).not.toContain(applications.url);
    expect(JSON.stringify(endpoints)).not.toContain(lenderA.webhookSecret);
  });

  it('changes a URL through the webhook URL policy (422 naming /url), and a bad body is a 400 naming the field', async () => {
    const refused = await patch('/endpoints/updated', { url: 'http://169.254.169.254/latest' }, authA);
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors).toEqual([expect.objectContaining({ pointer: '/url' })]);
    for (const [path, body, pointer] of [
      ['/endpoints/updated', {}, '/url'],
      ['/endpoints/updated', { enabled: 'no' }, '/enabled'],
      ['/endpoints/updated', { url: 'ftp://lender.example/x' }, '/url'],
      ['/endpoints/created', { url: null }, '/url'],
      ['/endpoints/deleted', { enabled: true }, 'kind'],
    ] as const) {
      const answer = await patch(path, body, authA);
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect((await answer.json()).errors).toEqual([expect.objectContaining({ pointer: expect.stringContaining(pointer) })]);
    }
    const changed = await expectJson(await patch('/endpoints/updated', { url: updates.url }, authA), 200);
    expect(changed).toMatchObject({ kind: 'updated', url: updates.url, ownUrl: true, enabled: true });
    // B's change touches B only.
    await expectJson(await patch('/endpoints/updated', { enabled: true }, authB), 200);
    expect((await db().lender.findUniqueOrThrow({ where: { id: lenderA.lenderId } })).updateUrl).toBe(updates.url);
    // Updates go to the new URL.
    const applicationId = await acknowledgedApplication();
    // At least once (a retry after a slow answer repeats the same webhook-id).
    await eventually(
      async () => requestsFor(updates, applicationId).length,
      (n) => n >= 1,
    );
  });

  it("a disabled endpoint's deliveries wait, unattempted and never dead-lettered, then go out in order once enabled", async () => {
    expect(await expectJson(await patch('/endpoints/updated', { enabled: false }, authA), 200)).toMatchObject({ enabled: false });
    const applicationId = await acknowledgedApplication();
    await expectJson(await post(`/applications/${applicationId}/acknowledgement`, { reference: 'again' }, authA), 200);
    // Longer than the whole retry schedule: nothing is attempted, nothing dead.
    await new Promise((r) => setTimeout(r, 1500));
    const held = await db().webhookDelivery.findMany({ where: { lenderApplicationId: applicationId }, orderBy: { sequence: 'asc' } });
    expect(held.map((d) => [d.status, d.attempts])).toEqual([
      ['PENDING', 0],
      ['PENDING', 0],
    ]);
    expect(requestsFor(updates, applicationId)).toHaveLength(0);
    const listed = await expectJson(await get('/endpoints', authA), 200);
    expect(listed.endpoints[1]).toMatchObject({ kind: 'updated', enabled: false, waiting: 2 });
    await expectJson(await patch('/endpoints/updated', { enabled: true }, authA), 200);
    await eventually(
      async () => requestsFor(updates, applicationId).map((r) => r.headers['webhook-sequence']),
      (seqs) => [...new Set(seqs)].join() === '1,2',
    );
  });

  it('a URL change re-aims deliveries not yet delivered; other token kinds are refused', async () => {
    await expectJson(await patch('/endpoints/updated', { enabled: false }, authA), 200);
    const applicationId = await acknowledgedApplication();
    const other = await startLenderReceiver();
    try {
      await expectJson(await patch('/endpoints/updated', { url: other.url, enabled: true }, authA), 200);
      await eventually(
        async () => requestsFor(other, applicationId).length,
        (n) => n >= 1,
      );
      expect(requestsFor(updates, applicationId)).toHaveLength(0);
      expect((await db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: applicationId } })).url).toBe(other.url);
    } finally {
      await expectJson(await patch('/endpoints/updated', { url: updates.url }, authA), 200);
      await other.close();
    }
    const integrator = await signUpIntegrator(app, `endpoints-${randomUUID().slice(0, 6)}`);
    const platform = bearer((await platformToken(app, integrator.apiKey)).access_token);
    expect((await get('/endpoints', platform)).status).toBe(401);
    expect((await patch('/endpoints/updated', { enabled: false }, platform)).status).toBe(401);
    expect((await post('/webhook-secret/rotate', {}, platform)).status).toBe(401);
    expect((await get('/endpoints', {})).status).toBe(401);
  });
});

describe('POST /webhook-secret/rotate', () => {
  it('shows a new secret once; during the overlap a delivery verifies with the old and the new secret, after it with the new one only', async () => {
    const oldSecret = lenderA.webhookSecret;
    const rotated = await expectJson(await post('/webhook-secret/rotate', { overlapSeconds: 3600 }, authA), 200);
    expect(rotated.webhookSecret).toMatch(/^whsec_/);
    expect(rotated.webhookSecret).not.toBe(oldSecret);
    expect(Date.parse(rotated.previousSecretValidUntil) - Date.now()).toBeGreaterThan(3500_000);
    const listed = await expectJson(await get('/endpoints', authA), 200);
    expect(listed.signingSecret).toEqual({ status: 'ROTATING', previousSecretValidUntil: rotated.previousSecretValidUntil });
    expect(JSON.stringify(listed)).not.toContain(rotated.webhookSecret);

    const during = await acknowledgedApplication();
    const [request] = await eventually(
      async () => requestsFor(updates, during),
      (r) => r.length >= 1,
    );
    const headers = request!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [oldSecret, rotated.webhookSecret])
      expect(new Webhook(secret).verify(request!.body, headers)).toMatchObject({ application: { id: during } });

    // Overlap 0: the secret in use alone signs from now on; the one before no longer verifies.
    const again = await expectJson(await post('/webhook-secret/rotate', { overlapSeconds: 0 }, authA), 200);
    expect(again.previousSecretValidUntil).toBeNull();
    expect((await expectJson(await get('/endpoints', authA), 200)).signingSecret).toEqual({ status: 'ACTIVE', previousSecretValidUntil: null });
    const after = await acknowledgedApplication();
    const [late] = await eventually(
      async () => requestsFor(updates, after),
      (r) => r.length >= 1,
    );
    const lateHeaders = late!.headers as Record<string, string>;
    expect(lateHeaders['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(new Webhook(again.webhookSecret).verify(late!.body, lateHeaders)).toMatchObject({ application: { id: after } });
    for (const stale of [oldSecret, rotated.webhookSecret]) expect(() => new Webhook(stale).verify(late!.body, lateHeaders)).toThrow();
  });

  it("rotates only the caller's secret, and refuses an overlap out of bounds with a 400 naming the field", async () => {
    const before = await db().lender.findUniqueOrThrow({ where: { id: lenderA.lenderId } });
    const ofB = await expectJson(await post('/webhook-secret/rotate', {}, authB), 200);
    const after = await db().lender.findUniqueOrThrow({ where: { id: lenderA.lenderId } });
    expect(after.webhookSecret).toBe(before.webhookSecret);
    expect((await db().lender.findUniqueOrThrow({ where: { id: lenderB.lenderId } })).webhookSecret).toBe(ofB.webhookSecret);
    for (const overlapSeconds of [-1, 7 * 86_400 + 1, 1.5, 'a day']) {
      const answer = await post('/webhook-secret/rotate', { overlapSeconds }, authA);
      expect(answer.status).toBe(400);
      expect((await answer.json()).errors).toEqual([expect.objectContaining({ pointer: '/overlapSeconds' })]);
    }
  });
});
