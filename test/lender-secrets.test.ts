/**
 * Issue 23, items 1 and 9: a lender's secrets never reach an integrator, and rotating a lender's
 * credentials neither keeps sending an old token nor breaks deliveries already on their way.
 *
 * - Every integrator-facing answer of the submit / accept / decline / resubmit flows, on Business V1
 *   and Marketplace V1 (REST) and GraphQL, made with the least-privileged credentials each surface
 *   takes, is searched for every secret of the lenders involved (webhook secret, authorization token
 *   key, OAuth client secret and password, each application's token as the lender received it) and
 *   for any apiProvider / authorizationToken at all. The lender still gets its spec 2.7 document.
 * - The GraphQL attack of the issue (`declineOffer { apiProvider { authorizationToken } }`) is refused
 *   before anything runs.
 * - Re-issuing credentials re-issues the token of a delivery already queued; during the overlap window
 *   a real receiver that still verifies with the OLD webhook secret accepts it; after the window only
 *   the new secret signs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccountWithUser, issueLenderCredentials, type LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { applicationAuthorizationToken } from '../src/modules/webhooks/authorization-token.js';
import { signWebhook } from '../src/modules/webhooks/webhook-signature.js';
import { readMigrations } from '../src/infra/migrations.js';
import { ACME_ANSWERS, ACME_APPLICATION } from './support/answers.js';
import { graphql } from './support/graphql-client.js';
import { bearer, createApiKey, lenderIdToken, marketplaceV1Token, platformToken, signIn, signUpIntegrator, type Integrator } from './support/identities.js';
import { lenderFails, lenderOffers, LENDER_API } from './support/lender-applications.js';
import { eventually, startLenderReceiver, type LenderReceiver } from './support/lender-receiver.js';
import { adminQuery, databaseUrlFor } from './support/postgres-admin.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let receiver: LenderReceiver;
let integrator: Integrator;
let staff: Record<string, string>;
const db = () => app.runtime.database.prisma;
const B = '/api/business/v1';
const V1 = '/api/marketplace/v1';

/** Every body an integrator was answered, as received (REST text, GraphQL response text). */
const integratorAnswers: Array<{ call: string; text: string }> = [];
/** The lenders whose secrets must stay with them, as issued. */
const issued = new Map<number, LenderCredentials>();
/** Lender applications made by the flows. */
const applicationIds = new Set<number>();

async function integratorRest(method: string, path: string, auth: Record<string, string>, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  integratorAnswers.push({ call: `${method} ${path}`, text });
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function integratorGraphql(query: string, variables: Record<string, unknown>, auth: Record<string, string>): Promise<any> {
  const res = await fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  integratorAnswers.push({ call: `graphql ${query.slice(0, 60)}`, text });
  return JSON.parse(text);
}

/** The lender's credentials, issued once per lender (what it was handed; its secrets are searched for). */
async function credentialsOf(lenderId: number): Promise<LenderCredentials> {
  let credentials = issued.get(lenderId);
  if (!credentials) {
    credentials = await issueLenderCredentials(db(), lenderId, 'demo', app.runtime.config.PUBLIC_URL);
    issued.set(lenderId, credentials);
  }
  return credentials;
}
const lenderToken = async (lenderId: number) => lenderIdToken(app, await credentialsOf(lenderId));

/** A matched lender whose required fields ACME's answers provide (company number and contact details only). */
async function answerableLender(matches: Array<{ lender: { id: number }; product: string }>): Promise<{ lenderId: number; product: string }> {
  const lenders = await db().lender.findMany({ where: { id: { in: matches.map((m) => m.lender.id) } }, orderBy: { id: 'asc' } });
  const lender = lenders.find((l) =>
    (l.requiredFields as Array<{ field: string }>).every((rule) => /\.basicCompanyDetails\.(companyNumber|contactEmail|contactPhone)$/.test(rule.field)),
  );
  if (!lender) throw new Error('no answerable lender among the matches');
  return { lenderId: lender.id, product: matches.find((m) => m.lender.id === lender.id)!.product };
}

/** A tenant token (from a key of profile:read profile:write: the tenant scopes it needs) of a tenant with ACME's profile and a Business V1 application. */
async function businessApplication(): Promise<{ auth: Record<string, string>; applicationId: string; lenderId: number; product: string }> {
  const key = await createApiKey(app, integrator.loginToken, { name: `tenant-only-${randomUUID().slice(0, 8)}`, scopes: ['profile:read', 'profile:write'] });
  const tenant = await integratorRest('POST', `${B}/tenants`, bearer(integrator.platformToken), {});
  const auth = bearer((await platformToken(app, key.key, tenant.json.id)).access_token);
  expect((await integratorRest('POST', `${B}/profile`, auth, { companyInformation: { registrationNumber: '09876543' } })).status).toBe(201);
  const created = await integratorRest('POST', `${B}/applications`, auth, ACME_APPLICATION);
  expect(created.status).toBe(201);
  const matches = await integratorRest('GET', `${B}/applications/${created.json.id}/matches`, auth);
  return { auth, applicationId: created.json.id, ...(await answerableLender(matches.json.matches)) };
}

beforeAll(async () => {
  // Many short retries: the rotation test keeps a delivery queued (refused) until the credentials are re-issued.
  app = await startTestApp({ config: { WEBHOOK_RETRY_DELAYS: [0, ...Array<number>(80).fill(0.4)] } });
  receiver = await startLenderReceiver();
  await db().lender.updateMany({ where: { environment: 'demo' }, data: { applicationUrl: receiver.url, updateUrl: null } });
  integrator = await signUpIntegrator(app);
  const email = `staff-${randomUUID().slice(0, 8)}@example.test`;
  await createAccountWithUser(db(), { environment: 'demo', accountName: 'specialists', email, password: 'staff-password-long', role: 'STAFF' });
  staff = bearer(await signIn(app, email, 'staff-password-long'));
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

describe('integrators never see a lender secret', () => {
  it('Business V1 (tenant token): submit, resubmit after Failed, accept', async () => {
    const { auth, applicationId, lenderId, product } = await businessApplication();
    const lender = await lenderToken(lenderId);
    const submitted = await integratorRest('POST', `${B}/applications/${applicationId}/submit`, auth, { lenderId, products: [product] });
    expect(submitted.status).toBe(201);
    const id = submitted.json.applications[0].applicationId as number;
    applicationIds.add(id);
    await lenderFails(app, lender, id);
    const resubmitted = await integratorRest('POST', `${B}/lender-applications/${id}/resubmit`, auth);
    expect(resubmitted.status).toBe(200);
    expect(resubmitted.json.application).toMatchObject({ id, status: 'In Review' });
    await lenderOffers(app, lender, id);
    const accepted = await integratorRest('POST', `${B}/lender-applications/${id}/accept`, auth);
    expect(accepted.status).toBe(200);
    expect(Object.keys(accepted.json)).toEqual(['application']);
    expect(accepted.json.application).toMatchObject({ id, status: 'Client Accepted', offer: { decision: 'ACCEPTED' } });
  });

  it('Marketplace V1 (a key holding profile:write funding:read funding:write): apply, staff submit, resubmit, decline', async () => {
    const key = await createApiKey(app, integrator.loginToken, {
      name: `v1-${randomUUID().slice(0, 8)}`,
      scopes: ['profile:write', 'funding:read', 'funding:write'],
    });
    const auth = bearer((await marketplaceV1Token(app, key.key)).jwt);
    const { json: profile } = await integratorRest('POST', `${V1}/profiles/blank`, auth);
    const answered = await integratorRest('PUT', `${V1}/questionnaires/introducer-all-funding-products/profiles/${profile.uuid}/answers`, auth, ACME_ANSWERS);
    expect(answered.status).toBe(204);
    const search = await integratorRest('GET', `${V1}/profiles/${profile.uuid}/funding/matches/results`, auth);
    const { lenderId, product } = await answerableLender(search.json.matches);
    expect((await integratorRest('POST', `${V1}/profiles/${profile.uuid}/funding/apply`, auth, [{ lenderId, products: [product] }])).status).toBe(200);
    const selection = await db().reviewSelection.findFirstOrThrow({ where: { profileId: profile.uuid }, orderBy: { createdAt: 'desc' } });
    const submitted = await postJson(`${app.url}/api/platform/v1/review-selections/${selection.id}/submit`, undefined, staff);
    expect(submitted.status).toBe(201);
    const id = (await submitted.json()).applications[0].applicationId as number;
    applicationIds.add(id);

    const lender = await lenderToken(lenderId);
    await lenderFails(app, lender, id);
    const resubmitted = await integratorRest('POST', `${V1}/lender-applications/${id}/resubmit`, auth);
    expect(resubmitted.status).toBe(200);
    await lenderOffers(app, lender, id);
    const declined = await integratorRest('POST', `${V1}/lender-applications/${id}/decline`, auth);
    expect(declined.status).toBe(200);
    expect(Object.keys(declined.json)).toEqual(['application']);
    expect(declined.json.application).toMatchObject({ id, status: 'Client Declined', offer: { decision: 'DECLINED' } });
  });

  it("GraphQL (tenant token): the issue's `declineOffer { apiProvider { authorizationToken } }` is refused; submit, resubmit, decline answer no apiProvider", async () => {
    const { auth, applicationId, lenderId, product } = await businessApplication();
    const lender = await lenderToken(lenderId);
    const submitted = await integratorGraphql(
      'mutation($a: ID!, $l: Int!, $p: [String!]!) { submitApplicationToLender(applicationId: $a, lenderId: $l, products: $p) { applications { lenderId applicationId } } }',
      { a: applicationId, l: lenderId, p: [product] },
      auth,
    );
    expect(submitted.errors).toBeUndefined();
    const id = submitted.data.submitApplicationToLender.applications[0].applicationId as number;
    applicationIds.add(id);
    await lenderFails(app, lender, id);
    const everyField = await integratorSelection();
    const resubmitted = await integratorGraphql(`mutation($id: Int!) { resubmitApplication(applicationId: $id) ${everyField} }`, { id }, auth);
    expect(resubmitted.errors).toBeUndefined();
    expect(resubmitted.data.resubmitApplication.application).toMatchObject({ id, status: 'In Review' });
    await lenderOffers(app, lender, id);

    const attack = await integratorGraphql('mutation($id: Int!) { declineOffer(applicationId: $id) { apiProvider { authorizationToken } } }', { id }, auth);
    expect(attack.data ?? null).toBeNull();
    expect(attack.errors?.[0]?.message).toMatch(/Cannot query field "apiProvider"/);
    expect((await db().lenderApplication.findUniqueOrThrow({ where: { id } })).status).toBe('Offered');

    const declined = await integratorGraphql(`mutation($id: Int!) { declineOffer(applicationId: $id) ${everyField} }`, { id }, auth);
    expect(declined.errors).toBeUndefined();
    expect(declined.data.declineOffer.application).toMatchObject({ id, status: 'Client Declined', offer: { decision: 'DECLINED' } });
  });

  it('none of those answers holds a lender secret, an application token, or an apiProvider / authorizationToken key; the lender still gets its document (spec 2.7)', async () => {
    expect(applicationIds.size).toBe(3);
    // What the lenders were handed, and each application's token as the lenders received it in their webhooks.
    const received = () =>
      receiver.received.map((r) => JSON.parse(r.body) as { apiProvider?: { authorizationToken?: string | null }; application: { id: number } });
    const tokens = new Set<string>();
    for (const id of applicationIds) {
      const row = await db().lenderApplication.findUniqueOrThrow({ where: { id }, include: { lender: true } });
      const expected = applicationAuthorizationToken(issued.get(row.lenderId)!.authorizationTokenKey, id)!;
      const documents = await eventually(
        async () => received().filter((d) => d.application.id === id),
        (docs) => docs.length > 0,
      );
      for (const document of documents)
        expect(document.apiProvider).toMatchObject({ url: expect.stringContaining(`${LENDER_API}/applications/${id}`), authorizationToken: expected });
      tokens.add(expected);
      // The lender API shows the lender the same token (the spec 2.7 document, lender's view).
      const read = await fetch(`${app.url}${LENDER_API}/applications/${id}`, { headers: bearer(await lenderToken(row.lenderId)) });
      expect((await read.json()).apiProvider.authorizationToken).toBe(expected);
      // Stored documents and queued deliveries hold no token, so nothing stored can be sent or shown again.
      expect(JSON.stringify(row.payload)).not.toContain('authorizationToken');
      const deliveries = await db().webhookDelivery.findMany({ where: { lenderApplicationId: id } });
      expect(deliveries.length).toBeGreaterThan(0);
      for (const delivery of deliveries) expect(JSON.stringify(delivery.payload)).not.toContain('authorizationToken');
    }
    expect(tokens.size).toBe(3);
    const secrets = [...tokens, ...[...issued.values()].flatMap((c) => [c.webhookSecret, c.authorizationTokenKey, c.clientSecret, c.password])];
    expect(integratorAnswers.length).toBeGreaterThan(15);
    for (const { call, text } of integratorAnswers) {
      for (const secret of secrets) expect(text.includes(secret), `${call} answered a lender secret`).toBe(false);
      expect(keysOf(text ? JSON.parse(text) : null), call).not.toContain('apiProvider');
      expect(keysOf(text ? JSON.parse(text) : null), call).not.toContain('authorizationToken');
    }
  });
});

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}

/** Every field of IntegratorFundingApplication, from the schema itself (a field added later is searched too). */
async function integratorSelection(): Promise<string> {
  const typeQuery =
    '{ __schema { types { name kind fields { name args { name } type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }';
  const { data } = await graphql(app.url, typeQuery, {}, staff);
  const types = new Map<string, { kind: string; fields: Array<{ name: string; args: unknown[]; type: any }> | null }>(
    data!.__schema.types.map((t: any) => [t.name, t]),
  );
  const named = (type: any): string => type.name ?? named(type.ofType);
  const select = (typeName: string): string => {
    const fields = types.get(typeName)!.fields ?? [];
    return `{ ${fields
      .filter((f) => f.args.length === 0)
      .map((f) => {
        const inner = types.get(named(f.type))!;
        return inner.kind === 'OBJECT' ? `${f.name} ${select(named(f.type))}` : f.name;
      })
      .join(' ')} }`;
  };
  return select('IntegratorFundingApplication');
}

/** A lender's webhook endpoint that verifies with the one secret it holds, answering 204 only for what it accepts. */
async function startVerifyingReceiver(accept: (headers: http.IncomingHttpHeaders, body: string) => boolean) {
  const seen: Array<{ headers: http.IncomingHttpHeaders; body: string; accepted: boolean }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const accepted = state.accept(req.headers, body);
      seen.push({ headers: req.headers, body, accepted });
      res.writeHead(accepted ? 204 : 401).end();
    });
  });
  const state = { accept };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    seen,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const verifies = (secret: string, headers: http.IncomingHttpHeaders, body: string) => {
  try {
    new Webhook(secret).verify(body, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};
const signatureEntries = (headers: http.IncomingHttpHeaders) => String(headers['webhook-signature']).split(' ');
const tokenIn = (body: string) => (JSON.parse(body) as { apiProvider?: { authorizationToken?: string } }).apiProvider?.authorizationToken;

describe('re-issuing a lender’s credentials', () => {
  it('re-issues the token of a queued delivery; during the overlap both secrets sign and the OLD one verifies; after it, only the new one', async () => {
    const { auth, applicationId, lenderId, product } = await businessApplication();
    const lenderReceiver = await startVerifyingReceiver(() => false);
    try {
      await db().lender.update({ where: { id: lenderId }, data: { applicationUrl: lenderReceiver.url, updateUrl: null } });
      const before = await issueLenderCredentials(db(), lenderId, 'demo', app.runtime.config.PUBLIC_URL);
      // The lender refuses everything at first: the APPLICATION_CREATED delivery stays queued, retrying.
      const submitted = await integratorRest('POST', `${B}/applications/${applicationId}/submit`, auth, { lenderId, products: [product] });
      const id = submitted.json.applications[0].applicationId as number;
      const oldToken = applicationAuthorizationToken(before.authorizationTokenKey, id);
      await eventually(
        async () => lenderReceiver.seen.length,
        (n) => n >= 1,
      );
      expect(tokenIn(lenderReceiver.seen[0]!.body)).toBe(oldToken);
      expect(verifies(before.webhookSecret, lenderReceiver.seen[0]!.headers, lenderReceiver.seen[0]!.body)).toBe(true);

      const after = await issueLenderCredentials(db(), lenderId, 'demo', app.runtime.config.PUBLIC_URL, { webhookSecretOverlapSeconds: 3600 });
      const newToken = applicationAuthorizationToken(after.authorizationTokenKey, id);
      expect(newToken).not.toBe(oldToken);
      expect(Date.parse(after.previousWebhookSecretValidUntil!)).toBeGreaterThan(Date.now() + 3500_000);
      // A lender that still verifies signatures with its OLD secret, and has been told the new key's token.
      lenderReceiver.state.accept = (headers, body) => verifies(before.webhookSecret, headers, body) && tokenIn(body) === newToken;
      await eventually(
        () => db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: id } }),
        (d) => d.status === 'DELIVERED',
        30_000,
      );
      const delivered = lenderReceiver.seen.filter((r) => r.accepted);
      expect(delivered).toHaveLength(1);
      const [request] = delivered;
      expect(signatureEntries(request!.headers)).toHaveLength(2);
      expect(verifies(after.webhookSecret, request!.headers, request!.body)).toBe(true);
      // The queued delivery was sent with the new token: the old one is never sent after the rotation.
      expect(request!.body).not.toContain(oldToken!);

      // Rotated again with a 1-second window: once it has passed, only the newest secret signs.
      const latest = await issueLenderCredentials(db(), lenderId, 'demo', app.runtime.config.PUBLIC_URL, { webhookSecretOverlapSeconds: 1 });
      await eventually(
        async () => Date.now(),
        (now) => now > Date.parse(latest.previousWebhookSecretValidUntil!) + 200,
      );
      lenderReceiver.state.accept = (headers, body) => verifies(latest.webhookSecret, headers, body);
      const seenBefore = lenderReceiver.seen.length;
      const ack = await postJson(
        `${app.url}${LENDER_API}/applications/${id}/acknowledgement`,
        { comment: 'received' },
        bearer(await lenderIdToken(app, latest)),
      );
      expect(ack.status).toBe(200);
      await eventually(
        () => db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: id, event: 'APPLICATION_UPDATED' } }),
        (d) => d.status === 'DELIVERED',
        30_000,
      );
      const update = lenderReceiver.seen.slice(seenBefore).find((r) => r.accepted)!;
      expect(signatureEntries(update.headers)).toHaveLength(1);
      expect(verifies(after.webhookSecret, update.headers, update.body)).toBe(false);
      expect(verifies(before.webhookSecret, update.headers, update.body)).toBe(false);
      expect(tokenIn(update.body)).toBe(applicationAuthorizationToken(latest.authorizationTokenKey, id));
    } finally {
      await db().lender.update({ where: { id: lenderId }, data: { applicationUrl: receiver.url } });
      await lenderReceiver.close();
    }
  });

  it('a delivery signed with two secrets verifies with either (Standard Webhooks, space-separated v1 entries), with no other', () => {
    const [current, previous, other] = ['a', 'b', 'c'].map((seed) => `whsec_${Buffer.from(`${seed}-${randomUUID()}`).toString('base64')}`) as [
      string,
      string,
      string,
    ];
    const body = JSON.stringify({ application: { id: 1 } });
    const headers = signWebhook([current, previous], 'msg_1', new Date(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, headers as unknown as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers as unknown as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(other).verify(body, headers as unknown as Record<string, string>)).toThrow();
  });
});

describe('the migration', () => {
  const MIGRATION = '20261125100000_lender_secrets_per_application';
  const name = `fg_secrets_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const url = databaseUrlFor(inject('postgresUrl'), name);
  beforeAll(() => adminQuery(inject('postgresUrl'), `CREATE DATABASE ${name}`));
  afterAll(() => adminQuery(inject('postgresUrl'), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

  it('removes the shared token from stored documents and queued deliveries, and gives the lender a fresh key, not the exposed token', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const migrations = await readMigrations();
      for (const m of migrations.filter((m) => m.name < MIGRATION)) await client.query(m.sql);
      // A deployment as it was: one token per lender, stored in every document and queued delivery.
      const exposed = 'shared-token-seen-by-integrators';
      const document = (id: number) =>
        JSON.stringify({
          apiProvider: { url: `http://x/applications/${id}`, updateUrl: `http://x/applications/${id}`, authorizationToken: exposed },
          application: { id },
        });
      await client.query(
        `INSERT INTO lender (name, slug, "applicationUrl", "requiredDocuments", "updatedAt", "webhookSecret", "authorizationToken") VALUES ('L', 'l', 'http://x', '{}', now(), 'whsec_x', $1)`,
        [exposed],
      );
      await client.query(`INSERT INTO profile (id, "updatedAt") VALUES ('00000000-0000-4000-8000-000000000001', now())`);
      await client.query(
        `INSERT INTO lender_application ("lenderId", "profileId", status, payload, "updatedAt") VALUES (1, '00000000-0000-4000-8000-000000000001', 'In Review', $1, now())`,
        [document(1)],
      );
      await client.query(
        `INSERT INTO webhook_delivery (id, "lenderApplicationId", "lenderId", event, url, payload, "updatedAt") VALUES (gen_random_uuid(), 1, 1, 'APPLICATION_CREATED', 'http://x', $1, now())`,
        [document(1)],
      );

      await client.query(migrations.find((m) => m.name === MIGRATION)!.sql);

      const [lender] = (await client.query('SELECT * FROM lender')).rows;
      expect(lender.authorizationToken).toBeUndefined();
      expect(lender.authorizationTokenKey).toMatch(/^fgak_[0-9a-f]{64}$/);
      expect(lender.authorizationTokenKey).not.toContain(exposed);
      for (const table of ['lender_application', 'webhook_delivery']) {
        const [row] = (await client.query(`SELECT payload FROM ${table}`)).rows;
        expect(row.payload).toEqual({ apiProvider: { url: 'http://x/applications/1', updateUrl: 'http://x/applications/1' }, application: { id: 1 } });
      }
    } finally {
      await client.end();
    }
  });
});
