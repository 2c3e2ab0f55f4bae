/**
 * Fuzzing (fast-check) every documented REST body and every GraphQL mutation's input with
 * arbitrary JSON, sent with a credential the route accepts so the input reaches validation:
 * never a 5xx, and a refused request writes nothing (the row count of every table is unchanged).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/api/rest/route-table.js';
import { graphql } from './support/graphql-client.js';
import {
  bearer,
  createTenant,
  lenderCredentials,
  lenderIdToken,
  marketplaceV1Token,
  masterToken,
  platformToken,
  signUpIntegrator,
} from './support/identities.js';
import { introspectRootFields, rootOperation } from './support/probe-client.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let tokens: Record<string, Array<Record<string, string>>>;
let profileUuid: string;

beforeAll(async () => {
  app = await startTestApp();
  const integrator = await signUpIntegrator(app);
  const tenant = await createTenant(app, integrator.platformToken);
  const v1 = bearer((await marketplaceV1Token(app, integrator.apiKey)).jwt);
  // Platform paths take API-key tokens and (account management) the user's login token.
  tokens = {
    public: [{}],
    platform: [bearer(integrator.platformToken), bearer(integrator.loginToken)],
    marketplaceV1: [v1],
    marketplaceV2: [bearer((await masterToken(app, integrator.apiKey)).access_token)],
    businessV1: [bearer((await platformToken(app, integrator.apiKey, tenant.id)).access_token)],
    lenderApi: [bearer(await lenderIdToken(app, await lenderCredentials(app)))],
  };
  profileUuid = (await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, v1)).json()).uuid;
}, 60_000);
afterAll(() => app?.close());

/** Rows in every application table: a refused request must leave it unchanged. */
/**
 * The request log is written by the HTTP layer after every answer, a refused one included (its
 * problem body is what the log is for), on a timer of its own: not a write of the operation refused.
 */
async function rowCounts(): Promise<string> {
  const tables = await app.runtime.database.prisma.$queryRawUnsafe<Array<{ relname: string }>>(
    "SELECT c.relname::text AS relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname NOT LIKE '\\_prisma%' AND c.relname <> 'request_log_entry'",
  );
  const counts = await app.runtime.database.prisma.$queryRawUnsafe<Array<Record<string, bigint>>>(
    `SELECT ${tables.map((t) => `(SELECT count(*) FROM "${t.relname}") AS "${t.relname}"`).join(', ')}`,
  );
  return JSON.stringify(counts[0], (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

const bodyRoutes = ROUTES.filter((r) => ['post', 'put', 'patch'].includes(r.method) && r.upload !== 'file');
const arbitraryBody = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 }));

describe('REST bodies', () => {
  it.each(bodyRoutes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))('%s: no 5xx, nothing written when refused', async (_name, route) => {
    const path = route.path.replace(':uuid', profileUuid).replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
    await fc.assert(
      fc.asyncProperty(arbitraryBody, fc.constantFrom(...tokens[route.surface]!), async (body, credential) => {
        const before = await rowCounts();
        const res = await fetch(`${app.url}${path}`, {
          method: route.method.toUpperCase(),
          headers: { 'content-type': 'application/json', ...credential },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(await rowCounts()).toBe(before);
      }),
      { numRuns: 8 },
    );
  });
});

describe('GraphQL inputs', () => {
  it('every mutation, with arbitrary variables for its arguments: no internal error, nothing written when refused', async () => {
    const v1 = tokens.marketplaceV1![0]!;
    const fields = await introspectRootFields(app.url, v1);
    for (const [name, field] of fields.mutation) {
      const argNames = [...field.args.keys()];
      await fc.assert(
        fc.asyncProperty(fc.record(Object.fromEntries(argNames.map((a) => [a, fc.jsonValue({ maxDepth: 2 })]))), async (variables) => {
          const before = await rowCounts();
          const res = await graphql(app.url, rootOperation(fields, 'mutation', name, variables), variables, v1);
          const codes = (res.errors ?? []).map((e) => (e.extensions as { code?: string } | undefined)?.code);
          expect(codes).not.toContain('INTERNAL_SERVER_ERROR');
          if (res.errors?.length) expect(await rowCounts()).toBe(before);
        }),
        { numRuns: 4 },
      );
    }
  }, 120_000);

  it("a variable whose value breaks a scalar parser (an object with toString null) is the caller's input error, not an internal one", async () => {
    const v1 = tokens.marketplaceV1![0]!;
    const variables = { answers: [{ toString: null }], profileId: false, questionnaireId: '' };
    const before = await rowCounts();
    const res = await graphql(
      app.url,
      'mutation($answers: JSONObject!, $profileId: ID!, $questionnaireId: ID!) { putAnswers(answers: $answers, profileId: $profileId, questionnaireId: $questionnaireId) }',
      variables,
      v1,
    );
    const codes = (res.errors ?? []).map((e) => (e.extensions as { code?: string } | undefined)?.code);
    expect(codes.length).toBeGreaterThan(0);
    expect(codes).not.toContain('INTERNAL_SERVER_ERROR');
    expect(codes).toContain('BAD_USER_INPUT');
    expect(await rowCounts()).toBe(before);
  });
});
