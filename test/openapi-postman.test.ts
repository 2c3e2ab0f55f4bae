/**
 * The Postman collection an integrator gets from the document with openapi-to-postmanv2 (examples
 * as request values) runs against a started server with newman as it is: its `baseUrl` is the
 * deployment's URL (the document's `servers`), so no request fails to reach the server, and the
 * documented sign-in example (the demo deployment's published user) and the Marketplace V1
 * authorize example (its api_key from the collection's {{apiKey}}) succeed. Credentials reach the
 * collection only through the variables its requests use, as a newman environment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertV2 } from 'openapi-to-postmanv2';
import newman, { type NewmanRunSummary } from 'newman';
import { seedDemoIdentities } from '../prisma/seed/demo-identities.js';
import { signUpIntegrator } from './support/identities.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
  // A demo deployment's published sign-ins, which the sign-in example uses (as README's quick start does).
  await seedDemoIdentities(app.runtime.database.prisma);
});
afterAll(() => app?.close());

interface Collection {
  variable?: Array<{ key: string; value?: string }>;
  item: unknown[];
  auth?: unknown;
}

function convert(document: string): Promise<Collection> {
  return new Promise((resolve, reject) => {
    // convertV2: the converter Postman's importer and the package's CLI use.
    convertV2({ type: 'string', data: document }, { parametersResolution: 'Example', folderStrategy: 'Tags' }, (err, result) => {
      if (err) return reject(err);
      if (!result?.result || !result.output?.[0]) return reject(new Error(`conversion failed: ${result?.reason}`));
      resolve(result.output[0].data as Collection);
    });
  });
}

function runCollection(collection: Collection, environment: Record<string, string>): Promise<NewmanRunSummary> {
  return new Promise((resolve, reject) => {
    newman.run(
      {
        collection,
        environment: { values: Object.entries(environment).map(([key, value]) => ({ key, value, type: 'default', enabled: true })) },
        reporters: [],
        timeoutRequest: 60_000,
        ignoreRedirects: true,
      },
      (err, summary) => (err ? reject(err) : resolve(summary)),
    );
  });
}

describe('the Postman collection converted from /openapi.json', () => {
  it('runs with newman against the server with no edits: every request reaches it, and the sign-in and authorize examples succeed', async () => {
    const document = await (await fetch(`${app.url}/openapi.json`)).text();
    const collection = await convert(document);
    expect(collection.variable?.find((v) => v.key === 'baseUrl')?.value).toBe(app.url);

    // The credentials go in the variables the collection's requests use ({{bearerToken}} for bearer
    // tokens, {{apiKey}} for API keys), given as a newman environment: the collection is not edited.
    const me = await signUpIntegrator(app);
    const used = new Set([...JSON.stringify(collection).matchAll(/\{\{([A-Za-z_]+)\}\}/g)].map((m) => m[1]!));
    expect([...used].sort()).toEqual(['apiKey', 'baseUrl', 'bearerToken']);
    const environment = { bearerToken: me.platformToken, apiKey: me.apiKey };
    const summary = await runCollection(collection, environment);

    const executions = summary.run.executions;
    const documented = Object.values(JSON.parse(document).paths as Record<string, Record<string, unknown>>).flatMap((methods) => Object.keys(methods)).length;
    expect(executions.length).toBe(documented);
    const unreached = executions.filter((e) => e.requestError || !e.response).map((e) => `${e.item.name}: ${e.requestError?.message ?? 'no response'}`);
    expect(unreached).toEqual([]);
    const signIn = executions.find((e) => e.request.url.getPath() === '/api/platform/v1/auth/login');
    expect(signIn?.response?.code).toBe(200);
    expect(JSON.parse(signIn!.response!.stream!.toString('utf8'))).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
    const authorize = executions.find((e) => e.request.url.getPath() === '/api/marketplace/v1/auth/authorize');
    // The Marketplace V1 authorize example, its api_key given by the collection's {{apiKey}}.
    expect(authorize?.response?.code).toBe(200);
    expect(JSON.parse(authorize!.response!.stream!.toString('utf8'))).toMatchObject({ jwt: expect.any(String), refreshToken: expect.any(String) });
  });
});
