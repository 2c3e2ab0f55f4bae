/**
 * GraphiQL (demo) opens ready for a first operation: the query editor holds an example query of
 * the schema with a comment saying where the bearer token goes, and the headers editor, open, holds
 * the Authorization header to fill in. In Chromium, with the network outside this server cut off,
 * an integrator who puts their platform token there runs the example and gets data.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHIQL_EXAMPLE_QUERY, GRAPHIQL_HEADERS_HINT } from '../src/api/graphql/graphql-access.js';
import { launchBrowser } from './support/browser.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let browser: Browser;
let platformToken: string;

beforeAll(async () => {
  app = await startTestApp({ config: { SEED_DEMO_DATA: true } });
  browser = await launchBrowser();
  // A fresh integrator's platform token: sign in, an API key, the token (docs/guides/integrator-rest.md).
  const login = await postJson(`${app.url}/api/platform/v1/auth/login`, {
    email: 'integrator@demo.funding-gateway.test',
    password: 'demo-integrator-password',
  });
  const loginToken = ((await login.json()) as { access_token: string }).access_token;
  const created = await postJson(
    `${app.url}/api/platform/v1/api-key`,
    { name: 'graphiql', scopes: ['profile:read'] },
    { authorization: `Bearer ${loginToken}` },
  );
  const key = ((await created.json()) as { key: string }).key;
  const token = await postJson(`${app.url}/api/platform/v1/auth/token`, '', { 'x-api-key': key });
  platformToken = ((await token.json()) as { access_token: string }).access_token;
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function openGraphiQL(): Promise<{ page: Page; foreign: string[] }> {
  const page = await browser.newPage();
  const foreign: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(app.url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  await page.goto(`${app.url}/graphql`);
  await page.locator('.graphiql-container').first().waitFor({ timeout: 20_000 });
  return { page, foreign };
}

describe('GraphiQL', () => {
  it('the example is a real operation a fresh integrator can run with a platform token', async () => {
    const res = await postJson(`${app.url}/graphql`, { query: GRAPHIQL_EXAMPLE_QUERY }, { authorization: `Bearer ${platformToken}` });
    const body = (await res.json()) as { data?: { tenants: { total: number }; lenders: Array<{ name: string; products: unknown[] }> }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data!.tenants.total).toBeGreaterThanOrEqual(0);
    expect(body.data!.lenders.length).toBeGreaterThan(0);
    // The comment says where the token goes, with the header the headers editor holds.
    expect(GRAPHIQL_EXAMPLE_QUERY).toMatch(/^# .*bearer token/im);
    expect(GRAPHIQL_EXAMPLE_QUERY).toContain('{"Authorization": "Bearer <token>"}');
    expect(JSON.parse(GRAPHIQL_HEADERS_HINT)).toEqual({ Authorization: 'Bearer <token>' });
  });

  it('opens with the example query and the header hint; with a token in its place the example runs', { timeout: 90_000 }, async () => {
    const { page, foreign } = await openGraphiQL();
    const container = page.locator('.graphiql-container');
    await expect.poll(() => container.getByText('query FirstSteps').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => container.getByText('bearer token', { exact: false }).count()).toBeGreaterThan(0);
    // The headers editor is open and holds the header to fill in.
    const headers = page.locator('.graphiql-editor-tool .graphiql-editor').last();
    // The editors render spaces as no-break spaces.
    const text = async (locator: Locator) => (await locator.innerText()).replace(/\u00a0/g, ' ');
    await expect.poll(() => text(headers), { timeout: 10_000 }).toContain('"Authorization": "Bearer <token>"');
    await page.screenshot({ path: `${process.env.TMPDIR ?? '/tmp'}/graphiql-first-screen.png` });

    // The integrator's token in place of <token>, and the example run.
    await headers.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${platformToken}` }));
    await page.locator('.graphiql-execute-button').first().click();
    const response = page.locator('.graphiql-response');
    await expect.poll(() => text(response), { timeout: 20_000 }).toContain('"lenders"');
    expect(await text(response)).toContain('"tenants"');
    expect(await text(response)).not.toContain('"errors"');
    expect(foreign).toEqual([]);
    await page.close();
  });
});
