/**
 * The dashboard's insights view in Chromium, against the whole system with seeded applications: the
 * charts are drawn (under the page's own CSP: script-src 'self', style-src 'self') from the aggregate
 * queries, and the numbers of their data tables equal what the test counts in SQL — all of them for
 * staff, account A's only for A's user. axe finds nothing serious; nothing of the view sticks out at 390 px.
 * Set DASHBOARD_SCREENSHOTS=1 to refresh docs/dashboard-insights.png.
 */
import { mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser } from '../src/modules/identity/bootstrap.js';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { signUpIntegrator, type Integrator } from './support/identities.js';
import { countedMoves, percentileCont, seedInsightsWorld, type InsightsWorld } from './support/insights-seed.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let browser: Browser;
let accountA: Integrator;
let accountB: Integrator;
let world: InsightsWorld;
const STAFF = { email: `insights-ops-${randomUUID().slice(0, 6)}@example.test`, password: 'ops-password-123' };
const db = () => app.runtime.database.prisma;
const screenshots = process.env.DASHBOARD_SCREENSHOTS === '1';
const DAY_MS = 86_400_000;

beforeAll(async () => {
  app = await startTestApp();
  await createAccountWithUser(db(), { environment: 'demo', accountName: 'insights operations', email: STAFF.email, password: STAFF.password, role: 'STAFF' });
  accountA = await signUpIntegrator(app, `insights-dash-a-${randomUUID().slice(0, 6)}`);
  accountB = await signUpIntegrator(app, `insights-dash-b-${randomUUID().slice(0, 6)}`);
  // Within the view's default window (the last 14 days): the last answer comes two days ago.
  world = await seedInsightsWorld(db(), { accounts: [accountA.accountId, accountB.accountId], start: new Date(Date.now() - 12 * DAY_MS), count: 27 });
  // Selections waiting for review, of several ages, for the review queue's chart.
  const profile = await db().profile.findFirstOrThrow({ where: { ownerAccountId: accountA.accountId } });
  const search = await db().fundingSearch.create({ data: { profileId: profile.id, amount: 50_000 } });
  for (const [index, hoursAgo] of [0.5, 5, 30, 50, 100].entries()) {
    await db().reviewSelection.create({
      data: {
        profileId: profile.id,
        fundingSearchId: search.id,
        selection: [],
        contentHash: `insights-${index}`,
        state: index === 2 ? 'IN_REVIEW' : 'PENDING_REVIEW',
        createdAt: new Date(Date.now() - hoursAgo * 3_600_000),
      },
    });
  }
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function openInsights(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${app.url}/app/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Insights' }).click();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.locator('[data-testid="pipeline-table"] tbody tr').first().waitFor({ state: 'attached', timeout: 20_000 });
  } catch (err) {
    // Say what the page shows instead (a problem panel, a script error) rather than only "timeout".
    throw new Error(`the insights did not render: ${errors.join('; ')} | ${(await page.locator('main').textContent()) ?? ''}`, { cause: err });
  }
}

/** The pipeline table's numbers, period → status → count (zeros left out, as the SQL counts them). */
async function pipelineTable(page: Page): Promise<Map<string, Map<string, number>>> {
  const rows = await page
    .locator('[data-testid="pipeline-table"] tbody tr')
    .evaluateAll((trs) =>
      trs.map(
        (tr) =>
          [
            tr.getAttribute('data-period')!,
            [...tr.querySelectorAll('td[data-status]')].map((td) => [td.getAttribute('data-status')!, Number(td.textContent)] as const),
          ] as const,
      ),
    );
  return new Map(rows.map(([period, counts]) => [period, new Map(counts.filter(([, n]) => n > 0))] as const).filter(([, m]) => m.size > 0));
}

async function windowOf(page: Page): Promise<{ since: Date; until: Date }> {
  const section = page.getByTestId('insights');
  return { since: new Date((await section.getAttribute('data-since'))!), until: new Date((await section.getAttribute('data-until'))!) };
}

/** Whether a chart's canvas has anything drawn on it. */
const drawn = (page: Page, figure: string) =>
  page.locator(`[data-testid="${figure}"] canvas`).evaluate((canvas: HTMLCanvasElement) => {
    const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    return canvas.width > 0 && pixels.some((value, index) => index % 4 === 3 && value > 0);
  });

describe('the insights view', () => {
  it('draws its charts under the page CSP, and its tables hold the numbers SQL counts (staff: every application)', async () => {
    // The page's own Content-Security-Policy applies here (no bypass): Chart.js must draw under it.
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    try {
      await openInsights(page, STAFF.email, STAFF.password);
      for (const figure of ['pipeline', 'response-times', 'review-queue-ageing']) await expect.poll(() => drawn(page, figure), { timeout: 10_000 }).toBe(true);
      expect(violations).toEqual([]);

      const window = await windowOf(page);
      expect(await pipelineTable(page)).toEqual(await countedMoves(db(), { ...window, bucket: 'day' }));
      expect(await page.locator('[data-testid="pipeline-table"] tbody tr').count()).toBe(14);

      // Response times of the seeded lenders: answered counts and seconds as the seeded times give them.
      for (const lender of world.lenders) {
        const row = page.locator(`[data-testid="response-times-table"] tr[data-lender-id="${lender.id}"]`);
        const mine = world.applications.filter((a) => a.lenderId === lender.id);
        const acks = mine.filter((a) => a.acknowledgedAfterHours !== null).map((a) => a.acknowledgedAfterHours! * 3600);
        const offers = mine.filter((a) => a.offeredAfterHours !== null).map((a) => a.offeredAfterHours! * 3600);
        expect(Number(await row.locator('[data-value="ack-answered"]').textContent())).toBe(acks.length);
        expect(Number(await row.locator('[data-value="offer-answered"]').textContent())).toBe(offers.length);
        expect(Number(await row.locator('[data-value="ack-median"]').getAttribute('data-seconds'))).toBeCloseTo(percentileCont(acks, 0.5)!, 3);
        expect(Number(await row.locator('[data-value="offer-p90"]').getAttribute('data-seconds'))).toBeCloseTo(percentileCont(offers, 0.9)!, 3);
      }

      // The review queue's table: every waiting selection of the environment, by age.
      const waiting = await db().reviewSelection.count({ where: { environment: 'demo', state: { in: ['PENDING_REVIEW', 'IN_REVIEW'] } } });
      const bands = await page.locator('[data-testid="review-queue-table"] tbody td').allTextContents();
      expect(bands.reduce((n, text) => n + Number(text), 0)).toBe(waiting);
      expect(waiting).toBeGreaterThanOrEqual(5);

      // By week: ISO weeks, the same numbers as SQL buckets them.
      await page.getByLabel('Window', { exact: true }).selectOption('WEEK');
      await expect.poll(() => page.locator('[data-testid="pipeline-table"] tbody tr').count()).toBe(12);
      expect(await pipelineTable(page)).toEqual(await countedMoves(db(), { ...(await windowOf(page)), bucket: 'week' }));
      await expect.poll(() => drawn(page, 'pipeline')).toBe(true);
      expect(violations).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("shows an integrator account's user only its own numbers, and no review queue", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await openInsights(page, accountA.email, accountA.password);
      const window = await windowOf(page);
      const mine = await countedMoves(db(), { ...window, bucket: 'day', accountId: accountA.accountId });
      expect(await pipelineTable(page)).toEqual(mine);
      expect(await pipelineTable(page)).not.toEqual(await countedMoves(db(), { ...window, bucket: 'day', accountId: accountB.accountId }));
      const submitted = [...mine.values()].reduce((n, m) => n + (m.get('In Review') ?? 0), 0);
      expect(submitted).toBe(world.applications.filter((a) => a.accountId === accountA.accountId).length);
      expect(await page.getByTestId('review-queue-ageing').count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('has nothing serious for axe, at 1280 and 390 px, and no sideways scroll on a phone', async () => {
    // axe-core is injected as an inline script, which the page's CSP forbids: this page bypasses it.
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    try {
      await openInsights(page, STAFF.email, STAFF.password);
      await expect.poll(() => drawn(page, 'pipeline')).toBe(true);
      expect(await seriousAccessibilityViolations(page), 'insights at 1280 px').toEqual([]);
      if (screenshots) {
        mkdirSync('docs', { recursive: true });
        await page.screenshot({ path: 'docs/dashboard-insights.png', fullPage: true });
      }
      // The tables behind their toggles too.
      for (const summary of await page.locator('.insight summary').all()) await summary.click();
      expect(await seriousAccessibilityViolations(page), 'insights with its tables open').toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      // Nothing of the view sticks out or scrolls sideways (named when something does): a wide table
      // scrolls inside its own figure until the shared stacked-table rules lay it out as blocks. The
      // shell's header at 390 px is the shell's own (its test holds the whole page to 390 px).
      const overflowing = () =>
        page.evaluate(() =>
          [
            document.querySelector('[data-testid="insights"]')!,
            ...document.querySelectorAll('[data-testid="insights"] figure, [data-testid="insights"] .filters, [data-testid="insights"] canvas'),
          ]
            .filter((e) => e.getBoundingClientRect().right > 391 || e.scrollWidth > e.clientWidth + 1)
            .map(
              (e) =>
                `${e.tagName.toLowerCase()}${e.getAttribute('data-testid') ? `[${e.getAttribute('data-testid')}]` : ''} (${Math.round(e.getBoundingClientRect().right)}, ${e.scrollWidth}/${e.clientWidth})`,
            ),
        );
      await expect.poll(overflowing).toEqual([]);
      if (screenshots) await page.screenshot({ path: 'docs/dashboard-insights-390.png', fullPage: true });
      expect(await seriousAccessibilityViolations(page), 'insights at 390 px').toEqual([]);
    } finally {
      await page.close();
    }
  });
});
