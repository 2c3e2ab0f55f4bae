/**
 * Typed GraphQL: in the composed schema the gateway serves, the only JSON-typed fields and
 * arguments are the documented free-form ones, and each one's description says so and why.
 */
import { buildClientSchema, getIntrospectionQuery, getNamedType, isInputObjectType, isInterfaceType, isObjectType, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './support/graphql-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Answers and JSON Schemas vary by questionnaire; question conditions are recursive. (eligibilityRequest is typed: spec 2.2 gives its shape.) */
const FREE_FORM = [
  'Mutation.createApplication(input)',
  'Mutation.deleteAnswers',
  'Mutation.patchAnswers',
  'Mutation.patchAnswers(answers)',
  'Mutation.putAnswers',
  'Mutation.putAnswers(answers)',
  'Query.answers',
  'Query.questionnaireJsonSchema',
  'Question.askedWhen',
  'Question.default',
  'Question.options',
  'Question.requiredWhen',
];
const JSON_SCALARS = new Set(['JSON', 'JSONObject']);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe('JSON in the composed GraphQL schema', () => {
  it('is left only on the documented free-form fields and arguments, each described as free-form', async () => {
    const res = await graphql<IntrospectionQuery>(app.url, getIntrospectionQuery({ descriptions: true }));
    expect(res.errors).toBeUndefined();
    const schema = buildClientSchema(res.data!);
    const found = new Map<string, string | null | undefined>();
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (JSON_SCALARS.has(getNamedType(field.type).name)) found.set(`${type.name}.${field.name}`, field.description);
          for (const arg of field.args) {
            if (JSON_SCALARS.has(getNamedType(arg.type).name)) found.set(`${type.name}.${field.name}(${arg.name})`, arg.description);
          }
        }
      }
      if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (JSON_SCALARS.has(getNamedType(field.type).name)) found.set(`${type.name}.${field.name}`, field.description);
        }
      }
    }
    expect([...found.keys()].sort()).toEqual(FREE_FORM);
    for (const [name, description] of found) expect(description, name).toMatch(/Free-form JSON: .{20,}/);
  });

  it('types the payloads that used to be JSON', async () => {
    const res = await graphql<IntrospectionQuery>(app.url, getIntrospectionQuery());
    const schema = buildClientSchema(res.data!);
    const mutations = schema.getMutationType()!.getFields();
    const returned = (name: string) => getNamedType(mutations[name]!.type).name;
    expect(
      Object.fromEntries(
        ['acceptOffer', 'declineOffer', 'resubmitApplication', 'submitApplicationToLender', 'setUpTenantProfile', 'updateTenantProfile'].map((n) => [
          n,
          returned(n),
        ]),
      ),
    ).toEqual({
      // The integrator's view of the application document: no apiProvider (the lender's secret).
      acceptOffer: 'IntegratorFundingApplication',
      declineOffer: 'IntegratorFundingApplication',
      resubmitApplication: 'IntegratorFundingApplication',
      submitApplicationToLender: 'ApplicationSubmission',
      setUpTenantProfile: 'BusinessProfile',
      updateTenantProfile: 'BusinessProfile',
    });
  });
});
