/**
 * The access table, tested from the table itself: every operation of ACCESS_POLICY has probes on
 * every surface where it exists (each REST route of the route table, GraphQL fields, graphql-ws
 * subscriptions), and every probe is run with
 *   - each token kind the rule allows, holding EXACTLY the scopes the rule names (each alternative
 *     of an any-of rule alone; an unrelated scope when the rule names none): the documented success;
 *   - the same kind holding only an unrelated scope, when the rule names one: 403;
 *   - every other token kind, with all the scopes it can hold: 401 where the surface does not take
 *     that kind (SURFACE_TOKENS), else 403.
 * Field rows (`Profile.documents`, `Tenant.profile`…) are probed below each root field that reaches
 * their parent: a key holding the parent's scope and exactly one of the row's scopes gets the field
 * answered; one holding the parent's scope alone (when that does not meet the row), or a kind the
 * row does not allow, gets FORBIDDEN on that field (the error's path ends at it).
 * A new operation, route, root field or field row without a probe fails the coverage tests below,
 * so the table, the routes, the schema and these tests cannot drift apart.
 *
 * The credentials on the allowed side are made like a client makes them (a real API key holding
 * the scopes → its token); a key holding every scope is only used to build fixtures and on the
 * refused side, since a credential that holds everything hides a rule asking for the wrong scope.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, openApiPath } from '../src/api/rest/openapi-document.js';
import { ROUTES, type RouteDefinition } from '../src/api/rest/route-table.js';
import { ACCESS_POLICY, SURFACE_TOKENS, type Operation, type Surface } from '../src/kernel/access-policy.js';
import { TOKEN_KINDS, type TokenKind } from '../src/kernel/actor.js';
import { API_KEY_SCOPES, TENANT_TOKEN_SCOPES } from '../src/kernel/scopes.js';
import { createAccountWithUser, type LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { PRODUCT_TYPES } from '../src/modules/lenders/product-types.js';
import { ACME_ANSWERS, ACME_APPLICATION } from './support/answers.js';
import { CredentialFactory, UNRELATED_KEY_SCOPE, UNRELATED_LOGIN_SCOPE, type Credential } from './support/credentials.js';
import {
  bearer,
  createTenant,
  lenderCredentials,
  marketplaceV1Token,
  masterToken,
  platformToken,
  signIn,
  signUpIntegrator,
  type Integrator,
} from './support/identities.js';
import { lenderAcknowledges, lenderFails, lenderOffers, storedLenderApplication, submittableMatches, termLoanOffer } from './support/lender-applications.js';
import {
  graphqlOutcome,
  introspectRootFields,
  restOutcome,
  rootOperation,
  subscriptionOutcome,
  type Outcome,
  type RootFields,
  type RootKind,
} from './support/probe-client.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';
import { expectJson as json, MINIMAL_PDF, pdfForm, sendJson } from './support/rest-calls.js';

const V1 = '/api/marketplace/v1';
const V2 = '/api/marketplace/v2';
const B = '/api/business/v1';
const P = '/api/platform/v1';
const L = '/api/platform/v1/funding';

/** A Business V1 application body (spec 2.6), as src/modules/business-applications/business-applications.test.ts sends it. */
const APPLICATION = ACME_APPLICATION;
const QUESTIONNAIRE = 'introducer-all-funding-products';

// ---------------------------------------------------------------------------------------- world

let app: TestApp;
let factory: CredentialFactory;
let rootFields: RootFields;

/** Everything the probes act on, all in one account ("A") unless said otherwise; built once. */
interface World {
  owner: Integrator;
  ownerUserId: string;
  staffLoginToken: string;
  setupV1: string;
  setupMaster: string;
  t0: {
    id: string;
    profileId: string;
    applicationId: string;
    continueUrl: string;
    submit: { lenderId: number; products: string[] };
    revocableApplicationId: string;
  };
  /** A tenant whose referenceId the update probes change. */
  t2: string;
  /** A tenant whose profile the update probes change (so T0's stays as the other probes need it). */
  t3: string;
  /** Marketplace V1 profiles of the account: read by most probes, answers written, applied for, a case. */
  profile: string;
  answersProfile: string;
  applyProfile: { uuid: string; selection: Array<{ lenderId: number; products: string[] }> };
  caseProfile: string;
  lenderA: LenderCredentials;
  documentApplication: { applicationId: number; documentId: string };
  /** Lender applications whose events the subscription probes trigger (T0's and the Marketplace V1 profile's). */
  events: { statusT0: number; offerT0: number; statusV1: number; offerV1: number };
  managedLenderId: number;
}
let world: World;

const db = () => app.runtime.database.prisma;

const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) => sendJson(app.url, method, path, headers, body);

/** A match a submission can go to with ACME's data (support/lender-applications.ts). */
async function easyMatch(matches: Array<{ lender: { id: number }; product: string }>): Promise<{ lenderId: number; products: string[] }> {
  const [first] = await submittableMatches(app, matches);
  if (!first) throw new Error('no matched lender that a submission can go to');
  return first;
}

/** A Marketplace V1 profile of the account with ACME's answers and its matches recorded. */
async function answeredProfile(): Promise<{ uuid: string; selection: Array<{ lenderId: number; products: string[] }> }> {
  const auth = bearer(world.setupV1);
  const { uuid } = await json(await postJson(`${app.url}${V1}/profiles/blank`, undefined, auth), 200);
  await json(await send('PUT', `${V1}/questionnaires/${QUESTIONNAIRE}/profiles/${uuid}/answers`, auth, ACME_ANSWERS), 204);
  const search = await json(await fetch(`${app.url}${V1}/profiles/${uuid}/funding/matches/results`, { headers: auth }), 200);
  return { uuid, selection: [await easyMatch(search.matches)] };
}

beforeAll(async () => {
  app = await startTestApp();
  const owner = await signUpIntegrator(app, `access-${randomUUID().slice(0, 6)}`);
  const ownerUserId = (await db().platformUser.findFirstOrThrow({ where: { accountId: owner.accountId } })).id;
  const staffEmail = `staff-${randomUUID().slice(0, 6)}@example.test`;
  const staffUser = await createAccountWithUser(db(), {
    environment: 'demo',
    accountName: 'funding specialists',
    email: staffEmail,
    password: 'staff-password-123',
    role: 'STAFF',
  });
  factory = new CredentialFactory(app, owner.loginToken, { accountId: owner.accountId, userId: ownerUserId }, staffUser);
  world = { owner, ownerUserId, staffLoginToken: await signIn(app, staffEmail, 'staff-password-123') } as World;
  world.setupV1 = (await marketplaceV1Token(app, owner.apiKey)).jwt;
  world.setupMaster = (await masterToken(app, owner.apiKey)).access_token;
  rootFields = await introspectRootFields(app.url, bearer(owner.platformToken));

  // T0: a tenant with its profile (set up from the registry) and a Business V1 application.
  const t0 = await createTenant(app, owner.platformToken, 'T0');
  const t0Auth = bearer((await platformToken(app, owner.apiKey, t0.id)).access_token);
  const t0Profile = await json(await send('POST', `${B}/profile`, t0Auth, { companyInformation: { registrationNumber: '09876543' } }), 201);
  const application = await json(await send('POST', `${B}/applications`, t0Auth, APPLICATION), 201);
  const { continueUrl } = await json(await send('POST', `${B}/applications/${application.id}/continue-url`, t0Auth, {}), 201);
  const appMatches = await json(await send('GET', `${B}/applications/${application.id}/matches`, t0Auth), 200);
  // Another application, whose continue links the revocation probes end (the first one's link stays valid for the other probes).
  const revocable = await json(await send('POST', `${B}/applications`, t0Auth, APPLICATION), 201);
  world.t0 = {
    id: t0.id,
    profileId: t0Profile.id,
    applicationId: application.id,
    continueUrl,
    submit: await easyMatch(appMatches.matches),
    revocableApplicationId: revocable.id,
  };
  world.t2 = (await createTenant(app, owner.platformToken, 'T2')).id;
  world.t3 = (await createTenant(app, owner.platformToken, 'T3')).id;
  await json(
    await send(
      'POST',
      `${B}/profile`,
      { ...bearer(owner.platformToken), 'service-tenant-id': world.t3 },
      { companyInformation: { registrationNumber: '09876543' } },
    ),
    201,
  );

  const [main, answers, apply, kase] = await Promise.all([answeredProfile(), answeredProfile(), answeredProfile(), answeredProfile()]);
  world.profile = main.uuid;
  world.answersProfile = answers.uuid;
  world.applyProfile = apply;
  world.caseProfile = kase.uuid;
  await db().profile.update({
    where: { id: kase.uuid },
    data: { eligibilityRequest: { recovery: { claimAmount: { code: 'GBP', value: 12500 }, defendant: { name: 'SLOW PAYER LTD' } } } },
  });

  const lenderA = await db().lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
  world.lenderA = await lenderCredentials(app, lenderA.id);
  const document = await json(
    await fetch(`${app.url}${V1}/profiles/${world.profile}/documents`, { method: 'POST', headers: bearer(world.setupV1), body: pdfForm() }),
    201,
  );
  world.documentApplication = {
    applicationId: await storedLenderApplication(app, { lenderId: lenderA.id, profileId: world.profile }),
    documentId: document.id,
  };
  const [statusT0, offerT0, statusV1, offerV1] = await Promise.all([
    storedLenderApplication(app, { lenderId: lenderA.id, profileId: world.t0.profileId }),
    storedLenderApplication(app, { lenderId: lenderA.id, profileId: world.t0.profileId }),
    storedLenderApplication(app, { lenderId: lenderA.id, profileId: world.profile }),
    storedLenderApplication(app, { lenderId: lenderA.id, profileId: world.profile }),
  ]);
  world.events = { statusT0, offerT0, statusV1, offerV1 };
  const managed = await graphqlOutcome(
    app.url,
    'mutation { createLender(input: { name: "Access Table Capital", priceBand: "LOW" }) { id } }',
    {},
    bearer(world.staffLoginToken),
  );
  world.managedLenderId = JSON.parse(managed.text).data.createLender.id;
});
afterAll(() => app?.close());

// --------------------------------------------------------------------------------------- probes

/**
 * Fresh state for one allowed credential, when a success consumes its object (a lender application
 * in the state a decision needs, a tenant without a profile…): so no probe needs to take a 409
 * ("already done") as having passed the access decision, and none does.
 */
interface Fixture {
  [name: string]: unknown;
  /** Replaces the allowed credential (e.g. a tenant token of a fresh tenant). */
  credential?: Credential;
}

interface Probe {
  operation: Operation;
  /** `REST <METHOD> <route path>`, `GraphQL <Type.field>` or `graphql-ws <field>`. */
  name: string;
  /** The route (`<method> <path>` of ROUTES) or root field (`<query|mutation|subscription>.<field>`) it exercises. */
  target: { route: string } | { field: `${RootKind}.${string}` };
  /** The surface whose SURFACE_TOKENS decide 401 vs 403. */
  surface: Surface;
  success: number;
  /** Allowed credentials come from a master key (profiles.move: only the owning master key may move). */
  masterKey?: boolean;
  prepare?: (kind: TokenKind, credential: Credential) => Promise<Fixture>;
  request: (credential: Credential, fixture: Fixture) => Promise<Outcome>;
}

const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const ROUTE_BY_KEY = new Map<string, RouteDefinition>(ROUTES.map((r) => [routeKey(r.method, r.path), r]));

/** Headers of a credential; a platform token names the tenant of tenant-scoped operations (T0 unless the fixture says). */
function headersOf(credential: Credential, tenantId?: string): Record<string, string> {
  const headers: Record<string, string> = bearer(credential.token);
  if (credential.kind !== 'tenant' && tenantId) headers['service-tenant-id'] = tenantId;
  return headers;
}

/** The profile a kind may see: the account's Marketplace V1 profile, or T0's tenant profile. */
const profileFor = (kind: TokenKind, v1Profile = world.profile) => (kind === 'marketplace_v1' ? v1Profile : world.t0.profileId);

interface RestSpec {
  params?: Record<string, string | number>;
  query?: string;
  body?: unknown;
  /** Tenant-scoped: a platform token sends Service-tenant-id (T0, or the fixture's tenant). */
  tenant?: string;
}

function rest(
  operation: Operation,
  method: string,
  path: string,
  spec: (c: Credential, f: Fixture) => RestSpec = () => ({}),
  extra: Partial<Probe> = {},
): Probe {
  const key = routeKey(method, path);
  const route = ROUTE_BY_KEY.get(key);
  return {
    operation,
    name: `REST ${key}`,
    target: { route: key },
    surface: route && route.surface !== 'public' ? route.surface : 'platform',
    success: route?.successStatus ?? 0,
    ...extra,
    request: async (credential, fixture) => {
      const s = spec(credential, fixture);
      const filled = path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(String(s.params?.[name] ?? `missing-${name}`)));
      return restOutcome(app.url, { method, path: `${filled}${s.query ? `?${s.query}` : ''}`, headers: headersOf(credential, s.tenant), body: s.body });
    },
  };
}

/** A rotation of lender A's credentials: the probes after it sign in with what it answered. */
function keepingLenderACredentials(probe: Probe): Probe {
  return {
    ...probe,
    request: async (credential, fixture) => {
      const outcome = await probe.request(credential, fixture);
      if (outcome.status === 200) Object.assign(world.lenderA, JSON.parse(outcome.text) as Partial<LenderCredentials>);
      return outcome;
    },
  };
}

interface GraphQLSpec {
  variables?: Record<string, unknown>;
  tenant?: string;
}

/** A root field, its operation written from the schema (only `__typename` of object results is selected). */
function gql(
  operation: Operation,
  kind: 'query' | 'mutation',
  field: string,
  spec: (c: Credential, f: Fixture) => GraphQLSpec = () => ({}),
  extra: Partial<Probe> = {},
): Probe {
  return {
    operation,
    name: `GraphQL ${kind === 'query' ? 'Query' : 'Mutation'}.${field}`,
    target: { field: `${kind}.${field}` },
    surface: 'graphql',
    success: 200,
    ...extra,
    request: (credential, fixture) => {
      const s = spec(credential, fixture);
      const variables = s.variables ?? {};
      return graphqlOutcome(app.url, rootOperation(rootFields, kind, field, variables), variables, headersOf(credential, s.tenant));
    },
  };
}

function ws(
  operation: Operation,
  field: string,
  query: string,
  spec: (c: Credential) => { variables?: Record<string, unknown>; trigger?: () => Promise<void> },
): Probe {
  return {
    operation,
    name: `graphql-ws Subscription.${field}`,
    target: { field: `subscription.${field}` },
    surface: 'graphql',
    success: 200,
    request: (credential) => {
      const s = spec(credential);
      return subscriptionOutcome(app.url, query, s.variables ?? {}, headersOf(credential), s.trigger);
    },
  };
}

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const lenderToken = async () => (await factory.lender(world.lenderA, 'A')).token;

/** A fresh tenant of the account; a tenant credential becomes that tenant's token. */
async function freshTenant(kind: TokenKind, credential: Credential): Promise<Fixture> {
  const tenant = await createTenant(app, world.owner.platformToken, unique('fresh'));
  return { tenantId: tenant.id, ...(kind === 'tenant' ? { credential: await factory.tenant(tenant.id, 'fresh tenant', credential.keyScopes) } : {}) };
}

/** T3, whose profile the update probes change; a tenant credential becomes T3's token. */
async function t3(kind: TokenKind, credential: Credential): Promise<Fixture> {
  return { tenantId: world.t3, ...(kind === 'tenant' ? { credential: await factory.tenant(world.t3, 'T3', credential.keyScopes) } : {}) };
}

/** A lender application of a profile the kind may see, moved by lender A to the state the decision needs. */
function decisionFixture(state: 'Offered' | 'Failed') {
  return async (kind: TokenKind): Promise<Fixture> => {
    const applicationId = await storedLenderApplication(app, { lenderId: world.lenderA.lenderId, profileId: profileFor(kind) });
    if (state === 'Offered') await lenderOffers(app, await lenderToken(), applicationId);
    else await lenderFails(app, await lenderToken(), applicationId);
    return { applicationId };
  };
}

/** A selection in the review queue, of a fresh profile whose matched lender needs nothing it lacks. */
async function freshSelection(): Promise<Fixture> {
  const { uuid, selection } = await answeredProfile();
  await json(await postJson(`${app.url}${V1}/profiles/${uuid}/funding/apply`, selection, bearer(world.setupV1)), 200);
  return { selectionId: (await db().reviewSelection.findFirstOrThrow({ where: { profileId: uuid } })).id };
}

const fixtureId = (f: Fixture, name: string, fallback: string | number) => (f[name] as string | number | undefined) ?? fallback;
const NO_SUCH = '00000000-0000-4000-8000-000000000000';

/**
 * A delivered delivery of lender A, which staff and lender A may send again (delivered rather than
 * failed: the replay probe, running alongside, sends every failed one again).
 */
async function deliveredDeliveryOfLenderA(): Promise<Fixture> {
  const { applicationId } = world.documentApplication;
  const row = await db().webhookDelivery.create({
    data: {
      lenderApplicationId: applicationId,
      lenderId: world.lenderA.lenderId,
      event: 'APPLICATION_UPDATED',
      url: 'http://127.0.0.1:0/unset',
      payload: {},
      status: 'DELIVERED',
      attempts: 1,
    },
  });
  return { deliveryId: row.id };
}

/** A webhook endpoint of the account under test (a login credential's account), made as the store holds one. */
async function accountEndpoint(): Promise<Fixture> {
  const row = await db().integratorWebhookEndpoint.create({
    data: {
      accountId: world.owner.accountId,
      url: 'https://hooks.example.com/fixture',
      eventTypes: ['offer.created'],
      secret: `whsec_${Buffer.from(randomUUID()).toString('base64')}`,
    },
  });
  return { endpointId: row.id };
}

/** A delivered delivery to an endpoint of the account under test, which its admins may send again. */
async function deliveredDeliveryOfAccount(): Promise<Fixture> {
  const { endpointId } = await accountEndpoint();
  const row = await db().webhookDelivery.create({
    data: {
      lenderApplicationId: world.documentApplication.applicationId,
      lenderId: world.lenderA.lenderId,
      event: 'OFFER_CREATED',
      url: 'http://127.0.0.1:0/unset',
      payload: {},
      status: 'DELIVERED',
      attempts: 1,
      integratorEndpointId: endpointId as string,
      accountId: world.owner.accountId,
    },
  });
  return { deliveryId: row.id };
}

const documentForm = () => pdfForm();

/** The event a subscriber of this kind may see, and how to cause it (lender A answers one of its applications). */
function eventTrigger(credential: Credential, topic: 'status' | 'offer'): { variables: Record<string, unknown>; trigger?: () => Promise<void> } {
  const v1 = credential.kind === 'marketplace_v1';
  const applicationId = topic === 'status' ? (v1 ? world.events.statusV1 : world.events.statusT0) : v1 ? world.events.offerV1 : world.events.offerT0;
  // A login token sees every application only with the staff scope; without it there is nothing it may see.
  if (credential.kind === 'login' && !credential.label.includes('staff')) return { variables: { a: applicationId } };
  const trigger = async () => {
    if (topic === 'status') await lenderAcknowledges(app, await lenderToken(), applicationId, unique('ack'));
    else await lenderOffers(app, await lenderToken(), applicationId);
  };
  return { variables: { a: applicationId }, trigger };
}

const PROBES: Probe[] = [
  // Platform users and their API keys (login tokens)
  rest('apiKeys.create', 'post', `${P}/api-key`, () => ({ body: { name: unique('key'), scopes: [UNRELATED_KEY_SCOPE] } })),
  rest('apiKeys.list', 'get', `${P}/api-key`),
  rest('apiKeys.revoke', 'delete', `${P}/api-key/:keyId`, (_c, f) => ({ params: { keyId: fixtureId(f, 'keyId', NO_SUCH) } }), {
    prepare: async () => ({ keyId: (await factory.apiKey([UNRELATED_KEY_SCOPE], { fresh: true })).id }),
  }),
  rest('apiKeys.rotate', 'post', `${P}/api-key/:keyId/rotate`, (_c, f) => ({ params: { keyId: fixtureId(f, 'keyId', NO_SUCH) } }), {
    prepare: async () => ({ keyId: (await factory.apiKey([UNRELATED_KEY_SCOPE], { fresh: true })).id }),
  }),
  gql('apiKeys.list', 'query', 'apiKeys'),
  gql('apiKeys.create', 'mutation', 'createApiKey', () => ({ variables: { input: { name: unique('key'), scopes: [UNRELATED_KEY_SCOPE] } } })),
  gql('apiKeys.rotate', 'mutation', 'rotateApiKey', (_c, f) => ({ variables: { id: fixtureId(f, 'keyId', NO_SUCH) } }), {
    prepare: async () => ({ keyId: (await factory.apiKey([UNRELATED_KEY_SCOPE], { fresh: true })).id }),
  }),
  gql('apiKeys.revoke', 'mutation', 'revokeApiKey', (_c, f) => ({ variables: { id: fixtureId(f, 'keyId', NO_SUCH) } }), {
    prepare: async () => ({ keyId: (await factory.apiKey([UNRELATED_KEY_SCOPE], { fresh: true })).id }),
  }),
  gql('requestLog.read', 'query', 'requestLog'),
  gql('consoleTenants.read', 'query', 'consoleTenants'),
  gql('consoleTenants.read', 'query', 'consoleTenant', () => ({ variables: { id: world.t0.id } })),
  rest('users.list', 'get', `${P}/users`),
  rest('users.read', 'get', `${P}/users/:userId`, () => ({ params: { userId: world.ownerUserId } })),
  rest('users.create', 'post', `${P}/users`, () => ({ body: { email: `${unique('user')}@example.test`, password: 'a-long-enough-password' } })),
  // users:read lets a user change their own name (users:write: anyone): the minted token is the account's user.
  rest('users.update', 'patch', `${P}/users/:userId`, () => ({ params: { userId: world.ownerUserId }, body: { name: unique('Renamed') } })),

  // Tenants
  rest('tenants.create', 'post', `${P}/tenants`, () => ({ body: {} })),
  rest('tenants.create', 'post', `${V2}/tenants`, () => ({ body: {} })),
  rest('tenants.create', 'post', `${B}/tenants`, () => ({ body: {} })),
  gql('tenants.create', 'mutation', 'createTenant'),
  rest('tenants.list', 'get', `${P}/tenants`),
  rest('tenants.list', 'get', `${V2}/tenants`),
  gql('tenants.list', 'query', 'tenants'),
  gql('tenants.list', 'query', 'tenantConnection'),
  rest('tenants.read', 'get', `${P}/tenants/:tenantId`, () => ({ params: { tenantId: world.t0.id } })),
  gql('tenants.read', 'query', 'tenant', () => ({ variables: { id: world.t0.id } })),
  rest('tenants.update', 'patch', `${P}/tenants/:tenantId`, () => ({ params: { tenantId: world.t2 }, body: { referenceId: unique('T2') } })),
  gql('tenants.update', 'mutation', 'updateTenant', () => ({ variables: { id: world.t2, input: { referenceId: unique('T2') } } })),
  ws('tenants.subscribe', 'tenantCreated', 'subscription { tenantCreated { id } }', () => ({
    trigger: async () => void (await createTenant(app, world.owner.platformToken, unique('announced'))),
  })),
  rest('tenantTokens.issue', 'post', `${P}/auth/tenants/authorize`, () => ({ tenant: world.t0.id })),
  rest('tenantTokens.issue', 'post', `${V2}/auth/tenants/authorize`, () => ({ tenant: world.t0.id })),

  // A tenant's profile
  ...[`${V2}/profile`, `${V2}/profile/credit-report`, `${B}/profile`, `${B}/profile/credit-report`].map((path) =>
    rest('tenantProfile.read', 'get', path, () => ({ tenant: world.t0.id })),
  ),
  gql('tenantProfile.read', 'query', 'creditReport', () => ({ tenant: world.t0.id })),
  ...[`${V2}/profile`, `${B}/profile`].map((path) =>
    rest(
      'tenantProfile.write',
      'post',
      path,
      (_c, f) => ({ tenant: fixtureId(f, 'tenantId', world.t0.id) as string, body: { companyInformation: { registrationNumber: '09876543' } } }),
      {
        prepare: freshTenant,
      },
    ),
  ),
  gql(
    'tenantProfile.write',
    'mutation',
    'setUpTenantProfile',
    (_c, f) => ({ tenant: fixtureId(f, 'tenantId', world.t0.id) as string, variables: { input: { companyInformation: { registrationNumber: '09876543' } } } }),
    {
      prepare: freshTenant,
    },
  ),
  ...[`${V2}/profile`, `${B}/profile`].map((path) =>
    rest(
      'tenantProfile.write',
      'patch',
      path,
      (_c, f) => ({ tenant: fixtureId(f, 'tenantId', world.t0.id) as string, body: { financials: { revenue: { code: 'GBP', value: 900000 } } } }),
      { prepare: t3 },
    ),
  ),
  rest(
    'tenantProfile.write',
    'put',
    `${B}/profile`,
    (_c, f) => ({ tenant: fixtureId(f, 'tenantId', world.t0.id) as string, body: { companyInformation: { registrationNumber: '09876543' } } }),
    { prepare: t3 },
  ),
  gql(
    'tenantProfile.write',
    'mutation',
    'updateTenantProfile',
    (_c, f) => ({ tenant: fixtureId(f, 'tenantId', world.t0.id) as string, variables: { input: { financials: { revenue: { code: 'GBP', value: 900000 } } } } }),
    {
      prepare: t3,
    },
  ),

  // Marketplace V1 profiles
  rest('profiles.create', 'post', `${V1}/profiles/anonymous`, () => ({ body: { countryCode: 'GB' } })),
  rest('profiles.create', 'post', `${V1}/profiles/blank`),
  gql('profiles.create', 'mutation', 'createBlankProfile'),
  gql('profiles.create', 'mutation', 'createAnonymousProfile', () => ({ variables: { countryCode: 'GB' } })),
  rest('profiles.write', 'patch', `${V1}/profiles/:uuid/company`, () => ({
    params: { uuid: world.profile },
    body: { website: 'https://acme-widgets.example' },
  })),
  rest('profiles.write', 'patch', `${V1}/profiles/:uuid/financials`, () => ({
    params: { uuid: world.profile },
    body: { revenue: { code: 'GBP', value: 900000 } },
  })),
  gql('profiles.write', 'mutation', 'patchProfileCompany', () => ({ variables: { uuid: world.profile, input: { website: 'https://acme-widgets.example' } } })),
  gql('profiles.write', 'mutation', 'patchProfileFinancials', () => ({
    variables: { uuid: world.profile, input: { revenue: { code: 'GBP', value: 900000 } } },
  })),
  ...(['rest', 'graphql'] as const).map((surface) => {
    // Only the master key that created a profile may move it: the allowed credential is a master key
    // holding exactly profile:write, and the profile is created with it.
    const prepare = async (_kind: TokenKind, credential: Credential): Promise<Fixture> => {
      const { uuid } = await json(await postJson(`${app.url}${V1}/profiles/blank`, undefined, bearer(credential.token)), 200);
      return { uuid, target: (await factory.apiKey([UNRELATED_KEY_SCOPE])).keyPrefix };
    };
    const params = (f: Fixture) => ({
      uuid: fixtureId(f, 'uuid', world.profile) as string,
      targetApiKey: fixtureId(f, 'target', 'key_000000000000') as string,
    });
    return surface === 'rest'
      ? rest('profiles.move', 'put', `${V1}/profiles/:uuid/move/:targetApiKey`, (_c, f) => ({ params: params(f) }), { masterKey: true, prepare })
      : gql('profiles.move', 'mutation', 'moveProfile', (_c, f) => ({ variables: params(f) }), { masterKey: true, prepare });
  }),
  ...(['rest', 'graphql'] as const).map((surface) => {
    const prepare = async (): Promise<Fixture> => ({
      uuid: (await json(await postJson(`${app.url}${V1}/profiles/anonymous`, { countryCode: 'GB' }, bearer(world.setupV1)), 200)).uuid,
    });
    return surface === 'rest'
      ? rest('profiles.claim', 'patch', `${V1}/profiles/:uuid/set-ownership`, (_c, f) => ({ params: { uuid: fixtureId(f, 'uuid', world.profile) } }), {
          prepare,
        })
      : gql('profiles.claim', 'mutation', 'setProfileOwnership', (_c, f) => ({ variables: { uuid: fixtureId(f, 'uuid', world.profile) } }), { prepare });
  }),
  rest('profiles.read', 'get', `${V1}/profiles/:uuid`, (c) => ({ params: { uuid: profileFor(c.kind) } })),
  rest('profiles.read', 'get', `${V1}/profiles/:uuid/url-schemas/:type`, (c) => ({ params: { uuid: profileFor(c.kind), type: 'funding-search' } })),
  gql('profiles.read', 'query', 'profile', (c) => ({ variables: { uuid: profileFor(c.kind) } })),
  gql('profiles.read', 'query', 'profileFundingSearchUrl', (c) => ({ variables: { uuid: profileFor(c.kind) } })),

  // Cases and documents
  rest('cases.apply', 'post', `${V1}/profiles/:uuid/cases/apply`, () => ({ params: { uuid: world.caseProfile } })),
  gql('cases.apply', 'mutation', 'applyForCase', () => ({ variables: { uuid: world.caseProfile } })),
  rest('documents.write', 'post', `${V1}/profiles/:uuid/documents`, (c) => ({ params: { uuid: profileFor(c.kind) }, body: documentForm() })),
  rest('documents.write', 'get', `${V1}/profiles/:uuid/documents`, (c) => ({ params: { uuid: profileFor(c.kind) } })),
  gql('documents.write', 'mutation', 'attachDocument', (c) => ({
    variables: { profileId: profileFor(c.kind), fileName: 'accounts.pdf', contentType: 'application/pdf', contentBase64: MINIMAL_PDF.toString('base64') },
  })),
  gql('documents.write', 'query', 'profileDocuments', (c) => ({ variables: { uuid: profileFor(c.kind) } })),

  // Questionnaires and answers
  rest('questionnaires.read', 'get', `${V1}/questionnaires`),
  rest('questionnaires.read', 'get', `${V1}/questionnaires/:id`, () => ({ params: { id: QUESTIONNAIRE } })),
  rest('questionnaires.read', 'get', `${V1}/questionnaires/:questionnaireId/json-schema`, () => ({ params: { questionnaireId: QUESTIONNAIRE } })),
  rest('questionnaires.read', 'get', `${V1}/questionnaires/:questionnaireId/profiles/:profileId/json-schema`, (c) => ({
    params: { questionnaireId: QUESTIONNAIRE, profileId: profileFor(c.kind) },
  })),
  rest('questionnaires.read', 'get', `${V1}/questionnaires/:questionnaireId/profiles/:profileId/answers`, (c) => ({
    params: { questionnaireId: QUESTIONNAIRE, profileId: profileFor(c.kind) },
  })),
  gql('questionnaires.read', 'query', 'questionnaires'),
  gql('questionnaires.read', 'query', 'questionnaire', () => ({ variables: { id: QUESTIONNAIRE } })),
  gql('questionnaires.read', 'query', 'questionnaireJsonSchema', (c) => ({ variables: { id: QUESTIONNAIRE, profileId: profileFor(c.kind) } })),
  gql('questionnaires.read', 'query', 'answers', (c) => ({ variables: { questionnaireId: QUESTIONNAIRE, profileId: profileFor(c.kind) } })),
  rest('answers.write', 'put', `${V1}/questionnaires/:questionnaireId/profiles/:profileId/answers`, (c) => ({
    params: { questionnaireId: QUESTIONNAIRE, profileId: profileFor(c.kind, world.answersProfile) },
    body: ACME_ANSWERS,
  })),
  rest('answers.write', 'patch', `${V1}/questionnaires/:questionnaireId/profiles/:profileId/answers`, (c) => ({
    params: { questionnaireId: QUESTIONNAIRE, profileId: profileFor(c.kind, world.answersProfile) },
    body: { clientName: 'Ada Owner' },
  })),
  rest('answers.write', 'delete', `${V1}/questionnaires/:questionnaireId/profiles/:profileId/answers`, (c) => ({
    params: { questionnaireId: QUESTIONNAIRE, profileId: profileFor(c.kind, world.answersProfile) },
    query: 'answerKey=inviteClient',
  })),
  gql('answers.write', 'mutation', 'putAnswers', (c) => ({
    variables: { questionnaireId: QUESTIONNAIRE, profileId: profileFor(c.kind, world.answersProfile), answers: ACME_ANSWERS },
  })),
  gql('answers.write', 'mutation', 'patchAnswers', (c) => ({
    variables: { questionnaireId: QUESTIONNAIRE, profileId: profileFor(c.kind, world.answersProfile), answers: { clientName: 'Ada Owner' } },
  })),
  gql('answers.write', 'mutation', 'deleteAnswers', (c) => ({
    variables: { questionnaireId: QUESTIONNAIRE, profileId: profileFor(c.kind, world.answersProfile), answerKeys: ['inviteClient'] },
  })),

  // Matching and applying
  rest('funding.read', 'get', `${V1}/profiles/:uuid/funding/matches/count`, (c) => ({ params: { uuid: profileFor(c.kind) } })),
  rest('funding.read', 'get', `${V1}/profiles/:uuid/funding/matches/results`, (c) => ({ params: { uuid: profileFor(c.kind) } })),
  gql('funding.read', 'query', 'profileMatches', (c) => ({ variables: { uuid: profileFor(c.kind) } })),
  rest('funding.apply', 'post', `${V1}/profiles/:uuid/funding/apply`, () => ({
    params: { uuid: world.applyProfile.uuid },
    body: world.applyProfile.selection,
  })),
  gql('funding.apply', 'mutation', 'applyToLenders', () => ({ variables: { profileId: world.applyProfile.uuid, selection: world.applyProfile.selection } })),

  // Staff
  gql('deliveries.manage', 'query', 'webhookDeliveries'),
  gql('deliverySummary.read', 'query', 'webhookDeliverySummary'),
  gql('deliveries.manage', 'mutation', 'redeliverWebhook', (_c, f) => ({ variables: { deliveryId: fixtureId(f, 'deliveryId', NO_SUCH) } }), {
    prepare: deliveredDeliveryOfLenderA,
  }),
  rest('reviews.submit', 'post', `${P}/review-selections/:selectionId/submit`, (_c, f) => ({ params: { selectionId: fixtureId(f, 'selectionId', NO_SUCH) } }), {
    prepare: freshSelection,
  }),
  gql('reviews.submit', 'mutation', 'submitReviewedSelection', (_c, f) => ({ variables: { selectionId: fixtureId(f, 'selectionId', NO_SUCH) } }), {
    prepare: freshSelection,
  }),
  gql('reviews.read', 'query', 'reviewQueue'),
  gql('reviews.read', 'query', 'reviewSelection', (_c, f) => ({ variables: { selectionId: fixtureId(f, 'selectionId', NO_SUCH) } }), {
    prepare: freshSelection,
  }),
  gql(
    'reviews.reject',
    'mutation',
    'rejectReviewSelection',
    (_c, f) => ({ variables: { selectionId: fixtureId(f, 'selectionId', NO_SUCH), reason: 'Turnover too low' } }),
    { prepare: freshSelection },
  ),
  gql(
    'reviews.return',
    'mutation',
    'returnReviewSelection',
    (_c, f) => ({ variables: { selectionId: fixtureId(f, 'selectionId', NO_SUCH), reason: 'Choose again' } }),
    { prepare: freshSelection },
  ),
  gql('reviews.assign', 'mutation', 'assignReviewSelectionToMe', (_c, f) => ({ variables: { selectionId: fixtureId(f, 'selectionId', NO_SUCH) } }), {
    prepare: freshSelection,
  }),
  gql(
    'reviews.note',
    'mutation',
    'addReviewNote',
    (_c, f) => ({ variables: { selectionId: fixtureId(f, 'selectionId', NO_SUCH), text: 'Checked the accounts' } }),
    { prepare: freshSelection },
  ),
  gql('applicationBoard.read', 'query', 'lenderApplicationBoard'),
  gql('applicationBoard.read', 'query', 'lenderApplicationHistory', () => ({ variables: { applicationId: world.documentApplication.applicationId } })),
  gql('insights.read', 'query', 'applicationsByStatus', () => ({ variables: { window: { since: '2026-01-01T00:00:00Z', bucket: 'WEEK' } } })),
  gql('insights.read', 'query', 'lenderResponseTimes', () => ({ variables: { window: { since: '2026-01-01T00:00:00Z' } } })),
  gql('reviews.read', 'query', 'reviewQueueStanding'),

  // Company registry and lender catalogue
  rest('companies.read', 'get', `${V1}/companies/search/:searchTerm`, () => ({ params: { searchTerm: 'ACME' } })),
  rest('companies.read', 'get', `${V1}/companies/:registrationNumber`, () => ({ params: { registrationNumber: '09876543' } })),
  gql('companies.read', 'query', 'companySearch', () => ({ variables: { term: 'ACME' } })),
  gql('companies.read', 'query', 'company', () => ({ variables: { registrationNumber: '09876543' } })),
  gql('lenders.manage', 'mutation', 'createLender', () => ({ variables: { input: { name: unique('Access Capital'), priceBand: 'AVERAGE' } } })),
  gql('lenders.manage', 'mutation', 'updateLender', () => ({ variables: { id: world.managedLenderId, input: { description: unique('Updated') } } })),
  gql('lenders.manage', 'mutation', 'saveLenderProduct', () => ({
    variables: {
      lenderId: world.managedLenderId,
      input: {
        productType: 'TERM_LOAN',
        name: 'Access term loan',
        minAmount: 10000,
        maxAmount: 20000,
        minTermMonths: 6,
        maxTermMonths: 12,
        annualRateMin: 7,
        annualRateMax: 12,
        active: false,
      },
    },
  })),
  gql('lenders.read', 'query', 'lenders'),
  gql('lenderSettings.read', 'query', 'lenderSettings'),
  gql('lenders.read', 'query', 'lender', () => ({ variables: { id: world.managedLenderId } })),

  // Business V1 applications
  rest('businessApplications.create', 'post', `${B}/applications`, () => ({ tenant: world.t0.id, body: APPLICATION })),
  rest('businessApplications.create', 'post', `${B}/applications/:applicationId/continue-url`, () => ({
    tenant: world.t0.id,
    params: { applicationId: world.t0.applicationId },
    body: { clickId: 'access-table' },
  })),
  rest('businessApplications.create', 'post', `${B}/applications/:applicationId/submit`, () => ({
    tenant: world.t0.id,
    params: { applicationId: world.t0.applicationId },
    body: world.t0.submit,
  })),
  gql('businessApplications.create', 'mutation', 'createApplication', () => ({ tenant: world.t0.id, variables: { input: APPLICATION } })),
  gql('businessApplications.create', 'mutation', 'submitApplicationToLender', () => ({
    tenant: world.t0.id,
    variables: { applicationId: world.t0.applicationId, ...world.t0.submit },
  })),
  rest('continueLinks.revoke', 'delete', `${B}/applications/:applicationId/continue-url`, () => ({
    tenant: world.t0.id,
    params: { applicationId: world.t0.revocableApplicationId },
  })),
  gql('continueLinks.revoke', 'mutation', 'revokeContinueUrls', () => ({ tenant: world.t0.id, variables: { applicationId: world.t0.revocableApplicationId } })),
  rest('businessApplications.read', 'get', `${B}/applications/validate-continue-url`, () => ({
    tenant: world.t0.id,
    query: `continueUrl=${encodeURIComponent(world.t0.continueUrl)}`,
  })),
  rest('businessApplications.read', 'get', `${B}/applications/:applicationId/matches`, () => ({
    tenant: world.t0.id,
    params: { applicationId: world.t0.applicationId },
  })),
  rest('businessApplications.read', 'get', `${B}/applications/:applicationId/pre-selected`, () => ({
    tenant: world.t0.id,
    params: { applicationId: world.t0.applicationId },
  })),
  gql('businessApplications.read', 'query', 'application', () => ({ tenant: world.t0.id, variables: { id: world.t0.applicationId } })),

  // Lender Application API and the client's decisions
  rest('lenderApplications.list', 'get', `${L}/applications`),
  rest('lenderApplications.list', 'get', `${L}/applications/totals`),
  rest('lenderApplications.list', 'get', `${L}/applications/:id`, () => ({ params: { id: world.documentApplication.applicationId } })),
  rest('lenderApplications.list', 'get', `${L}/v1/funding/search/:id/document/:documentId`, () => ({
    params: { id: world.documentApplication.applicationId, documentId: world.documentApplication.documentId },
  })),
  ...(
    [
      ['acknowledgement', { comment: 'In manual review, 48 hours' }],
      ['offer', termLoanOffer()],
      ['rejection', { reason: 'Ineligible', comment: 'Outside our sector appetite' }],
    ] as const
  ).map(([action, body]) =>
    rest(
      'lenderApplications.respond',
      'post',
      `${L}/applications/:id/${action}`,
      (_c, f) => ({ params: { id: fixtureId(f, 'applicationId', 2_000_000_000) }, body }),
      {
        prepare: async () => ({ applicationId: await storedLenderApplication(app, { lenderId: world.lenderA.lenderId, profileId: world.profile }) }),
      },
    ),
  ),
  // The lender's own webhook deliveries
  rest('lenderDeliveries.read', 'get', `${L}/deliveries`),
  rest('lenderEvents.read', 'get', `${L}/events`),
  rest('lenderEndpoints.test', 'post', `${L}/endpoints/:kind/test`, () => ({ params: { kind: 'created' } })),
  rest('lenderDeliveries.replay', 'post', `${L}/deliveries/:id/redeliver`, (_c, f) => ({ params: { id: fixtureId(f, 'deliveryId', NO_SUCH) } }), {
    prepare: deliveredDeliveryOfLenderA,
  }),
  rest('lenderDeliveries.replay', 'post', `${L}/deliveries/replay`, () => ({ body: { status: 'FAILED' } })),
  rest('lenderDeliveries.read', 'get', `${L}/deliveries/:id`, (_c, f) => ({ params: { id: fixtureId(f, 'deliveryId', NO_SUCH) } }), {
    prepare: deliveredDeliveryOfLenderA,
  }),
  rest('lenderEndpoints.read', 'get', `${L}/endpoints`),
  rest('lenderEndpoints.write', 'patch', `${L}/endpoints/:kind`, () => ({ params: { kind: 'updated' }, body: { enabled: true } })),
  rest('lenderSecrets.rotate', 'post', `${L}/webhook-secret/rotate`, () => ({ body: { overlapSeconds: 60 } })),
  ...(['client-secret', 'password'] as const).map((credential) =>
    keepingLenderACredentials(rest('lenderCredentials.rotate', 'post', `${L}/credentials/${credential}/rotate`)),
  ),
  // An integrator account's webhook endpoints, deliveries and events
  rest('webhookEndpoints.read', 'get', `${P}/webhook-endpoints`),
  rest('webhookEndpoints.read', 'get', `${P}/webhook-endpoints/:endpointId`, (_c, f) => ({ params: { endpointId: fixtureId(f, 'endpointId', NO_SUCH) } }), {
    prepare: accountEndpoint,
  }),
  rest('webhookEndpoints.manage', 'post', `${P}/webhook-endpoints`, () => ({
    body: { url: 'https://hooks.example.com/access-table', eventTypes: ['offer.created'] },
  })),
  rest(
    'webhookEndpoints.manage',
    'patch',
    `${P}/webhook-endpoints/:endpointId`,
    (_c, f) => ({ params: { endpointId: fixtureId(f, 'endpointId', NO_SUCH) }, body: { enabled: false } }),
    { prepare: accountEndpoint },
  ),
  rest(
    'webhookEndpoints.manage',
    'delete',
    `${P}/webhook-endpoints/:endpointId`,
    (_c, f) => ({ params: { endpointId: fixtureId(f, 'endpointId', NO_SUCH) } }),
    { prepare: accountEndpoint },
  ),
  rest('integratorDeliveries.read', 'get', `${P}/webhook-deliveries`),
  rest('integratorDeliveries.replay', 'post', `${P}/webhook-deliveries/:id/redeliver`, (_c, f) => ({ params: { id: fixtureId(f, 'deliveryId', NO_SUCH) } }), {
    prepare: deliveredDeliveryOfAccount,
  }),
  rest('integratorDeliveries.replay', 'post', `${P}/webhook-deliveries/replay`, () => ({ body: { status: 'FAILED' } })),
  rest('integratorEvents.read', 'get', `${P}/events`),
  ...[V1, B].flatMap((base) =>
    (
      [
        ['accept', 'Offered'],
        ['decline', 'Offered'],
        ['resubmit', 'Failed'],
      ] as const
    ).map(([decision, state]) =>
      rest(
        'lenderApplications.decide',
        'post',
        `${base}/lender-applications/:applicationId/${decision}`,
        (_c, f) => ({ params: { applicationId: fixtureId(f, 'applicationId', 2_000_000_000) } }),
        {
          prepare: decisionFixture(state),
        },
      ),
    ),
  ),
  ...(
    [
      ['acceptOffer', 'Offered'],
      ['declineOffer', 'Offered'],
      ['resubmitApplication', 'Failed'],
    ] as const
  ).map(([field, state]) =>
    gql('lenderApplications.decide', 'mutation', field, (_c, f) => ({ variables: { applicationId: fixtureId(f, 'applicationId', 2_000_000_000) } }), {
      prepare: decisionFixture(state),
    }),
  ),
  ws(
    'applicationEvents.subscribe',
    'applicationStatusChanged',
    'subscription($a: Int) { applicationStatusChanged(applicationId: $a) { applicationId } }',
    (c) => eventTrigger(c, 'status'),
  ),
  ws('applicationEvents.subscribe', 'offerStatusChanged', 'subscription($a: Int) { offerStatusChanged(applicationId: $a) { applicationId } }', (c) =>
    eventTrigger(c, 'offer'),
  ),
];

// ----------------------------------------------------------------------------- the expectations

const ruleOf = (operation: Operation) => ACCESS_POLICY[operation] as { tokens: readonly TokenKind[]; scope?: string | readonly string[] };
const scopesOf = (operation: Operation): readonly string[] => {
  const scope = ruleOf(operation).scope;
  return scope === undefined ? [] : typeof scope === 'string' ? [scope] : scope;
};
const surfaceTakes = (surface: Surface, kind: TokenKind) => (SURFACE_TOKENS[surface] as readonly TokenKind[]).includes(kind);
const KEY_KINDS = ['platform', 'master', 'marketplace_v1'] as const;
const isKeyKind = (kind: TokenKind): kind is (typeof KEY_KINDS)[number] => (KEY_KINDS as readonly string[]).includes(kind);

type Variant = { side: 'allowed'; scopes: readonly string[] } | { side: 'lacking'; scopes?: readonly string[] } | { side: 'refused' };

interface Case {
  probe: Probe;
  kind: TokenKind;
  variant: Variant;
  expected: number;
  title: string;
}

function casesOf(probe: Probe): Case[] {
  const rule = ruleOf(probe.operation);
  const scopes = scopesOf(probe.operation);
  const out: Case[] = [];
  for (const kind of TOKEN_KINDS) {
    const add = (variant: Variant, expected: number, who: string) =>
      out.push({ probe, kind, variant, expected, title: `${probe.operation} · ${probe.name} · ${who} → ${expected}` });
    if (!surfaceTakes(probe.surface, kind)) {
      add({ side: 'refused' }, 401, `${kind} (not taken by this surface)`);
      continue;
    }
    if (!rule.tokens.includes(kind)) {
      add({ side: 'refused' }, 403, `${kind} (kind not allowed)`);
      continue;
    }
    if (kind === 'tenant') {
      // A tenant token holds the tenant scopes (spec 2.5) its key holds: one minted from a key of each
      // single scope is allowed exactly when that scope is a tenant scope the rule names (or the rule
      // names none); a key of funding:write alone gives a tenant token that writes nothing.
      for (const scope of API_KEY_SCOPES) {
        const meets = scopes.length === 0 || (scopes.includes(scope) && (TENANT_TOKEN_SCOPES as readonly string[]).includes(scope));
        add({ side: meets ? 'allowed' : 'lacking', scopes: [scope] }, meets ? probe.success : 403, `tenant from a key of [${scope}] only`);
      }
      continue;
    }
    const scoped = isKeyKind(kind) || kind === 'login';
    if (!scoped || scopes.length === 0) {
      // Lender tokens are allowed or refused by kind only; rules without a scope are met by a key
      // holding only an unrelated scope.
      const held = kind === 'login' ? [UNRELATED_LOGIN_SCOPE] : isKeyKind(kind) ? [UNRELATED_KEY_SCOPE] : [];
      add({ side: 'allowed', scopes: held }, probe.success, held.length ? `${kind}[${held.join(' ')}] (the rule names no scope)` : kind);
      continue;
    }
    for (const scope of scopes) add({ side: 'allowed', scopes: [scope] }, probe.success, `${kind}[${scope}] only`);
    add({ side: 'lacking' }, 403, `${kind}[${kind === 'login' ? UNRELATED_LOGIN_SCOPE : UNRELATED_KEY_SCOPE}] (lacks ${scopes.join(' or ')})`);
  }
  return out;
}

/** The strongest credential of a kind (every scope it can hold): what a refusal by kind must withstand. */
async function strongest(kind: TokenKind): Promise<Credential> {
  switch (kind) {
    case 'login':
      return { kind, label: 'login(STAFF)', token: world.staffLoginToken };
    case 'platform':
      return { kind, label: 'platform(all scopes)', token: world.owner.platformToken };
    case 'master':
      return { kind, label: 'master(all scopes)', token: world.setupMaster };
    case 'marketplace_v1':
      return { kind, label: 'marketplace_v1(all scopes)', token: world.setupV1 };
    case 'tenant':
      return factory.tenant(world.t0.id, 'T0', API_KEY_SCOPES);
    case 'lender':
      return factory.lender(world.lenderA, 'A');
  }
}

async function credentialFor(c: Case): Promise<Credential> {
  const { kind, variant } = c;
  if (variant.side === 'refused') return strongest(kind);
  const held = variant.side === 'allowed' ? variant.scopes : (variant.scopes ?? [kind === 'login' ? UNRELATED_LOGIN_SCOPE : UNRELATED_KEY_SCOPE]);
  if (kind === 'tenant') return factory.tenant(world.t0.id, 'T0', held);
  if (kind === 'login') return factory.login(held);
  if (isKeyKind(kind)) return factory.keyToken(kind, held, { isMaster: c.probe.masterKey === true && variant.side === 'allowed' });
  return strongest(kind); // lender: by kind only
}

async function run(c: Case): Promise<Outcome> {
  let credential = await credentialFor(c);
  let fixture: Fixture = {};
  if (c.variant.side === 'allowed' && c.probe.prepare) {
    fixture = await c.probe.prepare(c.kind, credential);
    credential = fixture.credential ?? credential;
  }
  return c.probe.request(credential, fixture);
}

const CASES = PROBES.flatMap(casesOf);

// ------------------------------------------------------------------------------ field rows

/**
 * A way to reach the parent of a nested field: a root field whose own row lets the kind through
 * holding `scopes` (besides the field's), and the operation selecting the field below it.
 */
interface ParentPath {
  /** The root field's row: which kinds reach the parent this way. */
  operation: Operation;
  root: `${RootKind}.${string}`;
  scopes: (kind: TokenKind) => readonly string[];
  /** The operation, `$FIELD` standing for the field's selection. */
  query: string;
  variables: (kind: TokenKind) => Record<string, unknown>;
  /** Tenant-scoped: a platform token sends Service-tenant-id (T0). */
  tenant?: boolean;
}

interface FieldProbe {
  /** The field row of the access table, `<Type>.<field>`. */
  operation: Operation;
  /** The field's selection below its parent. */
  selection: string;
  parents: ParentPath[];
}

const profileRead: ParentPath = {
  operation: 'profiles.read',
  root: 'query.profile',
  scopes: () => ['profile:read'],
  query: 'query($uuid: ID!) { profile(uuid: $uuid) { uuid $FIELD } }',
  variables: (kind) => ({ uuid: profileFor(kind) }),
};
/** A Marketplace V1 key holding profile:write alone reaches a profile through a change of it. */
const profilePatched: ParentPath = {
  operation: 'profiles.write',
  root: 'mutation.patchProfileCompany',
  scopes: () => ['profile:write'],
  query: 'mutation($uuid: ID!, $input: CompanyInformationPatchInput!) { patchProfileCompany(uuid: $uuid, input: $input) { uuid $FIELD } }',
  variables: () => ({ uuid: world.profile, input: { website: 'https://acme-widgets.example' } }),
};
const applicationRead: ParentPath = {
  operation: 'businessApplications.read',
  root: 'query.application',
  scopes: () => ['profile:read'],
  query: 'query($id: ID!) { application(id: $id) { id $FIELD } }',
  variables: () => ({ id: world.t0.applicationId }),
  tenant: true,
};
/** An application as created: reached holding funding:write (a tenant token: profile:write) alone. */
const applicationCreated: ParentPath = {
  operation: 'businessApplications.create',
  root: 'mutation.createApplication',
  scopes: (kind) => (kind === 'tenant' ? ['profile:write'] : ['funding:write']),
  query: 'mutation($input: JSONObject!) { createApplication(input: $input) { id $FIELD } }',
  variables: () => ({ input: APPLICATION }),
  tenant: true,
};

const FIELD_PROBES: FieldProbe[] = [
  {
    operation: 'Tenant.profile',
    selection: 'profile { uuid }',
    parents: [
      {
        operation: 'tenants.read',
        root: 'query.tenant',
        scopes: () => [],
        query: 'query($id: ID!) { tenant(id: $id) { id $FIELD } }',
        variables: () => ({ id: world.t0.id }),
      },
    ],
  },
  { operation: 'Profile.documents', selection: 'documents { id }', parents: [profileRead, profilePatched] },
  { operation: 'Profile.cases', selection: 'cases { id }', parents: [profileRead, profilePatched] },
  { operation: 'Profile.matches', selection: 'matches { id }', parents: [profileRead, profilePatched] },
  { operation: 'Profile.applications', selection: 'applications { id }', parents: [profileRead] },
  { operation: 'Application.matches', selection: 'matches { numberOfMatches }', parents: [applicationRead, applicationCreated] },
  { operation: 'Application.preselectedOffers', selection: 'preselectedOffers { id }', parents: [applicationRead, applicationCreated] },
];

/**
 * Field rows whose scope no credential can lack on the field: every parent the row's kinds reach
 * needs one of the row's scopes itself. Their kinds are still probed on both sides.
 */
const SCOPE_MET_BY_EVERY_PARENT: Partial<Record<Operation, string>> = {
  'Profile.applications': "platform and tenant tokens reach a Profile only through profile or Tenant.profile, which need profile:read, one of the row's scopes",
};

interface FieldCase {
  probe: FieldProbe;
  parent: ParentPath;
  kind: TokenKind;
  /** The scopes the key holds; none for a refused kind (its strongest credential is used). */
  held: readonly string[] | 'strongest';
  /** Answered, or FORBIDDEN on the field itself. */
  expected: 'answered' | 'forbidden';
  title: string;
}

const fieldName = (operation: Operation) => operation.split('.')[1]!;
const meets = (held: readonly string[], scopes: readonly string[]) => scopes.length === 0 || scopes.some((s) => held.includes(s));
/** What a tenant token minted from a key of these scopes holds. */
const tenantHolds = (keyScopes: readonly string[]) => keyScopes.filter((s) => (TENANT_TOKEN_SCOPES as readonly string[]).includes(s));

function fieldCasesOf(probe: FieldProbe): FieldCase[] {
  const rule = ruleOf(probe.operation);
  const scopes = scopesOf(probe.operation);
  const out: FieldCase[] = [];
  for (const kind of TOKEN_KINDS) {
    const parents = probe.parents.filter((parent) => ruleOf(parent.operation).tokens.includes(kind) && surfaceTakes('graphql', kind));
    if (parents.length === 0) continue; // the root field refuses this kind before the field is asked: its own probes say so
    if (!rule.tokens.includes(kind)) {
      out.push({
        probe,
        parent: parents[0]!,
        kind,
        held: 'strongest',
        expected: 'forbidden',
        title: `${probe.operation} · ${kind} (kind not allowed), below ${parents[0]!.root} → FORBIDDEN on the field`,
      });
      continue;
    }
    for (const parent of parents) {
      const base = parent.scopes(kind);
      const effective = (held: readonly string[]) => (kind === 'tenant' ? tenantHolds(held) : held);
      for (const scope of scopes) {
        if (kind === 'tenant' && !tenantHolds([scope]).length) continue; // a tenant token cannot hold it (e.g. funding:read)
        const held = [...new Set([...base, scope])].sort();
        if (!meets(effective(held), scopesOf(parent.operation))) continue;
        out.push({ probe, parent, kind, held, expected: 'answered', title: `${probe.operation} · ${kind}[${held.join(' ')}] below ${parent.root} → answered` });
      }
      const lacking = base.length ? [...base] : [UNRELATED_KEY_SCOPE];
      if (!meets(effective(lacking), scopes)) {
        out.push({
          probe,
          parent,
          kind,
          held: lacking,
          expected: 'forbidden',
          title: `${probe.operation} · ${kind}[${lacking.join(' ')}] below ${parent.root} (lacks ${scopes.join(' or ')}) → FORBIDDEN on the field`,
        });
      }
    }
  }
  return out;
}

async function fieldCredential(c: FieldCase): Promise<Credential> {
  if (c.held === 'strongest') return strongest(c.kind);
  if (c.kind === 'tenant') return factory.tenant(world.t0.id, 'T0', c.held);
  if (isKeyKind(c.kind)) return factory.keyToken(c.kind, c.held);
  throw new Error(`no scoped credential of kind ${c.kind} for a field row`);
}

async function runField(c: FieldCase): Promise<{ data: any; errors: Array<{ path?: unknown[]; extensions?: { code?: string } }>; text: string }> {
  const credential = await fieldCredential(c);
  const query = c.parent.query.replace('$FIELD', c.probe.selection);
  const outcome = await graphqlOutcome(app.url, query, c.parent.variables(c.kind), headersOf(credential, c.parent.tenant ? world.t0.id : undefined));
  const body = JSON.parse(outcome.text);
  return { data: body.data, errors: body.errors ?? [], text: outcome.text };
}

const FIELD_CASES = FIELD_PROBES.flatMap(fieldCasesOf);

// ------------------------------------------------------------------------------------ coverage

describe('the probes cover the access table, the routes and the schema', () => {
  it('every operation of ACCESS_POLICY has at least one probe', () => {
    const probed = new Set([...PROBES, ...FIELD_PROBES].map((p) => p.operation));
    expect(Object.keys(ACCESS_POLICY).filter((op) => !probed.has(op as Operation))).toEqual([]);
  });

  it('every route of the route table that takes a bearer token has a probe, naming one operation', () => {
    const probedRoutes = new Map<string, Set<Operation>>();
    for (const p of PROBES) if ('route' in p.target) probedRoutes.set(p.target.route, (probedRoutes.get(p.target.route) ?? new Set()).add(p.operation));
    const unknown = [...probedRoutes.keys()].filter((key) => !ROUTE_BY_KEY.has(key));
    expect(unknown, 'probes of routes that the route table does not have').toEqual([]);
    const unprobed = ROUTES.filter((r) => r.surface !== 'public')
      .map((r) => routeKey(r.method, r.path))
      .filter((key) => !probedRoutes.has(key));
    expect(unprobed, 'routes without a probe').toEqual([]);
    const ambiguous = [...probedRoutes].filter(([, ops]) => ops.size > 1).map(([key]) => key);
    expect(ambiguous).toEqual([]);
  });

  it('every root field of the composed schema has a probe', () => {
    const probed = new Set(PROBES.flatMap((p) => ('field' in p.target ? [p.target.field] : [])));
    const all = (['query', 'mutation', 'subscription'] as const).flatMap((kind) => [...rootFields[kind].keys()].map((f) => `${kind}.${f}`));
    expect(all.filter((f) => !probed.has(f as `${RootKind}.${string}`))).toEqual([]);
  });

  it('every token kind a rule allows is exercised on a surface that takes it', () => {
    const fieldRows = new Set(FIELD_PROBES.map((p) => p.operation));
    const gaps = (Object.keys(ACCESS_POLICY) as Operation[])
      .filter((op) => !fieldRows.has(op))
      .flatMap((op) =>
        ruleOf(op)
          .tokens.filter((kind) => !PROBES.some((p) => p.operation === op && surfaceTakes(p.surface, kind)))
          .map((kind) => `${op}: ${kind}`),
      );
    expect(gaps).toEqual([]);
  });

  it('every field row has a probe below a parent, answered for each kind it allows, and refused on the field for lack of its scope', () => {
    const rows = (Object.keys(ACCESS_POLICY) as Operation[]).filter((op) => /^[A-Z]\w*\.\w+$/.test(op));
    expect(
      rows.filter((row) => !FIELD_PROBES.some((p) => p.operation === row)),
      'field rows without a probe',
    ).toEqual([]);
    const unanswered = rows.flatMap((row) =>
      ruleOf(row)
        .tokens.filter((kind) => !FIELD_CASES.some((c) => c.probe.operation === row && c.kind === kind && c.expected === 'answered'))
        .map((kind) => `${row}: ${kind}`),
    );
    expect(unanswered, 'allowed kinds never answered').toEqual([]);
    const neverLacking = rows.filter(
      (row) =>
        scopesOf(row).length > 0 &&
        !FIELD_CASES.some((c) => c.probe.operation === row && c.expected === 'forbidden' && c.held !== 'strongest') &&
        !SCOPE_MET_BY_EVERY_PARENT[row],
    );
    expect(neverLacking, 'field rows whose scope is never lacked (or declared impossible to lack)').toEqual([]);
  });

  it('the root fields field probes go through exist', () => {
    const all = new Set((['query', 'mutation', 'subscription'] as const).flatMap((kind) => [...rootFields[kind].keys()].map((f) => `${kind}.${f}`)));
    expect(FIELD_PROBES.flatMap((p) => p.parents.map((parent) => parent.root)).filter((root) => !all.has(root))).toEqual([]);
  });
});

// --------------------------------------------------------------------------- reads never write

/**
 * Tables written only by background work that runs whatever the requests do (the delivery worker
 * sends the webhooks of the world's lender applications): a request's writes to them could not be
 * told apart, and no read has a reason to touch them.
 */
const BACKGROUND_TABLES = ['webhook_delivery', 'webhook_delivery_attempt', 'request_log_entry'];
/**
 * Columns written only by background work: the HTTP layer writes each account's request log and its
 * keys' last use on a timer after the responses (request-recording.ts), whichever request they came from.
 */
const BACKGROUND_COLUMNS: Record<string, string> = { api_key: 'lastUsedAt' };

/** Writes since `after`, per table and statement, counted by statement-level triggers (a zero-row UPDATE counts too). */
async function writesSince(after: bigint): Promise<string[]> {
  const rows = await db().$queryRawUnsafe<Array<{ table_name: string; operation: string }>>(
    'SELECT table_name, operation FROM test_write_log WHERE id > $1 ORDER BY id',
    after,
  );
  return rows.map((r) => `${r.operation} ${r.table_name}`);
}

async function lastWrite(): Promise<bigint> {
  const [row] = await db().$queryRawUnsafe<Array<{ id: bigint }>>('SELECT COALESCE(MAX(id), 0)::bigint AS id FROM test_write_log');
  return row!.id;
}

/** Each GET route's probe with its first allowed credential (the documented success). */
const GET_CASES = PROBES.flatMap((probe) => {
  if (!('route' in probe.target) || !probe.target.route.startsWith('GET ')) return [];
  const allowed = casesOf(probe).find((c) => c.variant.side === 'allowed');
  return allowed ? [allowed] : [];
});

describe('reads never write: a GET writes nothing unless its route declares what it records', () => {
  let counted: string[] = [];
  beforeAll(async () => {
    await db().$executeRawUnsafe('CREATE TABLE test_write_log (id bigserial PRIMARY KEY, table_name text NOT NULL, operation text NOT NULL)');
    await db().$executeRawUnsafe(`CREATE FUNCTION test_log_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO test_write_log (table_name, operation) VALUES (TG_TABLE_NAME, TG_OP); RETURN NULL; END $$`);
    const tables = await db().$queryRawUnsafe<Array<{ tablename: string }>>(
      "SELECT tablename::text AS tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'test_write_log' AND NOT (tablename = ANY($1))",
      BACKGROUND_TABLES,
    );
    expect(tables.map((t) => t.tablename)).toContain('profile');
    counted = tables.map((t) => t.tablename);
    for (const table of counted) {
      // A table with a background column counts the updates of its other columns only.
      const background = BACKGROUND_COLUMNS[table];
      const columns = background
        ? (
            await db().$queryRawUnsafe<Array<{ name: string }>>(
              'SELECT column_name::text AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name <> $2',
              table,
              background,
            )
          ).map((c) => `"${c.name}"`)
        : [];
      const update = background ? `UPDATE OF ${columns.join(', ')}` : 'UPDATE';
      await db().$executeRawUnsafe(
        `CREATE TRIGGER test_write_log AFTER INSERT OR ${update} OR DELETE OR TRUNCATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION test_log_write()`,
      );
    }
  });
  // The probes of the matrix below run without the counter.
  afterAll(async () => {
    for (const table of counted) await db().$executeRawUnsafe(`DROP TRIGGER test_write_log ON "${table}"`);
  });

  it('every GET route of the route table is exercised here', () => {
    const exercised = new Set(GET_CASES.map((c) => (c.probe.target as { route: string }).route));
    const gets = ROUTES.filter((r) => r.method === 'get' && r.surface !== 'public').map((r) => routeKey(r.method, r.path));
    expect(gets.filter((key) => !exercised.has(key))).toEqual([]);
  });

  it('the statement counter sees a write (a new profile), so an empty count means no write', async () => {
    const before = await lastWrite();
    await json(await postJson(`${app.url}${V1}/profiles/blank`, undefined, bearer(world.setupV1)), 200);
    expect(await writesSince(before)).toContain('INSERT profile');
  });

  it('a GET that records writes on new inputs only: the first search of a profile is recorded, its repeat writes nothing', async () => {
    const auth = bearer(world.setupV1);
    const { uuid } = await json(await postJson(`${app.url}${V1}/profiles/blank`, undefined, auth), 200);
    await json(await send('PUT', `${V1}/questionnaires/${QUESTIONNAIRE}/profiles/${uuid}/answers`, auth, ACME_ANSWERS), 204);
    const results = `${V1}/profiles/${uuid}/funding/matches/results`;
    let before = await lastWrite();
    const first = await json(await send('GET', results, auth), 200);
    expect(first.matches.length).toBeGreaterThan(0);
    expect(await writesSince(before)).toEqual(expect.arrayContaining(['INSERT funding_search', 'UPDATE profile']));
    before = await lastWrite();
    expect((await json(await send('GET', results, auth), 200)).id).toBe(first.id);
    expect(await writesSince(before)).toEqual([]);
    // Other inputs are another search (recorded); asking for the first again points the profile back at it.
    before = await lastWrite();
    const unmatched = PRODUCT_TYPES.find((type) => !first.matches.some((m: { product: string }) => m.product === type));
    const other = await json(await send('GET', `${results}?productTypes=${unmatched}`, auth), 200);
    expect(other.id).not.toBe(first.id);
    expect(await writesSince(before)).toContain('INSERT funding_search');
    before = await lastWrite();
    expect((await json(await send('GET', results, auth), 200)).id).toBe(first.id);
    expect(await writesSince(before)).toEqual(['UPDATE profile']);
  });

  it.for(GET_CASES.map((c) => [c.probe.name, c] as const))('%s', async ([, c]) => {
    const route = ROUTE_BY_KEY.get((c.probe.target as { route: string }).route)!;
    let credential = await credentialFor(c);
    let fixture: Fixture = {};
    if (c.probe.prepare) {
      fixture = await c.probe.prepare(c.kind, credential);
      credential = fixture.credential ?? credential;
    }
    // A route that records writes only what is new: asked again the same, it writes nothing either.
    if (route.records) expect((await c.probe.request(credential, fixture)).status).toBe(c.expected);
    const before = await lastWrite();
    const outcome = await c.probe.request(credential, fixture);
    expect(outcome.status, outcome.text.slice(0, 600)).toBe(c.expected);
    expect(await writesSince(before), `${c.title}: writes`).toEqual([]);
  });

  it('a route that records says so in the OpenAPI document (x-records and its description)', () => {
    const document = buildOpenApiDocument() as { paths: Record<string, Record<string, { 'x-records'?: string; description?: string }>> };
    const recording = ROUTES.filter((r) => r.records);
    expect(recording.map((r) => r.operationId)).toContain('FundingController_matchResults');
    for (const route of recording) {
      const operation = document.paths[openApiPath(route.path)]![route.method]!;
      expect(operation['x-records']).toBe(route.records!.what);
      expect(operation.description).toContain(route.records!.description);
    }
  });
});

// -------------------------------------------------------------------------------------- matrix

describe.concurrent('every probe × every token kind, from the access table', () => {
  it.for(CASES.map((c) => [c.title, c] as const))('%s', async ([, c], { expect }) => {
    const outcome = await run(c);
    expect(outcome.status, outcome.text.slice(0, 600)).toBe(c.expected);
  });
});

describe.concurrent('every field row × every token kind that reaches its parent, from the access table', () => {
  it.for(FIELD_CASES.map((c) => [c.title, c] as const))('%s', async ([, c], { expect }) => {
    const { data, errors, text } = await runField(c);
    const field = fieldName(c.probe.operation);
    if (c.expected === 'answered') {
      expect(errors, text.slice(0, 600)).toEqual([]);
      const parent = Object.values(data as Record<string, Record<string, unknown>>)[0]!;
      expect(parent[field], text.slice(0, 600)).toBeDefined();
    } else {
      expect(errors.length, text.slice(0, 600)).toBeGreaterThan(0);
      for (const error of errors) {
        expect(error.extensions?.code, text.slice(0, 600)).toBe('FORBIDDEN');
        expect(error.path?.at(-1), text.slice(0, 600)).toBe(field);
      }
    }
  });
});

// ---------------------------------------------------------------------------- named regressions

describe('regressions named by the issue ("one access decision per operation")', () => {
  const onlyScope = (scope: string) => factory.keyToken('marketplace_v1', [scope]);

  it('an API key with only funding:read gets 200 on GET /api/marketplace/v1/profiles/{uuid}/funding/matches/count (was 403 "lacks the scope profile:read")', async () => {
    const credential = await onlyScope('funding:read');
    const outcome = await restOutcome(app.url, {
      method: 'get',
      path: `${V1}/profiles/${world.profile}/funding/matches/count`,
      headers: bearer(credential.token),
    });
    expect(outcome.status, outcome.text).toBe(200);
    expect(Number(outcome.text)).toBeGreaterThan(0);
  });

  it('questionnaire:read alone gets 200 on GET /api/marketplace/v1/questionnaires/{questionnaireId}/profiles/{profileId}/answers', async () => {
    const credential = await onlyScope('questionnaire:read');
    const outcome = await restOutcome(app.url, {
      method: 'get',
      path: `${V1}/questionnaires/${QUESTIONNAIRE}/profiles/${world.profile}/answers`,
      headers: bearer(credential.token),
    });
    expect(outcome.status, outcome.text).toBe(200);
    expect(JSON.parse(outcome.text)).toMatchObject({ companyName: 'ACME WIDGETS LIMITED' });
  });

  it('a profile:read-only platform token gets { tenant { profile { documents cases } } } answered or refused exactly as the field rows say', async () => {
    const credential = await factory.keyToken('platform', ['profile:read']);
    const res = JSON.parse(
      (
        await graphqlOutcome(
          app.url,
          'query($id: ID!) { tenant(id: $id) { id profile { uuid documents { id } cases { id } } } }',
          { id: world.t0.id },
          bearer(credential.token),
        )
      ).text,
    );
    const refused = (['Profile.documents', 'Profile.cases'] as const).filter((row) => !scopesOf(row).includes('profile:read')).map(fieldName);
    const errors = (res.errors ?? []) as Array<{ path: unknown[]; extensions: { code: string } }>;
    expect(errors.map((e) => [e.path.join('.'), e.extensions.code])).toEqual(refused.map((field) => [`tenant.profile.${field}`, 'FORBIDDEN']));
    expect(res.data.tenant.id).toBe(world.t0.id);
    // A refused field is a non-null list, so its refusal nulls the (nullable) profile; with none refused, the profile is whole.
    if (refused.length === 0)
      expect(res.data.tenant.profile).toMatchObject({ uuid: world.t0.profileId, documents: expect.any(Array), cases: expect.any(Array) });
    else expect(res.data.tenant.profile).toBeNull();
    // The same token reads the cases alone: their row asks for profile:read.
    const cases = JSON.parse(
      (await graphqlOutcome(app.url, 'query($id: ID!) { tenant(id: $id) { profile { cases { id } } } }', { id: world.t0.id }, bearer(credential.token))).text,
    );
    expect(cases.errors).toBeUndefined();
    expect(cases.data.tenant.profile.cases).toEqual(expect.any(Array));
  });

  it("profile:write alone gets 200 on the profile's documents list (GET /api/marketplace/v1/profiles/{uuid}/documents)", async () => {
    const credential = await onlyScope('profile:write');
    const outcome = await restOutcome(app.url, { method: 'get', path: `${V1}/profiles/${world.profile}/documents`, headers: bearer(credential.token) });
    expect(outcome.status, outcome.text).toBe(200);
    expect(JSON.parse(outcome.text).map((d: { id: string }) => d.id)).toContain(world.documentApplication.documentId);
  });
});

// docs/access.md's access table equals accessTableMarkdown(): asserted by test/access-matrix.test.ts ("the access table").
