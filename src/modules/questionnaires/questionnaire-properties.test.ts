/**
 * Property: for every questionnaire, PUT answers accepts exactly the bodies its served JSON Schema
 * accepts. Bodies are generated from the schema (fast-check) and mutated (a key dropped, a wrong
 * type, an extra key); a standalone ajv with the served schema is the oracle.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { questionnaireDefinitions } from './questionnaire-definitions.js';
import { bearer, marketplaceV1Token, signUpIntegrator } from '../../../test/support/identities.js';
import { answersAndMutations } from '../../../test/support/schema-arbitrary.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let auth: Record<string, string>;
let profileId: string;
beforeAll(async () => {
  app = await startTestApp();
  auth = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
  profileId = (await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, auth)).json()).uuid;
});
afterAll(() => app?.close());

describe.each([...questionnaireDefinitions().keys()])('%s', (id) => {
  it('accepts exactly the schema-valid answer bodies', async () => {
    const schema = await (await fetch(`${app.url}/api/marketplace/v1/questionnaires/${id}/json-schema`, { headers: auth })).json();
    const oracle = new Ajv2020({ strict: false, allErrors: false });
    (addFormats as unknown as (a: Ajv2020) => void)(oracle);
    const valid = oracle.compile(schema);
    await fc.assert(
      fc.asyncProperty(answersAndMutations(schema), async (body) => {
        const res = await fetch(`${app.url}/api/marketplace/v1/questionnaires/${id}/profiles/${profileId}/answers`, {
          method: 'PUT',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const expected = valid(body) ? 204 : 400;
        if (res.status !== expected) throw new Error(`status ${res.status}, expected ${expected}: ${await res.text()}`);
      }),
      { numRuns: 40 },
    );
  });
});
