/**
 * The integrator console in Chromium, against the whole system (real PostgreSQL and HTTP): an
 * account ADMIN creates an API key with two scopes and uses it, finds a tenant, and finds a failed
 * request in the request log by its request id, with its problem body; every view is axe clean and
 * has no sideways scroll at 390 px. A MEMBER is offered only the views the access table gives it.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { bearer, createTenant, signUpIntegrator, type Integrator } from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let browser: Browser;
let admin: Integrator;
let member: { email: string; password: string };
let reference: string;
let tenantId: string;
/** axe-core is evaluated in the page, which the dashboard's CSP would refuse. */
const PAGE_OPTIONS = { viewport: { width: 1280, height: 900 }, bypassCSP: true };

async function signInOnPage(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${app.url}/app/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('role').waitFor();
}

const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name, exact: true });

/** No serious axe finding, and nothing scrolls sideways at 1280 px and at 390 px. */
async function expectUsable(page: Page, view: string): Promise<void> {
  expect(await seriousAccessibilityViolations(page), view).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), view).toBeLessThanOrEqual(1280);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: `${view} at 390 px` }).toBeLessThanOrEqual(390);
  expect(await seriousAccessibilityViolations(page), `${view} at 390 px`).toEqual([]);
  await page.setViewportSize(PAGE_OPTIONS.viewport);
}

beforeAll(async () => {
  app = await startTestApp();
  admin = await signUpIntegrator(app, `console-${randomUUID().slice(0, 6)}`);
  member = { email: `member-${randomUUID()}@example.test`, password: `pw-${randomUUID()}` };
  expect((await postJson(`${app.url}/api/platform/v1/users`, { ...member, role: 'MEMBER' }, bearer(admin.loginToken))).status).toBe(201);
  reference = `crm-${randomUUID().slice(0, 8)}`;
  tenantId = (await createTenant(app, admin.platformToken, reference)).id;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the integrator console as an account ADMIN', () => {
  let page: Page;
  beforeAll(async () => {
    page = await browser.newPage(PAGE_OPTIONS);
    await signInOnPage(page, admin.email, admin.password);
  });

  it('creates an API key with two scopes, shows its secret once, and the key works', async () => {
    await tab(page, 'API keys').click();
    await page.getByLabel('Name').fill(`crm-sync-${randomUUID().slice(0, 6)}`);
    await page.getByLabel('profile:read').check();
    await page.getByLabel('funding:read').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret').textContent())!.trim();
    expect(secret).toMatch(/^fgk_/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('secret-title');
    await expectUsable(page, 'api keys');

    const exchanged = await postJson(`${app.url}/api/platform/v1/auth/token`, undefined, { 'x-api-key': secret });
    expect(exchanged.status).toBe(201);
    const { access_token, scope } = await exchanged.json();
    expect(scope.split(' ').sort()).toEqual(['funding:read', 'profile:read']);
    expect((await fetch(`${app.url}/api/platform/v1/tenants`, { headers: bearer(access_token) })).status).toBe(200);

    // Once dismissed, the secret is gone from the page; the list shows the key's last use.
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByTestId('secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    await tab(page, 'API keys').click();
    const prefix = secret.split('_').slice(2, 4).join('_');
    await expect.poll(() => page.getByTestId(`key-${prefix}`).getByTestId('last-used').textContent()).not.toBe('never');
  });

  it('finds a tenant by its reference and opens it', async () => {
    await tab(page, 'Tenants').click();
    await page.getByLabel('Reference, company name or number, or tenant id').fill(reference);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByTestId(`tenant-${tenantId}`).waitFor();
    expect(await page.getByTestId('tenants').locator('tbody tr').count()).toBe(1);
    await page.getByTestId(`tenant-${tenantId}`).getByRole('button', { name: /^Open/ }).click();
    const detail = page.getByTestId('tenant-detail');
    await detail.waitFor();
    expect(await detail.textContent()).toContain(tenantId);
    expect(await detail.textContent()).toContain('The tenant has no profile yet');
    await expectUsable(page, 'tenants');
  });

  it('shows a failed request in the request log by its request id, with its problem body', async () => {
    const failing = await fetch(`${app.url}/api/platform/v1/tenants/${randomUUID()}`, { headers: bearer(admin.platformToken) });
    expect(failing.status).toBe(404);
    const problem = await failing.json();
    const requestId = failing.headers.get('x-request-id')!;
    await tab(page, 'Request log').click();
    await page.getByLabel('Request id').fill(requestId);
    // The entry is written within a second of the response; Apply asks again until it is there.
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Apply' }).click();
          return page.getByTestId(`request-${requestId}`).count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    const row = page.getByTestId(`request-${requestId}`);
    expect(await row.getAttribute('data-status')).toBe('404');
    expect(await row.textContent()).toContain('GET /api/platform/v1/tenants/:tenantId');
    await row.getByText('Problem body').click();
    expect(JSON.parse((await row.getByTestId('problem-body').textContent())!)).toEqual(problem);
    await expectUsable(page, 'request log');
  });
});

describe('the integrator console as an account MEMBER', () => {
  it('offers API keys and tenants but not the request log, and no admin-only scope', async () => {
    const page = await browser.newPage(PAGE_OPTIONS);
    await signInOnPage(page, member.email, member.password);
    expect(await tab(page, 'API keys').count()).toBe(1);
    expect(await tab(page, 'Tenants').count()).toBe(1);
    expect(await tab(page, 'Request log').count()).toBe(0);
    expect(await tab(page, 'Review queue').count()).toBe(0);
    await tab(page, 'API keys').click();
    expect(await page.getByLabel(/^insights:read/).isDisabled()).toBe(true);
    expect(await page.getByLabel('profile:read').isDisabled()).toBe(false);
    await tab(page, 'Tenants').click();
    await page.getByLabel('Reference, company name or number, or tenant id').fill(reference);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByTestId(`tenant-${tenantId}`).waitFor();
    await expectUsable(page, 'tenants (member)');
    await page.close();
  });
});
