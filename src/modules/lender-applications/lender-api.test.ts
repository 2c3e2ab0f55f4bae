/**
 * The Lender Application API endpoints (spec 4.5): reads bounded by lender, acknowledgement, offers
 * (replacement and history), failure vs rejection, the status machine's 409s, the update queued in
 * the outbox, and the event published.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from '../identity/bootstrap.js';
import { bearer, lenderCredentials, lenderIdToken } from '../../../test/support/identities.js';
import { storedApplicationDocument } from '../../../test/support/lender-applications.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import type { ServiceContext } from '../../kernel/context.js';
import { readsOf } from '../../infra/database.js';
import { queueDeliveriesWith } from '../webhooks/webhook-delivery.js';
import { readVisibleApplication, statusChangeWrites, type ApplicationBeforeChange } from './status-change-store.js';
import type { ApplicationViewer } from './lender-application-visibility.js';

let app: TestApp;
let lender: LenderCredentials;
let other: LenderCredentials;
const db = () => app.runtime.database.prisma;

/** A lender application as submission creates it (status In Review, the 2.7 document as payload). */
async function submitted(lenderId: number): Promise<number> {
  const profile = await db().profile.create({ data: { environment: 'demo', companyInformation: { name: 'ACME WIDGETS LIMITED' } } });
  const row = await db().lenderApplication.create({
    data: { lenderId, profileId: profile.id, status: 'In Review', payload: storedApplicationDocument({ lenderId, companyName: 'ACME WIDGETS LIMITED' }) },
  });
  return row.id;
}

const api = (path: string) => `${app.url}/api/platform/v1/funding${path}`;
const as = async (credentials: LenderCredentials) => bearer(await lenderIdToken(app, credentials));
const TERM_LOAN_OFFER = (reference: string) => ({
  reference,
  status: 'INDICATIVE',
  termLoan: {
    maximumAmount: { code: 'GBP', value: 150000 },
    term: 36,
    interestRate: 0.85,
    totalRepayment: 171234.56,
    likelihoodOfRate: 0.7,
    likelihoodOfAcceptance: 0.6,
  },
});

beforeAll(async () => {
  app = await startTestApp();
  const lenders = await db().lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 2 });
  lender = await lenderCredentials(app, lenders[0]!.id);
  other = await lenderCredentials(app, lenders[1]!.id);
});
afterAll(() => app?.close());

describe('reads', () => {
  it('GET /applications/{id} answers the lender’s own application; another lender gets 404', async () => {
    const id = await submitted(lender.lenderId);
    const res = await fetch(api(`/applications/${id}`), { headers: await as(lender) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      application: { id, status: 'In Review', reference: null, offer: null, profile: { basicCompanyDetails: { companyName: 'ACME WIDGETS LIMITED' } } },
    });
    expect((await fetch(api(`/applications/${id}`), { headers: await as(other) })).status).toBe(404);
  });

  it('GET /applications answers pages of ?limit= (oldest first) continuing ?after= the last id received, the lender’s own only; limits are checked', async () => {
    const mine = [await submitted(lender.lenderId), await submitted(lender.lenderId), await submitted(lender.lenderId)];
    const foreign = await submitted(other.lenderId);
    const auth = await as(lender);
    const listed: number[] = [];
    for (let after: number | undefined, pages = 0; pages < 1000; pages++) {
      const res = await fetch(api(`/applications?limit=2${after === undefined ? '' : `&after=${after}`}`), { headers: auth });
      expect(res.status).toBe(200);
      const page = ((await res.json()) as Array<{ application: { id: number } }>).map((d) => d.application.id);
      expect(page.length).toBeLessThanOrEqual(2);
      listed.push(...page);
      if (page.length < 2) break;
      after = page.at(-1);
    }
    expect(listed).toEqual(expect.arrayContaining(mine));
    expect(listed).not.toContain(foreign);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.indexOf(mine[0]!)).toBeLessThan(listed.indexOf(mine[2]!));
    const afterForeign = await (await fetch(api(`/applications?after=${foreign}`), { headers: auth })).json();
    expect(afterForeign).toEqual([]);
    const defaultPage = await (await fetch(api('/applications'), { headers: auth })).json();
    expect(defaultPage.length).toBeLessThanOrEqual(50);
    for (const query of ['limit=0', 'limit=201', 'limit=ten', 'after=-1']) {
      expect((await fetch(api(`/applications?${query}`), { headers: auth })).status).toBe(400);
    }
  });
});

describe('both bases of spec 4.5 note 4', () => {
  it.each(['/api/platform/v1/funding', '/api/marketplace/v2'])(
    'at %s: list, read, acknowledge, offer and reject as the lender; another lender 404; a platform token 401',
    async (base) => {
      const at = (path: string) => `${app.url}${base}${path}`;
      const [id, rejected] = [await submitted(lender.lenderId), await submitted(lender.lenderId)];
      const auth = await as(lender);
      const otherAuth = await as(other);
      expect((await fetch(at(`/applications/${id}`), { headers: auth })).status).toBe(200);
      const writes: Array<[string, unknown]> = [
        [`/applications/${id}/acknowledgement`, { reference: `B-${id}` }],
        [`/applications/${id}/offer`, TERM_LOAN_OFFER(`B-${id}`)],
        [`/applications/${rejected}/rejection`, { reason: 'Ineligible' }],
      ];
      for (const [path, body] of writes) {
        expect((await postJson(at(path), body, otherAuth)).status, `another lender: ${path}`).toBe(404);
        expect((await postJson(at(path), body, auth)).status, path).toBe(200);
      }
      expect((await fetch(at(`/applications/${id}`), { headers: otherAuth })).status).toBe(404);
      const listed = async (headers: Record<string, string>) =>
        (await (await fetch(at(`/applications?reference=B-${id}`), { headers })).json()).map((d: { application: { id: number } }) => d.application.id);
      expect({ mine: await listed(auth), another: await listed(otherAuth) }).toEqual({ mine: [id], another: [] });
      const { platformToken, signUpIntegrator } = await import('../../../test/support/identities.js');
      const integrator = await signUpIntegrator(app);
      expect((await fetch(at(`/applications/${id}`), { headers: bearer((await platformToken(app, integrator.apiKey)).access_token) })).status).toBe(401);
      const read = await (await fetch(at(`/applications/${id}`), { headers: auth })).json();
      expect(read.application).toMatchObject({ reference: `B-${id}`, offer: { reference: `B-${id}` } });
      expect((await db().lenderApplication.findUniqueOrThrow({ where: { id: rejected } })).status).toBe('Rejected');
    },
  );

  it("the OpenAPI document declares each of the six operations at both bases, the second sharing the first one's schemas", async () => {
    const document = await (await fetch(`${app.url}/openapi.json`)).json();
    const paths = [
      '/applications',
      '/applications/{id}',
      '/applications/{id}/acknowledgement',
      '/applications/{id}/offer',
      '/applications/{id}/rejection',
      '/v1/funding/search/{id}/document/{documentId}',
    ];
    for (const path of paths) {
      const [primary, alternate] = [document.paths[`/api/platform/v1/funding${path}`], document.paths[`/api/marketplace/v2${path}`]];
      expect(Object.keys(alternate ?? {}), path).toEqual(Object.keys(primary));
      for (const method of Object.keys(primary)) {
        expect(alternate[method].operationId).toBe(`${primary[method].operationId}_marketplaceV2`);
        expect({ ...alternate[method], operationId: null }).toEqual({ ...primary[method], operationId: null });
      }
    }
  });
});

describe('acknowledgement', () => {
  it.each([[{ reference: 'L-1' }], [{ reference: 'L-2', comment: 'In manual review, 48 hours' }], [{ comment: 'Reviewing' }]])('accepts %j', async (body) => {
    const id = await submitted(lender.lenderId);
    const res = await postJson(api(`/applications/${id}/acknowledgement`), body, await as(lender));
    expect(res.status).toBe(200);
    // Spec 3: the status stays In Review; the acknowledgement's reference, comment and time are recorded.
    expect((await res.json()).application).toMatchObject({ status: 'In Review', ...body });
    expect(await db().lenderApplication.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'In Review', acknowledgedAt: expect.any(Date) });
  });

  it('leaves the status In Review (spec 3): a later acknowledgement replaces its comment and keeps the first time; once offered, 409', async () => {
    const id = await submitted(lender.lenderId);
    const auth = await as(lender);
    expect((await postJson(api(`/applications/${id}/acknowledgement`), { reference: `T-${id}`, comment: 'Looking' }, auth)).status).toBe(200);
    const { acknowledgedAt } = await db().lenderApplication.findUniqueOrThrow({ where: { id } });
    const again = await postJson(api(`/applications/${id}/acknowledgement`), { comment: 'Decision by Friday' }, auth);
    expect((await again.json()).application).toMatchObject({ status: 'In Review', reference: `T-${id}`, comment: 'Decision by Friday' });
    expect(await db().lenderApplication.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'In Review', acknowledgedAt });
    const history = await db().applicationStatusChange.findMany({ where: { lenderApplicationId: id }, orderBy: { createdAt: 'asc' } });
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.comment])).toEqual([
      ['In Review', 'In Review', 'Looking'],
      ['In Review', 'In Review', 'Decision by Friday'],
    ]);
    expect((await postJson(api(`/applications/${id}/offer`), TERM_LOAN_OFFER(`T-${id}`), auth)).status).toBe(200);
    const late = await postJson(api(`/applications/${id}/acknowledgement`), { comment: 'late' }, auth);
    expect(late.status).toBe(409);
    expect((await late.json()).detail).toBe('The application is Offered: comments and references are accepted until a quote or a rejection is given');
  });

  it('makes the reference usable in ?reference= and refuses an empty body', async () => {
    const id = await submitted(lender.lenderId);
    const auth = await as(lender);
    await postJson(api(`/applications/${id}/acknowledgement`), { reference: `REF-${id}` }, auth);
    const found = await (await fetch(api(`/applications?reference=REF-${id}`), { headers: auth })).json();
    expect(found.map((d: { application: { id: number } }) => d.application.id)).toEqual([id]);
    expect((await postJson(api(`/applications/${id}/acknowledgement`), {}, auth)).status).toBe(400);
  });
});

describe('offers', () => {
  it('an offer moves the application to Offered; a second replaces it and the first stays in history', async () => {
    const id = await submitted(lender.lenderId);
    const auth = await as(lender);
    const first = await postJson(api(`/applications/${id}/offer`), TERM_LOAN_OFFER(`O-${id}-1`), auth);
    expect(first.status).toBe(200);
    const doc = await first.json();
    expect(doc.application).toMatchObject({ status: 'Offered', offer: { reference: `O-${id}-1`, status: 'INDICATIVE', termLoan: { totalFees: 21234.56 } } });
    await postJson(api(`/applications/${id}/offer`), { ...TERM_LOAN_OFFER(`O-${id}-2`), status: 'FINAL' }, auth);
    const offers = await db().offer.findMany({ where: { lenderApplicationId: id }, orderBy: { createdAt: 'asc' } });
    expect(offers.map((o) => [o.reference, o.supersededAt === null])).toEqual([
      [`O-${id}-1`, false],
      [`O-${id}-2`, true],
    ]);
  });

  it('refuses a bad offer with 400 naming the field, changing nothing', async () => {
    const id = await submitted(lender.lenderId);
    const res = await postJson(
      api(`/applications/${id}/offer`),
      { ...TERM_LOAN_OFFER('bad'), termLoan: { ...TERM_LOAN_OFFER('bad').termLoan, term: 241 } },
      await as(lender),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([{ pointer: '/termLoan/term', message: 'must be between 1 and 240' }]);
    expect((await db().lenderApplication.findUniqueOrThrow({ where: { id } })).status).toBe('In Review');
  });
});

/** Spec 2.7's offer of each product with every field, money written as the live platform's lenders write it: pounds. */
const PLAIN_NUMBER_SAMPLES: Record<string, Record<string, unknown>> = {
  termLoan: {
    maximumAmount: 1000,
    minimumAmount: 500,
    term: 12,
    interestRate: 1.2,
    representativeAPR: 15.4,
    monthlyRepayment: 89.5,
    totalRepayment: 1074,
    arrangementFee: 100,
    promotion: 'First month free',
    likelihoodOfRate: 0.8,
    likelihoodOfAcceptance: 0.7,
  },
  invoiceFinance: {
    maximumCreditLine: 500000,
    minimumCreditLine: 10000,
    serviceFee: 0.02,
    discountFee: 0.03,
    advanceRate: 0.85,
    additionalFees: 'None',
    minimumMonthlyFee: 1500,
    concentrationLimit: 0.3,
    contractLength: 12,
    creditInsurance: 0.01,
    creditInsuranceRequired: true,
    facility: 'FACTORING',
    selective: false,
    confidential: true,
    promotion: 'None',
    likelihoodOfRate: 0.5,
    likelihoodOfAcceptance: 0.6,
  },
  merchantCashAdvance: {
    fundingAmount: 20000,
    sweep: 0.15,
    totalRepayment: 25000,
    totalFees: 5000,
    ratio: 1.25,
    promotion: 'None',
    likelihoodOfRate: 0.9,
    likelihoodOfAcceptance: 0.9,
  },
  assetFinance: {
    advanceAmount: 27000,
    term: 48,
    deposit: 3000,
    cost: 25000,
    vat: 5000,
    totalPrice: 33600,
    representativeAPR: 0.09,
    productOption: 'Hire Purchase',
    monthlyRepayment: 650,
    optionToPurchaseFee: 150,
    additionalFees: 'Documentation fee £95',
    description: 'Excavator',
    promotion: 'None',
    likelihoodOfRate: 0.6,
    likelihoodOfAcceptance: 0.8,
  },
  tradeFinance: {
    maximumCreditLine: 80000,
    minimumCreditLine: 5000,
    serviceFee: 0.01,
    discountFee: 0.02,
    advanceRate: 0.8,
    additionalFees: 'None',
    minimumMonthlyFee: 500,
    contractLength: 0,
    promotion: 'None',
    likelihoodOfRate: 0.4,
    likelihoodOfAcceptance: 0.5,
  },
  commercialProperty: {
    amount: 400000,
    ltv: 70,
    mortgageTerm: 240,
    dealTerm: 60,
    interestRate: 6.5,
    arrangementFee: 4000,
    valuationFee: 1200,
    exitFee: 0,
    productOption: 'Repayment',
    rateType: 'Fixed',
    propertyChargeAddress: '1 High Street, Leeds',
  },
};
/** Spec 2.7's currency fields per product object (the others are plain numbers there too: rates, terms, repayments). */
const MONEY_FIELDS: Record<string, string[]> = {
  termLoan: ['maximumAmount', 'minimumAmount', 'arrangementFee'],
  invoiceFinance: ['maximumCreditLine', 'minimumCreditLine', 'minimumMonthlyFee'],
  merchantCashAdvance: ['fundingAmount', 'totalRepayment', 'totalFees'],
  assetFinance: ['advanceAmount', 'deposit', 'cost', 'vat', 'totalPrice', 'optionToPurchaseFee'],
  tradeFinance: ['maximumCreditLine', 'minimumCreditLine', 'minimumMonthlyFee'],
  commercialProperty: ['amount', 'arrangementFee', 'valuationFee', 'exitFee'],
};

describe('documented offer samples, money as plain numbers', () => {
  it.each(Object.keys(PLAIN_NUMBER_SAMPLES))('%s: accepted and read back with money as {code: GBP, value}', async (product) => {
    const id = await submitted(lender.lenderId);
    const auth = await as(lender);
    const sample = PLAIN_NUMBER_SAMPLES[product]!;
    const res = await postJson(
      api(`/applications/${id}/offer`),
      { reference: `S-${id}`, expiryDate: '2027-01-31', status: 'INDICATIVE', comment: 'Subject to checks', [product]: sample },
      auth,
    );
    expect(res.status).toBe(200);
    const expected = Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, MONEY_FIELDS[product]!.includes(k) ? { code: 'GBP', value: v } : v]));
    const read = await (await fetch(api(`/applications/${id}`), { headers: auth })).json();
    expect(read.application.offer).toEqual({
      id: expect.any(String),
      reference: `S-${id}`,
      status: 'INDICATIVE',
      expiryDate: '2027-01-31T00:00:00.000Z',
      comment: 'Subject to checks',
      decision: null,
      [product]: product === 'termLoan' ? { ...expected, totalFees: 74 } : expected,
    });
  });

  it('refuses money that is neither a number nor {code, value}, naming the field, writing nothing', async () => {
    const id = await submitted(lender.lenderId);
    const res = await postJson(
      api(`/applications/${id}/offer`),
      { reference: `X-${id}`, status: 'FINAL', termLoan: { ...PLAIN_NUMBER_SAMPLES.termLoan, maximumAmount: '1000' } },
      await as(lender),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([
      { pointer: '/termLoan/maximumAmount', message: 'must be an amount in pounds (a number) or a currency amount {code, value}' },
    ]);
    expect(await db().offer.count({ where: { lenderApplicationId: id } })).toBe(0);
  });
});

describe('lender references', () => {
  it('a lender may reuse its reference on another application (acknowledgement and rejection: 200); ?reference= finds both', async () => {
    const [first, second, third] = [await submitted(lender.lenderId), await submitted(lender.lenderId), await submitted(lender.lenderId)];
    const auth = await as(lender);
    const reference = `CUST-${first}`;
    for (const id of [first, second]) {
      const res = await postJson(api(`/applications/${id}/acknowledgement`), { reference }, auth);
      expect(res.status).toBe(200);
      expect((await res.json()).application).toMatchObject({ id, reference, status: 'In Review' });
    }
    const rejected = await postJson(api(`/applications/${third}/rejection`), { reason: 'Ineligible', reference }, auth);
    expect(rejected.status).toBe(200);
    expect((await rejected.json()).application).toMatchObject({ id: third, reference, status: 'Rejected' });
    const found = await (await fetch(api(`/applications?reference=${reference}`), { headers: auth })).json();
    expect(found.map((d: { application: { id: number } }) => d.application.id)).toEqual([first, second, third]);
  });

  it('an offer posted again with the same reference replaces the previous one (spec 4.5 note 2): 200, its update queued and published, fundingMatch.offerId the current offer', async () => {
    const id = await submitted(lender.lenderId);
    const auth = await as(lender);
    const first = await postJson(api(`/applications/${id}/offer`), TERM_LOAN_OFFER(`R-${id}`), auth);
    expect(first.status).toBe(200);
    const firstOffer = (await first.json()).application.offer.id;
    const events = app.runtime.events.bus.subscribe('offerStatusChanged', `lender:${lender.lenderId}`)[Symbol.asyncIterator]();
    const next = events.next();
    const again = await postJson(api(`/applications/${id}/offer`), { ...TERM_LOAN_OFFER(`R-${id}`), status: 'FINAL' }, auth);
    expect(again.status).toBe(200);
    const { application } = await again.json();
    expect(application.offer).toMatchObject({ reference: `R-${id}`, status: 'FINAL' });
    expect(application.offer.id).not.toBe(firstOffer);
    expect(application.fundingMatch.offerId).toBe(application.offer.id);
    expect((await next).value).toMatchObject({ applicationId: id, offerId: application.offer.id, reference: `R-${id}`, status: 'FINAL' });
    await events.return?.();
    const offers = await db().offer.findMany({ where: { lenderApplicationId: id }, orderBy: { createdAt: 'asc' } });
    expect(offers.map((o) => [o.id, o.status, o.supersededAt === null])).toEqual([
      [firstOffer, 'INDICATIVE', false],
      [application.offer.id, 'FINAL', true],
    ]);
    const deliveries = await db().webhookDelivery.findMany({ where: { lenderApplicationId: id }, orderBy: { createdAt: 'asc' } });
    expect(deliveries.map((d) => (d.payload as { application: { offer: { id: string }; fundingMatch: { offerId: string } } }).application)).toEqual(
      [firstOffer, application.offer.id].map((offerId) =>
        expect.objectContaining({ offer: expect.objectContaining({ id: offerId }), fundingMatch: expect.objectContaining({ offerId }) }),
      ),
    );
    const read = await (await fetch(api(`/applications/${id}`), { headers: auth })).json();
    expect(read.application.fundingMatch.offerId).toBe(application.offer.id);
  });

  it('a constraint no service anticipated maps to a client error, never a 500 (real database errors)', async () => {
    const { problemFor } = await import('../../api/rest/problem-details.js');
    const id = await submitted(lender.lenderId);
    const row = await db().lenderApplication.findUniqueOrThrow({ where: { id } });
    const failure = async (write: () => Promise<unknown>) =>
      problemFor(
        await write().then(
          () => {
            throw new Error('the write succeeded');
          },
          (err: unknown) => err,
        ),
      );
    const duplicate = await failure(() =>
      db().lenderApplication.create({ data: { id, lenderId: row.lenderId, profileId: row.profileId, status: 'In Review' } }),
    );
    expect(duplicate).toMatchObject({ status: 409, code: 'CONFLICT', detail: 'A record with the same values already exists' });
    const dangling = await failure(() => db().lenderApplication.create({ data: { lenderId: 987654, profileId: row.profileId, status: 'In Review' } }));
    expect(dangling).toMatchObject({ status: 409, code: 'CONFLICT' });
    const gone = await failure(() => db().lenderApplication.update({ where: { id: -1 }, data: { comment: 'x' } }));
    expect(gone).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('Idempotency-Key on acknowledgement, offer and rejection', () => {
  const keyed = (key: string, auth: Record<string, string>) => ({ ...auth, 'idempotency-key': key });
  /** What a lender answer writes: history, offers, deliveries. */
  const writes = async (id: number) => ({
    history: await db().applicationStatusChange.count({ where: { lenderApplicationId: id } }),
    offers: await db().offer.count({ where: { lenderApplicationId: id } }),
    deliveries: await db().webhookDelivery.count({ where: { lenderApplicationId: id } }),
  });

  it.each([
    ['acknowledgement', { reference: 'IK-REF', comment: 'Under review, 48 hours' }, { reference: 'IK-REF', comment: 'Another comment' }],
    ['offer', TERM_LOAN_OFFER('IK-OFFER'), { ...TERM_LOAN_OFFER('IK-OFFER'), status: 'FINAL' }],
    ['rejection', { reason: 'Ineligible', comment: 'Outside our appetite' }, { reason: 'Failed' }],
  ])(
    "%s: a repeat with the key answers the stored answer and writes nothing; another body under it is a 422; the key is the lender's own",
    async (action, body, otherBody) => {
      const id = await submitted(lender.lenderId);
      // As submission sends it: with apiProvider, whose token is kept out of the stored answer and derived again on replay.
      const row = await db().lenderApplication.findUniqueOrThrow({ where: { id } });
      await db().lenderApplication.update({
        where: { id },
        data: {
          payload: {
            ...(row.payload as object),
            apiProvider: { url: api(`/applications/${id}`), updateUrl: api(`/applications/${id}`), authorizationToken: null },
          },
        },
      });
      const auth = await as(lender);
      const key = `key-${action}-${id}`;
      const first = await postJson(api(`/applications/${id}/${action}`), body, keyed(key, auth));
      expect(first.status).toBe(200);
      const answered = await first.json();
      expect(answered.apiProvider.authorizationToken).toEqual(expect.any(String));
      const after = await writes(id);
      const repeat = await postJson(api(`/applications/${id}/${action}`), body, keyed(key, auth));
      expect(repeat.status).toBe(200);
      expect(await repeat.json()).toEqual(answered);
      expect(await writes(id)).toEqual(after);
      const stored = await db().idempotencyRecord.findFirstOrThrow({ where: { lenderId: lender.lenderId, key } });
      expect(JSON.stringify(stored.responseBody)).not.toContain(answered.apiProvider.authorizationToken);

      const refused = await postJson(api(`/applications/${id}/${action}`), otherBody, keyed(key, auth));
      expect(refused.status).toBe(422);
      expect((await refused.json()).errors).toEqual([{ pointer: 'header:Idempotency-Key', message: expect.stringContaining('another request') }]);
      expect(await writes(id)).toEqual(after);
      // The same key on another application is another request too.
      const elsewhere = await submitted(lender.lenderId);
      expect((await postJson(api(`/applications/${elsewhere}/${action}`), body, keyed(key, auth))).status).toBe(422);

      // Another lender: its own key space, and my application stays a 404 whatever the key.
      const theirs = await submitted(other.lenderId);
      const otherAuth = await as(other);
      expect((await postJson(api(`/applications/${theirs}/${action}`), body, keyed(key, otherAuth))).status).toBe(200);
      expect((await postJson(api(`/applications/${id}/${action}`), body, keyed(key, otherAuth))).status).toBe(404);
      expect(await db().idempotencyRecord.findMany({ where: { key }, select: { lenderId: true, responseStatus: true } })).toEqual(
        expect.arrayContaining([
          { lenderId: lender.lenderId, responseStatus: 200 },
          { lenderId: other.lenderId, responseStatus: 200 },
        ]),
      );
    },
  );

  it('a failed request keeps nothing: its retry runs; a malformed key is a 400 naming the header; the key expires after 24 hours', async () => {
    const id = await submitted(lender.lenderId);
    const auth = await as(lender);
    const key = `retry-${id}`;
    expect((await postJson(api(`/applications/${id}/offer`), { ...TERM_LOAN_OFFER('x'), termLoan: { term: 0 } }, keyed(key, auth))).status).toBe(400);
    expect(await db().idempotencyRecord.count({ where: { key } })).toBe(0);
    expect((await postJson(api(`/applications/${id}/rejection`), { reason: 'Ineligible' }, auth)).status).toBe(200);
    expect((await postJson(api(`/applications/${id}/acknowledgement`), { comment: 'late' }, keyed(key, auth))).status).toBe(409);
    expect(await db().idempotencyRecord.count({ where: { key } })).toBe(0);
    const tooLong = await postJson(api(`/applications/${id}/acknowledgement`), { comment: 'x' }, keyed('k'.repeat(256), auth));
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).errors[0].pointer).toMatch(/Idempotency-Key/);

    const fresh = await submitted(lender.lenderId);
    const kept = `expiring-${fresh}`;
    expect((await postJson(api(`/applications/${fresh}/acknowledgement`), { comment: 'one' }, keyed(kept, auth))).status).toBe(200);
    const record = await db().idempotencyRecord.findFirstOrThrow({ where: { key: kept } });
    expect(record.expiresAt.getTime() - record.createdAt.getTime()).toBe(24 * 3600_000);
    await db().idempotencyRecord.update({ where: { id: record.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const reused = await postJson(api(`/applications/${fresh}/acknowledgement`), { comment: 'two' }, keyed(kept, auth));
    expect(reused.status).toBe(200);
    expect((await reused.json()).application.comment).toBe('two');
  });

  it("is kept in PostgreSQL: a second server on the same database replays the first one's answer", async () => {
    const second = await startTestApp({ config: { DATABASE_URL: app.runtime.config.DATABASE_URL } });
    try {
      const id = await submitted(lender.lenderId);
      const key = `across-${id}`;
      const first = await postJson(api(`/applications/${id}/offer`), TERM_LOAN_OFFER(`X-${id}`), keyed(key, await as(lender)));
      expect(first.status).toBe(200);
      const after = await writes(id);
      const elsewhere = await postJson(
        `${second.url}/api/platform/v1/funding/applications/${id}/offer`,
        TERM_LOAN_OFFER(`X-${id}`),
        keyed(key, bearer(await lenderIdToken(second, lender))),
      );
      expect(elsewhere.status).toBe(200);
      expect(await elsewhere.json()).toEqual(await first.json());
      expect(await writes(id)).toEqual(after);
    } finally {
      await second.close();
    }
  });
});

describe('failure and rejection', () => {
  it('Failed can be fixed (status Failed); Ineligible is terminal: no offer afterwards (409), nothing changed', async () => {
    const failedId = await submitted(lender.lenderId);
    const auth = await as(lender);
    const failed = await postJson(
      api(`/applications/${failedId}/rejection`),
      { reason: 'Failed', comment: 'companyNumber missing: send the 8-digit number' },
      auth,
    );
    expect((await failed.json()).application).toMatchObject({ status: 'Failed', responseReason: 'Failed' });

    const rejectedId = await submitted(lender.lenderId);
    await postJson(api(`/applications/${rejectedId}/rejection`), { reason: 'Ineligible', comment: 'Outside our sector appetite' }, auth);
    const before = await db().lenderApplication.findUniqueOrThrow({ where: { id: rejectedId } });
    const offer = await postJson(api(`/applications/${rejectedId}/offer`), TERM_LOAN_OFFER(`late-${rejectedId}`), auth);
    expect(offer.status).toBe(409);
    expect((await offer.json()).detail).toBe('The application is Rejected: an offer can only be made on an open application');
    const comment = await postJson(api(`/applications/${rejectedId}/acknowledgement`), { comment: 'one more thing' }, auth);
    expect(comment.status).toBe(409);
    expect(await db().lenderApplication.findUniqueOrThrow({ where: { id: rejectedId } })).toEqual(before);
    expect(await db().offer.count({ where: { lenderApplicationId: rejectedId } })).toBe(0);
  });
});

describe('history, outbox and events', () => {
  it('records each change, queues the updated document for the update webhook, publishes the event', async () => {
    const id = await submitted(lender.lenderId);
    const events = app.runtime.events.bus.subscribe('applicationStatusChanged', `lender:${lender.lenderId}`)[Symbol.asyncIterator]();
    const next = events.next();
    await postJson(api(`/applications/${id}/acknowledgement`), { reference: `H-${id}` }, await as(lender));
    expect((await next).value).toEqual({ applicationId: id, status: 'In Review', lenderId: lender.lenderId });
    await events.return?.();
    const history = await db().applicationStatusChange.findMany({ where: { lenderApplicationId: id } });
    expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([['In Review', 'In Review']]);
    const deliveries = await db().webhookDelivery.findMany({ where: { lenderApplicationId: id } });
    expect(deliveries).toHaveLength(1);
    // (The demo lender's webhook URL is unset, so the worker's attempts fail: the delivery stays queued for retry.)
    expect(deliveries[0]).toMatchObject({ event: 'APPLICATION_UPDATED', payload: { application: { status: 'In Review', reference: `H-${id}` } } });
    expect(deliveries[0]!.status).not.toBe('DELIVERED');
  });
});

describe('changes of one application at once', () => {
  // Each change is written only if the application is still as it read it (status-change-store.ts),
  // else decided again under the row's lock: whatever the interleaving, the history is one chain of
  // moves, one offer is current, and every change that answered 200 has its delivery, no other.
  it('a change read before another committed writes nothing (the compare-and-set), not even its delivery; read again, it writes', async () => {
    const id = await submitted(lender.lenderId);
    const ctx = { environment: 'demo', clock: { now: () => new Date() }, requestId: null, db: db() } as unknown as ServiceContext;
    const actor: ApplicationViewer = {
      kind: 'lender',
      lenderId: lender.lenderId,
      clientId: 'store-test',
      scopes: ['lenderApplications.respond'],
    } as ApplicationViewer;
    const reads = readsOf(db());
    const offerChange = {
      offer: {
        reference: `C-${id}`,
        status: 'INDICATIVE' as const,
        productType: 'TERM_LOAN' as const,
        product: TERM_LOAN_OFFER('').termLoan,
        expiryDate: null,
        comment: null,
      },
      note: { comment: null },
    };
    const offerOn = (row: ApplicationBeforeChange) =>
      queueDeliveriesWith(
        ctx,
        reads,
        [{ lenderApplicationId: id, lenderId: lender.lenderId, event: 'APPLICATION_UPDATED', url: 'https://lender.example/updates', payload: {} }],
        statusChangeWrites(reads, row, 'Offered', offerChange, new Date()).writes,
      );
    const stale = (await readVisibleApplication(reads, ctx, actor, id, { lock: false }))!;
    expect((await postJson(api(`/applications/${id}/acknowledgement`), { reference: `C-${id}` }, await as(lender))).status).toBe(200);

    expect((await offerOn(stale)).written).toBe(false);
    expect(await db().lenderApplication.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'In Review', acknowledgedAt: expect.any(Date) });
    expect(await db().offer.count({ where: { lenderApplicationId: id } })).toBe(0);
    expect((await db().applicationStatusChange.findMany({ where: { lenderApplicationId: id } })).map((h) => h.toStatus)).toEqual(['In Review']);
    expect(await db().webhookDelivery.count({ where: { lenderApplicationId: id } })).toBe(1);

    const fresh = (await readVisibleApplication(reads, ctx, actor, id, { lock: false }))!;
    expect(fresh.version).not.toBe(stale.version);
    expect((await offerOn(fresh)).written).toBe(true);
    expect(await db().lenderApplication.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'Offered' });
    expect(await db().offer.count({ where: { lenderApplicationId: id, supersededAt: null } })).toBe(1);
    expect(await db().webhookDelivery.count({ where: { lenderApplicationId: id } })).toBe(2);
  });

  it('twelve offers at once: all 200, eleven replaced, one current; the history and the deliveries one per offer', async () => {
    const id = await submitted(lender.lenderId);
    const auth = await as(lender);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => postJson(api(`/applications/${id}/offer`), TERM_LOAN_OFFER(`R-${id}-${i}`), auth)));
    expect(answers.map((res) => res.status)).toEqual(Array(12).fill(200));
    const offers = await db().offer.findMany({ where: { lenderApplicationId: id } });
    expect(offers).toHaveLength(12);
    expect(offers.filter((o) => o.supersededAt === null)).toHaveLength(1);
    const history = await db().applicationStatusChange.findMany({ where: { lenderApplicationId: id, fromStatus: { not: null } } });
    expect(history.map((h) => `${h.fromStatus}>${h.toStatus}`).sort()).toEqual(['In Review>Offered', ...Array(11).fill('Offered>Offered')]);
    const deliveries = await db().webhookDelivery.findMany({ where: { lenderApplicationId: id } });
    expect(deliveries).toHaveLength(12);
    // Each delivery announces its own offer: none was built from another change's read.
    const announced = deliveries.map((d) => (d.payload as { application: { offer: { reference: string } } }).application.offer.reference);
    expect(new Set(announced)).toEqual(new Set(offers.map((o) => o.reference)));
    expect(announced).toHaveLength(new Set(announced).size);
    expect(await db().lenderApplication.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'Offered' });
  });

  it('three rejections at once on an offered application: one wins, the other two are 409 (already Rejected) and write nothing', async () => {
    const id = await submitted(lender.lenderId);
    const auth = await as(lender);
    expect((await postJson(api(`/applications/${id}/offer`), TERM_LOAN_OFFER(`T-${id}`), auth)).status).toBe(200);
    const answers = await Promise.all([
      postJson(api(`/applications/${id}/rejection`), { reason: 'Ineligible', comment: 'first' }, auth),
      postJson(api(`/applications/${id}/rejection`), { reason: 'Ineligible', comment: 'second' }, auth),
      postJson(api(`/applications/${id}/rejection`), { reason: 'Ineligible', comment: 'third' }, auth),
    ]);
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    const history = await db().applicationStatusChange.findMany({ where: { lenderApplicationId: id, toStatus: 'Rejected' } });
    expect(history).toHaveLength(1);
    const winner = answers.find((res) => res.status === 200)!;
    const application = await db().lenderApplication.findUniqueOrThrow({ where: { id } });
    expect(application).toMatchObject({ status: 'Rejected', comment: (await winner.json()).application.comment });
    // The offer's delivery and the rejection's, nothing for the refused ones.
    expect(await db().webhookDelivery.count({ where: { lenderApplicationId: id } })).toBe(2);
  });
});

describe('live events over graphql-ws', () => {
  it('a lender receives its own applications’ status changes made through the REST lender API, and only those', async () => {
    const { subscribe, settle } = await import('../../../test/support/graphql-client.js');
    const mine = await submitted(lender.lenderId);
    const theirs = await submitted(other.lenderId);
    const query = 'subscription { applicationStatusChanged { applicationId status lenderId } }';
    const mySub = await subscribe(app.url, query, {}, { authorization: `Bearer ${await lenderIdToken(app, lender)}` });
    const theirSub = await subscribe(app.url, query, {}, { authorization: `Bearer ${await lenderIdToken(app, other)}` });
    try {
      await settle();
      await postJson(api(`/applications/${mine}/acknowledgement`), { comment: 'Looking at it' }, await as(lender));
      await postJson(api(`/applications/${theirs}/rejection`), { reason: 'Ineligible' }, await as(other));
      expect(await mySub.next()).toEqual({ data: { applicationStatusChanged: { applicationId: mine, status: 'In Review', lenderId: lender.lenderId } } });
      expect(await theirSub.next()).toEqual({ data: { applicationStatusChanged: { applicationId: theirs, status: 'Rejected', lenderId: other.lenderId } } });
    } finally {
      await mySub.close();
      await theirSub.close();
    }
  });
});

describe("the client's decision", () => {
  it('accepts the current offer (Client Accepted, acceptedAt, update queued); a second decision is 409; another account 404', async () => {
    const { marketplaceV1Token, signUpIntegrator } = await import('../../../test/support/identities.js');
    const owner = await signUpIntegrator(app);
    const v1 = bearer((await marketplaceV1Token(app, owner.apiKey)).jwt);
    const { uuid } = await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, v1)).json();
    const row = await db().lenderApplication.create({
      data: { lenderId: lender.lenderId, profileId: uuid, status: 'In Review', payload: storedApplicationDocument({ lenderId: lender.lenderId }) },
    });
    await postJson(api(`/applications/${row.id}/offer`), TERM_LOAN_OFFER(`D-${row.id}`), await as(lender));

    const stranger = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
    expect((await postJson(`${app.url}/api/marketplace/v1/lender-applications/${row.id}/accept`, undefined, stranger)).status).toBe(404);

    const accepted = await postJson(`${app.url}/api/marketplace/v1/lender-applications/${row.id}/accept`, undefined, v1);
    expect(accepted.status).toBe(200);
    const doc = await accepted.json();
    expect(doc.application).toMatchObject({ status: 'Client Accepted', acceptedAt: expect.any(Number), offer: { decision: 'ACCEPTED' } });
    const updates = await db().webhookDelivery.findMany({ where: { lenderApplicationId: row.id }, orderBy: { createdAt: 'asc' } });
    expect(updates.at(-1)).toMatchObject({ event: 'APPLICATION_UPDATED', payload: { application: { status: 'Client Accepted' } } });

    const again = await postJson(`${app.url}/api/marketplace/v1/lender-applications/${row.id}/decline`, undefined, v1);
    expect(again.status).toBe(409);
    expect((await again.json()).detail).toBe('The application is Client Accepted: only an application with a current offer can be declined, once');
  });
});

describe('offerStatusChanged', () => {
  it('the integrator behind the application sees the offer made through the REST lender API, then its acceptance', async () => {
    const { subscribe, settle } = await import('../../../test/support/graphql-client.js');
    const { marketplaceV1Token, signUpIntegrator } = await import('../../../test/support/identities.js');
    const owner = await signUpIntegrator(app);
    const jwt = (await marketplaceV1Token(app, owner.apiKey)).jwt;
    const { uuid } = await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, bearer(jwt))).json();
    const row = await db().lenderApplication.create({
      data: { lenderId: lender.lenderId, profileId: uuid, status: 'In Review', payload: storedApplicationDocument({ lenderId: lender.lenderId }) },
    });
    const sub = await subscribe(
      app.url,
      'subscription($a: Int) { offerStatusChanged(applicationId: $a) { applicationId reference status decision } }',
      { a: row.id },
      { authorization: `Bearer ${jwt}` },
    );
    try {
      await settle();
      await postJson(api(`/applications/${row.id}/offer`), TERM_LOAN_OFFER(`E-${row.id}`), await as(lender));
      expect(await sub.next()).toEqual({
        data: { offerStatusChanged: { applicationId: row.id, reference: `E-${row.id}`, status: 'INDICATIVE', decision: null } },
      });
      await postJson(`${app.url}/api/marketplace/v1/lender-applications/${row.id}/accept`, undefined, bearer(jwt));
      expect(await sub.next()).toEqual({
        data: { offerStatusChanged: { applicationId: row.id, reference: `E-${row.id}`, status: 'INDICATIVE', decision: 'ACCEPTED' } },
      });
    } finally {
      await sub.close();
    }
  });
});
