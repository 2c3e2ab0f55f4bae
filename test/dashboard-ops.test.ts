/**
 * The operators' console's shell, deliveries and catalogue in Chromium (real PostgreSQL, HTTP,
 * graphql-ws, the webhook worker and two local lender receivers: one answering 204, one 500), at
 * 1280 and 390 px; the per-lender delivery summary and the lenders' settings under least-privileged
 * callers; and the dashboard served by the distributed deployment's REST adapter, whose /graphql
 * is forwarded to the gateway. DASHBOARD_SCREENSHOTS=1 refreshes docs/dashboard-{deliveries,
 * catalogue,sign-in,mobile}.png.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser, type LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { startRestServer } from '../src/processes/rest-server.js';
import type { RunningServer } from '../src/api/http/listen.js';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { graphql } from './support/graphql-client.js';
import { lenderCredentials, lenderIdToken, marketplaceV1Token, signIn, signUpIntegrator, type Integrator } from './support/identities.js';
import { lenderAcknowledges, storedApplicationDocument } from './support/lender-applications.js';
import { eventually, startLenderReceiver, type LenderReceiver } from './support/lender-receiver.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let browser: Browser;
let healthy: LenderReceiver;
let failing: LenderReceiver;
let healthyLender: LenderCredentials;
let failingLender: LenderCredentials;
let integrator: Integrator;
const STAFF = { email: 'console@example.test', password: 'console-password-123', name: 'Cora Console' };
const SECRET = 'whsec_c29tZS1zZWNyZXQtbmV2ZXItc2hvd24tb24tdGhlLXBhZ2U=';
const db = () => app.runtime.database.prisma;
const screenshots = process.env.DASHBOARD_SCREENSHOTS === '1';
/** axe-core is injected as an inline script, which the page's CSP forbids. */
const WIDE = { viewport: { width: 1280, height: 900 }, bypassCSP: true };
const PHONE = { viewport: { width: 390, height: 844 }, bypassCSP: true, isMobile: true, hasTouch: true };

const SUMMARY = 'query { webhookDeliverySummary { lenderId lenderName delivered failing dead pending total successRate lastFailureAt } }';
const SETTINGS = 'query { lenderSettings { lenderId applicationUrl updateUrl products { id productType minAmount maxAmount } } }';

async function acknowledgedApplication(lender: LenderCredentials, companyName: string): Promise<number> {
  const profile = await db().profile.create({ data: { environment: 'demo', ownerAccountId: integrator.accountId, companyInformation: { name: companyName } } });
  const row = await db().lenderApplication.create({
    data: {
      lenderId: lender.lenderId,
      profileId: profile.id,
      status: 'In Review',
      payload: storedApplicationDocument({ lenderId: lender.lenderId, companyName }),
    },
  });
  await db().applicationStatusChange.create({ data: { lenderApplicationId: row.id, fromStatus: null, toStatus: 'In Review' } });
  await lenderAcknowledges(app, await lenderIdToken(app, lender), row.id);
  return row.id;
}

async function signInOnPage(page: Page, baseUrl = app.url): Promise<void> {
  await page.goto(`${baseUrl}/app/dashboard`);
  await page.getByLabel('Email').fill(STAFF.email);
  await page.getByLabel('Password').fill(STAFF.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
}

async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** The elements reaching past the viewport's right edge (named in a failing width assertion). */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
  );
}

async function screenshot(page: Page, name: string): Promise<void> {
  if (!screenshots) return;
  mkdirSync('docs', { recursive: true });
  await page.screenshot({ path: `docs/dashboard-${name}.png`, fullPage: true });
}

beforeAll(async () => {
  app = await startTestApp({ config: { WEBHOOK_RETRY_DELAYS: [0, 0.2] as never, WEBHOOK_TIMEOUT_MS: 1000 } });
  healthy = await startLenderReceiver();
  failing = await startLenderReceiver();
  failing.answers = Array.from({ length: 100 }, () => 500);
  const [first, second] = await db().lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 2 });
  await db().lender.update({ where: { id: first!.id }, data: { applicationUrl: `${healthy.url}/hooks/applications`, updateUrl: null, webhookSecret: SECRET } });
  await db().lender.update({ where: { id: second!.id }, data: { applicationUrl: `${failing.url}/hooks/applications`, updateUrl: null } });
  healthyLender = await lenderCredentials(app, first!.id);
  failingLender = await lenderCredentials(app, second!.id);
  await createAccountWithUser(db(), { environment: 'demo', accountName: 'console', email: STAFF.email, password: STAFF.password, role: 'STAFF' });
  await db().platformUser.updateMany({ where: { email: STAFF.email }, data: { name: STAFF.name } });
  integrator = await signUpIntegrator(app, 'console-integrator');
  await acknowledgedApplication(healthyLender, 'DELTA DAIRIES LTD');
  await acknowledgedApplication(healthyLender, 'EPSILON ENGINES LTD');
  await acknowledgedApplication(failingLender, 'ZETA ZINC LTD');
  await eventually(
    () => db().webhookDelivery.findMany({ where: { lenderId: { in: [first!.id, second!.id] } } }),
    (rows) => rows.length === 3 && rows.every((r) => r.status === 'DELIVERED' || r.status === 'DEAD'),
  );
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await healthy?.close();
  await failing?.close();
  await app?.close();
});

describe('webhookDeliverySummary and lenderSettings, least privileged', () => {
  it('staff get each lender counted by status, failing first, the numbers SQL counts', async () => {
    const staff = await signIn(app, STAFF.email, STAFF.password);
    const res = await graphql(app.url, SUMMARY, {}, { authorization: `Bearer ${staff}` });
    expect(res.errors).toBeUndefined();
    const rows = res.data!.webhookDeliverySummary as Array<{
      lenderId: number;
      delivered: number;
      dead: number;
      failing: number;
      pending: number;
      total: number;
      successRate: number | null;
    }>;
    expect(rows[0]).toMatchObject({ lenderId: failingLender.lenderId, delivered: 0, dead: 1, failing: 0, pending: 0, total: 1, successRate: 0 });
    expect(rows.find((r) => r.lenderId === healthyLender.lenderId)).toMatchObject({ delivered: 2, dead: 0, failing: 0, total: 2, successRate: 1 });
    for (const row of rows) {
      const counted = await db().webhookDelivery.groupBy({ by: ['status'], where: { lenderId: row.lenderId }, _count: true });
      const of = (status: string) => counted.find((c) => c.status === status)?._count ?? 0;
      expect(row).toMatchObject({ delivered: of('DELIVERED'), failing: of('FAILED'), dead: of('DEAD'), pending: of('PENDING') });
    }
    const window = await graphql(app.url, 'query { webhookDeliverySummary(hours: 0) { lenderId } }', {}, { authorization: `Bearer ${staff}` });
    expect(window.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
  });

  it('refuses an integrator login, a platform token and a Marketplace V1 token', async () => {
    const v1 = (await marketplaceV1Token(app, integrator.apiKey)).jwt;
    for (const [who, token] of [
      ['integrator login', integrator.loginToken],
      ['platform token', integrator.platformToken],
      ['Marketplace V1 token', v1],
    ] as const) {
      for (const query of [SUMMARY, SETTINGS]) {
        const res = await graphql(app.url, query, {}, { authorization: `Bearer ${token}` });
        expect(res.errors?.[0]?.extensions?.code, `${who}: ${query}`).toBe('FORBIDDEN');
        expect(res.data ?? null, who).toBeNull();
      }
    }
  });

  it('lenderSettings gives staff the URLs and terms, never a secret', async () => {
    const staff = await signIn(app, STAFF.email, STAFF.password);
    const res = await graphql(app.url, 'query { lenderSettings { lenderId applicationUrl updateUrl } }', {}, { authorization: `Bearer ${staff}` });
    expect(res.errors).toBeUndefined();
    expect(res.data!.lenderSettings).toContainEqual({ lenderId: healthyLender.lenderId, applicationUrl: `${healthy.url}/hooks/applications`, updateUrl: null });
    expect(JSON.stringify(res.data)).not.toContain('whsec_');
  });
});

describe('the console in Chromium at 1280 px', () => {
  let page: Page;
  beforeAll(async () => {
    page = await browser.newPage(WIDE);
  });

  it('signs in; the header names the user and their role', async () => {
    await page.goto(`${app.url}/app/dashboard`);
    await page.getByLabel('Email').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');
    await signInOnPage(page);
    await expect.poll(() => page.getByTestId('signed-in-user').textContent()).toContain(`${STAFF.name} (${STAFF.email})`);
    expect(await page.getByTestId('role').textContent()).toBe('Staff');
  });

  it('deliveries: the failing lender first, with its counts and success rate', async () => {
    await page.getByRole('button', { name: 'Deliveries' }).click();
    const summaryRows = page.getByTestId('delivery-summary').locator('tbody tr');
    await expect.poll(() => summaryRows.count()).toBeGreaterThanOrEqual(2);
    const firstRow = summaryRows.first();
    expect(await firstRow.getAttribute('data-testid')).toBe(`summary-${failingLender.lenderId}`);
    expect(await firstRow.getAttribute('data-failing')).toBe('true');
    expect(await firstRow.getByTestId('dead').textContent()).toBe('1');
    expect(await firstRow.getByTestId('success-rate').textContent()).toBe('0%');
    const healthyRow = page.getByTestId(`summary-${healthyLender.lenderId}`);
    expect(await healthyRow.getByTestId('delivered').textContent()).toBe('2');
    expect(await healthyRow.getByTestId('success-rate').textContent()).toBe('100%');
    // The lenders' delivery lists follow the same order, and a status badge always carries its words.
    expect(await page.getByTestId('lender-deliveries').first().getAttribute('data-lender')).toBe(String(failingLender.lenderId));
    const deadBadge = page.locator('tr[data-status="DEAD"] .badge').first();
    expect(await deadBadge.textContent()).toBe('dead');
    // URLs break after their separators, not inside words.
    expect(await page.locator('tr[data-status="DEAD"] code wbr').count()).toBeGreaterThan(2);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(1280);
    await screenshot(page, 'deliveries');
    // The insights view charts the same summary: each lender's success rate as the deliveries view counts it.
    await page.getByRole('button', { name: 'Insights' }).click();
    const insightRow = (lenderId: number) => page.getByTestId('delivery-success-table').locator(`tr[data-lender-id="${lenderId}"] [data-value="success-rate"]`);
    await insightRow(failingLender.lenderId).waitFor({ state: 'attached' });
    expect(await insightRow(failingLender.lenderId).textContent()).toBe('0%');
    expect(await insightRow(healthyLender.lenderId).textContent()).toBe('100%');
    expect(await page.getByTestId('delivery-success').locator('canvas').count()).toBe(1);
  });

  it('catalogue: an existing product opens with its terms; changing one keeps every other', async () => {
    const product = await db().lenderProduct.findFirstOrThrow({ where: { lenderId: healthyLender.lenderId }, orderBy: { id: 'asc' } });
    // Terms the form does not show must survive a save from it.
    await db().lenderProduct.update({
      where: { id: product.id },
      data: {
        minGrade: 'C',
        arrangementFeePct: 2.5,
        exitFeePct: 1.25,
        requirements: { personalGuarantee: true },
        excludedSectors: ['HAULAGE'],
        likelihoodBase: 0.7,
      },
    });
    const before = await db().lenderProduct.findUniqueOrThrow({ where: { id: product.id } });
    await page.getByRole('button', { name: 'Lender catalogue' }).click();
    await page
      .getByRole('button', { name: new RegExp(`^Edit terms of ${product.name.replace(/[()]/g, '.')}`) })
      .first()
      .click();
    const form = page.getByRole('form', { name: 'Save a product' });
    await expect.poll(() => form.getByLabel('Minimum amount (£)').inputValue()).toBe(String(Number(before.minAmount)));
    expect(await form.getByLabel('Product name').inputValue()).toBe(before.name);
    expect(await form.getByLabel('Highest annual rate (%)').inputValue()).toBe(String(Number(before.annualRateMax)));
    const newMax = Number(before.maxAmount) + 12_345;
    await form.getByLabel('Maximum amount (£)').fill(String(newMax));
    await form.getByRole('button', { name: 'Save product' }).click();
    await expect.poll(() => page.getByTestId('notice').textContent()).toBe('Product saved.');
    const after = await db().lenderProduct.findUniqueOrThrow({ where: { id: product.id } });
    const { maxAmount, updatedAt: _u1, ...keptAfter } = after;
    const { maxAmount: _m, updatedAt: _u2, ...keptBefore } = before;
    expect(Number(maxAmount)).toBe(newMax);
    expect(JSON.parse(JSON.stringify(keptAfter))).toEqual(JSON.parse(JSON.stringify(keptBefore)));

    // The webhook form starts from the lender's URLs; its secret is nowhere on the page.
    await page
      .getByRole('button', { name: `Webhook URLs of ${(await db().lender.findUniqueOrThrow({ where: { id: healthyLender.lenderId } })).name}` })
      .click();
    const webhooks = page.getByRole('form', { name: 'Webhook URLs' });
    await expect.poll(() => webhooks.getByLabel('Application URL').inputValue()).toBe(`${healthy.url}/hooks/applications`);
    expect(await webhooks.getByLabel('Update URL (optional)').inputValue()).toBe('');
    expect(await page.content()).not.toContain(SECRET);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(1280);
    await screenshot(page, 'catalogue');
  });
});

describe('the console at 390 px', () => {
  it('sign-in fields do not overlap and no view scrolls sideways', async () => {
    const page = await browser.newPage(PHONE);
    await page.goto(`${app.url}/app/dashboard`);
    const boxes = await Promise.all(['Email', 'Password'].map(async (label) => (await page.getByLabel(label).boundingBox())!));
    const [email, password] = boxes as [NonNullable<(typeof boxes)[0]>, NonNullable<(typeof boxes)[0]>];
    const overlap =
      email.x < password.x + password.width &&
      password.x < email.x + email.width &&
      email.y < password.y + password.height &&
      password.y < email.y + email.height;
    expect(overlap).toBe(false);
    for (const box of boxes) expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await signInOnPage(page);
    expect(await page.getByTestId('role').isVisible()).toBe(true);
    const views = [
      ['Applications', '[data-testid="board"]'],
      ['Insights', '[data-testid="delivery-success"]'],
      ['Review queue', 'section.reviews'],
      ['Deliveries', '[data-testid="delivery-summary"]'],
      ['Lender catalogue', '[data-testid="lenders"]'],
    ] as const;
    for (const [tab, ready] of views) {
      await page.getByRole('button', { name: tab }).click();
      await page.locator(ready).waitFor();
      expect(await pageWidth(page), `${tab}: ${(await overflowing(page)).join(', ')}`).toBeLessThanOrEqual(390);
      expect(await seriousAccessibilityViolations(page), tab).toEqual([]);
      if (tab === 'Deliveries') await screenshot(page, 'mobile');
    }
    // A stacked row labels each value: the first delivery row's cells show their column names.
    await page.getByRole('button', { name: 'Deliveries' }).click();
    const label = await page
      .locator('[data-testid^="delivery-"] td[data-label="URL"]')
      .first()
      .evaluate((td) => getComputedStyle(td, '::before').content);
    expect(label).toBe('"URL"');
    await page.close();
  });
});

describe('the distributed deployment serves the dashboard', () => {
  let rest: RunningServer;
  beforeAll(async () => {
    // The REST adapter as start:distributed runs it, forwarding /graphql to a gateway (here the test app's GraphQL endpoint).
    rest = await startRestServer({ ...app.runtime, config: { ...app.runtime.config, GRAPHQL_GATEWAY_URL: `${app.url}/graphql` } }, 0);
  });
  afterAll(async () => {
    await rest?.close();
  });

  it('answers /app/dashboard and its bundle; a signed-in page reaches GraphQL and graphql-ws on the same origin', async () => {
    const shell = await fetch(`${rest.url}/app/dashboard`);
    expect(shell.status).toBe(200);
    expect(shell.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const bundle = await fetch(`${rest.url}/app/dashboard/dashboard.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    // Under the page's own CSP (no bypass): everything it loads and calls is on this origin.
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const graphqlCalls: string[] = [];
    const sockets: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/graphql')) graphqlCalls.push(req.url());
    });
    page.on('websocket', (socket) => sockets.push(socket.url()));
    // "Live" means the page's graphql-ws connection, forwarded to the gateway, was accepted.
    await signInOnPage(page, rest.url);
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByTestId(`summary-${failingLender.lenderId}`).waitFor();
    expect(graphqlCalls.length).toBeGreaterThan(0);
    expect(graphqlCalls.every((url) => url === `${rest.url}/graphql`)).toBe(true);
    expect(sockets).toEqual([`${rest.url.replace(/^http/, 'ws')}/graphql`]);
    await page.close();
  });
});
