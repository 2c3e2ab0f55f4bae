/**
 * /metrics after a real flow: a client applies, staff submit the reviewed selection, the lender
 * acknowledges and offers (its webhook receiver answers 204), and another lender's receiver answers
 * 500. The scrape then shows, per lender (slug): the delivery attempts by outcome, the business
 * counters (submitted, acknowledged, offered), the time-to-acknowledgement and time-to-offer
 * histograms; and the review queue's depth and oldest age (as counted in SQL) and the pool's size.
 * The failing delivery is logged at warn with its lender, URL and status code.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLogLines } from './support/log-lines.js';
import { createAccountWithUser, type LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { createLogger } from '../src/infra/logger.js';
import { ACME_ANSWERS } from './support/answers.js';
import { graphql } from './support/graphql-client.js';
import { bearer, lenderCredentials, lenderIdToken, marketplaceV1Token, signIn, signUpIntegrator } from './support/identities.js';
import { lenderAcknowledges, lenderOffers, storedLenderApplication, submittableMatches } from './support/lender-applications.js';
import { eventually, startLenderReceiver, type LenderReceiver } from './support/lender-receiver.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

const METRICS_TOKEN = 'metrics-token-for-the-insights-metrics-test';
const POOL_SIZE = 3;
const { stream: logStream, lines } = capturedLogLines();

let app: TestApp;
let healthy: LenderReceiver;
let failing: LenderReceiver;
const db = () => app.runtime.database.prisma;

async function scrape(): Promise<string> {
  const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
}
const valueOf = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

beforeAll(async () => {
  app = await startTestApp({
    config: { METRICS_TOKEN, DB_POOL_SIZE: POOL_SIZE, WEBHOOK_RETRY_DELAYS: [0, 0.2], LOG_LEVEL: 'info' },
    logger: createLogger('info', 'insights-metrics-test', logStream),
  });
  healthy = await startLenderReceiver();
  failing = await startLenderReceiver();
  failing.answers = Array.from({ length: 20 }, () => 500);
  await db().lender.updateMany({ where: { environment: 'demo' }, data: { applicationUrl: healthy.url, updateUrl: null } });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await healthy?.close();
  await failing?.close();
});

describe('/metrics after submit, acknowledge and offer', () => {
  let answering: { id: number; slug: string; credentials: LenderCredentials };
  let applicationId: number;

  it('a submitted selection counts as submitted for its lender', async () => {
    const integrator = await signUpIntegrator(app, `metrics-${randomUUID().slice(0, 6)}`);
    const v1 = bearer((await marketplaceV1Token(app, integrator.apiKey)).jwt);
    const uuid = (await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, v1)).json()).uuid as string;
    const put = await fetch(`${app.url}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${uuid}/answers`, {
      method: 'PUT',
      headers: { ...v1, 'content-type': 'application/json' },
      body: JSON.stringify(ACME_ANSWERS),
    });
    expect(put.status).toBe(204);
    const matches = (await graphql(app.url, 'query($u: ID!) { profileMatches(uuid: $u) { matches { lender { id } product } } }', { u: uuid }, v1)).data!
      .profileMatches.matches;
    const [selected] = await submittableMatches(app, matches);
    expect((await postJson(`${app.url}/api/marketplace/v1/profiles/${uuid}/funding/apply`, [selected], v1)).status).toBeLessThan(300);
    const staff = { email: `metrics-staff-${randomUUID()}@example.test`, password: `pw-${randomUUID()}` };
    await createAccountWithUser(db(), { environment: 'demo', accountName: 'metrics staff', ...staff, role: 'STAFF' });
    const selection = await db().reviewSelection.findFirstOrThrow({ where: { profileId: uuid } });
    const before = await scrape();
    const lender = await db().lender.findUniqueOrThrow({ where: { id: selected!.lenderId } });
    const submittedBefore = valueOf(before, `lender_application_moves_total{lender="${lender.slug}",move="submitted"}`) ?? 0;
    const submitted = await postJson(
      `${app.url}/api/platform/v1/review-selections/${selection.id}/submit`,
      undefined,
      bearer(await signIn(app, staff.email, staff.password)),
    );
    expect(submitted.status).toBeLessThan(300);
    applicationId = ((await submitted.json()) as { applications: Array<{ applicationId: number }> }).applications[0]!.applicationId;
    answering = { id: lender.id, slug: lender.slug, credentials: await lenderCredentials(app, lender.id) };
    expect(valueOf(await scrape(), `lender_application_moves_total{lender="${lender.slug}",move="submitted"}`)).toBe(submittedBefore + 1);
  });

  it("the lender's acknowledgement and offer count, with their times since submission; its deliveries carry its label", async () => {
    const token = await lenderIdToken(app, answering.credentials);
    await lenderAcknowledges(app, token, applicationId);
    // A second acknowledgement (a comment) is no move and no second first answer.
    await lenderAcknowledges(app, token, applicationId, 'Still looking');
    await lenderOffers(app, token, applicationId);
    await eventually(
      async () => db().webhookDelivery.findMany({ where: { lenderApplicationId: applicationId } }),
      (rows) => rows.length === 4 && rows.every((d) => d.status === 'DELIVERED'),
    );
    const text = await scrape();
    const lender = `lender="${answering.slug}"`;
    expect(valueOf(text, `lender_application_moves_total{${lender},move="acknowledged"}`)).toBe(1);
    expect(valueOf(text, `lender_application_moves_total{${lender},move="offered"}`)).toBe(1);
    expect(valueOf(text, `lender_application_time_to_acknowledgement_seconds_count{${lender}}`)).toBe(1);
    expect(valueOf(text, `lender_application_time_to_offer_seconds_count{${lender}}`)).toBe(1);
    expect(valueOf(text, `lender_application_time_to_offer_seconds_bucket{le="+Inf",${lender}}`)).toBe(1);
    expect(valueOf(text, `webhook_delivery_attempts_total{${lender},outcome="delivered"}`)).toBeGreaterThanOrEqual(4);
    expect(valueOf(text, `webhook_delivery_attempt_duration_seconds_count{${lender},outcome="delivered"}`)).toBeGreaterThanOrEqual(4);
  });

  it('a lender answering 500: its attempts are counted under its label and each failure is logged at warn with lender, URL and status', async () => {
    const other = await db().lender.findFirstOrThrow({ where: { environment: 'demo', id: { not: answering.id } }, orderBy: { id: 'asc' } });
    await db().lender.update({ where: { id: other.id }, data: { updateUrl: failing.url } });
    const profile = await db().profile.create({ data: { environment: 'demo' } });
    const stored = await storedLenderApplication(app, { lenderId: other.id, profileId: profile.id });
    await lenderAcknowledges(app, await lenderIdToken(app, await lenderCredentials(app, other.id)), stored);
    await eventually(
      async () => db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: stored } }),
      (d) => d.status === 'DEAD',
    );
    const text = await scrape();
    expect(valueOf(text, `webhook_delivery_attempts_total{lender="${other.slug}",outcome="retrying"}`)).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, `webhook_delivery_attempts_total{lender="${other.slug}",outcome="dead"}`)).toBe(1);
    const warned = lines.filter((l) => l.level === 40 && l.msg === 'webhook delivery attempt failed' && l.lender === other.slug);
    expect(warned.length).toBeGreaterThanOrEqual(2);
    expect(warned[0]).toMatchObject({ url: failing.url, statusCode: 500 });
  });

  it('the review queue gauges equal SQL; the pool size gauge stands beside the connections', async () => {
    const text = await scrape();
    const waiting = await db().reviewSelection.findMany({
      where: { environment: 'demo', state: { in: ['PENDING_REVIEW', 'IN_REVIEW'] } },
      orderBy: { createdAt: 'asc' },
    });
    expect(valueOf(text, 'review_queue_depth{environment="demo"}')).toBe(waiting.length);
    expect(valueOf(text, 'review_queue_depth{environment="production"}')).toBe(0);
    const oldestAge = valueOf(text, 'review_queue_oldest_age_seconds{environment="demo"}')!;
    if (waiting.length === 0) expect(oldestAge).toBe(0);
    else expect(Math.abs(oldestAge - (Date.now() - waiting[0]!.createdAt.getTime()) / 1000)).toBeLessThan(120);
    expect(valueOf(text, 'db_pool_size')).toBe(POOL_SIZE);
    expect(valueOf(text, 'db_pool_connections{state="total"}')).toBeGreaterThan(0);
  });

  it('the delivery backlog gauges fall to nothing due once the worker has taken every due delivery (retries waiting for their time are not due)', async () => {
    const backlog = async () => {
      const text = await scrape();
      return [valueOf(text, 'webhook_delivery_due'), valueOf(text, 'webhook_delivery_oldest_due_age_seconds')];
    };
    expect(await eventually(backlog, ([due, age]) => due === 0 && age === 0)).toEqual([0, 0]);
  });
});
