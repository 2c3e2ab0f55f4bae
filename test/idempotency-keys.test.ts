/**
 * Idempotency-Key on every integrator POST that creates or submits (src/infra/idempotent-answers.ts):
 * a repeat with the same key and body answers the first answer and changes nothing, another body (or
 * operation, or object) under the key is a 422, and the same request sent twice at once is answered once.
 * Every such row declares the header, so the OpenAPI document shows it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/api/rest/openapi-document.js';
import { EXAMPLE_OFFER, EXAMPLE_REJECTION } from '../src/modules/lender-applications/lender-application.examples.js';
import { ACME_ANSWERS, ACME_APPLICATION } from './support/answers.js';
import {
  bearer,
  createTenant,
  lenderCredentials,
  lenderIdToken,
  marketplaceV1Token,
  platformToken,
  signUpIntegrator,
  type Integrator,
} from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let me: Integrator;
const B = '/api/business/v1';
const M = '/api/marketplace/v1';
const keyed = (auth: Record<string, string>, key = randomUUID()) => ({ ...auth, 'idempotency-key': key });
const post = (path: string, headers: Record<string, string>, body?: unknown) => postJson(`${app.url}${path}`, body, headers);
const db = () => app.runtime.database.prisma;

/** A tenant token whose tenant has a profile set up from the registry (ACME WIDGETS LIMITED). */
async function tenantAuth(): Promise<{ tenantId: string; auth: Record<string, string> }> {
  const { id } = await createTenant(app, me.platformToken);
  const auth = bearer((await platformToken(app, me.apiKey, id)).access_token);
  expect((await post(`${B}/profile`, auth, { companyInformation: { registrationNumber: '09876543' } })).status).toBe(201);
  return { tenantId: id, auth };
}

/** A Business V1 application and a matched lender whose required fields its profile provides. */
async function applicationWithLender(auth: Record<string, string>): Promise<{ applicationId: string; selection: { lenderId: number; products: string[] } }> {
  const created = await (await post(`${B}/applications`, auth, ACME_APPLICATION)).json();
  const matches = await (await fetch(`${app.url}${B}/applications/${created.id}/matches`, { headers: auth })).json();
  const lenders = await db().lender.findMany({
    where: { id: { in: matches.matches.map((m: { lender: { id: number } }) => m.lender.id) } },
    orderBy: { id: 'asc' },
  });
  const lender = lenders.find((l) =>
    (l.requiredFields as Array<{ field: string }>).every((rule) => /\.basicCompanyDetails\.(companyNumber|contactEmail|contactPhone)$/.test(rule.field)),
  )!;
  const product = matches.matches.find((m: { lender: { id: number } }) => m.lender.id === lender.id).product;
  return { applicationId: created.id, selection: { lenderId: lender.id, products: [product] } };
}

/** The same request sent twice with one key, then with another body: both the first answer, then a 422 naming the header. */
async function expectReplayedThenRefused(
  send: (headers: Record<string, string>, body: unknown) => Promise<Response>,
  auth: Record<string, string>,
  body: unknown,
  otherBody: unknown,
) {
  const key = randomUUID();
  const first = await send(keyed(auth, key), body);
  expect(first.status).toBeLessThan(300);
  const answer = await first.json();
  const again = await send(keyed(auth, key), body);
  expect(again.status).toBe(first.status);
  expect(await again.json()).toEqual(answer);
  const other = await send(keyed(auth, key), otherBody);
  expect(other.status).toBe(422);
  expect((await other.json()).errors).toEqual([{ pointer: 'header:Idempotency-Key', message: expect.stringContaining('another request') }]);
  return answer;
}

beforeAll(async () => {
  app = await startTestApp();
  me = await signUpIntegrator(app);
});
afterAll(() => app?.close());

describe('the same POST with the same Idempotency-Key sent twice at once', () => {
  it('creates one application, and both answers are that application', async () => {
    const { tenantId, auth } = await tenantAuth();
    const headers = keyed(auth);
    const [a, b] = await Promise.all([post(`${B}/applications`, headers, ACME_APPLICATION), post(`${B}/applications`, headers, ACME_APPLICATION)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect((await a.json()).id).toBe((await b.json()).id);
    expect(await db().businessApplication.count({ where: { tenantId } })).toBe(1);
    // With another body under the key, even at once: 422, nothing made.
    const third = await post(`${B}/applications`, headers, { ...ACME_APPLICATION, fundingPeriod: 36 });
    expect(third.status).toBe(422);
    expect(await db().businessApplication.count({ where: { tenantId } })).toBe(1);
  });

  it('submits to the lender once: one lender application, one webhook delivery', async () => {
    const { auth } = await tenantAuth();
    const { applicationId, selection } = await applicationWithLender(auth);
    const headers = keyed(auth);
    const answers = await Promise.all([1, 2, 3].map(() => post(`${B}/applications/${applicationId}/submit`, headers, selection)));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    const rows = await db().lenderApplication.findMany({ where: { businessApplicationId: applicationId } });
    expect(rows).toHaveLength(1);
    expect(await db().webhookDelivery.count({ where: { lenderApplicationId: rows[0]!.id, event: 'APPLICATION_CREATED' } })).toBe(1);
  });
});

describe('Business V1', () => {
  it('continue-url: a repeat answers the same link; another clickId under the key is a 422', async () => {
    const { auth } = await tenantAuth();
    const created = await (await post(`${B}/applications`, auth, ACME_APPLICATION)).json();
    const send = (headers: Record<string, string>, body: unknown) => post(`${B}/applications/${created.id}/continue-url`, headers, body);
    const { continueUrl } = await expectReplayedThenRefused(send, auth, { clickId: 'newsletter-1' }, { clickId: 'newsletter-2' });
    expect(continueUrl).toContain(`/app/applications/${created.id}/continue`);
  });

  it('submit: another lender under the key is a 422 and sends nothing', async () => {
    const { auth } = await tenantAuth();
    const { applicationId, selection } = await applicationWithLender(auth);
    const send = (headers: Record<string, string>, body: unknown) => post(`${B}/applications/${applicationId}/submit`, headers, body);
    await expectReplayedThenRefused(send, auth, selection, { ...selection, lenderId: selection.lenderId + 1000 });
    expect(await db().lenderApplication.count({ where: { businessApplicationId: applicationId } })).toBe(1);
  });

  it('accept, decline and resubmit: a repeat answers the first decision; the key on another decision is a 422', async () => {
    const { auth } = await tenantAuth();
    const lenderAuth = async (lenderId: number) => bearer(await lenderIdToken(app, await lenderCredentials(app, lenderId)));
    const submitted = async () => {
      const { applicationId, selection } = await applicationWithLender(auth);
      const { applications } = await (await post(`${B}/applications/${applicationId}/submit`, auth, selection)).json();
      return { id: applications[0].applicationId as number, lender: await lenderAuth(selection.lenderId) };
    };
    const offered = await submitted();
    expect((await post(`/api/platform/v1/funding/applications/${offered.id}/offer`, offered.lender, EXAMPLE_OFFER)).status).toBe(200);
    const key = randomUUID();
    const accepted = await post(`${B}/lender-applications/${offered.id}/accept`, keyed(auth, key));
    expect(accepted.status).toBe(200);
    const first = await accepted.json();
    const again = await post(`${B}/lender-applications/${offered.id}/accept`, keyed(auth, key));
    expect(again.status).toBe(200); // without the key, a second decision is a 409
    expect(await again.json()).toEqual(first);
    expect((await post(`${B}/lender-applications/${offered.id}/decline`, keyed(auth, key))).status).toBe(422);
    expect((await db().lenderApplication.findUniqueOrThrow({ where: { id: offered.id } })).status).toBe('Client Accepted');

    const failed = await submitted();
    expect((await post(`/api/platform/v1/funding/applications/${failed.id}/rejection`, failed.lender, EXAMPLE_REJECTION)).status).toBe(200);
    const resubmitKey = keyed(auth);
    const [one, two] = await Promise.all([
      post(`${B}/lender-applications/${failed.id}/resubmit`, resubmitKey),
      post(`${B}/lender-applications/${failed.id}/resubmit`, resubmitKey),
    ]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(await one.json()).toEqual(await two.json());
    expect(await db().webhookDelivery.count({ where: { lenderApplicationId: failed.id, event: 'APPLICATION_CREATED' } })).toBe(2); // the first send and one resend
  });

  it('tenants: a repeat answers the same tenant; another referenceId under the key is a 422', async () => {
    const auth = bearer(me.platformToken);
    const send = (headers: Record<string, string>, body: unknown) => post(`${B}/tenants`, headers, body);
    const tenant = await expectReplayedThenRefused(send, auth, { referenceId: `CRM-${randomUUID()}` }, { referenceId: `CRM-${randomUUID()}` });
    expect(await db().tenant.count({ where: { id: tenant.id } })).toBe(1);
  });
});

describe('Platform API keys', () => {
  it('a repeat answers the key made first, without its secret (shown once); another name under the key is a 422', async () => {
    const auth = bearer(me.loginToken);
    const key = randomUUID();
    const body = { name: `crm-${randomUUID()}`, scopes: ['profile:read'] };
    const first = await post('/api/platform/v1/api-key', keyed(auth, key), body);
    expect(first.status).toBe(200);
    const { key: secret, ...made } = await first.json();
    expect(secret).toMatch(/^fgk_/);
    const again = await post('/api/platform/v1/api-key', keyed(auth, key), body);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(made);
    expect(await db().apiKey.count({ where: { accountId: me.accountId, name: body.name } })).toBe(1);
    expect((await post('/api/platform/v1/api-key', keyed(auth, key), { ...body, name: `${body.name}-2` })).status).toBe(422);
  });
});

describe('Marketplace V1', () => {
  let mv1: Record<string, string>;
  const blankProfileWithAnswers = async () => {
    const { uuid } = await (await post(`${M}/profiles/blank`, mv1)).json();
    const res = await fetch(`${app.url}${M}/questionnaires/introducer-all-funding-products/profiles/${uuid}/answers`, {
      method: 'PUT',
      headers: { ...mv1, 'content-type': 'application/json' },
      body: JSON.stringify(ACME_ANSWERS),
    });
    expect(res.status).toBe(204);
    return uuid as string;
  };
  beforeAll(async () => {
    mv1 = bearer((await marketplaceV1Token(app, me.apiKey)).jwt);
  });

  it('funding/apply: a repeat answers the first answer; another selection under the key is a 422', async () => {
    const uuid = await blankProfileWithAnswers();
    const { matches } = await (await fetch(`${app.url}${M}/profiles/${uuid}/funding/matches/results`, { headers: mv1 })).json();
    const byLender = [
      ...new Map(matches.map((m: { lender: { id: number }; product: string }) => [m.lender.id, { lenderId: m.lender.id, products: [m.product] }])).values(),
    ];
    const send = (headers: Record<string, string>, body: unknown) => post(`${M}/profiles/${uuid}/funding/apply`, headers, body);
    await expectReplayedThenRefused(send, mv1, byLender.slice(0, 1), byLender.slice(1, 2));
    expect(await db().reviewSelection.count({ where: { profileId: uuid } })).toBe(1);
  });

  it('cases/apply: a repeat answers the case opened first; the key on another profile is a 422', async () => {
    const profileAsking = async () => {
      const { uuid } = await (await post(`${M}/profiles/blank`, mv1)).json();
      await db().profile.update({ where: { id: uuid }, data: { eligibilityRequest: { recovery: { claimAmount: { code: 'GBP', value: 12500 } } } } });
      return uuid as string;
    };
    const [mine, other] = [await profileAsking(), await profileAsking()];
    const key = randomUUID();
    const first = await post(`${M}/profiles/${mine}/cases/apply`, keyed(mv1, key));
    expect(first.status).toBe(200);
    const again = await post(`${M}/profiles/${mine}/cases/apply`, keyed(mv1, key));
    expect(await again.json()).toEqual(await first.json());
    expect((await post(`${M}/profiles/${other}/cases/apply`, keyed(mv1, key))).status).toBe(422);
    expect(await db().case.count({ where: { profileId: other } })).toBe(0);
  });
});

describe('the OpenAPI document', () => {
  it('declares the Idempotency-Key header on every POST that creates or submits', () => {
    const paths = buildOpenApiDocument().paths as Record<string, Record<string, { operationId: string; parameters?: Array<{ name: string; in: string }> }>>;
    const idempotent = Object.values(paths)
      .flatMap((item) => Object.values(item))
      .filter((operation) => operation.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'))
      .map((operation) => operation.operationId);
    expect(idempotent).toEqual(
      expect.arrayContaining([
        'ApplicationController_create',
        'ApplicationSignUpController_generateContinueUrl',
        'ApplicationController_submit',
        'FundingController_apply',
        'CaseController_apply',
        'LenderApplicationController_accept',
        'LenderApplicationController_decline',
        'LenderApplicationController_resubmit',
        'BusinessLenderApplicationController_accept',
        'BusinessLenderApplicationController_decline',
        'BusinessLenderApplicationController_resubmit',
        'PlatformTenantController_create',
        'MarketplaceTenantController_create',
        'BusinessTenantController_create',
        'PlatformApiKeyController_create',
      ]),
    );
  });
});
