/**
 * The board in Chromium with 300 seeded applications (plus the template's demo rows), as staff:
 * search by company and by lender reference finds the row; sorting and paging cross 200 rows with
 * the right total; a live offer highlights its row, is announced and updates the status counts;
 * axe finds nothing serious; nothing scrolls sideways at 1280 or 390 px. DASHBOARD_SCREENSHOTS=1
 * writes docs/dashboard-board.png.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser, type LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { lenderCredentials, lenderIdToken, signUpIntegrator } from './support/identities.js';
import { lenderOffers } from './support/lender-applications.js';
import { seedBoardApplications, type SeededBoardRow } from './support/board-seed.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let browser: Browser;
let page: Page;
let lender: LenderCredentials;
let seeded: SeededBoardRow[];
let visibleTotal: number;
const STAFF = { email: 'board-ops@example.test', password: 'board-ops-password-1' };
const db = () => app.runtime.database.prisma;
const screenshots = process.env.DASHBOARD_SCREENSHOTS === '1';

const rowIds = (p: Page) => p.locator('[data-testid^="row-"]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-testid')!.slice(4))));
const total = (p: Page) => p.getByTestId('total').textContent().then(Number);

async function search(p: Page, text: string): Promise<void> {
  await p.getByLabel('Search', { exact: true }).fill(text);
  await p.getByRole('button', { name: 'Search', exact: true }).click();
}

beforeAll(async () => {
  app = await startTestApp();
  const first = await db().lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
  lender = await lenderCredentials(app, first.id);
  await createAccountWithUser(db(), { environment: 'demo', accountName: 'board operations', email: STAFF.email, password: STAFF.password, role: 'STAFF' });
  const account = await signUpIntegrator(app, 'board-browser');
  seeded = await seedBoardApplications(app, { accountId: account.accountId, lenderId: lender.lenderId, count: 300 });
  visibleTotal = await db().lenderApplication.count({ where: { environment: 'demo' } });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  await page.goto(`${app.url}/app/dashboard`);
  await page.getByLabel('Email').fill(STAFF.email);
  await page.getByLabel('Password').fill(STAFF.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the board with 300 applications (staff)', () => {
  it('shows the total and the counts per status', async () => {
    await expect.poll(() => total(page)).toBe(visibleTotal);
    expect(visibleTotal).toBeGreaterThanOrEqual(300);
    expect(Number(await page.getByTestId('count-all').textContent())).toBe(visibleTotal);
    const offered = await db().lenderApplication.count({ where: { environment: 'demo', status: 'Offered' } });
    expect(Number(await page.getByTestId('count-Offered').textContent())).toBe(offered);
  });

  it('search by company and by lender reference finds the row', async () => {
    const target = seeded[136]!;
    await search(page, target.companyName.slice(0, 'Seeded Company 137'.length));
    await expect.poll(() => rowIds(page)).toEqual([target.id]);
    expect(await total(page)).toBe(1);
    await search(page, seeded[41]!.reference);
    await expect.poll(() => rowIds(page)).toEqual([seeded[41]!.id]);
    await search(page, '');
    await expect.poll(() => total(page)).toBe(visibleTotal);
  });

  it('sorts by company and pages past 200 rows in order, with the total on every page', async () => {
    await page.getByRole('button', { name: /^Company/ }).click();
    await expect.poll(() => page.locator('th[aria-sort="ascending"]').textContent()).toContain('Company');
    const seen: number[] = [];
    for (let pageNumber = 0; pageNumber < 3; pageNumber++) {
      await expect.poll(async () => (await rowIds(page)).length).toBeGreaterThan(0);
      seen.push(...(await rowIds(page)));
      expect(await total(page)).toBe(visibleTotal);
      if (pageNumber < 2) {
        const firstBefore = (await rowIds(page))[0];
        await page.getByRole('button', { name: 'Next page' }).click();
        await expect.poll(async () => (await rowIds(page))[0]).not.toBe(firstBefore);
      }
    }
    expect(seen.length).toBeGreaterThan(200);
    expect(new Set(seen).size).toBe(seen.length);
    const names = await db().lenderApplication.findMany({ where: { id: { in: seen } }, select: { id: true, sentCompanyName: true } });
    const nameOf = new Map(names.map((n) => [n.id, (n.sentCompanyName ?? '').toLowerCase()]));
    const key = (id: number) => nameOf.get(id)!;
    const expected = [...seen].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a - b));
    expect(seen).toEqual(expected);
    // And back: the previous page is the second again.
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(async () => (await rowIds(page))[0]).toBe(seen[100]);
    // Descending on a second click.
    await page.getByRole('button', { name: /^Company/ }).click();
    await expect.poll(() => page.locator('th[aria-sort="descending"]').textContent()).toContain('Company');
  });

  it('a live offer highlights its row, is announced and updates the status counts', async () => {
    await page.getByRole('button', { name: /^Last change/ }).click(); // newest first
    await expect.poll(() => page.locator('th[aria-sort="descending"]').textContent()).toContain('Last change');
    const target = seeded[5]!; // the sixth seeded row is In Review, acknowledged
    const offeredBefore = Number(await page.getByTestId('count-Offered').textContent());
    await lenderOffers(app, await lenderIdToken(app, lender), target.id, 'BOARD-LIVE-OFFER');
    const row = page.getByTestId(`row-${target.id}`);
    await expect.poll(() => row.getAttribute('data-highlighted')).toBe('true');
    expect(await row.getByTestId('status').textContent()).toBe('Offered');
    await expect.poll(() => page.getByTestId('count-Offered').textContent().then(Number)).toBe(offeredBefore + 1);
    expect(await page.getByTestId('announcement').textContent()).toContain(`Application ${target.id}`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    if (screenshots) {
      mkdirSync('docs', { recursive: true });
      await page.screenshot({ path: 'docs/dashboard-board.png', fullPage: false });
    }
  });

  it('history opens in a side panel with seconds, status line before the offer line', async () => {
    const target = seeded[5]!;
    await page.getByRole('button', { name: `History of application ${target.id}`, exact: true }).click();
    const items = page.getByTestId('history').locator('li');
    await expect.poll(() => items.count()).toBeGreaterThanOrEqual(2);
    const texts = await items.allTextContents();
    const statusLine = texts.findIndex((t) => t.includes('→ Offered'));
    const offerLine = texts.findIndex((t) => t.includes('Offer BOARD-LIVE-OFFER'));
    expect(statusLine).toBeGreaterThanOrEqual(0);
    expect(offerLine).toBe(statusLine + 1);
    expect(texts[0]).toMatch(/\d{2}:\d{2}:\d{2}/);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Close history' }).click();
  });

  it('at 390 px nothing scrolls sideways and axe finds nothing serious', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > 391)
        .slice(0, 8)
        .map((e) => `${e.tagName}.${e.className}#${e.id}:${Math.round(e.getBoundingClientRect().right)}`),
    );
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: wide.join(' ') }).toBeLessThanOrEqual(390);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
