/**
 * The page a Business V1 continue URL opens, in Chromium: the client reviews the application, sees
 * the same matches and pre-selected offers as GET /applications/{id}/matches and /pre-selected, and
 * chooses what to proceed with; the choice goes to the funding specialists' review queue exactly as
 * a Marketplace V1 apply does. No serious axe-core violation; fits 320 px.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { ACME_APPLICATION } from './support/answers.js';
import { bearer, createTenant, platformToken, signUpIntegrator, type Integrator } from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let me: Integrator;
let browser: Browser;
const B = '/api/business/v1';

/** A tenant with ACME's profile, an application, and its continue URL. */
async function applicationWithLink(): Promise<{ auth: Record<string, string>; id: string; profileId: string; continueUrl: string }> {
  const { id: tenantId } = await createTenant(app, me.platformToken);
  const auth = bearer((await platformToken(app, me.apiKey, tenantId)).access_token);
  expect((await postJson(`${app.url}${B}/profile`, { companyInformation: { registrationNumber: '09876543' } }, auth)).status).toBe(201);
  const created = await postJson(
    `${app.url}${B}/applications`,
    { ...ACME_APPLICATION, fundingAmount: { code: 'GBP', value: 150000 }, fundingPeriod: 24 },
    auth,
  );
  expect(created.status).toBe(201);
  const { id } = await created.json();
  const { continueUrl } = await (await postJson(`${app.url}${B}/applications/${id}/continue-url`, {}, auth)).json();
  const row = await app.runtime.database.prisma.businessApplication.findUniqueOrThrow({ where: { id } });
  return { auth, id, profileId: row.profileId, continueUrl };
}

beforeAll(async () => {
  app = await startTestApp();
  me = await signUpIntegrator(app);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the continue page', () => {
  it('shows the application, the same matches and pre-selected offers as the API, fits 320 px and passes axe-core', async () => {
    const { auth, id, continueUrl } = await applicationWithLink();
    const matches = await (await fetch(`${app.url}${B}/applications/${id}/matches`, { headers: auth })).json();
    const offers = await (await fetch(`${app.url}${B}/applications/${id}/pre-selected`, { headers: auth })).json();
    expect(matches.numberOfMatches).toBeGreaterThan(3);
    expect(offers.length).toBeGreaterThan(0);
    const page = await browser.newPage({ viewport: { width: 320, height: 900 } });
    try {
      expect((await page.goto(continueUrl))?.status()).toBe(200);
      expect(await page.getByTestId('company-name').textContent()).toBe('ACME WIDGETS LIMITED');
      const review = (await page.getByTestId('review').textContent()) ?? '';
      expect(review).toContain(id);
      expect(review).toContain('£150,000');
      expect(review).toContain('24 months');
      const shown = await page
        .getByTestId('continue-match')
        .evaluateAll((items) =>
          items.map((li) => ({ lender: Number(li.getAttribute('data-lender-id')), product: li.getAttribute('data-product'), text: li.textContent ?? '' })),
        );
      expect(shown.map(({ lender, product }) => ({ lender, product }))).toEqual(
        matches.matches.map((m: { lender: { id: number }; product: string }) => ({ lender: m.lender.id, product: m.product })),
      );
      matches.matches.forEach((m: { lender: { name: string }; likelihood: { value: number } }, i: number) => {
        expect(shown[i]!.text).toContain(m.lender.name);
        expect(shown[i]!.text).toContain(`Likelihood${Math.round(m.likelihood.value * 100)}%`);
      });
      expect(await page.getByTestId('preselected-offer').count()).toBe(offers.length);
      const firstOffer = offers[0];
      expect(await page.getByTestId('preselected-offer').first().textContent()).toContain(firstOffer.publicComment);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ fullPage: true, path: path.join(tmpdir(), 'continue-page-320.png') });
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('lets the client choose matches to proceed with: queued for review as an apply, shown on the page', async () => {
    const { profileId, continueUrl } = await applicationWithLink();
    const page = await browser.newPage();
    try {
      await page.goto(continueUrl);
      const items = page.getByTestId('continue-match');
      const chosen = [] as Array<{ lenderId: number; products: string[] }>;
      for (const index of [0, 1]) {
        const item = items.nth(index);
        await item.getByRole('checkbox').check();
        chosen.push({ lenderId: Number(await item.getAttribute('data-lender-id')), products: [(await item.getAttribute('data-product'))!] });
      }
      await Promise.all([page.waitForURL(/\/continue\?token=/), page.getByRole('button', { name: 'Proceed with my choice' }).click()]);
      expect(await page.getByTestId('choice-status').textContent()).toBe('Waiting for review');
      const queued = await app.runtime.database.prisma.reviewSelection.findMany({ where: { profileId } });
      expect(queued).toHaveLength(1);
      expect(queued[0]!.selection).toEqual(chosen.sort((a, b) => a.lenderId - b.lenderId));
      expect(page.url()).toBe(continueUrl);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('says what is wrong with an empty choice; a fifth tick is disabled and more than four lenders is refused; queueing nothing', async () => {
    const { profileId, continueUrl } = await applicationWithLink();
    const page = await browser.newPage();
    try {
      await page.goto(continueUrl);
      await page.getByRole('button', { name: 'Proceed with my choice' }).click();
      await page.getByTestId('choice-problem').waitFor();
      expect(await page.getByTestId('choice-problem').textContent()).toContain('must select at least 1 lender');
      const lenders: string[] = [];
      const items = page.getByTestId('continue-match');
      for (let i = 0; i < (await items.count()) && lenders.length < 5; i++) {
        const lender = (await items.nth(i).getAttribute('data-lender-id'))!;
        if (lenders.some((l) => l.startsWith(`${lender}:`))) continue;
        lenders.push(`${lender}:${await items.nth(i).getAttribute('data-product')}`);
        if (lenders.length <= 4) await items.nth(i).getByRole('checkbox').check();
        else expect(await items.nth(i).getByRole('checkbox').isDisabled()).toBe(true);
      }
      expect(lenders).toHaveLength(5);
      // The page's script stops a fifth tick; the server refuses five lenders all the same.
      const body = new URLSearchParams(lenders.map((c) => ['choice', c]));
      const refused = await fetch(continueUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      expect(await refused.text()).toContain('must select at most 4 lenders');
      expect(await app.runtime.database.prisma.reviewSelection.count({ where: { profileId } })).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('refuses a choice posted with a tampered link', async () => {
    const { profileId, continueUrl } = await applicationWithLink();
    const tampered = `${continueUrl.slice(0, -3)}${continueUrl.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const res = await fetch(tampered, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'choice=1:TERM_LOAN' });
    expect(res.status).toBe(403);
    expect(await app.runtime.database.prisma.reviewSelection.count({ where: { profileId } })).toBe(0);
  });
});
