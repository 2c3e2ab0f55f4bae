/**
 * The lender console (/app/lender) in Chromium, as a lender's user, against the whole system (real
 * PostgreSQL, HTTP, graphql-ws, the webhook worker and a real local receiver): sign-in with the
 * username and password of the lender's credentials; an application found by company name, opened,
 * its document downloaded; a failed delivery shown with its attempts; every failed delivery
 * replayed and received again with the same webhook-id; a test event and its answer; live
 * updates under the lender's own token; the session's expiry; no sideways scroll at 390 px and no
 * serious axe finding. A second lender signs in and sees none of the first lender's applications
 * or deliveries.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { lenderCredentials, lenderIdToken } from './support/identities.js';
import { lenderAcknowledges, lenderOffers, storedApplicationDocument } from './support/lender-applications.js';
import { eventually, startLenderReceiver, type LenderReceiver } from './support/lender-receiver.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let receiver: LenderReceiver;
let browser: Browser;
let lenderA: LenderCredentials;
let lenderB: LenderCredentials;
const db = () => app.runtime.database.prisma;
const RUN = randomUUID().slice(0, 6).toUpperCase();
const COMPANY = `Harbour Lights Bakery ${RUN} Ltd`;
const DOCUMENT_TEXT = `%PDF-1.4\n% accounts of ${COMPANY}\n%%EOF\n`;
/** axe-core is injected as a script, which the page's CSP forbids; the CSP itself is checked by a test of its own. */
const PHONE = { viewport: { width: 390, height: 844 }, bypassCSP: true, acceptDownloads: true };

let harbourId: number;
let failingId: number;
let otherLenderId: number;

async function application(lenderId: number, companyName: string, attachments: unknown[] = []): Promise<number> {
  const profile = await db().profile.create({ data: { environment: 'demo' } });
  const document = storedApplicationDocument({ lenderId, companyName });
  const row = await db().lenderApplication.create({
    data: {
      lenderId,
      profileId: profile.id,
      status: 'In Review',
      payload: { apiProvider: { url: `${app.url}/api/platform/v1/funding`, updateUrl: `${app.url}/api/platform/v1/funding` }, ...document },
    },
  });
  if (attachments.length === 0) return row.id;
  const file = await db().document.create({
    data: {
      profileId: profile.id,
      fileName: 'accounts-2025.pdf',
      contentType: 'application/pdf',
      sizeBytes: Buffer.byteLength(DOCUMENT_TEXT),
      sha256: 'test',
      chunks: { create: [{ seq: 0, data: Buffer.from(DOCUMENT_TEXT) }] },
    },
  });
  const withAttachment = structuredClone(document);
  withAttachment.application.profile.attachments = [
    {
      id: file.id,
      fileName: file.fileName,
      contentType: file.contentType,
      sizeBytes: file.sizeBytes,
      sha256: file.sha256,
      url: `${app.url}/api/platform/v1/funding/v1/funding/search/${row.id}/document/${file.id}`,
    },
  ];
  await db().lenderApplication.update({
    where: { id: row.id },
    data: { payload: { apiProvider: { url: `${app.url}/api/platform/v1/funding`, updateUrl: `${app.url}/api/platform/v1/funding` }, ...withAttachment } },
  });
  return row.id;
}

async function signInOnPage(page: Page, credentials: LenderCredentials): Promise<void> {
  await page.goto(`${app.url}/app/lender`);
  await page.getByLabel('Username').fill(credentials.username);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
}

async function expectUsableOnPhone(page: Page, name: string): Promise<void> {
  expect(await seriousAccessibilityViolations(page), name).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name}: no sideways scroll at 390 px`).toBeLessThanOrEqual(390);
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByLabel('Company, reference or id').fill(text);
  await page.getByRole('search', { name: 'Search applications' }).getByRole('button', { name: 'Search' }).click();
}

beforeAll(async () => {
  app = await startTestApp({ config: { WEBHOOK_RETRY_DELAYS: [0, 0.2] as never, WEBHOOK_TIMEOUT_MS: 2000, GRAPHQL_WS_CREDENTIAL_RECHECK_MS: 500 } });
  receiver = await startLenderReceiver();
  const [first, second] = await db().lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 2 });
  await db().lender.update({ where: { id: first!.id }, data: { applicationUrl: receiver.url, updateUrl: null } });
  lenderA = await lenderCredentials(app, first!.id);
  lenderB = await lenderCredentials(app, second!.id);
  harbourId = await application(lenderA.lenderId, COMPANY, [{}]);
  await application(lenderA.lenderId, `Quayside Joinery ${RUN} Ltd`);
  failingId = await application(lenderA.lenderId, `Northgate Couriers ${RUN} Ltd`);
  otherLenderId = await application(lenderB.lenderId, `Bramble Coffee ${RUN} Ltd`);
  // Lender A's receiver fails the update of one application until its retries run out.
  receiver.answers = [
    { status: 500, body: 'ledger offline: try later' },
    { status: 500, body: 'ledger offline: try later' },
  ];
  await lenderAcknowledges(app, await lenderIdToken(app, lenderA), failingId, 'Checking the accounts');
  await eventually(
    () => db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: failingId } }),
    (d) => d.status === 'DEAD',
  );
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await receiver?.close();
});

describe('the lender console as a lender’s user', () => {
  let page: Page;

  it('refuses a wrong password, then signs in with the username and password of the lender’s credentials', async () => {
    page = await browser.newPage(PHONE);
    await page.goto(`${app.url}/app/lender`);
    await expectUsableOnPhone(page, 'sign-in');
    await page.getByLabel('Username').fill(lenderA.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByTestId('problem').textContent()).toContain('Username or password is incorrect');
    await signInOnPage(page, lenderA);
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual(['lenderConsole.idToken']);
    await page.getByTestId('applications').waitFor();
    await expectUsableOnPhone(page, 'applications');
  });

  it('finds an application by company name, opens it and downloads its document', async () => {
    await search(page, 'harbour lights');
    await expect.poll(() => page.getByTestId('totals').textContent()).toContain('1 application');
    expect(await page.locator('[data-testid^="application-"]').count()).toBe(1);
    await page.getByRole('button', { name: COMPANY }).click();
    const detail = page.getByTestId('application-detail');
    await detail.waitFor();
    expect(await detail.getByRole('heading', { level: 3 }).textContent()).toBe(`Application ${harbourId}: ${COMPANY}`);
    const [download] = await Promise.all([page.waitForEvent('download'), detail.getByRole('button', { name: 'Download accounts-2025.pdf' }).click()]);
    expect(download.suggestedFilename()).toBe('accounts-2025.pdf');
    expect(await readFile((await download.path())!, 'utf8')).toBe(DOCUMENT_TEXT);
    await page.getByText('The document as sent (spec 2.7)').click();
    expect(JSON.parse((await page.getByTestId('document-json').textContent())!)).toMatchObject({
      application: { id: harbourId, profile: { basicCompanyDetails: { companyName: COMPANY } } },
    });
    await expectUsableOnPhone(page, 'application detail');
  });

  it('follows its applications live: an offer made through the API shows in the list and the open panel, with its history', async () => {
    await lenderOffers(app, await lenderIdToken(app, lenderA), harbourId, `OFFER-${RUN}`);
    const row = page.getByTestId(`application-${harbourId}`);
    await expect.poll(() => row.locator('.badge').textContent()).toBe('Offered');
    await expect.poll(() => page.getByTestId('offers').textContent()).toContain(`OFFER-${RUN}`);
    await expect.poll(() => page.getByTestId('history').textContent()).toContain('application.updated #1, status Offered');
  });

  it('shows a failed delivery with its attempts, replays every failed one and sees it delivered with the same webhook-id', async () => {
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByLabel('Application id').fill(String(failingId));
    await page.getByRole('search', { name: 'Search deliveries' }).getByRole('button', { name: 'Search' }).click();
    const failed = page.locator(`[data-application="${failingId}"]`);
    await expect.poll(() => failed.getAttribute('data-status')).toBe('DEAD');
    expect(await failed.locator('.attempts li').count()).toBe(2);
    expect(await failed.locator('.attempts').textContent()).toContain('500');
    expect(await failed.getByTestId('response-body').allTextContents()).toEqual(['ledger offline: try later', 'ledger offline: try later']);
    const webhookId = (await failed.getByTestId('webhook-id').textContent())!.trim();
    await expectUsableOnPhone(page, 'deliveries');
    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Replay all failed' }).click();
    await expect.poll(() => page.getByTestId('notice').textContent()).toMatch(/Queued [1-9]\d* deliver/);
    const again = await eventually(
      async () => receiver.received.slice(before),
      (received) => received.some((r) => JSON.parse(r.body).application?.id === failingId),
    );
    const replayed = again.find((r) => JSON.parse(r.body).application?.id === failingId)!;
    expect(replayed.headers['webhook-id']).toBe(webhookId);
    await eventually(
      () => db().webhookDelivery.findUniqueOrThrow({ where: { id: webhookId } }),
      (d) => d.status === 'DELIVERED',
    );
    await page.getByRole('search', { name: 'Search deliveries' }).getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => failed.getAttribute('data-status')).toBe('DELIVERED');
  });

  it('redelivers one delivery: the receiver gets it again with the same webhook-id', async () => {
    const row = page.locator(`[data-application="${failingId}"]`);
    const webhookId = (await row.getByTestId('webhook-id').textContent())!.trim();
    const before = receiver.received.length;
    await row.getByRole('button', { name: /^Redeliver/ }).click();
    await expect.poll(() => page.getByTestId('notice').textContent()).toContain('queued again');
    const again = await eventually(
      async () => receiver.received.slice(before),
      (received) => received.length > 0,
    );
    expect(again[0]!.headers['webhook-id']).toBe(webhookId);
  });

  it('sends a test event to its application URL and shows the answer', async () => {
    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    const result = page.getByTestId('test-result');
    await result.waitFor();
    expect(await page.getByTestId('test-status').textContent()).toContain('204');
    expect(await result.textContent()).toContain(receiver.url.replace(/^http:\/\//, '').split('/')[0]!);
    const received = receiver.received.slice(before);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ test: true, type: 'application.created' });
    await expectUsableOnPhone(page, 'deliveries with a test result');
  });

  it('shows its endpoints, disables and enables one, rotates the signing secret (shown once): a test event during the overlap verifies with both secrets', async () => {
    await page.getByRole('button', { name: 'Endpoints' }).click();
    const created = page.getByTestId('endpoint-created');
    await created.waitFor();
    expect(await created.textContent()).toContain(new URL(receiver.url).host);
    const updated = page.getByTestId('endpoint-updated');
    await updated.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => updated.getAttribute('data-enabled')).toBe('false');
    await updated.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => updated.getAttribute('data-enabled')).toBe('true');
    await expectUsableOnPhone(page, 'endpoints');
    await page.getByRole('button', { name: 'Rotate the signing secret' }).click();
    await page.getByTestId('new-secret').waitFor();
    const secret = (await page.getByTestId('secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(lenderA.webhookSecret);
    await expect.poll(() => page.getByTestId('secret-status').textContent()).toContain('Rotating');
    await expectUsableOnPhone(page, 'endpoints with a new secret');
    await page.getByRole('button', { name: 'Deliveries' }).click();
    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    const [request] = await eventually(
      async () => receiver.received.slice(before),
      (received) => received.length > 0,
    );
    const headers = request!.headers as Record<string, string>;
    for (const key of [lenderA.webhookSecret, secret]) expect(new Webhook(key).verify(request!.body, headers)).toMatchObject({ test: true });
  });

  it('signs out: the token is gone and the sign-in form is back', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Username').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.close();
  });
});

describe('the session and the second lender', () => {
  it('returns to sign-in when the token expires', async () => {
    const page = await browser.newPage(PHONE);
    // A console token as the sign-in issues them, but expiring in 10 seconds.
    const short = await app.runtime.auth.tokens.sign(
      { tkn: 'lender', scope: 'openid profile', lid: lenderA.lenderId, azp: lenderA.clientId },
      { subject: `lender:${lenderA.lenderId}`, ttlSeconds: 10, audience: lenderA.clientId },
    );
    await page.goto(`${app.url}/app/lender`);
    await page.evaluate((token) => sessionStorage.setItem('lenderConsole.idToken', token), short);
    await page.reload();
    await page.getByTestId('signed-in-lender').waitFor();
    await page.getByTestId('session-ended').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('session-ended').textContent()).toContain('expired');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.close();
  });

  it('a second lender sees none of the first lender’s applications or deliveries', async () => {
    const page = await browser.newPage(PHONE);
    await signInOnPage(page, lenderB);
    await search(page, RUN);
    await expect.poll(() => page.getByTestId('totals').textContent()).toContain('0 applications');
    await search(page, `Bramble Coffee ${RUN}`);
    await expect.poll(() => page.getByTestId('totals').textContent()).toContain('1 application');
    expect(await page.locator(`[data-testid="application-${otherLenderId}"]`).count()).toBe(1);
    for (const id of [harbourId, failingId]) {
      await search(page, String(id));
      await expect.poll(() => page.getByTestId('totals').textContent()).toContain('0 applications');
    }
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByLabel('Application id').fill(String(failingId));
    await page.getByRole('search', { name: 'Search deliveries' }).getByRole('button', { name: 'Search' }).click();
    await page.getByTestId('no-deliveries').waitFor();
    await page.getByLabel('Application id').fill('');
    await page.getByRole('search', { name: 'Search deliveries' }).getByRole('button', { name: 'Search' }).click();
    const shown = await page.locator('[data-application]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-application'))));
    expect(shown).not.toContain(failingId);
    expect(shown).not.toContain(harbourId);
    await page.close();
  });

  it('serves the console under a CSP that allows only its own origin', async () => {
    const res = await fetch(`${app.url}/app/lender`);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') violations.push(message.text());
    });
    await signInOnPage(page, lenderA);
    await page.getByTestId('applications').waitFor();
    expect(violations).toEqual([]);
    await page.close();
  });
});
