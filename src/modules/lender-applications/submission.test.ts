/**
 * Submitting a reviewed selection to lenders: one lender application per lender with the spec 2.7
 * document, lender required fields enforced (nothing submitted when any are missing), and the
 * APPLICATION_CREATED webhook delivered, signed, to a real local receiver.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser, issueLenderCredentials } from '../identity/bootstrap.js';
import { applicationAuthorizationToken } from '../webhooks/authorization-token.js';
import { graphql } from '../../../test/support/graphql-client.js';
import { bearer, marketplaceV1Token, signIn, signUpIntegrator } from '../../../test/support/identities.js';
import { eventually, startLenderReceiver, type LenderReceiver } from '../../../test/support/lender-receiver.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { ACME_ANSWERS } from '../../../test/support/answers.js';

let app: TestApp;
let receiver: LenderReceiver;
let v1: Record<string, string>;
let staff: Record<string, string>;
const db = () => app.runtime.database.prisma;

beforeAll(async () => {
  app = await startTestApp({ config: { WEBHOOK_RETRY_DELAYS: [0, 0.3] } });
  receiver = await startLenderReceiver();
  await db().lender.updateMany({ where: { environment: 'demo' }, data: { applicationUrl: receiver.url } });
  v1 = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
  await createAccountWithUser(db(), {
    environment: 'demo',
    accountName: 'specialists',
    email: 'reviewer@example.test',
    password: 'reviewer-password',
    role: 'STAFF',
  });
  staff = bearer(await signIn(app, 'reviewer@example.test', 'reviewer-password'));
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

/** An ACME profile, its matches, and the matched lenders split by whether they need trading history. */
async function acmeWithMatches() {
  const { uuid } = await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, v1)).json();
  await fetch(`${app.url}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${uuid}/answers`, {
    method: 'PUT',
    headers: { ...v1, 'content-type': 'application/json' },
    body: JSON.stringify(ACME_ANSWERS),
  });
  const search = await (await fetch(`${app.url}/api/marketplace/v1/profiles/${uuid}/funding/matches/results`, { headers: v1 })).json();
  const lenders = await db().lender.findMany({ where: { id: { in: search.matches.map((m: { lender: { id: number } }) => m.lender.id) } } });
  const needsHistory = (rules: unknown) => JSON.stringify(rules).includes('tradeHistory') || JSON.stringify(rules).includes('directorOrSecretaryDetails');
  const product = (lenderId: number) => search.matches.find((m: { lender: { id: number } }) => m.lender.id === lenderId).product as string;
  return {
    uuid,
    easy: lenders.filter((l) => !needsHistory(l.requiredFields)).map((l) => ({ lenderId: l.id, products: [product(l.id)] })),
    strict: lenders.filter((l) => needsHistory(l.requiredFields)).map((l) => ({ lenderId: l.id, products: [product(l.id)] })),
  };
}

async function queued(uuid: string, selection: unknown): Promise<string> {
  expect((await postJson(`${app.url}/api/marketplace/v1/profiles/${uuid}/funding/apply`, selection, v1)).status).toBe(200);
  return (await db().reviewSelection.findFirstOrThrow({ where: { profileId: uuid }, orderBy: { createdAt: 'desc' } })).id;
}

describe('submitReviewedSelection', () => {
  it('creates the lender applications and delivers the signed spec 2.7 document', async () => {
    const { uuid, easy } = await acmeWithMatches();
    expect(easy.length).toBeGreaterThan(0);
    await issueLenderCredentials(db(), easy[0]!.lenderId, 'demo', app.runtime.config.PUBLIC_URL); // its webhook secret and authorization token key
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.4 accounts'], { type: 'application/pdf' }), 'accounts.pdf');
    const attached = await (await fetch(`${app.url}/api/marketplace/v1/profiles/${uuid}/documents`, { method: 'POST', headers: v1, body: form })).json();
    const selectionId = await queued(uuid, easy.slice(0, 1));
    const res = await graphql(
      app.url,
      'mutation($s: ID!) { submitReviewedSelection(selectionId: $s) { applications { lenderId applicationId } } }',
      { s: selectionId },
      staff,
    );
    expect(res.errors).toBeUndefined();
    const [created] = res.data?.submitReviewedSelection.applications;
    expect(created.lenderId).toBe(easy[0]!.lenderId);
    const delivery = await eventually(
      () => db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: created.applicationId } }),
      (d) => d.status === 'DELIVERED',
    );
    expect(delivery.event).toBe('APPLICATION_CREATED');
    const request = receiver.received.find((r) => r.headers['webhook-id'] === delivery.id)!;
    const credentials = await db().lender.findUniqueOrThrow({ where: { id: created.lenderId } });
    const document = new Webhook(credentials.webhookSecret!).verify(request.body, request.headers as Record<string, string>) as any;
    // The application's own token (HMAC of its id under the lender's key), never a token shared by every application.
    const token = applicationAuthorizationToken(credentials.authorizationTokenKey, created.applicationId);
    expect(token).toEqual(expect.any(String));
    expect(document.apiProvider).toMatchObject({
      url: expect.stringContaining(`/api/platform/v1/funding/applications/${created.applicationId}`),
      authorizationToken: token,
    });
    expect(document.application).toMatchObject({
      id: created.applicationId,
      status: 'In Review',
      fundingSearch: { amount: '150000.00', period: 24, useOfFunds: 'BUSINESS_EXPANSION' },
      fundingMatch: { lender: { id: created.lenderId }, productNames: easy[0]!.products },
      profile: {
        basicCompanyDetails: {
          companyName: 'ACME WIDGETS LIMITED',
          companyNumber: '09876543',
          contactEmail: 'ada@acme-widgets.example',
          tradingFrom: 1445212800,
          creditScore: 'A',
          vatRegistered: 0,
        },
      },
    });
    expect(document.application.profile.attachments).toEqual([
      expect.objectContaining({
        id: attached.id,
        fileName: 'accounts.pdf',
        url: expect.stringContaining(`/api/platform/v1/funding/v1/funding/search/${created.applicationId}/document/${attached.id}`),
      }),
    ]);
    expect((await db().reviewSelection.findUniqueOrThrow({ where: { id: selectionId } })).state).toBe('SUBMITTED');
    const twice = await graphql(app.url, 'mutation($s: ID!) { submitReviewedSelection(selectionId: $s) { selectionId } }', { s: selectionId }, staff);
    expect(twice.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT' });
  });

  it('names the missing required fields per lender and submits nothing', async () => {
    const { uuid, strict } = await acmeWithMatches();
    expect(strict.length).toBeGreaterThan(0);
    const selectionId = await queued(uuid, strict.slice(0, 1));
    const before = await db().lenderApplication.count();
    const res = await graphql(app.url, 'mutation($s: ID!) { submitReviewedSelection(selectionId: $s) { selectionId } }', { s: selectionId }, staff);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'UNPROCESSABLE', status: 422 });
    const fields = res.errors?.[0]?.extensions?.fields as Array<{ pointer: string; message: string }>;
    expect(fields.some((f) => f.pointer.startsWith(`lender:${strict[0]!.lenderId}:application.profile.`))).toBe(true);
    expect(await db().lenderApplication.count()).toBe(before);
    expect((await db().reviewSelection.findUniqueOrThrow({ where: { id: selectionId } })).state).toBe('PENDING_REVIEW');
  });

  it('is for staff only', async () => {
    const res = await graphql(app.url, 'mutation { submitReviewedSelection(selectionId: "00000000-0000-4000-8000-000000000000") { selectionId } }', {}, v1);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('resubmission after a failure', () => {
  it('a Failed application, once fixed, goes again to the lender as a new delivery; not twice', async () => {
    const { lenderIdToken, lenderCredentials } = await import('../../../test/support/identities.js');
    const { uuid, easy } = await acmeWithMatches();
    const credentials = await lenderCredentials(app, easy[0]!.lenderId);
    const selectionId = await queued(uuid, easy.slice(0, 1));
    const submitted = await graphql(
      app.url,
      'mutation($s: ID!) { submitReviewedSelection(selectionId: $s) { applications { applicationId } } }',
      { s: selectionId },
      staff,
    );
    const applicationId = submitted.data?.submitReviewedSelection.applications[0].applicationId as number;
    const lender = bearer(await lenderIdToken(app, credentials));
    const failed = await postJson(
      `${app.url}/api/platform/v1/funding/applications/${applicationId}/rejection`,
      { reason: 'Failed', comment: 'website missing' },
      lender,
    );
    expect((await failed.json()).application.status).toBe('Failed');

    await fetch(`${app.url}/api/marketplace/v1/profiles/${uuid}/company`, {
      method: 'PATCH',
      headers: { ...v1, 'content-type': 'application/json' },
      body: JSON.stringify({ website: 'https://acme-widgets.example' }),
    });
    const again = await postJson(`${app.url}/api/marketplace/v1/lender-applications/${applicationId}/resubmit`, undefined, v1);
    expect(again.status).toBe(200);
    expect((await again.json()).application).toMatchObject({
      status: 'In Review',
      responseReason: null,
      profile: { basicCompanyDetails: { companyWebsite: 'https://acme-widgets.example' } },
    });
    const deliveries = await eventually(
      () => db().webhookDelivery.findMany({ where: { lenderApplicationId: applicationId, event: 'APPLICATION_CREATED' } }),
      (rows) => rows.length === 2 && rows.every((r) => r.status === 'DELIVERED'),
    );
    expect(deliveries).toHaveLength(2);
    expect((await postJson(`${app.url}/api/marketplace/v1/lender-applications/${applicationId}/resubmit`, undefined, v1)).status).toBe(409);
  });
});

describe('what each delivery says of itself', () => {
  it("a lender with one URL for both events reads the event type and the application's sequence from the headers, and standardwebhooks verifies each", async () => {
    const { lenderIdToken, lenderCredentials } = await import('../../../test/support/identities.js');
    const { uuid, easy } = await acmeWithMatches();
    const lenderId = easy[0]!.lenderId;
    // Both events to the one receiver: the lender's application URL, no update URL.
    await db().lender.update({ where: { id: lenderId }, data: { updateUrl: null } });
    const credentials = await lenderCredentials(app, lenderId);
    const submitted = await graphql(
      app.url,
      'mutation($s: ID!) { submitReviewedSelection(selectionId: $s) { applications { applicationId } } }',
      { s: await queued(uuid, easy.slice(0, 1)) },
      staff,
    );
    const applicationId = submitted.data?.submitReviewedSelection.applications[0].applicationId as number;
    const lender = bearer(await lenderIdToken(app, credentials));
    expect(
      (await postJson(`${app.url}/api/platform/v1/funding/applications/${applicationId}/rejection`, { reason: 'Failed', comment: 'website missing' }, lender))
        .status,
    ).toBe(200);
    expect((await postJson(`${app.url}/api/marketplace/v1/lender-applications/${applicationId}/resubmit`, undefined, v1)).status).toBe(200);

    const received = await eventually(
      async () => receiver.received.filter((r) => (JSON.parse(r.body) as { application?: { id?: number } }).application?.id === applicationId),
      (requests) => requests.length === 3,
    );
    const webhook = new Webhook(credentials.webhookSecret);
    const seen = received
      .map((request) => {
        const document = webhook.verify(request.body, request.headers as Record<string, string>) as {
          application: { id: number; responseReason: string | null };
        };
        return {
          event: request.headers['webhook-event-type'],
          sequence: Number(request.headers['webhook-sequence']),
          id: document.application.id,
          responseReason: document.application.responseReason,
        };
      })
      .sort((a, b) => a.sequence - b.sequence);
    // Submitted (created), failed by the lender (updated), resubmitted (created again): numbered 1, 2, 3.
    expect(seen).toEqual([
      { event: 'application.created', sequence: 1, id: applicationId, responseReason: null },
      { event: 'application.updated', sequence: 2, id: applicationId, responseReason: 'Failed' },
      { event: 'application.created', sequence: 3, id: applicationId, responseReason: null },
    ]);
    // The number is the delivery's, stored with it: the same on every attempt and redelivery.
    const rows = await db().webhookDelivery.findMany({ where: { lenderApplicationId: applicationId }, orderBy: { sequence: 'asc' } });
    expect(rows.map((row) => [row.sequence, row.event])).toEqual([
      [1, 'APPLICATION_CREATED'],
      [2, 'APPLICATION_UPDATED'],
      [3, 'APPLICATION_CREATED'],
    ]);
    expect(received.map((r) => r.headers['webhook-id']).sort()).toEqual(rows.map((row) => row.id).sort());
  });
});

describe('POST {platform_base}/review-selections/{id}/submit', () => {
  it('submits for staff (201), refuses a non-staff login (403) and other APIs’ tokens (401), changing nothing', async () => {
    const { uuid, easy } = await acmeWithMatches();
    const selectionId = await queued(uuid, easy.slice(0, 1));
    const path = `${app.url}/api/platform/v1/review-selections/${selectionId}/submit`;
    const member = await signUpIntegrator(app);
    const before = await db().lenderApplication.count();
    expect((await postJson(path, undefined, bearer(member.loginToken))).status).toBe(403);
    expect((await postJson(path, undefined, v1)).status).toBe(401);
    expect(await db().lenderApplication.count()).toBe(before);
    const res = await postJson(path, undefined, staff);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ selectionId, applications: [{ lenderId: easy[0]!.lenderId, applicationId: expect.any(Number) }] });
    expect((await postJson(`${app.url}/api/platform/v1/review-selections/00000000-0000-4000-8000-000000000000/submit`, undefined, staff)).status).toBe(404);
  });
});
