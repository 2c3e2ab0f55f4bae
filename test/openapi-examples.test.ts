/**
 * The reference's examples, proven: every operation of the route table has an example (a request
 * where it takes a body or query, an answer where it answers JSON), and each example request is
 * sent, as the row declares it, to a started server with the least-privileged credential its access
 * table row allows (the first token kind the surface takes, holding exactly the first scope the row
 * names). It must succeed with the operation's success status, and both the live answer and the
 * recorded example answer (src/api/rest/openapi-examples.json) must fit the operation's schema.
 *
 * Path parameters name objects this test makes (a tenant, a profile, an application…), and a few
 * body values name such objects or carry secrets (the specification's <API_KEY> and <REFRESH_TOKEN>
 * placeholders): FIXTURES supplies those, and nothing else of the example is changed.
 *
 * `OPENAPI_RECORD_EXAMPLES=1` re-records the example answers from this run (ids and timestamps as
 * the server made them, secrets replaced by samples, long lists cut to two items): run it after changing a row's example or its
 * answer, then `npm run openapi:types`.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedExamples, RECORDED_EXAMPLES_FILE, type RecordedExample } from '../src/api/rest/openapi-document.js';
import { ROUTES, type RouteDefinition } from '../src/api/rest/route-table.js';
import { ACCESS_POLICY, SURFACE_TOKENS } from '../src/kernel/access-policy.js';
import type { TokenKind } from '../src/kernel/actor.js';
import { createAccountWithUser, type LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { seedDemoIdentities } from '../prisma/seed/demo-identities.js';
import { ACME_ANSWERS } from './support/answers.js';
import { CredentialFactory, UNRELATED_KEY_SCOPE, UNRELATED_LOGIN_SCOPE, type Credential } from './support/credentials.js';
import {
  bearer,
  createTenant,
  lenderCredentials,
  marketplaceV1Token,
  masterToken,
  platformToken,
  signUpIntegrator,
  type Integrator,
} from './support/identities.js';
import { lenderFails, lenderOffers, storedLenderApplication, submittableMatches } from './support/lender-applications.js';
import { contractViolation } from './support/openapi-contract.js';
import { restOutcome } from './support/probe-client.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';
import { expectJson as json, pdfForm, sendJson } from './support/rest-calls.js';

const RECORD = process.env.OPENAPI_RECORD_EXAMPLES === '1';
const V1 = '/api/marketplace/v1';
const B = '/api/business/v1';

let app: TestApp;
let factory: CredentialFactory;
let owner: Integrator;

interface World {
  ownerUserId: string;
  /** A tenant with its profile set up and a Business V1 application. */
  tenant: {
    id: string;
    profileId: string;
    applicationId: string;
    continueUrl: string;
    submit: { lenderId: number; products: string[] };
    revocableApplicationId: string;
  };
  /** A Marketplace V1 profile of the account answered with ACME's answers, with a document. */
  profile: string;
  lender: LenderCredentials;
  /** A lender application of `profile` with `profile`'s document. */
  lenderApplication: { id: number; documentId: string };
}
let world: World;

const db = () => app.runtime.database.prisma;

const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) => sendJson(app.url, method, path, headers, body);

const documentForm = () => pdfForm('acme-widgets-accounts-2025.pdf');

/** A Marketplace V1 profile of the account (made with a setup key) answered with ACME's answers, its matches recorded. */
async function answeredProfile(): Promise<{ uuid: string; selection: Array<{ lenderId: number; products: string[] }> }> {
  const auth = bearer((await marketplaceV1Token(app, owner.apiKey)).jwt);
  const { uuid } = await json(await postJson(`${app.url}${V1}/profiles/blank`, undefined, auth), 200);
  await json(await send('PUT', `${V1}/questionnaires/introducer-all-funding-products/profiles/${uuid}/answers`, auth, ACME_ANSWERS), 204);
  const search = await json(await send('GET', `${V1}/profiles/${uuid}/funding/matches/results`, auth), 200);
  const selection = (await submittableMatches(app, search.matches)).slice(0, 2);
  if (selection.length === 0) throw new Error('no matched lender a submission can go to');
  return { uuid, selection };
}

beforeAll(async () => {
  app = await startTestApp();
  // A demo deployment's published sign-ins, which the sign-in example uses (as README's quick start does).
  await seedDemoIdentities(db());
  owner = await signUpIntegrator(app, `examples-${randomUUID().slice(0, 6)}`);
  const ownerUserId = (await db().platformUser.findFirstOrThrow({ where: { accountId: owner.accountId } })).id;
  const staffEmail = `specialist-${randomUUID().slice(0, 6)}@example.test`;
  const staffUser = await createAccountWithUser(db(), {
    environment: 'demo',
    accountName: 'funding specialists',
    email: staffEmail,
    password: 'staff-password-123',
    role: 'STAFF',
  });
  factory = new CredentialFactory(app, owner.loginToken, { accountId: owner.accountId, userId: ownerUserId }, staffUser);

  const tenant = await createTenant(app, owner.platformToken, 'CRM-000001');
  const tenantAuth = { ...bearer(owner.platformToken), 'service-tenant-id': tenant.id };
  const tenantProfile = await json(await send('POST', `${B}/profile`, tenantAuth, { companyInformation: { registrationNumber: '09876543' } }), 201);
  const application = await json(
    await send('POST', `${B}/applications`, tenantAuth, {
      fundingAmount: { code: 'GBP', value: 150000 },
      fundingPeriod: 24,
      useOfFunds: 'BUSINESS_EXPANSION',
      revenue: { code: 'GBP', value: 900000 },
    }),
    201,
  );
  const { continueUrl } = await json(await send('POST', `${B}/applications/${application.id}/continue-url`, tenantAuth, {}), 201);
  // Another application, whose continue links the revocation example ends (the first one's link stays valid for the check's example).
  // (With the same answers: an application's answers fill the tenant's profile, which the submit example's match depends on.)
  const revocable = await json(
    await send('POST', `${B}/applications`, tenantAuth, {
      fundingAmount: { code: 'GBP', value: 150000 },
      fundingPeriod: 24,
      useOfFunds: 'BUSINESS_EXPANSION',
      revenue: { code: 'GBP', value: 900000 },
    }),
    201,
  );
  const appMatches = await json(await send('GET', `${B}/applications/${application.id}/matches`, tenantAuth), 200);
  const [submit] = await submittableMatches(app, appMatches.matches);
  if (!submit) throw new Error('no matched lender the application can be submitted to');

  const { uuid: profile } = await answeredProfile();
  const lenderA = await db().lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
  const lender = await lenderCredentials(app, lenderA.id);
  const v1 = bearer((await marketplaceV1Token(app, owner.apiKey)).jwt);
  const document = await json(await fetch(`${app.url}${V1}/profiles/${profile}/documents`, { method: 'POST', headers: v1, body: documentForm() }), 201);
  const lenderApplicationId = await storedLenderApplication(app, { lenderId: lenderA.id, profileId: profile });
  world = {
    ownerUserId,
    tenant: { id: tenant.id, profileId: tenantProfile.id, applicationId: application.id, continueUrl, submit, revocableApplicationId: revocable.id },
    profile,
    lender,
    lenderApplication: { id: lenderApplicationId, documentId: document.id },
  };
});

const recorded: Record<string, RecordedExample> = {};
afterAll(async () => {
  if (RECORD && Object.keys(recorded).length === ROUTES.length) {
    const sorted = Object.fromEntries(Object.entries(recorded).sort(([a], [b]) => a.localeCompare(b)));
    await writeFile(RECORDED_EXAMPLES_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
  }
  await app?.close();
});

// ------------------------------------------------------------------------------ credentials

/** The least-privileged credential of a row: the first kind its surface takes, holding exactly the first scope it names. */
async function leastPrivileged(route: RouteDefinition): Promise<Credential | undefined> {
  if (!route.access) return undefined;
  const rule = ACCESS_POLICY[route.access] as { tokens: readonly TokenKind[]; scope?: string | readonly string[] };
  const surface = route.surface === 'public' ? 'platform' : route.surface;
  const kind = rule.tokens.find((k) => (SURFACE_TOKENS[surface] as readonly TokenKind[]).includes(k));
  if (!kind) throw new Error(`${route.operationId}: no token kind of ${route.access} is taken on ${surface}`);
  const scope = rule.scope === undefined ? undefined : typeof rule.scope === 'string' ? rule.scope : rule.scope[0]!;
  switch (kind) {
    case 'login':
      return factory.login([scope ?? UNRELATED_LOGIN_SCOPE]);
    case 'lender':
      return factory.lender(world.lender, 'A');
    case 'tenant':
      return factory.tenant(world.tenant.id, 'examples', [scope ?? UNRELATED_KEY_SCOPE]);
    default:
      return factory.keyToken(kind, [scope ?? UNRELATED_KEY_SCOPE], { isMaster: route.access === 'profiles.move' });
  }
}

// ------------------------------------------------------------------------------- fixtures

/** What of a request names an object this test made (path parameters, the tenant, ids in a body), or a secret. */
interface Fixture {
  params?: Record<string, string | number>;
  /** Service-tenant-id. */
  tenant?: string;
  /** Replaces the example's body (only where the body names objects of this test). */
  body?: unknown;
  query?: Record<string, string>;
  /** Headers instead of a bearer token (the public token exchanges). */
  headers?: Record<string, string>;
}

const fullKey = () => factory.apiKey(['profile:read', 'profile:write']);

/** A lender application of a profile the credential sees, moved by the lender to the state the decision needs. */
async function decision(credential: Credential, state: 'Offered' | 'Failed'): Promise<Fixture> {
  const profileId = credential.kind === 'marketplace_v1' ? world.profile : world.tenant.profileId;
  const id = await storedLenderApplication(app, { lenderId: world.lender.lenderId, profileId });
  const lenderToken = (await factory.lender(world.lender, 'A')).token;
  if (state === 'Offered') await lenderOffers(app, lenderToken, id);
  else await lenderFails(app, lenderToken, id);
  return { params: { applicationId: id } };
}

/** A webhook endpoint of the account under test, as creating one stores it. */
async function accountEndpoint(): Promise<string> {
  const row = await db().integratorWebhookEndpoint.create({
    data: {
      accountId: owner.accountId,
      url: 'https://hooks.acme-widgets.example/funding',
      eventTypes: ['offer.created', 'application.status_changed'],
      description: 'Our CRM',
      secret: `whsec_${Buffer.from(randomUUID()).toString('base64')}`,
    },
  });
  return row.id;
}
const freshLenderApplication = async (): Promise<Fixture> => ({
  params: { id: await storedLenderApplication(app, { lenderId: world.lender.lenderId, profileId: world.profile }) },
});

const FIXTURES: Record<string, (credential: Credential | undefined) => Promise<Fixture>> = {
  // Public token exchanges: the credential is the API key or refresh token itself.
  PlatformAuthController_token: async () => ({ headers: { 'x-api-key': (await fullKey()).secret } }),
  MarketplaceAuthController_authorize: async () => ({ headers: { 'x-api-key': (await fullKey()).secret } }),
  AuthController_authorize: async () => ({ query: { api_key: (await fullKey()).secret } }),
  // A lender of its own: the credential rotation examples change world.lender's password.
  LenderConsoleAuthController_signIn: async () => {
    const own = await lenderCredentials(
      app,
      (await app.runtime.database.prisma.lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'desc' } })).id,
    );
    return { body: { username: own.username, password: own.password } };
  },
  PlatformAuthController_refreshToken: async () => ({ body: { refresh_token: (await platformToken(app, (await fullKey()).secret)).refresh_token } }),
  MarketplaceAuthController_refreshToken: async () => ({ body: { refresh_token: (await masterToken(app, (await fullKey()).secret)).refresh_token } }),
  AuthController_refreshToken: async () => ({ body: { refreshToken: (await marketplaceV1Token(app, (await fullKey()).secret)).refreshToken } }),
  PlatformAuthController_authorizeTenant: async () => ({ tenant: world.tenant.id }),
  MarketplaceAuthController_authorizeTenant: async () => ({ tenant: world.tenant.id }),
  PlatformApiKeyController_revoke: async () => ({ params: { keyId: (await factory.apiKey([UNRELATED_KEY_SCOPE], { fresh: true })).id } }),
  PlatformApiKeyController_rotate: async () => ({ params: { keyId: (await factory.apiKey([UNRELATED_KEY_SCOPE], { fresh: true })).id } }),
  PlatformUserController_get: async () => ({ params: { userId: world.ownerUserId } }),
  PlatformUserController_update: async () => ({ params: { userId: world.ownerUserId } }),
  PlatformTenantController_get: async () => ({ params: { tenantId: world.tenant.id } }),
  PlatformTenantController_update: async () => ({ params: { tenantId: (await createTenant(app, owner.platformToken, 'CRM-004211-A')).id } }),
  // The tenant's profile: a fresh tenant to set up, the tenant with a profile otherwise.
  ...Object.fromEntries(
    ['Marketplace', 'Business'].flatMap((prefix) => [
      [`${prefix}ProfileController_setUp`, async () => ({ tenant: (await createTenant(app, owner.platformToken)).id })],
      ...['get', 'getCreditReport', 'update', ...(prefix === 'Business' ? ['replace'] : [])].map((op) => [
        `${prefix}ProfileController_${op}`,
        async () => ({ tenant: world.tenant.id }),
      ]),
    ]),
  ),
  // Business V1 applications
  ApplicationController_create: async () => ({ tenant: world.tenant.id }),
  ApplicationSignUpController_validateContinueUrl: async () => ({ tenant: world.tenant.id, query: { continueUrl: world.tenant.continueUrl } }),
  ApplicationSignUpController_generateContinueUrl: async () => ({ tenant: world.tenant.id, params: { applicationId: world.tenant.applicationId } }),
  ApplicationSignUpController_revokeContinueUrls: async () => ({ tenant: world.tenant.id, params: { applicationId: world.tenant.revocableApplicationId } }),
  ApplicationController_getMatches: async () => ({ tenant: world.tenant.id, params: { applicationId: world.tenant.applicationId } }),
  ApplicationController_getPreselectedOffers: async () => ({ tenant: world.tenant.id, params: { applicationId: world.tenant.applicationId } }),
  ApplicationController_submit: async () => ({ tenant: world.tenant.id, params: { applicationId: world.tenant.applicationId }, body: world.tenant.submit }),
  BusinessLenderApplicationController_resubmit: (c) => decision(c!, 'Failed'),
  BusinessLenderApplicationController_accept: (c) => decision(c!, 'Offered'),
  BusinessLenderApplicationController_decline: (c) => decision(c!, 'Offered'),
  LenderApplicationController_resubmit: (c) => decision(c!, 'Failed'),
  LenderApplicationController_accept: (c) => decision(c!, 'Offered'),
  LenderApplicationController_decline: (c) => decision(c!, 'Offered'),
  PlatformReviewController_submit: async () => {
    const { uuid, selection } = await answeredProfile();
    await json(await postJson(`${app.url}${V1}/profiles/${uuid}/funding/apply`, selection, bearer((await marketplaceV1Token(app, owner.apiKey)).jwt)), 200);
    return { params: { selectionId: (await db().reviewSelection.findFirstOrThrow({ where: { profileId: uuid } })).id } };
  },
  // Marketplace V1 profiles (the example's own profile where the operation changes it for good)
  ProfileController_get: async () => ({ params: { uuid: world.profile } }),
  ProfileController_patchCompany: async () => ({ params: { uuid: world.profile } }),
  ProfileController_patchFinancials: async () => ({ params: { uuid: world.profile } }),
  ProfileController_urlSchema: async () => ({ params: { uuid: world.profile } }),
  ProfileController_setOwnership: async () => {
    const v1 = bearer((await marketplaceV1Token(app, owner.apiKey)).jwt);
    return { params: { uuid: (await json(await postJson(`${app.url}${V1}/profiles/anonymous`, { countryCode: 'GB' }, v1), 200)).uuid } };
  },
  ProfileController_move: async (c) => {
    const { uuid } = await json(await postJson(`${app.url}${V1}/profiles/blank`, undefined, bearer(c!.token)), 200);
    return { params: { uuid, targetApiKey: (await factory.apiKey([UNRELATED_KEY_SCOPE])).keyPrefix } };
  },
  CaseController_apply: async () => {
    const { uuid } = await answeredProfile();
    await db().profile.update({
      where: { id: uuid },
      data: { eligibilityRequest: { recovery: { claimAmount: { code: 'GBP', value: 12500 }, defendant: { name: 'SLOW PAYER TRADING LTD' } } } },
    });
    return { params: { uuid } };
  },
  DocumentController_upload: async () => ({ params: { uuid: world.profile } }),
  DocumentController_list: async () => ({ params: { uuid: world.profile } }),
  LenderDocumentController_get: async () => ({ params: { id: world.lenderApplication.id, documentId: world.lenderApplication.documentId } }),
  FundingController_countMatches: async () => ({ params: { uuid: world.profile } }),
  FundingController_matchResults: async () => ({ params: { uuid: world.profile } }),
  FundingController_apply: async () => {
    const { uuid, selection } = await answeredProfile();
    return { params: { uuid }, body: selection };
  },
  // Questionnaires and answers (of the answered profile)
  ...Object.fromEntries(
    ['QuestionnaireController_profileJsonSchema', 'AnswerController_put', 'AnswerController_patch', 'AnswerController_get', 'AnswerController_delete'].map(
      (op) => [op, async () => ({ params: { profileId: world.profile } })],
    ),
  ),
  // The Lender Application API (lender A's application of the profile)
  LenderApplicationController_get: async () => ({ params: { id: world.lenderApplication.id } }),
  LenderDeliveryController_redeliver: async () => {
    // A delivery of the lender's application, delivered at its first attempt: the lender asks for it again.
    const application = await db().lenderApplication.findUniqueOrThrow({ where: { id: world.lenderApplication.id } });
    const delivered = await db().webhookDelivery.create({
      data: {
        lenderApplicationId: application.id,
        lenderId: world.lender.lenderId,
        event: 'APPLICATION_CREATED',
        url: 'https://lender.example/webhooks/applications',
        payload: application.payload as object,
        status: 'DELIVERED',
        attempts: 1,
        lastStatusCode: 204,
        deliveredAt: new Date(),
      },
    });
    await db().webhookDeliveryAttempt.create({ data: { deliveryId: delivered.id, statusCode: 204, latencyMs: 182, attemptedAt: delivered.createdAt } });
    return { params: { id: delivered.id } };
  },
  LenderDeliveryController_get: async () => {
    // A delivery the receiver refused once (with a reason it gave), then took.
    const application = await db().lenderApplication.findUniqueOrThrow({ where: { id: world.lenderApplication.id } });
    const delivered = await db().webhookDelivery.create({
      data: {
        lenderApplicationId: application.id,
        lenderId: world.lender.lenderId,
        event: 'APPLICATION_CREATED',
        url: 'https://lender.example/webhooks/applications',
        payload: application.payload as object,
        status: 'DELIVERED',
        attempts: 2,
        lastStatusCode: 204,
        deliveredAt: new Date(),
      },
    });
    await db().webhookDeliveryAttempt.createMany({
      data: [
        {
          deliveryId: delivered.id,
          statusCode: 503,
          error: 'answered 503, not 204',
          latencyMs: 41,
          attemptedAt: new Date(delivered.createdAt.getTime() - 60_000),
          responseHeaders: { 'content-type': 'application/json', 'retry-after': '60' },
          responseBody: '{"error":"maintenance"}',
          responseBodyTruncated: false,
        },
        {
          deliveryId: delivered.id,
          statusCode: 204,
          latencyMs: 182,
          attemptedAt: delivered.createdAt,
          responseHeaders: {},
          responseBody: '',
          responseBodyTruncated: false,
        },
      ],
    });
    return { params: { id: delivered.id } };
  },
  // An integrator account's webhook endpoint and a delivery to it (the account under test's)
  PlatformWebhookEndpointController_read: async () => ({ params: { endpointId: await accountEndpoint() } }),
  PlatformWebhookEndpointController_update: async () => ({ params: { endpointId: await accountEndpoint() } }),
  PlatformWebhookEndpointController_delete: async () => ({ params: { endpointId: await accountEndpoint() } }),
  PlatformWebhookDeliveryController_redeliver: async () => {
    const endpointId = await accountEndpoint();
    const application = await db().lenderApplication.findUniqueOrThrow({ where: { id: world.lenderApplication.id } });
    const body = { type: 'offer.created', timestamp: new Date().toISOString(), data: { applicationId: application.id } };
    const delivered = await db().webhookDelivery.create({
      data: {
        lenderApplicationId: application.id,
        lenderId: world.lender.lenderId,
        event: 'OFFER_CREATED',
        url: 'https://hooks.acme-widgets.example/funding',
        payload: body,
        status: 'DELIVERED',
        attempts: 1,
        lastStatusCode: 204,
        deliveredAt: new Date(),
        integratorEndpointId: endpointId,
        accountId: owner.accountId,
      },
    });
    await db().webhookDeliveryAttempt.create({ data: { deliveryId: delivered.id, statusCode: 204, latencyMs: 95, attemptedAt: delivered.createdAt } });
    return { params: { id: delivered.id } };
  },
  LenderApplicationController_acknowledge: freshLenderApplication,
  LenderApplicationController_offer: freshLenderApplication,
  LenderApplicationController_reject: freshLenderApplication,
};

/** The example's query parameters and the fixture's, as a query string (arrays repeat the name). */
function queryString(example: Record<string, unknown> = {}, fixture: Record<string, string> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...example, ...fixture })) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Samples in place of the secrets an answer carries (tokens, API keys, signed links), so none is committed. */
const SECRET_SAMPLES: Record<string, string> = {
  access_token: 'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJleGFtcGxlIn0.c2FtcGxlLXNpZ25hdHVyZQ',
  id_token: 'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJleGFtcGxlIn0.c2FtcGxlLXNpZ25hdHVyZQ',
  jwt: 'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJleGFtcGxlIn0.c2FtcGxlLXNpZ25hdHVyZQ',
  refresh_token: 'rt_3q2Ff0c9Zk7uVY1pXw8sLm4nTb6eHd5a',
  refreshToken: 'rt_3q2Ff0c9Zk7uVY1pXw8sLm4nTb6eHd5a',
  webhookSecret: 'whsec_c2FtcGxlLXdlYmhvb2stc2VjcmV0LW5vdC1yZWFs',
  clientSecret: 's4mpleCl1entS3cretN0tReal',
  password: 's4mplePassw0rdN0tReal',
};

function withSampleSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSampleSecrets);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (typeof v === 'string' && key in SECRET_SAMPLES) return [key, SECRET_SAMPLES[key]];
      if (typeof v === 'string' && key === 'key' && v.startsWith('fgk_'))
        return [key, v.replace(/^(fgk_[a-z]+_key_[0-9a-f]{12}_).+$/, '$1s4mpleS3cretN0tReal')];
      if (typeof v === 'string' && key === 'continueUrl') return [key, v.replace(/token=[^&]+/, 'token=eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJleGFtcGxlIn0.c2FtcGxl')];
      if (typeof v === 'string' && key === 'url' && v.includes('token='))
        return [key, v.replace(/token=[^&]+/, 'token=eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJleGFtcGxlIn0.c2FtcGxl')];
      return [key, withSampleSecrets(v)];
    }),
  );
}

/** The neutral origin recorded answers name instead of this run's port (RFC 2606's reserved .example). */
const EXAMPLE_ORIGIN = 'https://funding-gateway.example';

/**
 * An answer as the reference shows it: secrets replaced by samples, this run's origin by a neutral
 * one, and a long list cut to its first two items (the list of questionnaires alone is 70 KB).
 */
function forTheReference(response: unknown): unknown {
  const listed = Array.isArray(response) && response.length > 2 ? response.slice(0, 2) : response;
  return JSON.parse(JSON.stringify(withSampleSecrets(listed)).split(app.url).join(EXAMPLE_ORIGIN));
}

const answersJson = (route: RouteDefinition) => route.successStatus !== 204 && !route.download;

describe('the examples of the reference', () => {
  it('exist for every operation: a request where it takes a body or query, a recorded answer where it answers JSON', () => {
    const takesBody = (route: RouteDefinition) => (route.body !== undefined || route.jsonSchemaBody !== undefined) && route.upload === undefined;
    const missing = ROUTES.filter(
      (route) => (takesBody(route) && route.example?.body === undefined) || (route.query !== undefined && route.example?.query === undefined),
    ).map((route) => route.operationId);
    expect(missing).toEqual([]);
    expect(ROUTES.filter((route) => !route.description.trim()).map((route) => route.operationId)).toEqual([]);
    if (!RECORD)
      expect(
        ROUTES.filter((route) => answersJson(route) && recordedExamples()[route.operationId]?.response === undefined).map((route) => route.operationId),
      ).toEqual([]);
    // Every fixture names an operation of the table (a renamed operation leaves none behind).
    expect(Object.keys(FIXTURES).filter((id) => !ROUTES.some((route) => route.operationId === id))).toEqual([]);
  });

  it.each(ROUTES.map((route) => [route.operationId, route] as const))(
    '%s: the example request succeeds with the least-privileged credential, and both answers fit the schema',
    async (_id, route) => {
      const credential = await leastPrivileged(route);
      const fixture = (await FIXTURES[route.operationId]?.(credential)) ?? {};
      const params: Record<string, string | number> = { ...route.example?.params, ...fixture.params };
      const path = route.path.replace(/:(\w+)/g, (_m, name: string) => {
        if (params[name] === undefined) throw new Error(`${route.operationId}: no value for the path parameter ${name}`);
        return encodeURIComponent(String(params[name]));
      });
      const headers: Record<string, string> = {
        ...(credential ? bearer(credential.token) : {}),
        ...(fixture.tenant && credential?.kind !== 'tenant' ? { 'service-tenant-id': fixture.tenant } : {}),
        ...route.example?.headers,
        ...fixture.headers,
      };
      const body = route.upload === 'file' ? documentForm() : (fixture.body ?? route.example?.body);
      const outcome = await restOutcome(app.url, { method: route.method, path: `${path}${queryString(route.example?.query, fixture.query)}`, headers, body });
      expect(outcome.status, `${route.method.toUpperCase()} ${path}: ${outcome.text.slice(0, 500)}`).toBe(route.successStatus);

      const response = answersJson(route) ? JSON.parse(outcome.text) : undefined;
      const example: RecordedExample = {
        params: Object.fromEntries([
          ...Object.entries(params).map(([k, v]) => [k, String(v)]),
          ...(fixture.tenant ? [['Service-tenant-id', fixture.tenant]] : []),
        ]),
        status: outcome.status,
        ...(response === undefined ? {} : { response: forTheReference(response) }),
      };
      recorded[route.operationId] = example;
      if (RECORD) return;
      const stored = recordedExamples()[route.operationId];
      expect(stored?.status).toBe(route.successStatus);
      if (answersJson(route)) {
        expect(
          contractViolation(route.method.toUpperCase(), `${app.url}${path}`, route.successStatus, 'application/json', JSON.stringify(stored!.response)),
        ).toBeUndefined();
      }
    },
  );
});
