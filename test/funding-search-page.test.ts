/**
 * Profile URL schemas (spec 4.1 rule 6): a signed, expiring link to the funding-search page we
 * serve, opened in a real browser (Debian's chromium through playwright-core): the same matches as
 * GET .../funding/matches/results, why the others did not match, and no serious axe-core violation.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { ACME_ANSWERS } from './support/answers.js';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, lenderCredentials, lenderIdToken, marketplaceV1Token, signUpIntegrator } from './support/identities.js';
import { lenderOffers, storedLenderApplication } from './support/lender-applications.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let now = new Date('2026-11-21T10:00:00Z');
let app: TestApp;
let browser: Browser;
let auth: Record<string, string>;
let uuid: string;

beforeAll(async () => {
  app = await startTestApp({ clock: { now: () => now } });
  auth = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
  uuid = (await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, auth)).json()).uuid;
  await fetch(`${app.url}/api/marketplace/v1/profiles/${uuid}/company`, {
    method: 'PATCH',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ACME <WIDGETS> LIMITED', registrationNumber: '09876543' }),
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const schemaUrl = (query = '', id = uuid) => `${app.url}/api/marketplace/v1/profiles/${id}/url-schemas/funding-search${query}`;
const link = async (id = uuid) => (await (await fetch(schemaUrl('', id), { headers: auth })).json()).url as string;

describe('GET /profiles/{uuid}/url-schemas/funding-search', () => {
  it('answers { url } to a signed page of ours', async () => {
    const res = await fetch(schemaUrl(), { headers: auth });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(['url']);
    expect(body.url).toMatch(new RegExp(`^${app.url}/app/funding-search/${uuid}\\?token=[\\w.-]+$`));
  });

  it('redirects there with redirect=true', async () => {
    const res = await fetch(schemaUrl('?redirect=true'), { headers: auth, redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(`/app/funding-search/${uuid}?token=`);
  });

  it('refuses an unknown type or redirect value (400), another account (404)', async () => {
    expect((await fetch(schemaUrl().replace('funding-search', 'nonsense'), { headers: auth })).status).toBe(400);
    expect((await fetch(schemaUrl('?redirect=maybe'), { headers: auth })).status).toBe(400);
    const stranger = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
    expect((await fetch(schemaUrl(), { headers: stranger })).status).toBe(404);
  });
});

describe('the funding-search page', () => {
  it('opens in a browser, showing the business (HTML-escaped), and fits a 320px screen', async () => {
    const page = await browser.newPage({ viewport: { width: 320, height: 640 } });
    try {
      const response = await page.goto(await link());
      expect(response?.status()).toBe(200);
      expect(await page.getByTestId('company-name').textContent()).toBe('ACME <WIDGETS> LIMITED');
      expect(await page.title()).toBe('Funding search: ACME <WIDGETS> LIMITED');
      expect(await page.getByText('09876543').count()).toBe(1);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('refuses a tampered link, a link to another profile, and an expired one', async () => {
    const url = await link();
    const tampered = url.slice(0, -3) + (url.endsWith('AAA') ? 'BBB' : 'AAA');
    const other = (await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, auth)).json()).uuid;
    const page = await browser.newPage();
    try {
      for (const target of [tampered, url.replace(uuid, other), `${app.url}/app/funding-search/${uuid}`]) {
        const response = await page.goto(target);
        expect(response?.status()).toBeGreaterThanOrEqual(400);
        expect(await page.getByTestId('problem').textContent()).toBeTruthy();
      }
      const issuedAt = now;
      now = new Date(issuedAt.getTime() + 3601_000);
      const expired = await page.goto(url);
      expect(expired?.status()).toBe(403);
      // In a business owner's words: what happened and the way back, no talk of signatures or tokens.
      expect(await page.getByTestId('problem').getAttribute('data-problem')).toBe('expired');
      expect(await page.locator('h1').textContent()).toBe('This link has expired');
      expect(await page.locator('main').textContent()).not.toMatch(/signature|token|claim/i);
      now = issuedAt;
    } finally {
      await page.close();
    }
  });

  it('a link token is no API credential', async () => {
    const token = new URL(await link()).searchParams.get('token') as string;
    const res = await fetch(`${app.url}/api/marketplace/v1/profiles/${uuid}`, { headers: bearer(token) });
    expect(res.status).toBe(401);
  });
});

describe('the funding search on the page', () => {
  let answered: string;
  beforeAll(async () => {
    answered = (await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, auth)).json()).uuid;
    const res = await fetch(`${app.url}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${answered}/answers`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(ACME_ANSWERS),
    });
    expect(res.status).toBe(204);
  });

  it('lists the same matches, in the same order, as GET .../funding/matches/results', async () => {
    const page = await browser.newPage({ viewport: { width: 320, height: 800 } });
    try {
      const url = await link(answered);
      const results = await (await fetch(`${app.url}/api/marketplace/v1/profiles/${answered}/funding/matches/results`, { headers: auth })).json();
      expect(results.matches.length).toBeGreaterThan(3);
      expect((await page.goto(url))?.status()).toBe(200);
      const shown = await page.getByTestId('match').evaluateAll((items) =>
        items.map((li) => ({
          lender: Number(li.getAttribute('data-lender-id')),
          productId: Number(li.getAttribute('data-product-id')),
          text: li.textContent ?? '',
        })),
      );
      expect(shown.map(({ lender, productId }) => ({ lender, productId }))).toEqual(
        results.matches.map((m: { lender: { id: number }; productId: number }) => ({ lender: m.lender.id, productId: m.productId })),
      );
      results.matches.forEach((m: { productName: string; likelihood: { value: number } }, i: number) => {
        expect(shown[i]!.text).toContain(m.productName);
        expect(shown[i]!.text).toContain(`Likelihood${Math.round(m.likelihood.value * 100)}%`);
        expect(shown[i]!.text).toMatch(/Feesarrangement [\d.]+%, early repayment [\d.]+%, exit [\d.]+%/);
      });
      expect(await page.getByText(`(search ${results.id})`).count()).toBe(1);
      await page.screenshot({ fullPage: true, path: path.join(tmpdir(), 'funding-search-page-320.png') });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    } finally {
      await page.close();
    }
  });

  it('explains, on request, why the other products did not match; shows the applications sent; passes axe-core', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(await link(answered));
      const explained = await (
        await fetch(`${app.url}/api/marketplace/v1/profiles/${answered}/funding/matches/results?explain=true`, { headers: auth })
      ).json();
      const rejections = page.getByTestId('rejection');
      expect(await rejections.count()).toBe(explained.explanation.rejections.length);
      expect(await rejections.first().isVisible()).toBe(false);
      await page.getByText(/other products? did not match/).click();
      expect(await rejections.first().isVisible()).toBe(true);
      expect(await rejections.first().textContent()).toContain(explained.explanation.rejections[0].reasons[0]);
      expect(await page.getByTestId('applications').textContent()).toContain('No application has been sent to a lender yet.');
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('shows the state of the applications sent to lenders, as lenders move them', async () => {
    const credentials = await lenderCredentials(app);
    const lender = await app.runtime.database.prisma.lender.findUniqueOrThrow({ where: { id: credentials.lenderId } });
    const applicationId = await storedLenderApplication(app, { lenderId: lender.id, profileId: answered });
    await lenderOffers(app, await lenderIdToken(app, credentials), applicationId);
    const page = await browser.newPage();
    try {
      await page.goto(await link(answered));
      const sent = page.getByTestId('application');
      expect(await sent.count()).toBe(1);
      expect(await sent.textContent()).toContain(lender.name);
      expect(await sent.getByTestId('application-status').textContent()).toBe('Offered');
    } finally {
      await page.close();
    }
  });

  it('reads only: opening the page records no funding search', async () => {
    const fresh = (await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, auth)).json()).uuid;
    await fetch(`${app.url}/api/marketplace/v1/questionnaires/introducer-all-funding-products/profiles/${fresh}/answers`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(ACME_ANSWERS),
    });
    const page = await browser.newPage();
    try {
      await page.goto(await link(fresh));
      expect(await page.getByTestId('match').count()).toBeGreaterThan(3);
      expect(await app.runtime.database.prisma.fundingSearch.count({ where: { profileId: fresh } })).toBe(0);
    } finally {
      await page.close();
    }
  });
});
