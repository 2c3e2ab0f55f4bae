/**
 * The review queue and the continue page together, in Chromium: a client chooses on the continue
 * page (at most four ticks, APR and total repayable beside each offer), a second choice asks before
 * replacing and leaves one pending selection; a funding specialist finds it grouped under the
 * company (name and number, human labels), takes it, writes a note and rejects it with a reason,
 * which the client then reads on the continue page. axe finds nothing serious; nothing scrolls
 * sideways at 390 px. DASHBOARD_SCREENSHOTS=1 refreshes docs/dashboard-review-queue.png and
 * docs/continue-page.png.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithUser } from '../src/modules/identity/bootstrap.js';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { signUpIntegrator } from './support/identities.js';
import { applicationWithLink, type ContinueFixture } from './support/review-continue.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let browser: Browser;
let client: ContinueFixture;
const STAFF = { email: 'queue@example.test', password: 'queue-password-123' };
const COMPANY = 'ACME WIDGETS LIMITED'; // the registry's name for 09876543
const db = () => app.runtime.database.prisma;
const screenshots = process.env.DASHBOARD_SCREENSHOTS === '1';
const REASON = 'Your turnover is below what these lenders need; we will contact you with other options.';

async function noSidewaysScroll(page: Page, what: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), what).toBeLessThanOrEqual(0);
}

async function screenshot(page: Page, file: string): Promise<void> {
  if (!screenshots) return;
  mkdirSync('docs', { recursive: true });
  await page.screenshot({ path: `docs/${file}`, fullPage: true });
}

async function signInOnPage(page: Page): Promise<void> {
  await page.goto(`${app.url}/app/dashboard`);
  await page.getByLabel('Email').fill(STAFF.email);
  await page.getByLabel('Password').fill(STAFF.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Review queue' }).waitFor();
}

beforeAll(async () => {
  app = await startTestApp();
  await createAccountWithUser(db(), {
    environment: 'demo',
    accountName: 'queue-ops',
    email: STAFF.email,
    password: STAFF.password,
    role: 'STAFF',
    name: 'Quinn Reviewer',
  });
  client = await applicationWithLink(app, await signUpIntegrator(app, 'queue-integrator'), COMPANY);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the continue page (client)', () => {
  it('at most four ticks, APR and total repayable beside each offer, then the status instead of the form', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 900 } });
    try {
      expect((await page.goto(client.continueUrl))?.status()).toBe(200);
      const offers = page.getByTestId('preselected-offer');
      expect(await offers.count()).toBeGreaterThan(0);
      for (const text of await offers.allTextContents()) {
        if (/Term loan|Asset/i.test(text) || text.includes('Monthly repayment')) expect(text).toMatch(/Representative APR\d/);
      }
      expect((await offers.allTextContents()).some((t) => /Total repayable£[\d,]+/.test(t))).toBe(true);
      const boxes = page.locator('input[name="choice"]');
      const items = page.getByTestId('continue-match');
      // Four different lenders ticked: the others are disabled, and the page says why.
      const lenders = new Set<string>();
      for (let i = 0; i < (await items.count()) && lenders.size < 4; i++) {
        const lender = (await items.nth(i).getAttribute('data-lender-id'))!;
        if (lenders.has(lender)) continue;
        lenders.add(lender);
        await items.nth(i).getByRole('checkbox').check();
      }
      expect(await page.locator('input[name="choice"]:checked').count()).toBe(4);
      expect(await page.locator('input[name="choice"]:disabled').count()).toBe((await boxes.count()) - 4);
      expect(await page.getByTestId('tick-limit').textContent()).toContain('the most you can choose');
      await noSidewaysScroll(page, 'continue page at 390 px');
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'continue-page.png');
      // Keep two: proceed.
      const checked = page.locator('input[name="choice"]:checked');
      await checked.nth(3).uncheck();
      await checked.nth(2).uncheck();
      await Promise.all([page.waitForURL(/\/continue\?token=/), page.getByRole('button', { name: 'Proceed with my choice' }).click()]);
      expect(await page.getByTestId('choice-status').textContent()).toBe('Waiting for review');
      expect(await page.locator('form').count()).toBe(0);
      expect(await page.locator('input[name="choice"]').count()).toBe(0);
      expect(await db().reviewSelection.count({ where: { profileId: client.profileId, state: 'PENDING_REVIEW' } })).toBe(1);
    } finally {
      await page.close();
    }
  });

  it('a second choice asks before replacing and leaves one pending selection', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(client.continueUrl);
      const first = await db().reviewSelection.findFirstOrThrow({ where: { profileId: client.profileId, state: 'PENDING_REVIEW' } });
      await page.getByTestId('change-choice').click();
      expect(await page.getByTestId('replace-question').textContent()).toContain('Sending this one replaces it');
      const items = page.getByTestId('continue-match');
      await items.last().getByRole('checkbox').check();
      await Promise.all([page.waitForURL(/\/continue\?token=[^&]+$/), page.getByRole('button', { name: 'Replace my choice' }).click()]);
      expect(await page.getByTestId('choice-status').textContent()).toBe('Waiting for review');
      const rows = await db().reviewSelection.findMany({ where: { profileId: client.profileId } });
      expect(rows.filter((r) => r.state === 'PENDING_REVIEW')).toHaveLength(1);
      expect(rows.find((r) => r.id === first.id)?.state).toBe('CLOSED');
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('the review queue (staff) and back to the client', () => {
  it('groups by company with human labels; assign to me, a note, and reject with a reason the client reads', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    try {
      await signInOnPage(page);
      await page.getByRole('button', { name: 'Review queue' }).click();
      const group = page.getByTestId(`queue-group-${client.profileId}`);
      await group.waitFor();
      const heading = (await group.locator('h3').textContent()) ?? '';
      expect(heading).toContain(COMPANY);
      expect(heading).toContain('company number 09876543');
      expect(heading).not.toContain(client.profileId);
      // Both of the profile's selections sit in its group: the pending one and the one it replaced.
      expect(await group.locator('tbody tr').count()).toBe(2);
      const pending = await db().reviewSelection.findFirstOrThrow({ where: { profileId: client.profileId, state: 'PENDING_REVIEW' } });
      const row = page.getByTestId(`review-${pending.id}`);
      expect(await row.getByTestId('selection-state').textContent()).toBe('Waiting for review');
      expect(await group.textContent()).toContain('Replaced by the client');
      expect(await page.locator('body').textContent()).not.toMatch(/PENDING_REVIEW|LIMITED_COMPANY|TERM_LOAN/);

      await row.getByRole('button', { name: /^Assign to me/ }).click();
      await expect.poll(() => row.getByTestId('assignee').textContent(), { timeout: 20_000 }).toContain('Quinn Reviewer');
      expect(await row.getByTestId('selection-state').textContent()).toBe('In review');

      await row.getByRole('button', { name: /^Review the selection/ }).click();
      const review = page.getByTestId('review');
      await review.waitFor();
      await review.getByLabel('New note').fill('Turnover checked against the filed accounts');
      await review.getByRole('button', { name: 'Add note' }).click();
      await expect.poll(() => review.getByTestId('staff-notes').textContent(), { timeout: 20_000 }).toContain('Turnover checked against the filed accounts');
      expect(await review.textContent()).toContain('Limited company');
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await noSidewaysScroll(page, 'review queue at 1280 px');
      await screenshot(page, 'dashboard-review-queue.png');

      // Reject without a reason is refused by the form itself; with one it is done.
      await review.getByLabel('Reason for rejecting (the client reads it)').fill(REASON);
      await review.getByRole('button', { name: 'Reject' }).click();
      await expect.poll(() => review.getByTestId('selection-state').textContent(), { timeout: 20_000 }).toBe('Rejected');
      expect(await review.getByTestId('decision-reason').textContent()).toContain(REASON);
      expect(await review.getByTestId('selection-history').textContent()).toMatch(
        /Assigned by Quinn Reviewer.*Note by Quinn Reviewer.*Rejected by Quinn Reviewer/s,
      );

      await page.setViewportSize({ width: 390, height: 900 });
      // This view's part of 390 px: nothing of the review queue reaches past the screen's edge (the
      // shell's header at 390 px is the ops helper's part of issue 25, checked page-wide there).
      const overflowing = await page.evaluate(() =>
        [...document.querySelectorAll('section.reviews *')]
          .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
          .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
      );
      expect(overflowing, 'review queue at 390 px').toEqual([]);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }

    const clientPage = await browser.newPage({ viewport: { width: 390, height: 900 } });
    try {
      await clientPage.goto(client.continueUrl);
      expect(await clientPage.getByTestId('choice-status').textContent()).toBe('Not taken forward');
      expect(await clientPage.getByTestId('choice-reason').textContent()).toContain(REASON);
      expect(await clientPage.locator('form').count()).toBe(0);
      await noSidewaysScroll(clientPage, 'rejected continue page at 390 px');
      expect(await seriousAccessibilityViolations(clientPage)).toEqual([]);
    } finally {
      await clientPage.close();
    }
  });

  it('an expired or tampered link explains itself in plain words and names nobody (no integrator account behind an id)', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 700 } });
    try {
      const tampered = `${client.continueUrl.slice(0, -3)}${client.continueUrl.endsWith('AAA') ? 'BBB' : 'AAA'}`;
      expect((await page.goto(tampered))?.status()).toBe(403);
      const text = (await page.locator('main').textContent()) ?? '';
      expect(text).toContain('This link does not work');
      expect(await page.getByTestId('integrator').count()).toBe(0);
      expect(text).not.toContain('queue-integrator');
      expect(text).toContain('ask for a new link');
      expect(text).not.toMatch(/signature|token|JWT|claim/i);
      await noSidewaysScroll(page, 'link problem page');
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
