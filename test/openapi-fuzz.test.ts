/**
 * Schema-driven fuzzing of every operation of /openapi.json (issue 23): requests generated with
 * fast-check from the served document's own schemas (path and query parameters, declared headers,
 * the JSON or multipart body), conforming ones mixed with malformed ones and with the real ids of
 * this file's fixtures, each sent with a credential of the operation's surface. Every response
 * must be below 500 and fit the document (status, content type and body: openapi-contract.ts).
 * A property's failures are collected and reported together (operation, request, status, reason).
 * Operations that write are fuzzed too: the database is this file's own.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { buildOpenApiDocument, OPERATIONS_SERVED_ELSEWHERE } from '../src/api/rest/openapi-document.js';
import { BASES, servedRoutes, type RouteDefinition } from '../src/api/rest/route-table.js';
import { constraintError } from '../src/infra/prisma-errors.js';
import { URL_SCHEMA_TYPES } from '../src/modules/matching/funding-search-links.js';
import { ACME_ANSWERS, ACME_APPLICATION } from './support/answers.js';
import {
  bearer,
  createApiKey,
  createTenant,
  lenderCredentials,
  lenderIdToken,
  marketplaceV1Token,
  masterToken,
  platformToken,
  signUpIntegrator,
  type Integrator,
} from './support/identities.js';
import { lenderOffers, storedLenderApplication, termLoanOffer } from './support/lender-applications.js';
import { conforming, requestValue, type SchemaContext } from './support/openapi-arbitrary.js';
import { contractViolation } from './support/openapi-contract.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

type Schema = Record<string, any>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  operationId: string;
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  security: Array<Record<string, unknown>>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** Generated requests per operation: bounded for a loaded CI machine (OPENAPI_FUZZ_RUNS=200 for a deeper local run). */
const RUNS_PER_OPERATION = Number(process.env.OPENAPI_FUZZ_RUNS) || 20;
/** A new seed each run (each finds other inputs); a failure names it, and OPENAPI_FUZZ_SEED replays it. */
const SEED = Number(process.env.OPENAPI_FUZZ_SEED) || Math.floor(Math.random() * 2 ** 31);

// The operations are listed from the document the code generates; each test then uses the one served.
const OPERATIONS = Object.entries((buildOpenApiDocument() as unknown as OpenApiDocument).paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method, operationId: operation.operationId })),
);
const SURFACE = new Map<string, RouteDefinition['surface']>([
  ...servedRoutes().map(({ route, operationId }) => [operationId, route.surface] as const),
  ...OPERATIONS_SERVED_ELSEWHERE.map((served) => [served.operationId, 'public'] as const),
]);

let app: TestApp;
let document: OpenApiDocument;
let integrator: Integrator;
let credentials: Record<string, Array<Record<string, string>>>;
let known: Record<string, readonly unknown[]>;
let knownByPath: Array<[string, Record<string, readonly unknown[]>]>;
/** Bodies the business rules accept, by operationId, for operations whose schema alone rarely yields one. */
let goodBodies: Record<string, fc.Arbitrary<unknown>>;
let lender: LenderCredentials;
let lenderTokenIssuedAt = 0;
/** Statuses seen per operation, printed at the end: shows how far the generated requests got. */
const statuses = new Map<string, Map<number, number>>();

beforeAll(async () => {
  // Thousands of requests from one address and a handful of credentials: rate limits out of the way.
  app = await startTestApp({ config: { RATE_LIMIT_PER_ADDRESS: 1_000_000, RATE_LIMIT_PER_CREDENTIAL: 1_000_000 } });
  document = await (await fetch(`${app.url}/openapi.json`)).json();
  integrator = await signUpIntegrator(app);
  const tenant = await createTenant(app, integrator.platformToken);
  const v1 = bearer((await marketplaceV1Token(app, integrator.apiKey)).jwt);
  const tenantToken = bearer((await platformToken(app, integrator.apiKey, tenant.id)).access_token);
  lender = await lenderCredentials(app);
  const lenderToken = await lenderIdToken(app, lender);
  lenderTokenIssuedAt = Date.now();
  const platform = bearer(integrator.platformToken);
  const master = bearer((await masterToken(app, integrator.apiKey)).access_token);
  // Each surface with every kind of token it takes (access-policy.ts), the user's login token where it may.
  credentials = {
    platform: [platform, bearer(integrator.loginToken), master, tenantToken],
    marketplaceV1: [v1],
    marketplaceV2: [master, tenantToken, platform],
    businessV1: [tenantToken, master, platform],
    lenderApi: [bearer(lenderToken)],
  };

  // Real ids, so that requests reach validation and the business rules rather than 404.
  const profileUuid = (await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, v1)).json()).uuid as string;
  const tenantProfile = await postJson(`${app.url}/api/business/v1/profile`, { companyInformation: { registrationNumber: '09876543' } }, tenantToken);
  if (tenantProfile.status !== 201) throw new Error(`tenant profile: ${tenantProfile.status} ${await tenantProfile.text()}`);
  const application = await postJson(`${app.url}/api/business/v1/applications`, ACME_APPLICATION, tenantToken);
  if (application.status !== 201) throw new Error(`application: ${application.status} ${await application.text()}`);
  const applicationId = (await application.json()).id as string;
  const tenantProfileId = (await app.runtime.database.prisma.profile.findFirstOrThrow({ where: { tenantId: tenant.id } })).id;
  // Lender applications of both kinds of owner, one of each with an offer (so accept/decline/resubmit get past 409).
  const v1LenderApplications = [
    await storedLenderApplication(app, { lenderId: lender.lenderId, profileId: profileUuid }),
    await storedLenderApplication(app, { lenderId: lender.lenderId, profileId: profileUuid }),
  ];
  const tenantLenderApplications = [
    await storedLenderApplication(app, { lenderId: lender.lenderId, profileId: tenantProfileId }),
    await storedLenderApplication(app, { lenderId: lender.lenderId, profileId: tenantProfileId }),
  ];
  await lenderOffers(app, lenderToken, v1LenderApplications[1]!);
  await lenderOffers(app, lenderToken, tenantLenderApplications[1]!);
  const questionnaireIds = ((await (await fetch(`${app.url}/api/marketplace/v1/questionnaires`, { headers: v1 })).json()) as Array<{ id: string }>).map(
    (q) => q.id,
  );
  // A key and a user of their own, so that deleting or disabling them leaves the fixture's credentials working.
  const disposableKey = await createApiKey(app, integrator.loginToken, { name: 'fuzz-disposable', scopes: ['profile:read'] });
  const disposableUser = await postJson(
    `${app.url}/api/platform/v1/users`,
    { email: `fuzz-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` },
    bearer(integrator.loginToken),
  );
  if (disposableUser.status !== 201) throw new Error(`user: ${disposableUser.status} ${await disposableUser.text()}`);
  const continueUrl = await postJson(`${app.url}${BASES.businessV1}/applications/${applicationId}/continue-url`, {}, tenantToken);
  if (continueUrl.status !== 201) throw new Error(`continue URL: ${continueUrl.status} ${await continueUrl.text()}`);
  const lenderApplicationIds = [...v1LenderApplications, ...tenantLenderApplications].map(String);
  known = {
    uuid: [profileUuid],
    profileId: [profileUuid],
    tenantId: [tenant.id],
    'Service-tenant-id': [tenant.id],
    applicationId: [applicationId],
    questionnaireId: questionnaireIds,
    keyId: [disposableKey.id],
    userId: [(await disposableUser.json()).id],
    answerKey: Object.keys(ACME_ANSWERS),
    continueUrl: [(await continueUrl.json()).continueUrl],
    registrationNumber: ['09876543'],
    companyNumber: ['09876543'],
    searchTerm: ['ACME', '09876543'],
    type: URL_SCHEMA_TYPES,
    targetApiKey: [integrator.apiKey],
    lenderId: [lender.lenderId],
    email: [integrator.email],
    password: [integrator.password],
  };
  const answers = fc
    .subarray(Object.keys(ACME_ANSWERS), { minLength: 1 })
    .map((keys) => Object.fromEntries(keys.map((k) => [k, ACME_ANSWERS[k as keyof typeof ACME_ANSWERS]])));
  const offer = fc.uuid().map((id) => termLoanOffer(`OFFER-${id.slice(0, 8)}`));
  goodBodies = {
    AnswerController_put: fc.constant(ACME_ANSWERS),
    AnswerController_patch: answers,
    ApplicationController_create: fc.constant(ACME_APPLICATION),
    LenderApplicationController_offer: offer,
    LenderApplicationController_reject: fc.constantFrom({ reason: 'Failed', comment: 'the company number is missing' }, { reason: 'Declined' }),
    LenderApplicationController_acknowledge: fc.constant({ comment: 'Looking at it' }),
  };
  // Refresh tokens of their own (single use; a replay revokes only their own family).
  const platformRefresh = await Promise.all([1, 2, 3].map(async () => (await platformToken(app, integrator.apiKey)).refresh_token));
  const masterRefresh = await Promise.all([1, 2, 3].map(async () => (await masterToken(app, integrator.apiKey)).refresh_token));
  const v1Refresh = await Promise.all([1, 2, 3].map(async () => (await marketplaceV1Token(app, integrator.apiKey)).refreshToken));
  // Names that mean different ids on different paths.
  knownByPath = [
    [`${BASES.platform}/auth/refresh-token`, { refresh_token: platformRefresh, refreshToken: platformRefresh }],
    [`${BASES.marketplaceV2}/auth/refresh-token`, { refresh_token: masterRefresh, refreshToken: masterRefresh }],
    [`${BASES.marketplaceV1}/auth/refresh-token`, { refreshToken: v1Refresh }],
    [BASES.lenderApi, { id: lenderApplicationIds }],
    [`${BASES.marketplaceV1}/lender-applications`, { applicationId: v1LenderApplications.map(String) }],
    [`${BASES.businessV1}/lender-applications`, { applicationId: tenantLenderApplications.map(String) }],
    [`${BASES.marketplaceV1}/questionnaires`, { id: questionnaireIds }],
  ];
}, 120_000);
// A lender's token lives two minutes (TOKEN_TTL_SECONDS.lender): a fresh one before it runs out.
beforeEach(async () => {
  if (Date.now() - lenderTokenIssuedAt < 60_000) return;
  credentials.lenderApi = [bearer(await lenderIdToken(app, lender))];
  lenderTokenIssuedAt = Date.now();
});
afterAll(async () => {
  const lines = [...statuses].map(
    ([operation, counts]) =>
      `${operation}: ${[...counts]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ')}`,
  );
  console.log(`Statuses per operation:\n${lines.join('\n')}`);
  await app?.close();
});

interface GeneratedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | FormData;
  /** What the body was, for the report (FormData does not print). */
  bodySummary?: string;
}

/** A path segment: a real id, a well-formed one, or something that is not an id at all. */
function pathValue(parameter: Parameter, context: SchemaContext): fc.Arbitrary<string> {
  // An empty, "." or ".." segment is another path (the list beside the item, the parent), not a value of this one.
  const segment = (s: string) => s !== '' && s !== '.' && s !== '..';
  return fc
    .oneof(
      { arbitrary: conforming(parameter.schema, context, 0, parameter.name).map(String), weight: 6 },
      { arbitrary: fc.uuid(), weight: 1 },
      { arbitrary: fc.integer({ min: -1, max: 2 ** 40 }).map(String), weight: 1 },
      { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }), weight: 1 },
      { arbitrary: fc.integer({ min: 300, max: 2000 }).map((n) => 'x'.repeat(n)), weight: 1 },
    )
    .filter(segment);
}

const SAMPLE_FILES = [
  { type: 'application/pdf', name: 'statement.pdf', content: '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n' },
  { type: 'image/png', name: 'logo.png', content: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') },
  { type: 'text/csv', name: 'figures.csv', content: 'year,revenue\n2024,900000\n' },
  { type: 'text/csv', name: 'formula.csv', content: 'a,b\n=HYPERLINK("http://x"),1\n' },
  { type: 'application/pdf', name: 'not-a-pdf.pdf', content: '<html>hi</html>' },
  { type: 'text/html', name: '../../index.html', content: '<script>alert(1)</script>' },
];

/** multipart/form-data as the upload route documents it, or not quite: other field, odd names, random bytes. */
const multipartBody = fc
  .record({
    field: fc.constantFrom('file', 'file', 'file', 'attachment'),
    sample: fc.constantFrom(...SAMPLE_FILES),
    name: fc.option(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), { nil: undefined }),
    bytes: fc.option(fc.uint8Array({ maxLength: 4096 }), { nil: undefined }),
  })
  .map(({ field, sample, name, bytes }) => {
    const form = new FormData();
    form.append(field, new Blob([bytes ?? sample.content], { type: sample.type }), name ?? sample.name);
    return { form, summary: `multipart ${field}=${name ?? sample.name} (${sample.type}, ${bytes ? `${bytes.length} random bytes` : 'sample'})` };
  });

function credentialFor(operation: Operation): fc.Arbitrary<{ headers: Record<string, string>; query: Record<string, string> }> {
  const surface = SURFACE.get(operation.operationId);
  if (surface === undefined) throw new Error(`${operation.operationId} is not in the route table`);
  if (surface !== 'public') return fc.constantFrom(...credentials[surface]!).map((headers) => ({ headers, query: {} }));
  // Public operations authenticate with what their security requirement names: mostly the real key, sometimes a wrong one.
  const scheme = Object.keys(operation.security[0] ?? {})[0];
  const apiKey = fc.oneof(
    { arbitrary: fc.constant(integrator.apiKey), weight: 4 },
    { arbitrary: fc.string({ maxLength: 80 }).map((s) => `fgk_${s}`), weight: 1 },
  );
  if (scheme === 'apiKey') return apiKey.map((key) => ({ headers: { 'x-api-key': encodeURI(key) }, query: {} }));
  if (scheme === 'apiKeyQuery') return apiKey.map((key) => ({ headers: {}, query: { api_key: key } }));
  return fc.constant({ headers: {}, query: {} });
}

function requestsFor(path: string, method: string, operation: Operation): fc.Arbitrary<GeneratedRequest> {
  const overrides = knownByPath.filter(([prefix]) => path.startsWith(prefix)).map(([, values]) => values);
  const context: SchemaContext = { components: document.components.schemas, known: Object.assign({}, known, ...overrides) };
  const parameters = operation.parameters ?? [];
  const valueOf = (parameter: Parameter) =>
    parameter.in === 'path'
      ? pathValue(parameter, context)
      : fc.oneof(
          { arbitrary: conforming(parameter.schema, context, 0, parameter.name), weight: 3 },
          { arbitrary: requestValue(parameter.schema, context), weight: 1 },
        );
  const present = (parameter: Parameter) =>
    parameter.in === 'path' ? valueOf(parameter) : fc.option(valueOf(parameter), { nil: undefined, freq: parameter.required ? 10 : 3 });
  const values = fc.tuple(...parameters.map(present));
  const content = operation.requestBody?.content ?? {};
  const body: fc.Arbitrary<{ body?: string | FormData; summary?: string; contentType?: string }> = content['multipart/form-data']
    ? fc.oneof(
        { arbitrary: multipartBody.map(({ form, summary }) => ({ body: form, summary })), weight: 4 },
        {
          arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => ({ body: JSON.stringify(v), summary: JSON.stringify(v), contentType: 'application/json' })),
          weight: 1,
        },
      )
    : content['application/json']
      ? fc.oneof(
          {
            arbitrary: requestValue(content['application/json'].schema, context, goodBodies[operation.operationId]).map((v) => ({
              body: JSON.stringify(v) ?? '',
              contentType: 'application/json',
            })),
            weight: 9,
          },
          { arbitrary: fc.constantFrom('{', '', 'null', '[]', 'not json').map((raw) => ({ body: raw, contentType: 'application/json' })), weight: 1 },
        )
      : fc.constant({});

  return fc.tuple(values, body, credentialFor(operation)).map(([parameterValues, { body, summary, contentType }, credential]) => {
    let url = path;
    const query = new URLSearchParams(credential.query);
    const headers: Record<string, string> = { ...credential.headers, ...(contentType ? { 'content-type': contentType } : {}) };
    parameters.forEach((parameter, i) => {
      const value = parameterValues[i];
      if (value === undefined) return;
      if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
      else if (parameter.in === 'query')
        for (const v of Array.isArray(value) ? value : [value]) query.append(parameter.name, typeof v === 'object' ? JSON.stringify(v) : String(v));
      // Header values are bytes on the wire: non-Latin-1 text is sent as its URI encoding.
      else if (parameter.in === 'header') headers[parameter.name] = encodeURI(typeof value === 'object' ? JSON.stringify(value) : String(value)).slice(0, 4000);
    });
    const search = query.toString();
    return { url: `${app.url}${url}${search ? `?${search}` : ''}`, method: method.toUpperCase(), headers, body, bodySummary: summary };
  });
}

interface Failure {
  operation: string;
  request: string;
  status: number | string;
  message: string;
}

function describeRequest(request: GeneratedRequest): string {
  const { authorization: _a, 'x-api-key': _k, ...headers } = request.headers;
  const body = request.bodySummary ?? (typeof request.body === 'string' ? request.body : undefined);
  return `${request.method} ${request.url.replace(app.url, '').slice(0, 300)} headers=${JSON.stringify(headers)}${body === undefined ? '' : ` body=${body.slice(0, 400)}${body.length > 400 ? `… (${body.length} chars)` : ''}`}`;
}

describe('every operation of /openapi.json, fuzzed from its own schemas', () => {
  it.each(OPERATIONS.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s: never a 5xx, every response as documented',
    async (name, { path, method }) => {
      const operation = document.paths[path]?.[method];
      expect(operation, `${name} is in the served document`).toBeDefined();
      const failures: Failure[] = [];
      await fc.assert(
        fc.asyncProperty(requestsFor(path, method, operation!), async (request) => {
          let res: Response;
          try {
            res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, redirect: 'manual' });
          } catch (error) {
            failures.push({ operation: name, request: describeRequest(request), status: 'no response', message: String((error as Error).cause ?? error) });
            return;
          }
          const text = await res.text();
          const seen = statuses.get(name) ?? statuses.set(name, new Map()).get(name)!;
          seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
          const violation = contractViolation(request.method, request.url, res.status, res.headers.get('content-type'), text);
          if (res.status >= 500 || violation) {
            failures.push({ operation: name, request: describeRequest(request), status: res.status, message: violation?.message ?? text.slice(0, 400) });
          }
        }),
        { numRuns: RUNS_PER_OPERATION, seed: SEED, endOnFailure: true },
      );
      expect(failures, `OPENAPI_FUZZ_SEED=${SEED}${failures.map((f) => `\n${f.status} ${f.request}\n  → ${f.message}`).join('')}`).toEqual([]);
    },
    // Sign-in hashes each password: a deep local run (OPENAPI_FUZZ_RUNS) gets the time it needs.
    Math.max(120_000, RUNS_PER_OPERATION * 2_000),
  );
});

describe('what the fuzzer found, pinned', () => {
  const problem = async (res: Response) => ({ status: res.status, body: await res.json() });

  it('U+0000 in a query parameter, a path segment or a JSON string is a 400 naming it, not a database failure (500)', async () => {
    const lender = credentials.lenderApi![0]!;
    const listed = await problem(await fetch(`${app.url}${BASES.lenderApi}/applications?reference=%00`, { headers: lender }));
    expect(listed).toMatchObject({ status: 400, body: { errors: [{ pointer: 'query:reference' }] } });

    const v1 = credentials.marketplaceV1![0]!;
    const profile = await problem(await fetch(`${app.url}${BASES.marketplaceV1}/profiles/a%00b`, { headers: v1 }));
    expect(profile).toMatchObject({ status: 400, body: { errors: [{ pointer: 'path:uuid' }] } });

    const created = await problem(await postJson(`${app.url}${BASES.marketplaceV2}/tenants`, { referenceId: 'ref\u0000' }, credentials.marketplaceV2![0]!));
    expect(created).toMatchObject({ status: 400, body: { errors: [{ pointer: '/referenceId' }] } });
  });

  it('a database refusal of such text (SQLSTATE 22021, reported unwrapped by the driver adapter) maps to a 400', async () => {
    const failure = await app.runtime.database.prisma.lenderApplication.findMany({ where: { reference: 'a\u0000b' } }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(constraintError(failure)).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('a 302 of url-schemas carries no body, as the document declares', async () => {
    const v1 = credentials.marketplaceV1![0]!;
    const [profileUuid] = known.uuid as string[];
    const res = await fetch(`${app.url}${BASES.marketplaceV1}/profiles/${profileUuid}/url-schemas/funding-search?redirect=true`, {
      headers: v1,
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^http/);
    expect(await res.text()).toBe('');
  });
});
