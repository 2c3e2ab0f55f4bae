/**
 * Production defaults: no GraphiQL, introspection for staff only, HSTS; and, in demo, GraphiQL
 * served from local assets, working in Chromium with every request off this origin blocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { graphql, subscribe } from './support/graphql-client.js';
import { createAccountWithUser } from '../src/modules/identity/bootstrap.js';
import { signIn, signUpIntegrator, bearer } from './support/identities.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const GRAPHIQL_VENDOR_FINDINGS = ['color-contrast', 'nested-interactive'];
const INTROSPECTION = '{ __schema { queryType { name } } }';

describe('production', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ config: { DEPLOY_ENV: 'production' } });
  });
  afterAll(() => app?.close());

  it('serves no GraphiQL page', async () => {
    const res = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(await res.text()).not.toMatch(/graphiql/i);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });

  it('refuses introspection to anonymous and non-staff callers, naming the setting', async () => {
    const anonymous = await graphql(app.url, INTROSPECTION, {});
    expect(anonymous.data ?? null).toBeNull();
    expect(anonymous.errors?.[0]?.message).toMatch(/GRAPHQL_INTROSPECTION/);
    const integrator = await signUpIntegrator(app);
    const signedIn = await graphql(app.url, INTROSPECTION, {}, bearer(integrator.platformToken));
    expect(signedIn.errors?.[0]?.message).toMatch(/GRAPHQL_INTROSPECTION/);
    const staffEmail = 'staff-introspection@example.test';
    await createAccountWithUser(app.runtime.database.prisma, {
      environment: 'production',
      accountName: 'operators',
      email: staffEmail,
      password: 'staff-password-123',
      role: 'STAFF',
    });
    const staff = await graphql(app.url, INTROSPECTION, {}, bearer(await signIn(app, staffEmail, 'staff-password-123')));
    expect(staff.errors).toBeUndefined();
    expect(staff.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    // Ordinary queries still run.
    expect((await graphql(app.url, '{ __typename }', {})).data).toEqual({ __typename: 'Query' });
  });

  it('suggests no field, argument or enum names in errors ("Did you mean …"), which would leak the schema introspection keeps to staff', async () => {
    const misspelt = await graphql(app.url, '{ lendrs { name } }', {});
    expect(misspelt.errors?.map((e) => e.message)).toEqual(['Cannot query field "lendrs" on type "Query".']);
    const wrongArgument = await graphql(app.url, '{ companySearch(terms: "acme") { companyNumber } }', {});
    expect(JSON.stringify(wrongArgument.errors)).not.toMatch(/Did you mean/);
    expect(wrongArgument.errors?.[0]?.message).toBe('Unknown argument "terms" on field "Query.companySearch".');
  });

  it('over graphql-ws too: a non-staff socket gets no introspection and no suggestions, and the socket stays usable', async () => {
    const integrator = await signUpIntegrator(app);
    const auth = { authorization: `Bearer ${integrator.platformToken}` };
    const introspection = await subscribe(app.url, INTROSPECTION, {}, auth);
    const misspelt = await subscribe(app.url, '{ lendrs { name } }', {}, auth);
    const ordinary = await subscribe(app.url, '{ __typename }', {}, auth);
    try {
      const refused = await introspection.next().catch((err: unknown) => ({ errors: err as Array<{ message: string }> }));
      expect(JSON.stringify(refused)).toMatch(/GRAPHQL_INTROSPECTION/);
      expect(JSON.stringify(refused)).not.toMatch(/queryType/);
      const unknown = await misspelt.next().catch((err: unknown) => ({ errors: err as Array<{ message: string }> }));
      expect(JSON.stringify(unknown)).toMatch(/Cannot query field/);
      expect(JSON.stringify(unknown)).not.toMatch(/Did you mean/);
      expect(await ordinary.next()).toEqual({ data: { __typename: 'Query' } });
    } finally {
      await Promise.all([introspection.close(), misspelt.close(), ordinary.close()]);
    }
    // Staff introspect over a socket as over HTTP.
    const staffEmail = 'staff-ws-introspection@example.test';
    await createAccountWithUser(app.runtime.database.prisma, {
      environment: 'production',
      accountName: 'ws operators',
      email: staffEmail,
      password: 'staff-password-123',
      role: 'STAFF',
    });
    const staff = await subscribe(app.url, INTROSPECTION, {}, { authorization: `Bearer ${await signIn(app, staffEmail, 'staff-password-123')}` });
    try {
      expect(await staff.next()).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    } finally {
      await staff.close();
    }
  });
});

describe('demo', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('serves GraphiQL from local assets: it renders and runs a query with the network outside this origin cut off', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const foreign: string[] = [];
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(app.url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
        foreign.push(url);
        return route.abort();
      });
      await page.goto(`${app.url}/graphql?query=${encodeURIComponent('{ __typename }')}`);
      await page.locator('.graphiql-container').first().waitFor({ timeout: 20_000 });
      await page.locator('.graphiql-execute-button').first().click();
      await page.locator('.graphiql-response').getByText('"Query"').waitFor({ timeout: 20_000 });
      expect(foreign).toEqual([]);
      // GraphiQL's own UI (a vendor bundle) has two known serious findings; nothing beyond them is accepted.
      const findings = (await seriousAccessibilityViolations(page, '.graphiql-container')).map((v) => v.id);
      expect(findings.filter((id) => !GRAPHIQL_VENDOR_FINDINGS.includes(id))).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
