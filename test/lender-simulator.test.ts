/**
 * The lender simulator end to end against the running system: it serves its webhook on loopback,
 * fails the first two deliveries (retries), verifies signatures, authenticates before each call,
 * and plays the five go-live scenarios of spec section 6 on five submitted applications.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAccountWithUser, issueLenderCredentials } from '../src/modules/identity/bootstrap.js';
import { ACME_ANSWERS } from './support/answers.js';
import { graphql } from './support/graphql-client.js';
import { bearer, marketplaceV1Token, signIn, signUpIntegrator } from './support/identities.js';
import { eventually } from './support/lender-receiver.js';
import { startEntry, type RunningProcess } from './support/processes.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let simulator: RunningProcess | undefined;
const db = () => app.runtime.database.prisma;

beforeAll(async () => {
  app = await startTestApp({ config: { WEBHOOK_RETRY_DELAYS: [0, 0.3, 0.3, 0.3] } });
});
afterAll(async () => {
  await simulator?.stop();
  await app?.close();
});

it('plays the five go-live scenarios, after two failed deliveries', async () => {
  const v1 = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
  await createAccountWithUser(db(), { environment: 'demo', accountName: 'staff', email: 'golive@example.test', password: 'golive-password', role: 'STAFF' });
  const staff = bearer(await signIn(app, 'golive@example.test', 'golive-password'));

  // Five ACME profiles, each applying to the same easily satisfied lender.
  const profiles: string[] = [];
  for (let i = 0; i < 5; i++) {
    const { uuid } = await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, v1)).json();
    await fetch(`${app.url}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${uuid}/answers`, {
      method: 'PUT',
      headers: { ...v1, 'content-type': 'application/json' },
      body: JSON.stringify(ACME_ANSWERS),
    });
    profiles.push(uuid);
  }
  const search = await (await fetch(`${app.url}/api/marketplace/v1/profiles/${profiles[0]}/funding/matches/results`, { headers: v1 })).json();
  const lenders = await db().lender.findMany({
    where: { id: { in: search.matches.map((m: { lender: { id: number } }) => m.lender.id) } },
    orderBy: { id: 'asc' },
  });
  const lender = lenders.find((l) => !/tradeHistory|directorOrSecretaryDetails/.test(JSON.stringify(l.requiredFields)))!;
  const product = search.matches.find((m: { lender: { id: number } }) => m.lender.id === lender.id).product;

  const credentials = await issueLenderCredentials(db(), lender.id, 'demo', app.runtime.config.PUBLIC_URL);
  simulator = startEntry('src/processes/cli/lender-simulator.ts', ['--fail-first', '2'], {
    GATEWAY_URL: app.url,
    LENDER_CLIENT_ID: credentials.clientId,
    LENDER_CLIENT_SECRET: credentials.clientSecret,
    LENDER_USERNAME: credentials.username,
    LENDER_PASSWORD: credentials.password,
    LENDER_WEBHOOK_SECRET: credentials.webhookSecret,
    // The simulator checks each application's own token from the key, as docs/security/lender-secrets.md tells lenders to.
    LENDER_AUTHORIZATION_TOKEN_KEY: credentials.authorizationTokenKey,
    LENDER_AUDIENCE: credentials.audience,
  });
  const ready = await eventually(
    async () => simulator!.output(),
    (out) => out.includes('"ready":true'),
  );
  const urls = JSON.parse(ready.split('\n').find((l) => l.includes('"ready":true'))!) as { applicationUrl: string; updateUrl: string };
  await db().lender.update({ where: { id: lender.id }, data: { applicationUrl: urls.applicationUrl, updateUrl: urls.updateUrl } });

  const applicationIds: number[] = [];
  for (const uuid of profiles) {
    await postJson(`${app.url}/api/marketplace/v1/profiles/${uuid}/funding/apply`, [{ lenderId: lender.id, products: [product] }], v1);
    const selection = await db().reviewSelection.findFirstOrThrow({ where: { profileId: uuid } });
    const res = await graphql(
      app.url,
      'mutation($s: ID!) { submitReviewedSelection(selectionId: $s) { applications { applicationId } } }',
      { s: selection.id },
      staff,
    );
    expect(res.errors).toBeUndefined();
    applicationIds.push(res.data?.submitReviewedSelection.applications[0].applicationId);
    // One at a time, so the scenarios are played in order.
    // An acknowledgement leaves the application In Review (spec 3): it shows as its time.
    await eventually(
      () => db().lenderApplication.findUniqueOrThrow({ where: { id: applicationIds.at(-1)! } }),
      (a) => a.status !== 'In Review' || a.acknowledgedAt !== null,
    );
  }

  const expected = [
    ['In Review', true],
    ['Rejected', false],
    ['Failed', false],
    ['In Review', true],
    ['Offered', true],
  ];
  const outcome = await eventually(
    () => Promise.all(applicationIds.map((id) => db().lenderApplication.findUniqueOrThrow({ where: { id }, include: { offers: true } }))),
    (rows) => rows.every((a, i) => a.status === expected[i]![0] && (a.acknowledgedAt !== null) === expected[i]![1]),
  );
  expect(outcome[0]).toMatchObject({ reference: `SIM-${applicationIds[0]}`, comment: null });
  expect(outcome[1]).toMatchObject({ responseReason: 'Ineligible', comment: expect.stringContaining('other lenders') });
  expect(outcome[2]).toMatchObject({ responseReason: 'Failed', comment: expect.stringContaining('resubmit') });
  expect(outcome[3]!.comment).toContain('2 working days');
  expect(outcome[4]!.offers[0]).toMatchObject({ status: 'INDICATIVE', productType: 'TERM_LOAN' });

  const first = await db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: applicationIds[0], event: 'APPLICATION_CREATED' } });
  expect(first).toMatchObject({ status: 'DELIVERED', attempts: 3 });
  expect(simulator!.output()).not.toContain('bad authorization token');
});

it('refuses to start with an audience other than the one issued, naming the expected one', async () => {
  const lender = await db().lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'desc' } });
  const credentials = await issueLenderCredentials(db(), lender.id, 'demo', app.runtime.config.PUBLIC_URL);
  const wrong = startEntry('src/processes/cli/lender-simulator.ts', [], {
    GATEWAY_URL: app.url,
    LENDER_CLIENT_ID: credentials.clientId,
    LENDER_CLIENT_SECRET: credentials.clientSecret,
    LENDER_USERNAME: credentials.username,
    LENDER_PASSWORD: credentials.password,
    LENDER_WEBHOOK_SECRET: credentials.webhookSecret,
    LENDER_AUDIENCE: credentials.audience.replace('127.0.0.1', 'localhost'),
  });
  try {
    const output = await eventually(
      async () => wrong.output(),
      (out) => out.includes('cannot sign in'),
    );
    expect(output).toContain('invalid_request');
    expect(output).toContain(`audience must be ${credentials.audience}`);
    expect(output).not.toContain('"ready":true');
  } finally {
    await wrong.stop();
  }
});
