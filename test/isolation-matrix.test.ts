/**
 * One visibility rule per entity: every kind of object × every foreign caller is refused on REST,
 * GraphQL and graphql-ws, the same way everywhere.
 *
 * Objects (all of account A): a Marketplace V1 profile and what hangs off it (funding search,
 * questionnaire answers, documents, a case, lender applications and their offers); tenants T0 and
 * T1; T0's profile; T0's Business V1 application (its matches, pre-selected offers, continue URL);
 * T0's lender applications and offers; documents. And an anonymous Marketplace V1 profile (nobody's,
 * readable by uuid) with lender applications made before claiming was required: nobody but staff
 * and the lender may act on those, whoever guesses their sequential ids.
 * Foreign callers: account B (its platform, master, Marketplace V1 and tenant tokens); T1's tenant
 * token on T0's objects (same account, another tenant); a tenant token naming another tenant in
 * Service-tenant-id (403); A's master token on /profile (403); lender B on lender A's applications.
 *
 * A foreign object answers 404, never 200 and never with its data, and it does so before the
 * request is validated: a foreign object with an invalid body is still a 404, not a 400 (ownership
 * before validation, so a 400 cannot reveal that the object exists). Callers use credentials with
 * every scope, so what refuses them is visibility, not a missing scope.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser, type LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { ACME_ANSWERS, ACME_APPLICATION } from './support/answers.js';
import { CredentialFactory } from './support/credentials.js';
import { settle } from './support/graphql-client.js';
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
  collectEvents,
  graphqlOutcome,
  introspectRootFields,
  restOutcome,
  rootOperation,
  type EventCollector,
  type Outcome,
  type RootFields,
} from './support/probe-client.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';
import { expectJson as json, MINIMAL_PDF, pdfForm, sendJson } from './support/rest-calls.js';

const V1 = '/api/marketplace/v1';
const V2 = '/api/marketplace/v2';
const B = '/api/business/v1';
const P = '/api/platform/v1';
const L = '/api/platform/v1/funding';
const Q = 'introducer-all-funding-products';

/** Marks written into A's objects: no answer to a foreign caller may contain one. */
const SECRET = randomUUID().slice(0, 8);
const MARKS = {
  profileWebsite: `https://p-secret-${SECRET}.example`,
  t0Website: `https://t0-secret-${SECRET}.example`,
  t0Reference: `T0-secret-${SECRET}`,
  applicationEmail: `t0-secret-${SECRET}@acme-widgets.example`,
};
const APPLICATION = { ...ACME_APPLICATION, clientEmail: MARKS.applicationEmail };

let app: TestApp;
let rootFields: RootFields;
let factory: CredentialFactory;
const db = () => app.runtime.database.prisma;

/** Ids the cases name as {PLACEHOLDERS}. */
const ids: Record<string, string | number | unknown> = {};

interface Actors {
  a: Integrator;
  b: Integrator;
  staffLogin: string;
  aV1: string;
  aMaster: string;
  bV1: string;
  bMaster: string;
  bKeyPrefix: string;
  t0Token: string;
  t1Token: string;
  tbToken: string;
  lenderA: LenderCredentials;
  lenderB: LenderCredentials;
}
let actors: Actors;

const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) => sendJson(app.url, method, path, headers, body);

const documentForm = () => pdfForm();

/** A state of A's objects that no foreign request may change. */
async function snapshot(): Promise<unknown> {
  const profileIds = [ids.P as string, ids.T0P as string, ids.ANON as string];
  const applicationIds = [ids.APPT0, ids.APPT0F, ids.APPP, ids.APPPF, ids.APPANON, ids.APPANONF] as number[];
  // The subscription tests move SUBT0 and SUBP on purpose; everything else must stay as it was.
  const moved = [ids.SUBT0, ids.SUBP] as number[];
  return {
    profiles: await db().profile.findMany({
      where: { id: { in: profileIds } },
      orderBy: { id: 'asc' },
      include: { documents: { select: { id: true } }, cases: { select: { id: true, state: true } }, reviewSelections: { select: { id: true, state: true } } },
    }),
    answers: await db().questionnaireAnswerSet.findMany({ where: { profileId: { in: profileIds } }, orderBy: { id: 'asc' } }),
    tenants: await db().tenant.findMany({ where: { id: { in: [ids.T0 as string, ids.T1 as string] } }, orderBy: { id: 'asc' } }),
    businessApplications: await db().businessApplication.findMany({ where: { tenantId: ids.T0 as string }, orderBy: { id: 'asc' } }),
    lenderApplications: await db().lenderApplication.findMany({
      where: { OR: [{ id: { in: applicationIds } }, { profileId: { in: profileIds } }], id: { notIn: moved } },
      orderBy: { id: 'asc' },
      select: {
        id: true,
        status: true,
        reference: true,
        comment: true,
        acceptedAt: true,
        updatedAt: true,
        offers: { select: { id: true, decision: true, supersededAt: true } },
      },
    }),
  };
}
let before: unknown;

beforeAll(async () => {
  app = await startTestApp();
  const [a, b] = [await signUpIntegrator(app, `iso-a-${SECRET}`), await signUpIntegrator(app, `iso-b-${SECRET}`)];
  const aUserId = (await db().platformUser.findFirstOrThrow({ where: { accountId: a.accountId } })).id;
  const staffEmail = `staff-${SECRET}@example.test`;
  const staff = await createAccountWithUser(db(), {
    environment: 'demo',
    accountName: 'specialists',
    email: staffEmail,
    password: 'staff-password-123',
    role: 'STAFF',
  });
  factory = new CredentialFactory(app, a.loginToken, { accountId: a.accountId, userId: aUserId }, staff);
  rootFields = await introspectRootFields(app.url, bearer(a.platformToken));

  // Tenants: T0 and T1 of A (both with a profile), TB of B.
  const [t0, t1, tb] = await Promise.all([
    createTenant(app, a.platformToken, MARKS.t0Reference),
    createTenant(app, a.platformToken, `T1-${SECRET}`),
    createTenant(app, b.platformToken, `TB-${SECRET}`),
  ]);
  const [t0Token, t1Token, tbToken] = await Promise.all(
    [t0, t1, tb].map(async (t, i) => (await platformToken(app, i === 2 ? b.apiKey : a.apiKey, t.id)).access_token),
  );
  const t0Auth = bearer(t0Token!);
  const t0Profile = await json(
    await send('POST', `${B}/profile`, t0Auth, { companyInformation: { registrationNumber: '09876543', website: MARKS.t0Website } }),
    201,
  );
  await json(await send('POST', `${B}/profile`, bearer(t1Token!), { companyInformation: { registrationNumber: '11223344' } }), 201);
  Object.assign(ids, { T0: t0.id, T1: t1.id, TB: tb.id, T0P: t0Profile.id });

  // T0's Business V1 application, its continue URL and a lender without requirements the profile misses.
  const application = await json(await send('POST', `${B}/applications`, t0Auth, APPLICATION), 201);
  const { continueUrl } = await json(await send('POST', `${B}/applications/${application.id}/continue-url`, t0Auth, {}), 201);
  const appMatches: Array<{ lender: { id: number }; product: string }> = (
    await json(await send('GET', `${B}/applications/${application.id}/matches`, t0Auth), 200)
  ).matches;

  // A's Marketplace V1 profile with ACME's answers, its matches and a mark in its company information.
  const aV1 = (await marketplaceV1Token(app, a.apiKey)).jwt;
  const v1Auth = bearer(aV1);
  const { uuid } = await json(await postJson(`${app.url}${V1}/profiles/blank`, undefined, v1Auth), 200);
  await json(await send('PUT', `${V1}/questionnaires/${Q}/profiles/${uuid}/answers`, v1Auth, ACME_ANSWERS), 204);
  await json(await send('PATCH', `${V1}/profiles/${uuid}/company`, v1Auth, { website: MARKS.profileWebsite }), 204);
  const search = await json(await send('GET', `${V1}/profiles/${uuid}/funding/matches/results`, v1Auth), 200);
  const profileMatches: Array<{ lender: { id: number }; product: string }> = search.matches;

  // Lender A: matched by both, for a product needing nothing the profiles lack; lender B: any other lender.
  const forApplication = await submittableMatches(app, appMatches);
  const forProfile = await submittableMatches(app, profileMatches);
  const submitBody = forApplication.find((a) => forProfile.some((p) => p.lenderId === a.lenderId));
  if (!submitBody) throw new Error('no lender matches both fixtures without extra requirements');
  const lenderAId = submitBody.lenderId;
  const selection = [forProfile.find((p) => p.lenderId === lenderAId)!];
  const lenderBRow = await db().lender.findFirstOrThrow({ where: { environment: 'demo', id: { not: lenderAId } }, orderBy: { id: 'asc' } });
  const [lenderA, lenderB] = [await lenderCredentials(app, lenderAId), await lenderCredentials(app, lenderBRow.id)];
  const lenderAToken = async () => (await factory.lender(lenderA, 'A')).token;

  // T0's lender applications, made as an integrator makes them (submit to a matched lender), and answered by lender A.
  const submit = async () =>
    (await json(await send('POST', `${B}/applications/${application.id}/submit`, t0Auth, submitBody), 201)).applications[0].applicationId as number;
  const [appT0, appT0Failed, subT0] = [await submit(), await submit(), await submit()];
  await lenderOffers(app, await lenderAToken(), appT0);
  await lenderFails(app, await lenderAToken(), appT0Failed);

  // The Marketplace V1 profile's: apply → staff submit; and two more in the states needed.
  const staffLogin = await signIn(app, staffEmail, 'staff-password-123');
  await json(await postJson(`${app.url}${V1}/profiles/${uuid}/funding/apply`, selection, v1Auth), 200);
  const selectionRow = await db().reviewSelection.findFirstOrThrow({ where: { profileId: uuid } });
  const submitted = await json(await postJson(`${app.url}${P}/review-selections/${selectionRow.id}/submit`, undefined, bearer(staffLogin)), 201);
  const appP = submitted.applications[0].applicationId as number;
  await lenderOffers(app, await lenderAToken(), appP);
  const appPFailed = await storedLenderApplication(app, { lenderId: lenderAId, profileId: uuid });
  await lenderFails(app, await lenderAToken(), appPFailed);
  const subP = await storedLenderApplication(app, { lenderId: lenderAId, profileId: uuid });

  // Documents (on both profiles) and a case of the Marketplace V1 profile.
  const docP = (await json(await fetch(`${app.url}${V1}/profiles/${uuid}/documents`, { method: 'POST', headers: v1Auth, body: documentForm() }), 201)).id;
  const attached = await graphqlOutcome(
    app.url,
    'mutation($p: ID!, $c: String!) { attachDocument(profileId: $p, fileName: "t0.pdf", contentType: "application/pdf", contentBase64: $c) { id } }',
    { p: t0Profile.id, c: MINIMAL_PDF.toString('base64') },
    t0Auth,
  );
  const docT0 = JSON.parse(attached.text).data.attachDocument.id;
  const row = await db().profile.findUniqueOrThrow({ where: { id: uuid } });
  await db().profile.update({
    where: { id: uuid },
    data: { eligibilityRequest: { ...(row.eligibilityRequest as object), recovery: { claimAmount: { code: 'GBP', value: 12500 } } } },
  });
  await json(await postJson(`${app.url}${V1}/profiles/${uuid}/cases/apply`, undefined, v1Auth), 200);

  // B's side: its tokens, a key id to move to, and a profile of B that lender A has an application for.
  const bV1 = (await marketplaceV1Token(app, b.apiKey)).jwt;
  const bKeyPrefix = (await db().apiKey.findUniqueOrThrow({ where: { id: b.apiKeyId } })).keyPrefix;
  const { uuid: bProfile } = await json(await postJson(`${app.url}${V1}/profiles/blank`, undefined, bearer(bV1)), 200);
  const appOfB = await storedLenderApplication(app, { lenderId: lenderAId, profileId: bProfile });

  // An anonymous profile (created by A's key, owned by nobody) with an offered and a failed lender
  // application, as funding/apply and a staff submission could make them before ownership was required.
  const { uuid: anonymous } = await json(await postJson(`${app.url}${V1}/profiles/anonymous`, { countryCode: 'GB' }, v1Auth), 200);
  const appAnon = await storedLenderApplication(app, { lenderId: lenderAId, profileId: anonymous });
  await lenderOffers(app, await lenderAToken(), appAnon);
  const appAnonFailed = await storedLenderApplication(app, { lenderId: lenderAId, profileId: anonymous });
  await lenderFails(app, await lenderAToken(), appAnonFailed);

  Object.assign(ids, {
    ANON: anonymous,
    APPANON: appAnon,
    APPANONF: appAnonFailed,
    P: uuid,
    APP0: application.id,
    CONTINUE: encodeURIComponent(continueUrl),
    APPT0: appT0,
    APPT0F: appT0Failed,
    SUBT0: subT0,
    APPP: appP,
    APPPF: appPFailed,
    SUBP: subP,
    APPX: appOfB,
    DOCP: docP,
    DOCT0: docT0,
    DELT0: (await db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: appT0 }, orderBy: { sequence: 'asc' } })).id,
    BKEY: bKeyPrefix,
    LA: lenderAId,
    SUBMIT: submitBody,
    SELECTION: selection,
  });
  actors = {
    a,
    b,
    staffLogin,
    aV1,
    aMaster: (await masterToken(app, a.apiKey)).access_token,
    bV1,
    bMaster: (await masterToken(app, b.apiKey)).access_token,
    bKeyPrefix,
    t0Token: t0Token!,
    t1Token: t1Token!,
    tbToken: tbToken!,
    lenderA,
    lenderB,
  };
  before = await snapshot();
});
afterAll(() => app?.close());

// --------------------------------------------------------------------------------------- callers

const CALLERS = {
  bV1: { who: "account B's Marketplace V1 token", headers: async () => bearer(actors.bV1) },
  aV1: { who: "account A's Marketplace V1 token (it created the anonymous profile, never claimed it)", headers: async () => bearer(actors.aV1) },
  bPlatform: {
    who: "account B's platform token (Service-tenant-id: B's tenant)",
    headers: async () => ({ ...bearer(actors.b.platformToken), 'service-tenant-id': ids.TB as string }),
  },
  bPlatformNamingT0: {
    who: "account B's platform token naming T0 in Service-tenant-id",
    headers: async () => ({ ...bearer(actors.b.platformToken), 'service-tenant-id': ids.T0 as string }),
  },
  bMaster: { who: "account B's master token", headers: async () => ({ ...bearer(actors.bMaster), 'service-tenant-id': ids.T0 as string }) },
  bTenant: { who: "account B's tenant token", headers: async () => bearer(actors.tbToken) },
  bApiKeyNamingT0: {
    who: "account B's API key naming T0 in Service-tenant-id",
    headers: async () => ({ 'x-api-key': actors.b.apiKey, 'service-tenant-id': ids.T0 as string }),
  },
  t1: { who: 'tenant token of T1 (same account as T0)', headers: async () => bearer(actors.t1Token) },
  aPlatformNamingT1: {
    who: "account A's platform token naming T1 in Service-tenant-id",
    headers: async () => ({ ...bearer(actors.a.platformToken), 'service-tenant-id': ids.T1 as string }),
  },
  t1NamingT0: {
    who: 'tenant token of T1 naming T0 in Service-tenant-id',
    headers: async () => ({ ...bearer(actors.t1Token), 'service-tenant-id': ids.T0 as string }),
  },
  t0NamingT1: {
    who: 'tenant token of T0 naming T1 in Service-tenant-id',
    headers: async () => ({ ...bearer(actors.t0Token), 'service-tenant-id': ids.T1 as string }),
  },
  bTenantNamingT0: {
    who: "account B's tenant token naming T0 in Service-tenant-id",
    headers: async () => ({ ...bearer(actors.tbToken), 'service-tenant-id': ids.T0 as string }),
  },
  aMaster: {
    who: "account A's own master token (Service-tenant-id: T0)",
    headers: async () => ({ ...bearer(actors.aMaster), 'service-tenant-id': ids.T0 as string }),
  },
  lenderB: { who: 'lender B', headers: async () => bearer((await factory.lender(actors.lenderB, 'B')).token) },
  lenderAOtherApplication: {
    who: "lender A, through its application of another account's profile",
    headers: async () => bearer((await factory.lender(actors.lenderA, 'A')).token),
  },
} as const;
type CallerName = keyof typeof CALLERS;

/** A tenant token naming another tenant, and a master token on /profile: refused as such (403); everyone else: 404. */
const EXPECTED_403: readonly CallerName[] = ['t1NamingT0', 't0NamingT1', 'bTenantNamingT0', 'aMaster'];

/** `{NAME}` → the fixture's id: a whole-string placeholder keeps the id's type (numbers, objects). */
function fill<T>(value: T): T {
  if (typeof value === 'string') {
    const whole = /^\{([A-Z0-9]+)\}$/.exec(value);
    const known = (name: string) => {
      if (!(name in ids)) throw new Error(`no fixture id {${name}}`);
      return ids[name];
    };
    if (whole?.[1]) return known(whole[1]) as T;
    return value.replace(/\{([A-Z0-9]+)\}/g, (_m, name: string) => String(known(name))) as T;
  }
  if (Array.isArray(value)) return value.map(fill) as T;
  if (value && typeof value === 'object' && !(value instanceof FormData)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)])) as T;
  return value;
}

interface Request {
  what: string;
  send: (headers: Record<string, string>) => Promise<Outcome>;
}

const rest = (method: string, path: string, body?: unknown | (() => unknown), note = ''): Request => ({
  what: `REST ${method} ${path}${note ? ` (${note})` : ''}`,
  send: (headers) => restOutcome(app.url, { method, path: fill(path), headers, body: typeof body === 'function' ? (body as () => unknown)() : fill(body) }),
});
const invalid = (method: string, path: string, body: unknown, why: string) => rest(method, path, body, `invalid: ${why}`);

/** A root field; its operation is written from the schema (object results: `__typename` only). */
const gql = (kind: 'query' | 'mutation', field: string, variables: Record<string, unknown> = {}, note = ''): Request => ({
  what: `GraphQL ${field}${note ? ` (${note})` : ''}`,
  send: (headers) => {
    const vars = fill(variables);
    return graphqlOutcome(app.url, rootOperation(rootFields, kind, field, vars), vars, headers);
  },
});
const gqlText = (what: string, query: string, variables: Record<string, unknown>): Request => ({
  what: `GraphQL ${what}`,
  send: (headers) => graphqlOutcome(app.url, query, fill(variables), headers),
});

interface IsolationCase {
  object: string;
  caller: CallerName;
  request: Request;
}

const matrix = (object: string, callers: CallerName[], requests: Request[]): IsolationCase[] =>
  callers.flatMap((caller) => requests.map((request) => ({ object, caller, request })));

// ------------------------------------------------------------------------------------------ cases

const profileRead = gqlText('profile(uuid) { uuid }', 'query($u: ID!) { profile(uuid: $u) { uuid companyName } }', { u: '{P}' });
const profileMatches = gqlText('Profile.matches', 'query($u: ID!) { profile(uuid: $u) { matches { id } } }', { u: '{P}' });
const profileDocuments = gqlText('Profile.documents', 'query($u: ID!) { profile(uuid: $u) { documents { id } } }', { u: '{P}' });
const profileCases = gqlText('Profile.cases', 'query($u: ID!) { profile(uuid: $u) { cases { id } } }', { u: '{P}' });
const answersPath = `${V1}/questionnaires/${Q}/profiles/{P}/answers`;

const CASES: IsolationCase[] = [
  // Marketplace V1 profile (and its funding search, answers, documents and case), REST: another account.
  ...matrix(
    'Marketplace V1 profile',
    ['bV1'],
    [
      rest('GET', `${V1}/profiles/{P}`),
      rest('PATCH', `${V1}/profiles/{P}/company`, { website: 'https://stolen.example' }),
      invalid('PATCH', `${V1}/profiles/{P}/company`, {}, 'empty body'),
      invalid('PATCH', `${V1}/profiles/{P}/company`, { employeesNumber: 'many' }, 'wrong type'),
      rest('PATCH', `${V1}/profiles/{P}/financials`, { revenue: { code: 'GBP', value: 1 } }),
      invalid('PATCH', `${V1}/profiles/{P}/financials`, {}, 'empty body'),
      rest('PUT', `${V1}/profiles/{P}/move/{BKEY}`),
      invalid('PUT', `${V1}/profiles/{P}/move/not-a-key-id`, undefined, 'malformed targetApiKey'),
      rest('PATCH', `${V1}/profiles/{P}/set-ownership`),
      rest('GET', `${V1}/profiles/{P}/url-schemas/funding-search`),
      invalid('GET', `${V1}/profiles/{P}/url-schemas/no-such-type`, undefined, 'unknown type'),
    ],
  ),
  ...matrix(
    'funding search (matches) of the Marketplace V1 profile',
    ['bV1'],
    [
      rest('GET', `${V1}/profiles/{P}/funding/matches/count`),
      invalid('GET', `${V1}/profiles/{P}/funding/matches/count?productTypes=SPACESHIP`, undefined, 'unknown product type'),
      rest('GET', `${V1}/profiles/{P}/funding/matches/results`),
      invalid('GET', `${V1}/profiles/{P}/funding/matches/results?explain=maybe`, undefined, 'explain not a boolean'),
      rest('POST', `${V1}/profiles/{P}/funding/apply`, '{SELECTION}'),
      invalid('POST', `${V1}/profiles/{P}/funding/apply`, [], 'no lender selected'),
    ],
  ),
  ...matrix('case of the Marketplace V1 profile', ['bV1'], [rest('POST', `${V1}/profiles/{P}/cases/apply`)]),
  ...matrix(
    'documents of the Marketplace V1 profile',
    ['bV1'],
    [
      rest('POST', `${V1}/profiles/{P}/documents`, documentForm),
      invalid('POST', `${V1}/profiles/{P}/documents`, undefined, 'no file'),
      rest('GET', `${V1}/profiles/{P}/documents`),
    ],
  ),
  ...matrix(
    'questionnaire answers of the Marketplace V1 profile',
    ['bV1'],
    [
      rest('GET', `${V1}/questionnaires/${Q}/profiles/{P}/json-schema`),
      rest('GET', answersPath),
      rest('PUT', answersPath, ACME_ANSWERS),
      invalid('PUT', answersPath, {}, 'required answers missing'),
      rest('PATCH', answersPath, { clientName: 'Mallory' }),
      invalid('PATCH', answersPath, {}, 'no answer'),
      rest('DELETE', `${answersPath}?answerKey=clientName`),
      invalid('DELETE', `${answersPath}?answerKey=no-such-question`, undefined, 'unknown answerKey'),
    ],
  ),
  // The same objects over GraphQL: another account (every kind of its tokens), and a tenant of the same account.
  ...matrix(
    'Marketplace V1 profile',
    ['bV1'],
    [
      profileRead,
      gql('query', 'profileFundingSearchUrl', { uuid: '{P}' }),
      profileMatches,
      profileDocuments,
      profileCases,
      gql('query', 'answers', { questionnaireId: Q, profileId: '{P}' }),
      gql('query', 'questionnaireJsonSchema', { id: Q, profileId: '{P}' }),
      gql('mutation', 'patchProfileCompany', { uuid: '{P}', input: { website: 'https://stolen.example' } }),
      gql('mutation', 'patchProfileCompany', { uuid: '{P}', input: {} }, 'invalid: empty input'),
      gql('mutation', 'patchProfileFinancials', { uuid: '{P}', input: { revenue: { code: 'GBP', value: 1 } } }),
      gql('mutation', 'setProfileOwnership', { uuid: '{P}' }),
      gql('mutation', 'moveProfile', { uuid: '{P}', targetApiKey: '{BKEY}' }),
      gql('mutation', 'moveProfile', { uuid: '{P}', targetApiKey: 'not-a-key-id' }, 'invalid: malformed targetApiKey'),
      gql('mutation', 'applyForCase', { uuid: '{P}' }),
      gql('mutation', 'attachDocument', { profileId: '{P}', fileName: 'x.pdf', contentType: 'application/pdf', contentBase64: MINIMAL_PDF.toString('base64') }),
      gql('mutation', 'putAnswers', { questionnaireId: Q, profileId: '{P}', answers: ACME_ANSWERS }),
      gql('mutation', 'putAnswers', { questionnaireId: Q, profileId: '{P}', answers: {} }, 'invalid: required answers missing'),
      gql('mutation', 'patchAnswers', { questionnaireId: Q, profileId: '{P}', answers: { clientName: 'Mallory' } }),
      gql('mutation', 'deleteAnswers', { questionnaireId: Q, profileId: '{P}', answerKeys: ['clientName'] }),
      gql('mutation', 'deleteAnswers', { questionnaireId: Q, profileId: '{P}', answerKeys: ['no-such-question'] }, 'invalid: unknown answerKey'),
      gql('mutation', 'applyToLenders', { profileId: '{P}', selection: '{SELECTION}' }),
      gql('mutation', 'applyToLenders', { profileId: '{P}', selection: [] }, 'invalid: no lender selected'),
    ],
  ),
  ...matrix(
    'Marketplace V1 profile',
    ['bPlatform', 'bTenant', 't1'],
    [
      profileRead,
      profileMatches,
      profileDocuments,
      gql('query', 'answers', { questionnaireId: Q, profileId: '{P}' }),
      gql('mutation', 'attachDocument', { profileId: '{P}', fileName: 'x.pdf', contentType: 'application/pdf', contentBase64: MINIMAL_PDF.toString('base64') }),
      gql('mutation', 'putAnswers', { questionnaireId: Q, profileId: '{P}', answers: {} }, 'invalid: required answers missing'),
    ],
  ),

  // Tenant T0: another account.
  ...matrix(
    'tenant T0',
    ['bPlatform', 'bMaster'],
    [
      rest('GET', `${P}/tenants/{T0}`),
      rest('PATCH', `${P}/tenants/{T0}`, { referenceId: 'stolen' }),
      invalid('PATCH', `${P}/tenants/{T0}`, { referenceId: 42 }, 'referenceId not a string'),
      gql('query', 'tenant', { id: '{T0}' }),
      gql('mutation', 'updateTenant', { id: '{T0}', input: { referenceId: 'stolen' } }),
      gqlText('Tenant.profile', 'query($t: ID!) { tenant(id: $t) { profile { uuid } } }', { t: '{T0}' }),
    ],
  ),
  ...matrix(
    'tenant T0 (a tenant token for it)',
    ['bPlatformNamingT0', 'bMaster'],
    [rest('POST', `${P}/auth/tenants/authorize`), rest('POST', `${V2}/auth/tenants/authorize`)],
  ),
  ...matrix('tenant T0 (a tenant token for it)', ['bApiKeyNamingT0'], [rest('POST', `${P}/auth/token`)]),

  // T0's tenant profile: another account naming T0; tenant tokens naming another tenant; A's master token.
  ...matrix(
    "T0's tenant profile",
    ['bPlatformNamingT0', 't1NamingT0', 't0NamingT1', 'bTenantNamingT0'],
    [
      rest('GET', `${B}/profile`),
      rest('GET', `${B}/profile/credit-report`),
      rest('GET', `${V2}/profile`),
      rest('GET', `${V2}/profile/credit-report`),
      rest('PATCH', `${B}/profile`, { companyInformation: { website: 'https://stolen.example' } }),
      invalid('PATCH', `${B}/profile`, { companyInformation: { employeesNumber: 'many' } }, 'wrong type'),
      rest('PUT', `${B}/profile`, { companyInformation: { registrationNumber: '09876543' } }),
      invalid('PUT', `${B}/profile`, {}, 'companyInformation missing'),
      rest('POST', `${B}/profile`, { companyInformation: { registrationNumber: '09876543' } }),
      invalid('POST', `${B}/profile`, {}, 'registrationNumber missing'),
      rest('PATCH', `${V2}/profile`, { companyInformation: { website: 'https://stolen.example' } }),
      gql('query', 'creditReport'),
      gql('mutation', 'updateTenantProfile', { input: { companyInformation: { website: 'https://stolen.example' } } }),
      gql('mutation', 'setUpTenantProfile', { input: { companyInformation: { registrationNumber: '09876543' } } }),
    ],
  ),
  ...matrix("T0's tenant profile", ['aMaster'], [rest('GET', `${B}/profile`), rest('GET', `${V2}/profile`)]),
  ...matrix(
    "T0's tenant profile",
    ['bPlatform', 'bTenant', 't1'],
    [
      gqlText('profile(uuid) { uuid }', 'query($u: ID!) { profile(uuid: $u) { uuid companyName } }', { u: '{T0P}' }),
      gqlText('Profile.documents', 'query($u: ID!) { profile(uuid: $u) { documents { id } } }', { u: '{T0P}' }),
      gql('mutation', 'attachDocument', {
        profileId: '{T0P}',
        fileName: 'x.pdf',
        contentType: 'application/pdf',
        contentBase64: MINIMAL_PDF.toString('base64'),
      }),
    ],
  ),

  // T0's Business V1 application, its matches, pre-selected offers and continue URL.
  ...matrix(
    "T0's Business V1 application",
    ['bPlatform', 'bPlatformNamingT0', 'bTenant', 't1', 'aPlatformNamingT1'],
    [
      rest('GET', `${B}/applications/{APP0}/matches`),
      rest('GET', `${B}/applications/{APP0}/pre-selected`),
      rest('POST', `${B}/applications/{APP0}/continue-url`, {}),
      invalid('POST', `${B}/applications/{APP0}/continue-url`, { clickId: 42 }, 'clickId not a string'),
      rest('POST', `${B}/applications/{APP0}/submit`, '{SUBMIT}'),
      invalid('POST', `${B}/applications/{APP0}/submit`, {}, 'lenderId missing'),
      rest('GET', `${B}/applications/validate-continue-url?continueUrl={CONTINUE}`, undefined, "the continue URL of A's application"),
      rest('DELETE', `${B}/applications/{APP0}/continue-url`),
      gql('mutation', 'revokeContinueUrls', { applicationId: '{APP0}' }),
      gql('mutation', 'submitApplicationToLender', { applicationId: '{APP0}', lenderId: '{LA}', products: ['TERM_LOAN'] }),
    ],
  ),
  ...matrix(
    "T0's Business V1 application",
    ['bPlatform', 'bTenant', 't1'],
    [gqlText('Profile.applications', 'query($u: ID!) { profile(uuid: $u) { applications { id } } }', { u: '{T0P}' })],
  ),
  ...matrix(
    "T0's Business V1 application",
    ['t1NamingT0', 't0NamingT1'],
    [rest('GET', `${B}/applications/{APP0}/matches`), rest('GET', `${B}/applications/{APP0}/pre-selected`)],
  ),
  ...matrix(
    'T0 (a Business V1 application for it)',
    ['bPlatformNamingT0'],
    [rest('POST', `${B}/applications`, APPLICATION), invalid('POST', `${B}/applications`, { fundingUrgency: 'TOMORROW' }, 'unknown fundingUrgency')],
  ),

  // Lender applications and their offers: the client's decisions (integrators), the lender API (lender B).
  ...matrix(
    "T0's lender application and its offer",
    ['t1', 'bPlatform', 'bTenant'],
    [
      rest('POST', `${B}/lender-applications/{APPT0}/accept`),
      rest('POST', `${B}/lender-applications/{APPT0}/decline`),
      rest('POST', `${B}/lender-applications/{APPT0F}/resubmit`),
      gql('mutation', 'acceptOffer', { applicationId: '{APPT0}' }),
      gql('mutation', 'declineOffer', { applicationId: '{APPT0}' }),
      gql('mutation', 'resubmitApplication', { applicationId: '{APPT0F}' }),
    ],
  ),
  ...matrix(
    "T0's lender application and its offer",
    ['bV1'],
    [
      rest('POST', `${V1}/lender-applications/{APPT0}/accept`),
      rest('POST', `${V1}/lender-applications/{APPT0}/decline`),
      rest('POST', `${V1}/lender-applications/{APPT0F}/resubmit`),
      gql('mutation', 'acceptOffer', { applicationId: '{APPT0}' }),
    ],
  ),
  ...matrix(
    "the Marketplace V1 profile's lender application and its offer",
    ['bV1'],
    [
      rest('POST', `${V1}/lender-applications/{APPP}/accept`),
      rest('POST', `${V1}/lender-applications/{APPP}/decline`),
      rest('POST', `${V1}/lender-applications/{APPPF}/resubmit`),
      gql('mutation', 'acceptOffer', { applicationId: '{APPP}' }),
      gql('mutation', 'declineOffer', { applicationId: '{APPP}' }),
      gql('mutation', 'resubmitApplication', { applicationId: '{APPPF}' }),
    ],
  ),
  ...matrix(
    "the Marketplace V1 profile's lender application and its offer",
    ['bPlatform', 'bTenant', 't1'],
    [
      rest('POST', `${B}/lender-applications/{APPP}/accept`),
      rest('POST', `${B}/lender-applications/{APPPF}/resubmit`),
      gql('mutation', 'declineOffer', { applicationId: '{APPP}' }),
    ],
  ),
  // An anonymous profile's lender applications: readable "by uuid" is the profile, never what was
  // done in its name; account A (whose key created the profile) is as much a stranger as B.
  ...matrix(
    "an anonymous profile's lender application and its offer",
    ['bV1', 'aV1'],
    [
      rest('POST', `${V1}/lender-applications/{APPANON}/accept`),
      rest('POST', `${V1}/lender-applications/{APPANON}/decline`),
      rest('POST', `${V1}/lender-applications/{APPANONF}/resubmit`),
      gql('mutation', 'acceptOffer', { applicationId: '{APPANON}' }),
      gql('mutation', 'declineOffer', { applicationId: '{APPANON}' }),
      gql('mutation', 'resubmitApplication', { applicationId: '{APPANONF}' }),
    ],
  ),
  ...matrix(
    "an anonymous profile's lender application and its offer",
    ['bPlatform', 'bTenant'],
    [
      rest('POST', `${B}/lender-applications/{APPANON}/accept`),
      rest('POST', `${B}/lender-applications/{APPANON}/decline`),
      rest('POST', `${B}/lender-applications/{APPANONF}/resubmit`),
      gql('mutation', 'acceptOffer', { applicationId: '{APPANON}' }),
      gql('mutation', 'declineOffer', { applicationId: '{APPANON}' }),
      gql('mutation', 'resubmitApplication', { applicationId: '{APPANONF}' }),
    ],
  ),
  ...(['APPT0', 'APPP'] as const).flatMap((id) =>
    matrix(
      `lender A's application (${id === 'APPT0' ? "T0's" : "the Marketplace V1 profile's"}) and its offer`,
      ['lenderB'],
      [
        rest('GET', `${L}/applications/{${id}}`),
        rest('POST', `${L}/applications/{${id}}/acknowledgement`, { comment: 'hijacked' }),
        invalid('POST', `${L}/applications/{${id}}/acknowledgement`, {}, 'neither reference nor comment'),
        rest('POST', `${L}/applications/{${id}}/offer`, () => termLoanOffer()),
        invalid('POST', `${L}/applications/{${id}}/offer`, { reference: 'x', status: 'INDICATIVE' }, 'no product object'),
        rest('POST', `${L}/applications/{${id}}/rejection`, { reason: 'Ineligible' }),
        invalid('POST', `${L}/applications/{${id}}/rejection`, {}, 'reason missing'),
      ],
    ),
  ),
  ...matrix("lender A's webhook delivery (of T0's application)", ['lenderB'], [rest('POST', `${L}/deliveries/{DELT0}/redeliver`)]),
  ...matrix(
    'documents',
    ['lenderB'],
    [rest('GET', `${L}/v1/funding/search/{APPP}/document/{DOCP}`), rest('GET', `${L}/v1/funding/search/{APPT0}/document/{DOCT0}`)],
  ),
  ...matrix(
    'documents',
    ['lenderAOtherApplication'],
    [rest('GET', `${L}/v1/funding/search/{APPX}/document/{DOCP}`), rest('GET', `${L}/v1/funding/search/{APPX}/document/{DOCT0}`)],
  ),
];

// ------------------------------------------------------------------------------------------ tests

function leaked(text: string): string[] {
  return Object.values(MARKS).filter((mark) => text.includes(mark));
}

describe.concurrent('every object × every foreign caller: refused, revealing nothing', () => {
  it.for(
    CASES.map((c) => {
      const expected = EXPECTED_403.includes(c.caller) ? 403 : 404;
      return [`${c.object} · ${CALLERS[c.caller].who} · ${c.request.what} → ${expected}`, c, expected] as const;
    }),
  )('%s', async ([, c, expected], { expect }) => {
    const outcome = await c.request.send(await CALLERS[c.caller].headers());
    expect(outcome.status, outcome.text.slice(0, 600)).toBe(expected);
    expect(outcome.text, 'the route itself must exist').not.toContain('No such endpoint');
    expect(leaked(outcome.text)).toEqual([]);
  });
});

describe.concurrent('lists never hold another account’s (or tenant’s, or lender’s) objects', () => {
  it("account B's tenant lists (REST and GraphQL) do not hold T0 or T1", async ({ expect }) => {
    for (const path of [`${P}/tenants?limit=100`, `${V2}/tenants?limit=100`]) {
      const outcome = await restOutcome(app.url, { method: 'GET', path, headers: bearer(actors.b.platformToken) });
      expect(outcome.status).toBe(200);
      expect(outcome.text).not.toContain(ids.T0 as string);
      expect(outcome.text).not.toContain(ids.T1 as string);
    }
    const gqlList = await graphqlOutcome(app.url, '{ tenants(limit: 100) { items { id } } }', {}, bearer(actors.bMaster));
    expect(gqlList.status).toBe(200);
    expect(gqlList.text).not.toContain(ids.T0 as string);
  });

  it("lender B's GET /applications holds none of lender A's applications", async ({ expect }) => {
    const outcome = await restOutcome(app.url, { method: 'GET', path: `${L}/applications`, headers: await CALLERS.lenderB.headers() });
    expect(outcome.status).toBe(200);
    const listed = (JSON.parse(outcome.text) as Array<{ application: { id: number } }>).map((d) => d.application.id);
    expect(listed.filter((id) => [ids.APPT0, ids.APPT0F, ids.APPP, ids.APPPF].includes(id))).toEqual([]);
    expect(leaked(outcome.text)).toEqual([]);
  });
});

describe.concurrent("a lender's deliveries are its own", () => {
  it("lender B's GET /deliveries, all of them or by lender A's application id, holds none of lender A's deliveries", async ({ expect }) => {
    const deliveriesOfA = (await db().webhookDelivery.findMany({ where: { lenderId: ids.LA as number }, select: { id: true } })).map((d) => d.id);
    expect(deliveriesOfA.length).toBeGreaterThan(0);
    for (const query of ['first=200', `applicationId=${ids.APPT0 as number}`, `applicationId=${ids.APPP as number}`]) {
      const outcome = await restOutcome(app.url, { method: 'GET', path: `${L}/deliveries?${query}`, headers: await CALLERS.lenderB.headers() });
      expect(outcome.status, outcome.text.slice(0, 300)).toBe(200);
      const listed = (JSON.parse(outcome.text) as { nodes: Array<{ id: string }> }).nodes.map((d) => d.id);
      expect(listed.filter((id) => deliveriesOfA.includes(id))).toEqual([]);
      expect(leaked(outcome.text)).toEqual([]);
    }
  });

  it("lender B's GET /events holds none of lender A's events", async ({ expect }) => {
    const deliveriesOfA = (await db().webhookDelivery.findMany({ where: { lenderId: ids.LA as number }, select: { id: true } })).map((d) => d.id);
    const outcome = await restOutcome(app.url, { method: 'GET', path: `${L}/events?first=200`, headers: await CALLERS.lenderB.headers() });
    expect(outcome.status, outcome.text.slice(0, 300)).toBe(200);
    const listed = (JSON.parse(outcome.text) as { nodes: Array<{ id: string; applicationId: number }> }).nodes;
    expect(listed.filter((e) => deliveriesOfA.includes(e.id) || [ids.APPT0, ids.APPT0F, ids.APPP, ids.APPPF].includes(e.applicationId))).toEqual([]);
    expect(leaked(outcome.text)).toEqual([]);
  });
});

describe('regressions named by the issue', () => {
  it("(b) another account's continue URL: validate-continue-url with account B's credentials does not answer valid:true (404)", async () => {
    const outcome = await restOutcome(app.url, {
      method: 'GET',
      path: `${B}/applications/validate-continue-url?continueUrl=${ids.CONTINUE as string}`,
      headers: await CALLERS.bPlatform.headers(),
    });
    expect(outcome.text).not.toContain('"valid":true');
    expect(outcome.status, outcome.text).toBe(404);
  });

  it("a stranger walking lender application ids 1..n (REST decline, GraphQL acceptOffer) finds none but its own account's", async () => {
    const own = new Set(
      (await db().lenderApplication.findMany({ where: { profile: { ownerAccountId: actors.b.accountId } }, select: { id: true } })).map((r) => r.id),
    );
    const last = (await db().lenderApplication.aggregate({ _max: { id: true } }))._max.id ?? 0;
    const answered: Array<{ id: number; rest: number; graphql: number }> = [];
    for (let id = 1; id <= last; id++) {
      if (own.has(id)) continue;
      const viaRest = await restOutcome(app.url, { method: 'POST', path: `${V1}/lender-applications/${id}/decline`, headers: bearer(actors.bV1) });
      const viaGraphql = await graphqlOutcome(app.url, 'mutation($a: Int!) { acceptOffer(applicationId: $a) { __typename } }', { a: id }, bearer(actors.bV1));
      answered.push({ id, rest: viaRest.status, graphql: viaGraphql.status });
      expect(leaked(viaRest.text + viaGraphql.text)).toEqual([]);
    }
    expect(answered.length).toBeGreaterThanOrEqual(6);
    expect(answered.filter((a) => a.rest !== 404 || a.graphql !== 404)).toEqual([]);
  });

  it('funding/apply on an anonymous profile is refused (409: claim it first) and queues nothing; after set-ownership it is accepted', async () => {
    const v1Auth = bearer(actors.bV1);
    const { uuid } = await json(await postJson(`${app.url}${V1}/profiles/anonymous`, { countryCode: 'GB' }, v1Auth), 200);
    await json(await send('PUT', `${V1}/questionnaires/${Q}/profiles/${uuid}/answers`, v1Auth, ACME_ANSWERS), 204);
    const { matches } = await json(await send('GET', `${V1}/profiles/${uuid}/funding/matches/results`, v1Auth), 200);
    const [choice] = await submittableMatches(app, matches);
    const refused = await restOutcome(app.url, { method: 'POST', path: `${V1}/profiles/${uuid}/funding/apply`, headers: v1Auth, body: [choice] });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.text).toContain('set-ownership');
    const viaGraphql = await graphqlOutcome(
      app.url,
      'mutation($p: ID!, $s: [SelectedLenderInput!]!) { applyToLenders(profileId: $p, selection: $s) { id } }',
      { p: uuid, s: [choice] },
      v1Auth,
    );
    expect(JSON.parse(viaGraphql.text).errors?.[0]?.extensions?.code, viaGraphql.text).toBe('CONFLICT');
    expect(await db().reviewSelection.count({ where: { profileId: uuid } })).toBe(0);
    await json(await send('PATCH', `${V1}/profiles/${uuid}/set-ownership`, v1Auth), 204);
    await json(await postJson(`${app.url}${V1}/profiles/${uuid}/funding/apply`, [choice], v1Auth), 200);
    expect(await db().reviewSelection.count({ where: { profileId: uuid } })).toBe(1);
  });

  it('a staff submission of a selection whose profile is anonymous is refused (409) and creates no lender application', async () => {
    const { uuid } = await json(await postJson(`${app.url}${V1}/profiles/anonymous`, { countryCode: 'GB' }, bearer(actors.bV1)), 200);
    // Such a selection could be queued before funding/apply required ownership: stored as it was then.
    const search = await db().fundingSearch.create({ data: { profileId: uuid, amount: 150000 } });
    const selection = await db().reviewSelection.create({
      data: { profileId: uuid, fundingSearchId: search.id, selection: ids.SELECTION as never, contentHash: randomUUID() },
    });
    const outcome = await restOutcome(app.url, { method: 'POST', path: `${P}/review-selections/${selection.id}/submit`, headers: bearer(actors.staffLogin) });
    expect(outcome.status, outcome.text).toBe(409);
    expect(await db().lenderApplication.count({ where: { profileId: uuid } })).toBe(0);
  });

  it("(c) a foreign object with an invalid body is a 404, not a 400: PATCH another account's profile company with an invalid body", async () => {
    const outcome = await restOutcome(app.url, { method: 'PATCH', path: `${V1}/profiles/${ids.P as string}/company`, headers: bearer(actors.bV1), body: {} });
    expect(outcome.status, outcome.text).toBe(404);
  });
});

/**
 * (a) Live events. Every subscriber subscribes first; then lender A moves T0's lender application
 * and the Marketplace V1 profile's (a status change, then an offer). Control subscribers that may
 * see them receive each event; then, 1.5 s after the last control event arrived, no foreign
 * subscriber has received anything about those applications.
 */
describe('subscriptions: events of objects a subscriber may not see never reach it', () => {
  const QUERIES = {
    status: 'subscription { applicationStatusChanged { applicationId status } }',
    offer: 'subscription { offerStatusChanged { applicationId reference } }',
    statusOfT0App: 'subscription($a: Int) { applicationStatusChanged(applicationId: $a) { applicationId status } }',
    offerOfT0App: 'subscription($a: Int) { offerStatusChanged(applicationId: $a) { applicationId reference } }',
  };
  type Topic = keyof typeof QUERIES;
  interface Subscriber {
    who: string;
    topic: Topic;
    /** Applications whose events it must not receive. */
    forbidden: Array<'SUBT0' | 'SUBP'>;
    /** Applications whose events it must receive (control). */
    expects: Array<'SUBT0' | 'SUBP'>;
    params: () => Promise<Record<string, string>>;
  }
  const params = (token: () => string) => async () => bearer(token());
  const both = ['SUBT0', 'SUBP'] as Array<'SUBT0' | 'SUBP'>;
  const SUBSCRIBERS: Subscriber[] = [
    // Controls: T0's tenant token sees T0's application; A's Marketplace V1 token its profile's; staff and lender A all.
    ...(['status', 'offer'] as const).flatMap((topic): Subscriber[] => [
      { who: "T0's tenant token", topic, forbidden: ['SUBP'], expects: ['SUBT0'], params: params(() => actors.t0Token) },
      { who: "A's Marketplace V1 token", topic, forbidden: [], expects: ['SUBP'], params: params(() => actors.aV1) },
      { who: 'staff', topic, forbidden: [], expects: both, params: params(() => actors.staffLogin) },
      { who: 'lender A', topic, forbidden: [], expects: both, params: async () => bearer((await factory.lender(actors.lenderA, 'A')).token) },
      // Foreign subscribers.
      { who: "T1's tenant token (same account as T0)", topic, forbidden: both, expects: [], params: params(() => actors.t1Token) },
      { who: "account B's platform token", topic, forbidden: both, expects: [], params: params(() => actors.b.platformToken) },
      { who: "account B's master token", topic, forbidden: both, expects: [], params: params(() => actors.bMaster) },
      { who: "account B's Marketplace V1 token", topic, forbidden: both, expects: [], params: params(() => actors.bV1) },
      { who: "account B's tenant token", topic, forbidden: both, expects: [], params: params(() => actors.tbToken) },
      { who: 'lender B', topic, forbidden: both, expects: [], params: async () => bearer((await factory.lender(actors.lenderB, 'B')).token) },
    ]),
    // Naming T0's application explicitly changes nothing for T1.
    { who: "T1's tenant token naming T0's application", topic: 'statusOfT0App', forbidden: ['SUBT0'], expects: [], params: params(() => actors.t1Token) },
    { who: "T1's tenant token naming T0's application", topic: 'offerOfT0App', forbidden: ['SUBT0'], expects: [], params: params(() => actors.t1Token) },
  ];

  const collectors: Array<{ subscriber: Subscriber; events: EventCollector }> = [];
  beforeAll(async () => {
    for (const subscriber of SUBSCRIBERS) {
      const variables = subscriber.topic.endsWith('OfT0App') ? { a: ids.SUBT0 } : {};
      collectors.push({ subscriber, events: await collectEvents(app.url, QUERIES[subscriber.topic], variables, await subscriber.params()) });
    }
    await settle(500);
    const lenderA = (await factory.lender(actors.lenderA, 'A')).token;
    for (const id of [ids.SUBT0, ids.SUBP] as number[]) {
      await lenderAcknowledges(app, lenderA, id, 'Looking at it');
      await lenderOffers(app, lenderA, id, `LIVE-${id}`);
    }
    // Every control receives every event it may see; then give stray events 1.5 s more to arrive.
    const about = (message: { data?: Record<string, any> | null }, id: number) => Object.values(message.data ?? {}).some((e) => e?.applicationId === id);
    await Promise.all(
      collectors.flatMap(({ subscriber, events }) =>
        subscriber.expects.map((name) =>
          events.waitFor(
            (m) => about(m, ids[name] as number) && (!subscriber.topic.startsWith('status') || m.data?.applicationStatusChanged?.status === 'Offered'),
          ),
        ),
      ),
    );
    await new Promise((r) => setTimeout(r, 1500));
  });
  afterAll(async () => {
    await Promise.all(collectors.map(({ events }) => events.close()));
  });

  it.for(SUBSCRIBERS.filter((s) => s.expects.length > 0).map((s) => [`control: ${s.who} receives ${s.topic} of ${s.expects.join(', ')}`, s] as const))(
    '%s',
    ([, subscriber]) => {
      const { events } = collectors.find((c) => c.subscriber === subscriber)!;
      for (const name of subscriber.expects) {
        expect(
          events.received.some((m) => Object.values(m.data ?? {}).some((e: any) => e?.applicationId === ids[name])),
          JSON.stringify(events.received),
        ).toBe(true);
      }
    },
  );

  it.for(
    SUBSCRIBERS.filter((s) => s.forbidden.length > 0).map(
      (s) =>
        [
          `(a) ${s.who} subscribed to ${s.topic} receives nothing of ${s.forbidden.map((f) => (f === 'SUBT0' ? "T0's application" : "the Marketplace V1 profile's application")).join(' or ')}`,
          s,
        ] as const,
    ),
  )('%s', ([, subscriber]) => {
    const { events } = collectors.find((c) => c.subscriber === subscriber)!;
    const forbiddenIds = subscriber.forbidden.map((name) => ids[name]);
    const strays = events.received.filter((m) => Object.values(m.data ?? {}).some((e: any) => forbiddenIds.includes(e?.applicationId)));
    expect(strays).toEqual([]);
    expect(leaked(JSON.stringify(events.received))).toEqual([]);
  });

  it("tenantCreated: account B's subscribers hear nothing of A's new tenant, while A's do", async () => {
    const mine = await collectEvents(app.url, 'subscription { tenantCreated { id referenceId } }', {}, bearer(actors.a.platformToken));
    const theirs = await Promise.all(
      [actors.b.platformToken, actors.bMaster].map((t) => collectEvents(app.url, 'subscription { tenantCreated { id referenceId } }', {}, bearer(t))),
    );
    try {
      await settle(500);
      const created = await createTenant(app, actors.a.platformToken, `announced-${SECRET}`);
      await mine.waitFor((m) => m.data?.tenantCreated?.id === created.id);
      await new Promise((r) => setTimeout(r, 1500));
      for (const sub of theirs) expect(sub.received.filter((m) => JSON.stringify(m).includes(created.id))).toEqual([]);
    } finally {
      await Promise.all([mine, ...theirs].map((s) => s.close()));
    }
  });
});

describe('after all of the above', () => {
  it("no foreign request changed any of A's objects", async () => {
    expect(await snapshot()).toEqual(before);
  });
});
