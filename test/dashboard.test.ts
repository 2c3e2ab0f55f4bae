/**
 * The operations dashboard in Chromium, against the whole system (real PostgreSQL, HTTP, graphql-ws,
 * webhook worker, a local lender receiver). A TCP proxy in front of the app lets the test cut the
 * page's WebSocket from the server's side. Set DASHBOARD_SCREENSHOTS=1 to refresh docs/dashboard-*.png.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser, type LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { startCuttableProxy, type CuttableProxy } from './support/cuttable-proxy.js';
import { graphql } from './support/graphql-client.js';
import { ACME_ANSWERS } from './support/answers.js';
import { bearer, lenderCredentials, lenderIdToken, marketplaceV1Token, signUpIntegrator, type Integrator } from './support/identities.js';
import { lenderAcknowledges, lenderOffers, storedApplicationDocument, submittableMatches } from './support/lender-applications.js';
import { eventually, startLenderReceiver, type LenderReceiver } from './support/lender-receiver.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let proxy: CuttableProxy;
let receiver: LenderReceiver;
let browser: Browser;
let lender: LenderCredentials;
let accountA: Integrator;
let accountB: Integrator;
let staffPage: Page;
const STAFF = { email: 'ops@example.test', password: 'ops-password-123' };
const db = () => app.runtime.database.prisma;
const screenshots = process.env.DASHBOARD_SCREENSHOTS === '1';
/** axe-core is injected as an inline script, which the page's CSP forbids; one test below runs the app under its CSP. */
const PAGE_OPTIONS = { viewport: { width: 1024, height: 800 }, bypassCSP: true };

async function storedApplication(account: Integrator, companyName: string): Promise<number> {
  const profile = await db().profile.create({ data: { environment: 'demo', ownerAccountId: account.accountId, companyInformation: { name: companyName } } });
  const row = await db().lenderApplication.create({
    data: {
      lenderId: lender.lenderId,
      profileId: profile.id,
      status: 'In Review',
      payload: storedApplicationDocument({ lenderId: lender.lenderId, companyName }),
    },
  });
  await db().applicationStatusChange.create({ data: { lenderApplicationId: row.id, fromStatus: null, toStatus: 'In Review' } });
  return row.id;
}

async function signInOnPage(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${proxy.url}/app/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
}

const cell = (page: Page, applicationId: number, name: 'status' | 'offer' | 'acknowledged') =>
  page.locator(`[data-testid="row-${applicationId}"] [data-testid="${name}"]`);
const lenderToken = () => lenderIdToken(app, lender);

async function expectAccessible(page: Page, name: string): Promise<void> {
  expect(await seriousAccessibilityViolations(page), name).toEqual([]);
  // Usable from 1024 px wide: nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(1024);
  // The views with a test of their own (board, review queue, deliveries, catalogue, sign-in) take their
  // screenshots there, with fuller data; this walkthrough keeps the history and the integrator's view.
  if (screenshots && !SCREENSHOTS_TAKEN_ELSEWHERE.has(name)) {
    mkdirSync('docs', { recursive: true });
    await page.screenshot({ path: `docs/dashboard-${name}.png`, fullPage: true });
  }
}

const SCREENSHOTS_TAKEN_ELSEWHERE = new Set(['board', 'deliveries', 'review-queue', 'catalogue', 'sign-in']);

beforeAll(async () => {
  // Open sockets' credentials are re-checked every half second, so an ended session shows quickly.
  app = await startTestApp({ config: { WEBHOOK_RETRY_DELAYS: [0, 0.2] as never, WEBHOOK_TIMEOUT_MS: 500, GRAPHQL_WS_CREDENTIAL_RECHECK_MS: 500 } });
  proxy = await startCuttableProxy(app.url);
  receiver = await startLenderReceiver();
  const first = await db().lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
  await db().lender.update({ where: { id: first.id }, data: { applicationUrl: receiver.url, updateUrl: null } });
  lender = await lenderCredentials(app, first.id);
  await createAccountWithUser(db(), { environment: 'demo', accountName: 'operations', email: STAFF.email, password: STAFF.password, role: 'STAFF' });
  accountA = await signUpIntegrator(app, 'dash-a');
  accountB = await signUpIntegrator(app, 'dash-b');
  browser = await launchBrowser();
  staffPage = await browser.newPage(PAGE_OPTIONS);
});
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await app?.close();
  await receiver?.close();
});

describe('the live board (staff)', () => {
  let applicationA: number;
  let applicationB: number;

  it('signs in with a platform login and shows every lender application; a lender offer appears without reload', async () => {
    applicationA = await storedApplication(accountA, 'ALPHA TOOLS LTD');
    applicationB = await storedApplication(accountB, 'BETA BAKERY LTD');
    await signInOnPage(staffPage, STAFF.email, STAFF.password);
    expect(staffPage.url()).not.toMatch(/token|password/);
    expect(await staffPage.evaluate(() => sessionStorage.length)).toBe(1);
    await expect.poll(() => cell(staffPage, applicationA, 'status').textContent()).toBe('In Review');
    await expect.poll(() => cell(staffPage, applicationB, 'status').textContent()).toBe('In Review');
    await staffPage.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    await lenderOffers(app, await lenderToken(), applicationA, 'OFFER-LIVE-1');
    await expect.poll(() => cell(staffPage, applicationA, 'status').textContent()).toBe('Offered');
    const offer = await cell(staffPage, applicationA, 'offer').textContent();
    expect(offer).toContain('INDICATIVE');
    expect(offer).toContain('£150,000');
    expect(offer).toContain('36 months');
    expect(offer).toContain('OFFER-LIVE-1');
    expect(await staffPage.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await expectAccessible(staffPage, 'board');
  });

  it('shows a row history on demand: statuses and the offer replaced', async () => {
    await lenderOffers(app, await lenderToken(), applicationA, 'OFFER-LIVE-2');
    await expect.poll(() => cell(staffPage, applicationA, 'offer').textContent()).toContain('OFFER-LIVE-2');
    await staffPage.getByRole('button', { name: `History of application ${applicationA}` }).click();
    const history = staffPage.getByTestId('history');
    await expect.poll(() => history.textContent()).toContain('OFFER-LIVE-2');
    const text = (await history.textContent()) ?? '';
    expect(text).toContain('new → In Review');
    expect(text).toContain('In Review → Offered');
    expect(text).toMatch(/Offer OFFER-LIVE-1 INDICATIVE: .* replaced/);
    await expectAccessible(staffPage, 'history');
    await staffPage.getByRole('button', { name: 'Close history' }).click();
  });

  it('misses no event while its WebSocket is cut: it reconnects and catches up', async () => {
    const before = await db().lenderApplication.findUniqueOrThrow({ where: { id: applicationB } });
    proxy.cut();
    await staffPage.locator('[data-testid="connection"][data-state="reconnecting"]').waitFor();
    await lenderAcknowledges(app, await lenderToken(), applicationB, 'Published while the page was cut off');
    await new Promise((r) => setTimeout(r, 300));
    expect(await cell(staffPage, applicationB, 'status').textContent()).toBe('In Review');
    expect(await cell(staffPage, applicationB, 'acknowledged').count()).toBe(0);
    proxy.resume();
    await staffPage.locator('[data-testid="connection"][data-state="live"]').waitFor({ timeout: 20_000 });
    // Spec 3: the acknowledgement leaves the status In Review; the row shows it as acknowledged.
    await expect.poll(() => cell(staffPage, applicationB, 'acknowledged').count(), { timeout: 10_000 }).toBe(1);
    expect(await cell(staffPage, applicationB, 'status').textContent()).toBe('In Review');
    expect((await db().lenderApplication.findUniqueOrThrow({ where: { id: applicationB } })).updatedAt > before.updatedAt).toBe(true);

    // And the live stream works again after the reconnect.
    await lenderOffers(app, await lenderToken(), applicationB, 'OFFER-AFTER-CUT');
    await expect.poll(() => cell(staffPage, applicationB, 'offer').textContent()).toContain('OFFER-AFTER-CUT');
  });

  it('filters by status and lender', async () => {
    await staffPage.getByLabel('Status', { exact: true }).selectOption('Client Declined');
    await expect.poll(() => staffPage.locator('[data-testid^="row-"]').count()).toBe(0);
    await staffPage.getByLabel('Status', { exact: true }).selectOption('Offered');
    await expect.poll(() => cell(staffPage, applicationB, 'status').textContent()).toBe('Offered');
    await staffPage.locator('#filter-lender').selectOption(String(lender.lenderId));
    await expect.poll(() => staffPage.locator('[data-testid^="row-"]').count()).toBeGreaterThanOrEqual(2);
    await staffPage.getByLabel('Status', { exact: true }).selectOption('');
    await staffPage.locator('#filter-lender').selectOption('');
  });
});

describe('deliveries', () => {
  it('redelivers a dead-lettered delivery from the page; it reaches the lender receiver', async () => {
    await eventually(
      () => db().webhookDelivery.count({ where: { status: { in: ['PENDING', 'FAILED'] } } }),
      (n) => n === 0,
    );
    receiver.answers = [500, 500, 500];
    const applicationId = await storedApplication(accountA, 'GAMMA GARAGES LTD');
    await lenderAcknowledges(app, await lenderToken(), applicationId);
    const dead = await eventually(
      () => db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: applicationId } }),
      (d) => d.status === 'DEAD',
    );
    receiver.answers = [];
    const receivedBefore = receiver.received.length;

    await staffPage.getByRole('button', { name: 'Deliveries' }).click();
    await staffPage.locator('#delivery-status').selectOption('DEAD');
    const row = staffPage.getByTestId(`delivery-${dead.id}`);
    await expect.poll(() => row.getAttribute('data-status')).toBe('DEAD');
    const attempts = await db().webhookDeliveryAttempt.findMany({ where: { deliveryId: dead.id } });
    expect(attempts.map((a) => a.statusCode)).toEqual([500, 500]);
    expect(await row.getByRole('list', { name: 'Attempts, newest first' }).getByRole('listitem').allTextContents()).toEqual(
      [...attempts].sort((x, y) => y.attemptedAt.getTime() - x.attemptedAt.getTime()).map((a) => expect.stringContaining(`: 500, ${a.latencyMs} ms`)),
    );
    await expectAccessible(staffPage, 'deliveries');
    await row.getByRole('button', { name: /Redeliver/ }).click();
    await expect.poll(() => staffPage.getByTestId('notice').textContent()).toContain('queued again');

    const delivered = await eventually(
      () => db().webhookDelivery.findUniqueOrThrow({ where: { id: dead.id } }),
      (d) => d.status === 'DELIVERED',
    );
    await staffPage.locator('#delivery-status').selectOption('DELIVERED');
    await expect.poll(() => staffPage.getByTestId(`delivery-${dead.id}`).getByRole('listitem').first().textContent()).toMatch(/: 204, \d+ ms/);
    expect(delivered.lastStatusCode).toBe(204);
    const arrived = receiver.received.slice(receivedBefore).filter((r) => r.headers['webhook-id'] === dead.id);
    expect(arrived).toHaveLength(1);
    expect(JSON.parse(arrived[0]!.body).application).toMatchObject({ id: applicationId, status: 'In Review' });
  });
});

describe('review queue and lender catalogue', () => {
  let acme: string;
  let v1: Record<string, string>;

  beforeAll(async () => {
    v1 = bearer((await marketplaceV1Token(app, accountA.apiKey)).jwt);
    acme = (await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, v1)).json()).uuid;
    const put = await fetch(`${app.url}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${acme}/answers`, {
      method: 'PUT',
      headers: { ...v1, 'content-type': 'application/json' },
      body: JSON.stringify(ACME_ANSWERS),
    });
    expect(put.status).toBe(204);
  });

  const matches = async () => {
    const res = await graphql(app.url, 'query($u: ID!) { profileMatches(uuid: $u) { matches { lender { id } product productName } } }', { u: acme }, v1);
    return res.data!.profileMatches.matches as Array<{ lender: { id: number }; product: string; productName: string }>;
  };

  it('submits a reviewed selection to its lenders from the queue', async () => {
    const [selected] = await submittableMatches(app, await matches());
    const applied = await postJson(`${app.url}/api/marketplace/v1/profiles/${acme}/funding/apply`, [selected], v1);
    expect(applied.status).toBeLessThan(300);
    await staffPage.getByRole('button', { name: 'Review queue' }).click();
    const queued = staffPage.locator('[data-testid^="review-"]');
    await expect.poll(() => queued.count()).toBe(1);
    await queued.getByRole('button', { name: /^Review the selection/ }).click();
    const review = staffPage.getByTestId('review');
    await expect.poll(() => review.textContent()).toContain('ACME WIDGETS LIMITED');
    const reviewText = (await review.textContent()) ?? '';
    expect(reviewText).toContain('£150,000');
    expect(reviewText).toContain('Why it matched');
    expect(reviewText).toContain('Every field this lender requires is present.');
    await expectAccessible(staffPage, 'review-queue');
    await review.getByRole('button', { name: 'Submit to lenders' }).click();
    await expect.poll(() => staffPage.getByTestId('notice').textContent()).toBe('Submitted to 1 lender(s).');
    const created = await db().lenderApplication.findMany({ where: { profileId: (await db().profile.findFirstOrThrow({ where: { id: acme } })).id } });
    expect(created.map((a) => a.lenderId)).toEqual([selected!.lenderId]);
  });

  it('a product saved through the form appears in the matching results; a lender added appears in the catalogue', async () => {
    const [match] = await matches();
    await staffPage.getByRole('button', { name: 'Lender catalogue' }).click();
    const form = staffPage.getByRole('form', { name: 'Save a product' });
    await form.getByLabel('Lender').selectOption(String(match!.lender.id));
    await form.getByLabel('Product type').selectOption(match!.product);
    await form.getByLabel('Product name').fill('Dashboard Growth Loan');
    await form.getByLabel('Minimum amount (£)').fill('1000');
    await form.getByLabel('Maximum amount (£)').fill('900000');
    await form.getByLabel('Minimum term (months)').fill('1');
    await form.getByLabel('Maximum term (months)').fill('120');
    await form.getByLabel('Lowest annual rate (%)').fill('6');
    await form.getByLabel('Highest annual rate (%)').fill('4');
    await form.getByRole('button', { name: 'Save product' }).click();
    // The API's own schema refuses the inverted range and the page names the field.
    await expect.poll(() => staffPage.getByTestId('problem').textContent()).toContain('annualRateMax');
    await form.getByLabel('Highest annual rate (%)').fill('11');
    await form.getByRole('button', { name: 'Save product' }).click();
    await expect.poll(() => staffPage.getByTestId('notice').textContent()).toBe('Product saved.');
    await expect.poll(async () => (await matches()).some((m) => m.lender.id === match!.lender.id && m.productName === 'Dashboard Growth Loan')).toBe(true);

    const webhooks = staffPage.getByRole('form', { name: 'Webhook URLs' });
    await webhooks.getByLabel('Lender').selectOption(String(match!.lender.id));
    await webhooks.getByLabel('Application URL').fill('http://10.1.2.3/applications');
    await webhooks.getByRole('button', { name: 'Save webhook URLs' }).click();
    await expect.poll(() => staffPage.getByTestId('problem').textContent()).toContain('/applicationUrl');
    expect(await staffPage.getByTestId('problem').textContent()).toMatch(/private address/);
    await webhooks.getByLabel('Application URL').fill(receiver.url);
    await webhooks.getByRole('button', { name: 'Save webhook URLs' }).click();
    await expect.poll(() => staffPage.getByTestId('notice').textContent()).toBe('Webhook URLs saved.');
    expect(await db().lender.findUniqueOrThrow({ where: { id: match!.lender.id } })).toMatchObject({ applicationUrl: receiver.url, updateUrl: null });

    const addLender = staffPage.getByRole('form', { name: 'Add a lender' });
    await addLender.getByLabel('Name').fill('Dashboard Capital');
    await addLender.getByRole('button', { name: 'Add lender' }).click();
    await expect.poll(() => staffPage.getByTestId('lenders').textContent()).toContain('Dashboard Capital');
    await expectAccessible(staffPage, 'catalogue');
  });
});

describe('a non-staff user of an integrator account', () => {
  it("sees only its account's rows, live, and no staff views", async () => {
    const ownRow = await storedApplication(accountA, 'DELTA DAIRY LTD');
    const otherRow = await storedApplication(accountB, 'EPSILON EVENTS LTD');
    const page = await browser.newPage(PAGE_OPTIONS);
    await signInOnPage(page, accountA.email, accountA.password);
    await expect.poll(() => cell(page, ownRow, 'status').textContent()).toBe('In Review');
    expect(await page.getByTestId(`row-${otherRow}`).count()).toBe(0);
    const shown = await page.locator('[data-testid^="row-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')));
    const ownIds = (await db().lenderApplication.findMany({ where: { profile: { ownerAccountId: accountA.accountId } } })).map((a) => `row-${a.id}`);
    expect(shown.sort()).toEqual(ownIds.sort());
    expect(await page.getByRole('button', { name: 'Deliveries' }).count()).toBe(0);

    await lenderOffers(app, await lenderToken(), otherRow, 'OFFER-OTHER');
    await lenderOffers(app, await lenderToken(), ownRow, 'OFFER-OWN');
    await expect.poll(() => cell(page, ownRow, 'status').textContent()).toBe('Offered');
    expect(await page.getByTestId(`row-${otherRow}`).count()).toBe(0);
    await expectAccessible(page, 'integrator');
    await page.close();
  });

  it('an ended session (the password changed elsewhere) returns the page to sign-in with a message, instead of reconnecting forever', async () => {
    const user = await signUpIntegrator(app, 'dash-ended');
    const page = await browser.newPage(PAGE_OPTIONS);
    await signInOnPage(page, user.email, user.password);
    // The user changes their password from another client: every earlier login token ends.
    const userId = (await db().platformUser.findFirstOrThrow({ where: { email: user.email } })).id;
    const changed = await fetch(`${app.url}/api/platform/v1/users/${userId}`, {
      method: 'PATCH',
      headers: { ...bearer(user.loginToken), 'content-type': 'application/json' },
      body: JSON.stringify({ currentPassword: user.password, password: `${user.password}-new` }),
    });
    expect(changed.status, await changed.text()).toBe(200);
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('problem').textContent()).toContain('sign in again');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.close();
  });

  it('the sign-in page is accessible and works from the keyboard; a wrong password is refused with a message', async () => {
    const page = await browser.newPage(PAGE_OPTIONS);
    await page.goto(`${proxy.url}/app/dashboard`);
    await expectAccessible(page, 'sign-in');
    // Keyboard only: Tab to each field, Enter submits.
    await page.keyboard.press('Tab');
    await page.keyboard.type(STAFF.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('not-the-password');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('problem').count()).toBe(1);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
    // The board's History buttons are reachable and open the panel, which takes the focus.
    await page
      .getByRole('button', { name: /^History of application/ })
      .first()
      .focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('history-title');
    await page.close();
  });
});

describe('the content security policy', () => {
  it('is set on the page, and the dashboard runs under it: its own script, style and connections only', async () => {
    const res = await fetch(`${app.url}/app/dashboard`);
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    const page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await signInOnPage(page, STAFF.email, STAFF.password);
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByRole('heading', { name: 'Webhook deliveries' }).waitFor();
    expect(violations).toEqual([]);
    await page.close();
  });
});
