/**
 * The questionnaires (spec 2.3, 2.4, 4.1): for each of the eleven, its definition and JSON Schema
 * are served, a complete answer set is accepted and lands in the profile, each kind of invalid
 * answer is refused naming the field with nothing stored, and the per-profile schema is pre-filled.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questionnaireDefinitions, type Question } from './questionnaire-definitions.js';
import { completeAnswers, validValue, wrongTypeValue } from '../../../test/support/answers.js';
import { bearer, marketplaceV1Token, signUpIntegrator } from '../../../test/support/identities.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';

const SPEC_IDS = [
  'business-all-funding-products',
  'business-anonymous-working-capital',
  'business-working-capital',
  'introducer-grants',
  'introducer-rd-tax-claim',
  'introducer-recovery-loan-scheme',
  'introducer-working-capital',
  'introducer-commercial-property',
  'introducer-credit-improvement',
  'introducer-debt-recovery',
  'introducer-all-funding-products',
];
const definitions = [...questionnaireDefinitions().values()];

let app: TestApp;
let auth: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  auth = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
});
afterAll(() => app?.close());

const v1 = (path: string) => `${app.url}/api/marketplace/v1${path}`;
const send = (method: string, path: string, body?: unknown, headers = auth) =>
  fetch(v1(path), { method, headers: { ...headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const newProfile = async () => (await (await postJson(v1('/profiles/blank'), undefined, auth)).json()).uuid as string;
const profileRow = (uuid: string) => app.runtime.database.prisma.profile.findUniqueOrThrow({ where: { id: uuid } });
const answerSets = (uuid: string) => app.runtime.database.prisma.questionnaireAnswerSet.findMany({ where: { profileId: uuid } });

function valueAt(doc: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
}
const pathsOf = (q: Question) => (q.profilePath === undefined ? [] : Array.isArray(q.profilePath) ? q.profilePath : [q.profilePath]);

describe('the questionnaire catalogue', () => {
  it('has exactly the eleven questionnaires of spec 2.4', async () => {
    const res = await send('GET', '/questionnaires');
    expect(res.status).toBe(200);
    const list = (await res.json()) as Array<{ id: string; title: string; questions: Record<string, unknown> }>;
    expect(list.map((q) => q.id).sort()).toEqual([...SPEC_IDS].sort());
    for (const q of list) expect(Object.keys(q.questions).length).toBeGreaterThan(0);
  });

  it('serves one questionnaire with its questions; an unknown id is 404', async () => {
    const res = await send('GET', '/questionnaires/introducer-all-funding-products');
    const body = await res.json();
    expect(body.questions.clientNumber).toMatchObject({ type: 'phone', required: true, label: expect.any(String), help: expect.any(String) });
    expect(body.questions.companyNumber).toMatchObject({
      required: false,
      requiredWhen: { field: 'companyType', in: ['LIMITED_COMPANY', 'LIMITED_LIABILITY_PARTNERSHIP'] },
    });
    expect((await send('GET', '/questionnaires/nope')).status).toBe(404);
  });
});

/** The live platform's full Marketplace V1 working-capital answer body: no contact fields at all. */
const WORKING_CAPITAL_ANSWERS = {
  companyType: 'LIMITED_COMPANY',
  companyName: 'ACME WIDGETS LIMITED',
  companyNumber: '09876543',
  useOfFunds: 'CASH_FLOW',
  fundingAmount: { code: 'GBP', value: 50000 },
  fundingPeriod: 12,
  sector: 'MANUFACTURING',
  incorporationDate: '2015-10-19',
  revenue: { code: 'GBP', value: 900000 },
  businessPurposes: true,
  fundingUrgency: 'ONE_MONTH',
  personalGuarantee: true,
  homeOwnership: true,
  businessOwnsAssets: false,
  tradingAddress: '4 Parkway Drive, Sheffield, S9 3BL',
  netProfit: { code: 'GBP', value: 120000 },
  tradeDebtors: { code: 'GBP', value: 30000 },
  bankInterest: { code: 'GBP', value: 2000 },
  depreciation: { code: 'GBP', value: 5000 },
  amortisation: { code: 'GBP', value: 1000 },
};

describe.each(['business-working-capital', 'business-anonymous-working-capital'])('%s answers', (id) => {
  it('accept the documented full body (204) and read it back', async () => {
    const uuid = await newProfile();
    expect((await send('PUT', `/questionnaires/${id}/profiles/${uuid}/answers`, WORKING_CAPITAL_ANSWERS)).status).toBe(204);
    expect(await (await send('GET', `/questionnaires/${id}/profiles/${uuid}/answers`)).json()).toEqual(WORKING_CAPITAL_ANSWERS);
  });

  it('have no contact fields: contactName is 400 naming it, storing nothing', async () => {
    const uuid = await newProfile();
    const res = await send('PUT', `/questionnaires/${id}/profiles/${uuid}/answers`, { ...WORKING_CAPITAL_ANSWERS, contactName: 'Ada Owner' });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([{ pointer: '/contactName', message: 'is not an allowed property' }]);
    expect(await answerSets(uuid)).toEqual([]);
  });
});

describe.each(definitions.map((d) => [d.id, d] as const))('%s', (id, definition) => {
  it('serves a draft 2020-12 JSON Schema that compiles and accepts a complete answer set', async () => {
    const schema = await (await send('GET', `/questionnaires/${id}/json-schema`)).json();
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false });
    expect([...schema.required].sort()).toEqual(
      definition.questions
        .filter((q) => q.required)
        .map((q) => q.key)
        .sort(),
    );
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    expect(ajv.validate(schema, completeAnswers(definition))).toBe(true);
  });

  it('PUT accepts a complete answer set (204), GET returns it, and it lands in the profile', async () => {
    const uuid = await newProfile();
    const answers = completeAnswers(definition);
    expect((await send('PUT', `/questionnaires/${id}/profiles/${uuid}/answers`, answers)).status).toBe(204);
    expect(await (await send('GET', `/questionnaires/${id}/profiles/${uuid}/answers`)).json()).toEqual(answers);
    const row = await profileRow(uuid);
    const documents = { companyInformation: row.companyInformation, financials: row.financials, eligibilityRequest: row.eligibilityRequest };
    expect((row.eligibilityRequest as { sourceQuestionnaireId?: string }).sourceQuestionnaireId).toBe(id);
    for (const q of definition.questions) {
      for (const path of pathsOf(q)) {
        const expected = q.transform === 'date-time' ? `${answers[q.key] as string}T00:00:00.000Z` : answers[q.key];
        expect(valueAt(documents, path), `${q.key} → ${path}`).toEqual(expected);
      }
    }
  });

  it('refuses each kind of invalid answer naming the field, storing nothing', async () => {
    const uuid = await newProfile();
    const complete = completeAnswers(definition);
    const required = definition.questions.filter((q) => q.required);
    const enumQuestion = definition.questions.find((q) => q.type === 'enum');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...complete, notAQuestion: true }, '/notAQuestion'],
      ...required.map((q) => [Object.fromEntries(Object.entries(complete).filter(([k]) => k !== q.key)), `/${q.key}`] as [Record<string, unknown>, string]),
      ...definition.questions.map((q) => [{ ...complete, [q.key]: wrongTypeValue(q) }, `/${q.key}`] as [Record<string, unknown>, string]),
      ...(enumQuestion ? [[{ ...complete, [enumQuestion.key]: 'NOT_AN_OPTION' }, `/${enumQuestion.key}`] as [Record<string, unknown>, string]] : []),
    ];
    for (const [body, pointer] of cases) {
      const res = await send('PUT', `/questionnaires/${id}/profiles/${uuid}/answers`, body);
      expect(res.status, pointer).toBe(400);
      expect(
        (await res.json()).errors.map((e: { pointer: string }) => e.pointer),
        pointer,
      ).toContain(pointer);
    }
    expect(await answerSets(uuid)).toEqual([]);
  });

  it('serves the per-profile schema with the profile’s values as defaults', async () => {
    const uuid = await newProfile();
    await send('PUT', `/questionnaires/${id}/profiles/${uuid}/answers`, completeAnswers(definition));
    const schema = await (await send('GET', `/questionnaires/${id}/profiles/${uuid}/json-schema`)).json();
    for (const q of definition.questions) expect(schema.properties[q.key].default, q.key).toEqual(validValue(q));
  });
});

describe('conditions, partial answers and deletion', () => {
  const id = 'introducer-all-funding-products';
  const definition = questionnaireDefinitions().get(id)!;
  const base = (): Record<string, unknown> => {
    const answers = completeAnswers(definition);
    for (const key of ['companyNumber', 'averageCardSales', 'assetType', 'assetExistingAgreement', 'businessPurposes']) delete answers[key];
    return { ...answers, companyType: 'STARTUP', cardPayments: false, fundingAsset: false };
  };

  it('requires companyNumber for limited companies and LLPs, averageCardSales with card payments, assetType with asset funding', async () => {
    const uuid = await newProfile();
    expect((await send('PUT', `/questionnaires/${id}/profiles/${uuid}/answers`, base())).status).toBe(204);
    for (const [change, pointer] of [
      [{ companyType: 'LIMITED_COMPANY' }, '/companyNumber'],
      [{ companyType: 'LIMITED_LIABILITY_PARTNERSHIP' }, '/companyNumber'],
      [{ cardPayments: true }, '/averageCardSales'],
      [{ fundingAsset: true }, '/assetType'],
    ] as const) {
      const res = await send('PUT', `/questionnaires/${id}/profiles/${uuid}/answers`, { ...base(), ...change });
      expect(res.status).toBe(400);
      expect((await res.json()).errors).toContainEqual({ pointer, message: 'is required' });
    }
  });

  it.each([
    [{ clientNumber: '0123' }, '/clientNumber'],
    [{ fundingPeriod: 18 }, '/fundingPeriod'],
    [{ averageCardSales: 5000, cardPayments: true }, '/averageCardSales'],
    [{ sector: 'NONE' }, '/sector'],
    [{ clientEmail: 'not-an-email' }, '/clientEmail'],
    [{ incorporationDate: '2019-13-45' }, '/incorporationDate'],
    [{ companyName: '' }, '/companyName'],
    [{ fundingAmount: { code: 'GBP' } }, '/fundingAmount/value'],
  ])('refuses %j at %s', async (change, pointer) => {
    const uuid = await newProfile();
    const res = await send('PUT', `/questionnaires/${id}/profiles/${uuid}/answers`, { ...base(), ...change });
    expect(res.status).toBe(400);
    expect((await res.json()).errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('PATCH merges answers; DELETE removes them and what they put in the profile', async () => {
    const uuid = await newProfile();
    await send('PUT', `/questionnaires/${id}/profiles/${uuid}/answers`, base());
    expect(
      (await send('PATCH', `/questionnaires/${id}/profiles/${uuid}/answers`, { fundingUrgency: 'ASAP', revenue: { code: 'GBP', value: 123 } })).status,
    ).toBe(204);
    const stored = await (await send('GET', `/questionnaires/${id}/profiles/${uuid}/answers`)).json();
    expect(stored).toMatchObject({ fundingUrgency: 'ASAP', revenue: { code: 'GBP', value: 123 }, companyName: base().companyName });
    expect((await profileRow(uuid)).financials).toMatchObject({ revenue: { code: 'GBP', value: 123 } });

    const patchConditional = await send('PATCH', `/questionnaires/${id}/profiles/${uuid}/answers`, { cardPayments: true });
    expect(patchConditional.status).toBe(400);
    expect((await send('PATCH', `/questionnaires/${id}/profiles/${uuid}/answers`, {})).status).toBe(400);

    const del = await fetch(v1(`/questionnaires/${id}/profiles/${uuid}/answers?answerKey=fundingUrgency&answerKey=revenue`), {
      method: 'DELETE',
      headers: auth,
    });
    expect(del.status).toBe(204);
    const after = await (await send('GET', `/questionnaires/${id}/profiles/${uuid}/answers`)).json();
    expect(after.fundingUrgency).toBeUndefined();
    expect(after.revenue).toBeUndefined();
    const row = await profileRow(uuid);
    expect((row.financials as Record<string, unknown>).revenue).toBeUndefined();
    expect(((row.eligibilityRequest as { shared?: Record<string, unknown> }).shared ?? {}).fundingUrgency).toBeUndefined();
    const unknownKey = await fetch(v1(`/questionnaires/${id}/profiles/${uuid}/answers?answerKey=nope`), { method: 'DELETE', headers: auth });
    expect(unknownKey.status).toBe(400);
  });

  it('answers of another account’s profile are 404; an unknown profile 404', async () => {
    const uuid = await newProfile();
    const stranger = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
    expect((await send('PUT', `/questionnaires/${id}/profiles/${uuid}/answers`, base(), stranger)).status).toBe(404);
    expect((await send('GET', `/questionnaires/${id}/profiles/00000000-0000-4000-8000-000000000000/answers`)).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('lists questionnaires and writes answers through the same validation', async () => {
    const { graphql } = await import('../../../test/support/graphql-client.js');
    const list = await graphql(app.url, '{ questionnaires { id questions { key type required } } }', {}, auth);
    expect(list.data?.questionnaires).toHaveLength(11);
    const uuid = await newProfile();
    const definition = questionnaireDefinitions().get('introducer-grants')!;
    const put = await graphql(
      app.url,
      'mutation($p: ID!, $a: JSONObject!) { putAnswers(questionnaireId: "introducer-grants", profileId: $p, answers: $a) }',
      { p: uuid, a: completeAnswers(definition) },
      auth,
    );
    expect(put.data?.putAnswers).toEqual(completeAnswers(definition));
    const bad = await graphql(
      app.url,
      'mutation($p: ID!) { patchAnswers(questionnaireId: "introducer-grants", profileId: $p, answers: { uniqueIp: "yes" }) }',
      { p: uuid },
      auth,
    );
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', fields: [{ pointer: '/uniqueIp' }] });
    const schema = await graphql(app.url, 'query($p: ID!) { questionnaireJsonSchema(id: "introducer-grants", profileId: $p) }', { p: uuid }, auth);
    expect(schema.data?.questionnaireJsonSchema.properties.uniqueIp.default).toBe(true);
    const left = await graphql(
      app.url,
      'mutation($p: ID!) { deleteAnswers(questionnaireId: "introducer-grants", profileId: $p, answerKeys: ["uniqueIp"]) }',
      { p: uuid },
      auth,
    );
    expect(left.data?.deleteAnswers.uniqueIp).toBeUndefined();
  });
});
