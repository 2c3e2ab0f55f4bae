/**
 * Non-funding cases (spec 2.3, 4.1 rule 5): chosen from what the profile's answers ask for, stored
 * with their state history, idempotent while open, readable through GraphQL; 422 with nothing to apply for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseCaseKind } from './case-service.js';
import { graphql } from '../../../test/support/graphql-client.js';
import { bearer, marketplaceV1Token, signUpIntegrator } from '../../../test/support/identities.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let auth: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  auth = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
});
afterAll(() => app?.close());

/** A profile whose answers (eligibilityRequest, filled by the questionnaires) are given. */
async function profileAsking(eligibilityRequest: object): Promise<string> {
  const { uuid } = await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, auth)).json();
  await app.runtime.database.prisma.profile.update({ where: { id: uuid }, data: { eligibilityRequest, companyInformation: { name: 'CASE CO LTD' } } });
  return uuid;
}
const apply = (uuid: string, headers = auth) => postJson(`${app.url}/api/marketplace/v1/profiles/${uuid}/cases/apply`, undefined, headers);

describe('POST /profiles/{uuid}/cases/apply', () => {
  it('opens a debt recovery case from the recovery answers: 200 with the spec 2.3 Case', async () => {
    const claimAmount = { code: 'GBP', value: 12500 };
    const uuid = await profileAsking({ recovery: { claimAmount, defendant: { name: 'SLOW PAYER LTD' } } });
    const res = await apply(uuid);
    expect(res.status).toBe(200);
    const kase = await res.json();
    expect(kase).toMatchObject({
      profile: uuid,
      businessId: expect.any(Number),
      type: 'DEBT_RECOVERY',
      product: 'DEBT_RECOVERY',
      productName: 'Debt recovery',
      caseState: 'NEW',
      caseStateName: 'New',
      state: 'AWAITING_REVIEW',
      stateName: 'Awaiting review',
      stateType: 'OPEN',
      private: false,
      offersAwaitingReview: false,
      followers: [],
      products: ['DEBT_RECOVERY'],
      productNames: ['Debt recovery'],
      details: { title: 'Recover an unpaid debt', description: 'Debt recovery for CASE CO LTD', amount: claimAmount },
      latestActivity: { title: 'Case opened' },
      integration: { name: 'funding-gateway' },
    });
    // No owner or manager yet: the keys are left out, not null.
    expect(kase).not.toHaveProperty('owner');
    expect(kase).not.toHaveProperty('manager');
  });

  it('applying again while the case is open returns the same case', async () => {
    const uuid = await profileAsking({ innovationRequirements: { grants: { uniqueIp: true } } });
    const first = await (await apply(uuid)).json();
    expect(Object.keys(first.details).sort()).toEqual(['description', 'title']); // a grant asks no amount: left out, not null
    const second = await (await apply(uuid)).json();
    expect(second.id).toBe(first.id);
    expect(await app.runtime.database.prisma.case.count({ where: { profileId: uuid } })).toBe(1);
  });

  it('a profile asking for nothing non-funding gets 422 and no case', async () => {
    const uuid = await profileAsking({ shared: { fundingAmount: { code: 'GBP', value: 50000 } } });
    const res = await apply(uuid);
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toMatch(/asks for nothing non-funding/);
    expect(await app.runtime.database.prisma.case.count({ where: { profileId: uuid } })).toBe(0);
  });

  it("another account's profile is 404", async () => {
    const uuid = await profileAsking({ recovery: { claimAmount: { code: 'GBP', value: 1 } } });
    const stranger = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
    expect((await apply(uuid, stranger)).status).toBe(404);
  });

  it('cases and their history are readable through GraphQL', async () => {
    const uuid = await profileAsking({ sourceQuestionnaireId: 'introducer-credit-improvement' });
    const created = await (await apply(uuid)).json();
    const res = await graphql(app.url, 'query($uuid: ID!) { profile(uuid: $uuid) { cases { id type history { fromState toState note } } } }', { uuid }, auth);
    expect(res.data?.profile.cases).toEqual([
      { id: created.id, type: 'CREDIT_IMPROVEMENT', history: [{ fromState: null, toState: 'AWAITING_REVIEW', note: 'Case opened' }] },
    ]);
  });
});

describe('choosing the case', () => {
  it.each([
    [{ sourceQuestionnaireId: 'introducer-grants', recovery: { claimAmount: {} } }, 'GRANTS'],
    [{ recovery: { defendant: { name: 'x' } } }, 'DEBT_RECOVERY'],
    [{ innovationRequirements: { rdTaxClaim: { isInnovating: true } } }, 'RD_TAX_CLAIM'],
    [{ sourceQuestionnaireId: 'introducer-credit-improvement' }, 'CREDIT_IMPROVEMENT'],
    [{ sourceQuestionnaireId: 'business-all-funding-products' }, null],
  ])('%j → %s', (eligibility, type) => {
    expect(chooseCaseKind(eligibility)?.type ?? null).toBe(type);
  });
});
