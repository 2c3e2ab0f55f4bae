/**
 * A submission announces its new lender applications live (applicationStatusChanged, status
 * In Review) through the same visibility rule as every later change: staff (a login holding only
 * `staff`) and the profile owner's account hear it; another account's login does not (it hears its
 * own application's change, published afterwards, first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser } from '../src/modules/identity/bootstrap.js';
import { graphql, settle, subscribe } from './support/graphql-client.js';
import { CredentialFactory } from './support/credentials.js';
import { bearer, lenderCredentials, lenderIdToken, marketplaceV1Token, signUpIntegrator, type Integrator } from './support/identities.js';
import { lenderAcknowledges, storedLenderApplication } from './support/lender-applications.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';
import { ACME_ANSWERS } from './support/answers.js';

let app: TestApp;
let owner: Integrator;
let stranger: Integrator;
let v1: Record<string, string>;
let staffLogin: string;
const db = () => app.runtime.database.prisma;
const EVENTS = 'subscription { applicationStatusChanged { applicationId status lenderId } }';

beforeAll(async () => {
  app = await startTestApp();
  owner = await signUpIntegrator(app, 'submit-events-owner');
  stranger = await signUpIntegrator(app, 'submit-events-stranger');
  v1 = bearer((await marketplaceV1Token(app, owner.apiKey)).jwt);
  const reviewer = await createAccountWithUser(db(), {
    environment: 'demo',
    accountName: 'specialists',
    email: 'submit-events-staff@example.test',
    password: 'submit-events-staff-pw',
    role: 'STAFF',
  });
  const ownerUser = (await db().platformUser.findFirstOrThrow({ where: { accountId: owner.accountId } })).id;
  const factory = new CredentialFactory(app, owner.loginToken, { accountId: owner.accountId, userId: ownerUser }, reviewer);
  staffLogin = (await factory.login(['staff'])).token;
}, 120_000);
afterAll(() => app?.close());

/** A profile of the owner's with ACME's answers, queued for review with its first matched lender. */
async function queuedSelection(): Promise<{ selectionId: string; lenderId: number }> {
  const { uuid } = await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, v1)).json();
  await fetch(`${app.url}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${uuid}/answers`, {
    method: 'PUT',
    headers: { ...v1, 'content-type': 'application/json' },
    body: JSON.stringify(ACME_ANSWERS),
  });
  const search = await (await fetch(`${app.url}/api/marketplace/v1/profiles/${uuid}/funding/matches/results`, { headers: v1 })).json();
  const lenders = await db().lender.findMany({ where: { id: { in: search.matches.map((m: { lender: { id: number } }) => m.lender.id) } } });
  const easy = lenders.find(
    (l) => !JSON.stringify(l.requiredFields).includes('tradeHistory') && !JSON.stringify(l.requiredFields).includes('directorOrSecretaryDetails'),
  )!;
  const product = search.matches.find((m: { lender: { id: number } }) => m.lender.id === easy.id).product as string;
  expect((await postJson(`${app.url}/api/marketplace/v1/profiles/${uuid}/funding/apply`, [{ lenderId: easy.id, products: [product] }], v1)).status).toBe(200);
  const selection = await db().reviewSelection.findFirstOrThrow({ where: { profileId: uuid }, orderBy: { createdAt: 'desc' } });
  return { selectionId: selection.id, lenderId: easy.id };
}

describe('submission publishes the new applications live', () => {
  it('staff and the owning account hear In Review; another account does not', async () => {
    const { selectionId, lenderId } = await queuedSelection();
    // The stranger's own application, whose later change is the stranger's next event.
    const strangerProfile = await db().profile.create({ data: { environment: 'demo', ownerAccountId: stranger.accountId } });
    const strangerApplication = await storedLenderApplication(app, { lenderId, profileId: strangerProfile.id });
    const staffSub = await subscribe(app.url, EVENTS, {}, { authorization: `Bearer ${staffLogin}` });
    const ownerSub = await subscribe(app.url, EVENTS, {}, { authorization: `Bearer ${owner.loginToken}` });
    const strangerSub = await subscribe(app.url, EVENTS, {}, { authorization: `Bearer ${stranger.loginToken}` });
    try {
      await settle();
      const res = await graphql(
        app.url,
        'mutation($s: ID!) { submitReviewedSelection(selectionId: $s) { applications { lenderId applicationId } } }',
        { s: selectionId },
        bearer(staffLogin),
      );
      expect(res.errors).toBeUndefined();
      const [created] = res.data!.submitReviewedSelection.applications as Array<{ applicationId: number; lenderId: number }>;
      const announced = { data: { applicationStatusChanged: { applicationId: created!.applicationId, status: 'In Review', lenderId } } };
      expect(await staffSub.next()).toEqual(announced);
      expect(await ownerSub.next()).toEqual(announced);
      // Published after the submission's: had the stranger heard the submission, it would come first.
      await lenderAcknowledges(app, await lenderIdToken(app, await lenderCredentials(app, lenderId)), strangerApplication);
      expect(await strangerSub.next()).toEqual({ data: { applicationStatusChanged: { applicationId: strangerApplication, status: 'In Review', lenderId } } });
    } finally {
      await staffSub.close();
      await ownerSub.close();
      await strangerSub.close();
    }
  });
});
