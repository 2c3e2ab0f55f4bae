/**
 * Continue links end with the credential that made them and can be revoked by their integrator:
 * a link made with a key's token stops when that key is revoked (its page and
 * validate-continue-url refuse it, 403) while another key's link goes on working; the integrator
 * revokes an application's links (REST DELETE …/continue-url or GraphQL revokeContinueUrls, with
 * exactly one of the rule's scopes), after which a new link works; a foreign caller gets 404 and
 * revokes nothing. The funding-search page's link ends with its key as well. The page a refused
 * link shows names nobody.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './support/graphql-client.js';
import { ACME_APPLICATION } from './support/answers.js';
import { bearer, createApiKey, createTenant, marketplaceV1Token, platformToken, signUpIntegrator, type Integrator } from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

const B = '/api/business/v1';
let app: TestApp;
let me: Integrator;
let tenantId: string;
let applicationId: string;
let accountName: string;

/** A platform token (naming the tenant) of a new key of the account holding exactly `scopes`, with that key's id. */
async function tokenOfNewKey(scopes: string[]): Promise<{ auth: Record<string, string>; keyId: string }> {
  const key = await createApiKey(app, me.loginToken, { name: `links-${randomUUID().slice(0, 8)}`, scopes });
  return { auth: { ...bearer((await platformToken(app, key.key)).access_token), 'service-tenant-id': tenantId }, keyId: key.id };
}

async function linkOf(auth: Record<string, string>, id = applicationId): Promise<string> {
  const res = await postJson(`${app.url}${B}/applications/${id}/continue-url`, {}, auth);
  expect(res.status).toBe(201);
  return (await res.json()).continueUrl;
}

const pageStatus = async (link: string) => (await fetch(link)).status;
const validation = async (link: string) =>
  (
    await fetch(`${app.url}${B}/applications/validate-continue-url?continueUrl=${encodeURIComponent(link)}`, {
      headers: { ...bearer(me.platformToken), 'service-tenant-id': tenantId },
    })
  ).status;

beforeAll(async () => {
  app = await startTestApp();
  accountName = `links-${randomUUID().slice(0, 8)}`;
  me = await signUpIntegrator(app, accountName);
  tenantId = (await createTenant(app, me.platformToken)).id;
  const auth = bearer((await platformToken(app, me.apiKey, tenantId)).access_token);
  expect((await postJson(`${app.url}${B}/profile`, { companyInformation: { registrationNumber: '09876543' } }, auth)).status).toBe(201);
  const created = await postJson(`${app.url}${B}/applications`, ACME_APPLICATION, auth);
  expect(created.status).toBe(201);
  applicationId = (await created.json()).id;
});
afterAll(() => app?.close());

describe('continue links', () => {
  it("end when the API key that made them is revoked; another key's link goes on", async () => {
    const doomed = await tokenOfNewKey(['funding:write']);
    const kept = await tokenOfNewKey(['profile:write']);
    const doomedLink = await linkOf(doomed.auth);
    const keptLink = await linkOf(kept.auth);
    expect([await pageStatus(doomedLink), await validation(doomedLink)]).toEqual([200, 200]);

    const revoked = await fetch(`${app.url}/api/platform/v1/api-key/${doomed.keyId}`, { method: 'DELETE', headers: bearer(me.loginToken) });
    expect(revoked.status).toBe(204);
    expect([await pageStatus(doomedLink), await validation(doomedLink)]).toEqual([403, 403]);
    expect([await pageStatus(keptLink), await validation(keptLink)]).toEqual([200, 200]);
    // Nor can it be used to choose lenders.
    const post = await fetch(doomedLink, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'choice=1:TERM_LOAN' });
    expect(post.status).toBe(403);
  });

  it.each([
    ['REST DELETE …/continue-url', 'rest'],
    ['GraphQL revokeContinueUrls', 'graphql'],
  ])('are revoked by their integrator (%s, one of the two scopes): every earlier link refused, a new one works', async (_name, how) => {
    const { auth } = await tokenOfNewKey(['profile:write']);
    const earlier = [await linkOf(auth), await linkOf(auth)];
    for (const link of earlier) expect(await pageStatus(link)).toBe(200);
    if (how === 'rest') {
      expect((await fetch(`${app.url}${B}/applications/${applicationId}/continue-url`, { method: 'DELETE', headers: auth })).status).toBe(204);
    } else {
      const res = await graphql(app.url, 'mutation($a: ID!) { revokeContinueUrls(applicationId: $a) }', { a: applicationId }, auth);
      expect(res).toEqual({ data: { revokeContinueUrls: true } });
    }
    for (const link of earlier) expect([await pageStatus(link), await validation(link)]).toEqual([403, 403]);
    const fresh = await linkOf(auth);
    expect([await pageStatus(fresh), await validation(fresh)]).toEqual([200, 200]);
  });

  it('are not revoked by a caller who may not: a key without the scopes is refused (403), a foreign account sees nothing (404); the link stands', async () => {
    const { auth } = await tokenOfNewKey(['profile:write']);
    const link = await linkOf(auth);
    const unscoped = await tokenOfNewKey(['profile:read', 'funding:read']);
    expect((await fetch(`${app.url}${B}/applications/${applicationId}/continue-url`, { method: 'DELETE', headers: unscoped.auth })).status).toBe(403);
    const other = await signUpIntegrator(app);
    const foreignTenant = await createTenant(app, other.platformToken);
    const foreign = bearer((await platformToken(app, other.apiKey, foreignTenant.id)).access_token);
    expect((await fetch(`${app.url}${B}/applications/${applicationId}/continue-url`, { method: 'DELETE', headers: foreign })).status).toBe(404);
    const viaGraphql = await graphql(app.url, 'mutation($a: ID!) { revokeContinueUrls(applicationId: $a) }', { a: applicationId }, foreign);
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(await pageStatus(link)).toBe(200);
  });

  it("the funding-search page's link (Marketplace V1 url-schemas) ends with its key too", async () => {
    const key = await createApiKey(app, me.loginToken, { name: `search-${randomUUID().slice(0, 8)}`, scopes: ['profile:read', 'profile:write'] });
    const v1 = bearer((await marketplaceV1Token(app, key.key)).jwt);
    const { uuid } = await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, v1)).json();
    const { url } = await (await fetch(`${app.url}/api/marketplace/v1/profiles/${uuid}/url-schemas/funding-search`, { headers: v1 })).json();
    expect(await pageStatus(url)).toBe(200);
    expect((await fetch(`${app.url}/api/platform/v1/api-key/${key.id}`, { method: 'DELETE', headers: bearer(me.loginToken) })).status).toBe(204);
    expect(await pageStatus(url)).toBe(403);
  });

  it('a link that cannot be opened shows a page naming nobody, not the integrator account', async () => {
    const { auth, keyId } = await tokenOfNewKey(['funding:write']);
    const link = await linkOf(auth);
    await fetch(`${app.url}/api/platform/v1/api-key/${keyId}`, { method: 'DELETE', headers: bearer(me.loginToken) });
    for (const url of [
      link,
      `${link.slice(0, -3)}${link.endsWith('AAA') ? 'BBB' : 'AAA'}`,
      `${app.url}/app/applications/${applicationId}/continue?token=nonsense`,
    ]) {
      const res = await fetch(url);
      expect(res.status).toBe(403);
      const html = await res.text();
      expect(html).toContain('ask for a new link');
      expect(html).not.toContain(accountName);
      expect(html).not.toContain('data-testid="integrator"');
    }
  });
});
