/**
 * The embeddable credit widget (spec 4.3) in Debian's Chromium: a host page on another origin with
 * hostile CSS loads widget.js asynchronously and calls service('init') before and after it loaded;
 * the widget shows exactly the credit report GET {business_v1_base}/profile returns, fits 320, 740
 * and 1024 px, reports every failure to onError with its documented code, and passes axe-core.
 * embed.html shows the same report and takes the token out of the address bar.
 */
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/kernel/config.js';
import { createLogger } from '../src/infra/logger.js';
import { widgetRouter } from '../src/api/pages/widget-routes.js';
import { widgetCors, widgetEmbedOrigins } from '../src/api/pages/widget-cors.js';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { bearer, createApiKey, createTenant, marketplaceV1Token, masterToken, platformToken, signUpIntegrator, type Integrator } from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let now = new Date();
let app: TestApp;
let browser: Browser;
let me: Integrator;
const tokens: Record<'acme' | 'soleTrader' | 'noProfile', string> = { acme: '', soleTrader: '', noProfile: '' };
let host: { url: string; pages: Map<string, string>; close(): Promise<void> };

const B = '/api/business/v1';

async function tenantToken(registrationNumber?: string): Promise<string> {
  const { id } = await createTenant(app, me.platformToken);
  const token = (await platformToken(app, me.apiKey, id)).access_token;
  if (registrationNumber) {
    const res = await postJson(`${app.url}${B}/profile`, { companyInformation: { registrationNumber } }, bearer(token));
    expect(res.status).toBe(201);
  }
  return token;
}

/** A plain HTTP server on another origin (localhost, not 127.0.0.1, and another port) serving host pages. */
async function startHostServer(): Promise<typeof host> {
  const pages = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const page = pages.get(new URL(req.url ?? '/', 'http://x').pathname);
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    pages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Hostile page styles: a reset of everything, and hiding the page's own divs. */
const HOSTILE_CSS = `html { font-size: 10px } * { all: unset } head, script, style { display: none } div.host-panel { display: none } h2.host-title { font-size: 13px; color: rgb(200, 0, 0) }`;

function hostPage(widgetOrigin: string, initBeforeLoad: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Integrator page</title><style>${HOSTILE_CSS}</style></head>
<body><main>
<h1>Integrator page</h1>
<h2 class="host-title">Our own heading</h2>
<div class="host-panel">Panel the host hides</div>
<div class="svcFundingSearch"></div>
<div id="second-widget"></div>
</main>
<script>
  window.widgetErrors = [];
  window.service = window.service || function () { (window.service.q = window.service.q || []).push(arguments); };
  ${initBeforeLoad}
</script>
<script async src="${widgetOrigin}/app/ui/widget/widget.js"></script>
</body></html>`;
}

const initCall = (selector: string, token: string) =>
  `service('init', { element: ${JSON.stringify(selector)}, accessToken: ${JSON.stringify(token)}, onError: function (e) { window.widgetErrors.push(e); } });`;

async function openHostPage(page: Page, path: string, html: string): Promise<void> {
  host.pages.set(path, html);
  await page.goto(`${host.url}${path}`);
  await page.waitForFunction(() => !('q' in (window as unknown as { service: object }).service));
}

const en = {
  money: (v: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: Number.isInteger(v) ? 0 : 2 }).format(v),
  date: (v: string) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' }).format(new Date(v)),
};

/** What the widget must show, from the API's own answer. */
async function expectedFields(token: string): Promise<Record<string, string>> {
  const res = await fetch(`${app.url}${B}/profile`, { headers: bearer(token) });
  expect(res.status).toBe(200);
  const info = (await res.json()).data.companyInformation;
  const notices = (n: { last12MonthsCount: number; last12MonthsValue: { value: number } }) =>
    `${n.last12MonthsCount} ${n.last12MonthsCount === 1 ? 'notice' : 'notices'}, ${en.money(n.last12MonthsValue.value)}`;
  const meaning: Record<string, string> = {
    A: 'Minimum risk (scores 91-100)', B: 'Low risk (scores 81-90)', C: 'Below average risk (scores 51-80)', D: 'Above average risk (scores 26-50)',
    E: 'High risk (scores 16-25)', F: 'Maximum risk (scores 0-15)', G: 'Company dissolved',
  };
  return {
    name: info.name,
    company: `Company number ${info.registrationNumber} · Limited company`,
    grade: expect.stringContaining(`Credit grade ${info.score.grade}`) as unknown as string,
    gradeMeaning: meaning[info.score.grade]!,
    score: `${info.score.value} / 100`,
    industryAverageGrade: `${info.score.industryAverageGrade}: ${meaning[info.score.industryAverageGrade]}`,
    previousGrade: `${info.score.previous.grade}, changed ${en.date(info.score.changedAt)}`,
    lastAssessedAt: en.date(info.score.lastAssessedAt),
    creditLimit: en.money(info.creditLimit.value),
    companyNotices: notices(info.legalNotices.company),
    directorNotices: notices(info.legalNotices.directors),
  };
}

async function shownFields(page: Page, scope: string): Promise<Record<string, string>> {
  const widget = page.locator(`${scope} svc-credit-widget`);
  await widget.locator('[data-field="name"]').waitFor();
  const fields = await widget.locator('[data-field]').evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-field'), (n.textContent ?? '').trim()]));
  return Object.fromEntries(fields);
}

beforeAll(async () => {
  app = await startTestApp({ clock: { now: () => now } });
  me = await signUpIntegrator(app);
  [tokens.acme, tokens.soleTrader, tokens.noProfile] = await Promise.all([tenantToken('09876543'), tenantToken('ST000001'), tenantToken()]);
  host = await startHostServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await app?.close();
});

describe('script embed from another origin', () => {
  it('runs init called before and after widget.js loaded, showing exactly the API’s credit report through hostile CSS', async () => {
    const page = await browser.newPage({ viewport: { width: 1024, height: 900 } });
    try {
      await openHostPage(page, '/two-inits', hostPage(app.url, initCall('.svcFundingSearch', tokens.acme)));
      await page.evaluate(initCall('#second-widget', tokens.acme));
      const expected = await expectedFields(tokens.acme);
      expect(await shownFields(page, '.svcFundingSearch')).toEqual(expected);
      expect(await shownFields(page, '#second-widget')).toEqual(expected);
      expect(await page.evaluate(() => (window as unknown as { widgetErrors: unknown[] }).widgetErrors)).toEqual([]);
      // The host's CSS does not reach in (the widget keeps its own font and layout)...
      const inside = await page.locator('.svcFundingSearch svc-credit-widget h2').evaluate((el) => {
        const style = getComputedStyle(el);
        return { fontSize: style.fontSize, display: style.display, fontWeight: style.fontWeight };
      });
      expect(inside).toEqual({ fontSize: '19.2px', display: 'block', fontWeight: '700' });
      // ...and the widget's does not leak out: the host's own heading and hidden panel are as the host styled them.
      expect(await page.locator('h2.host-title').evaluate((el) => [getComputedStyle(el).fontSize, getComputedStyle(el).color])).toEqual(['13px', 'rgb(200, 0, 0)']);
      expect(await page.locator('div.host-panel').isVisible()).toBe(false);
      expect(await page.locator('svc-credit-widget').evaluateAll((hosts) => hosts.map((h) => h.shadowRoot !== null))).toEqual([true, true]);
    } finally {
      await page.close();
    }
  });

  it('shows a dissolved company as grade G with its meaning in words, not by colour alone', async () => {
    const dissolved = await tenantToken('04512398');
    const page = await browser.newPage();
    try {
      await openHostPage(page, '/dissolved', hostPage(app.url, initCall('.svcFundingSearch', dissolved)));
      const shown = await shownFields(page, '.svcFundingSearch');
      expect(shown).toEqual(await expectedFields(dissolved));
      expect(shown).toMatchObject({ name: 'OLD MILL BAKERY LIMITED', gradeMeaning: 'Company dissolved' });
      expect(await page.locator('svc-credit-widget .grade .label').textContent()).toBe('Credit grade G');
    } finally {
      await page.close();
    }
  });

  it('adds no global but `service`', async () => {
    const page = await browser.newPage();
    try {
      host.pages.set('/blank', '<!doctype html><html lang="en"><head><title>Blank</title></head><body><main><div class="svcFundingSearch"></div></main></body></html>');
      await page.goto(`${host.url}/blank`);
      const before = await page.evaluate(() => Object.keys(window));
      await page.addScriptTag({ url: `${app.url}/app/ui/widget/widget.js` });
      const after = await page.evaluate(() => Object.keys(window));
      expect(after.filter((k) => !before.includes(k))).toEqual(['service']);
    } finally {
      await page.close();
    }
  });

  it.each([320, 740, 1024])('has no horizontal overflow at %i px', async (width) => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    try {
      await openHostPage(page, `/width-${width}`, hostPage(app.url, initCall('.svcFundingSearch', tokens.acme)));
      await page.locator('svc-credit-widget [data-field="name"]').waitFor();
      const screenshot = await page.screenshot({ fullPage: true, path: path.join(tmpdir(), `credit-widget-${width}.png`) });
      expect(screenshot.byteLength).toBeGreaterThan(1000);
      const sizes = await page.evaluate(() => {
        const widget = document.querySelector('svc-credit-widget')!;
        const card = widget.shadowRoot!.querySelector('.card')!;
        const page = document.documentElement;
        return { page: [page.scrollWidth, page.clientWidth], card: [card.scrollWidth, card.clientWidth], cardRight: card.getBoundingClientRect().right };
      });
      expect(sizes.page[0]).toBeLessThanOrEqual(sizes.page[1]!);
      expect(sizes.card[0]).toBeLessThanOrEqual(sizes.card[1]!);
      expect(sizes.cardRight).toBeLessThanOrEqual(width);
    } finally {
      await page.close();
    }
  });

  it('passes axe-core (no serious or critical violations, shadow DOM included)', async () => {
    const page = await browser.newPage();
    try {
      await openHostPage(page, '/axe', hostPage(app.url, initCall('.svcFundingSearch', tokens.acme)));
      await page.locator('svc-credit-widget [data-field="name"]').waitFor();
      expect(await seriousAccessibilityViolations(page, 'svc-credit-widget')).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('onError codes', () => {
  async function errorsFor(token: string, url = app.url): Promise<Array<{ code: string; message: string }>> {
    const page = await browser.newPage();
    try {
      await openHostPage(page, `/errors-${Math.random()}`, hostPage(url, initCall('.svcFundingSearch', token)));
      await page.waitForFunction(() => (window as unknown as { widgetErrors: unknown[] }).widgetErrors.length > 0);
      expect(await page.locator('svc-credit-widget').count()).toBe(0);
      return await page.evaluate(() => (window as unknown as { widgetErrors: Array<{ code: string; message: string }> }).widgetErrors);
    } finally {
      await page.close();
    }
  }

  it('NOT_ELIGIBLE for a sole trader, rendering nothing', async () => {
    expect(await errorsFor(tokens.soleTrader)).toEqual([
      { code: 'NOT_ELIGIBLE', message: 'A credit report is offered for limited companies only; this company is a SOLE_TRADER' },
    ]);
  });

  it('NO_PROFILE for a tenant without a profile', async () => {
    expect(await errorsFor(tokens.noProfile)).toEqual([{ code: 'NO_PROFILE', message: expect.stringContaining('no profile') }]);
  });

  it('TOKEN_EXPIRED once the tenant token has expired (by the server’s clock)', async () => {
    const issuedAt = now;
    const token = await tenantToken('09876543');
    now = new Date(issuedAt.getTime() + 36_001_000);
    try {
      expect(await errorsFor(token)).toEqual([{ code: 'TOKEN_EXPIRED', message: 'Invalid token: it has expired' }]);
    } finally {
      now = issuedAt;
    }
  });

  it('TOKEN_INVALID for a token that is not ours', async () => {
    expect((await errorsFor('not-a-token'))[0]!.code).toBe('TOKEN_INVALID');
    const [head, payload] = tokens.acme.split('.');
    expect((await errorsFor(`${head}.${payload}.forged-signature`))[0]!.code).toBe('TOKEN_INVALID');
  });

  it('WRONG_TOKEN_KIND for platform, master and Marketplace V1 tokens, which the API itself refuses here too', async () => {
    const master = (await masterToken(app, (await createApiKey(app, me.loginToken, { name: 'master', scopes: ['profile:read'], isMaster: true })).key)).access_token;
    const v1 = (await marketplaceV1Token(app, me.apiKey)).jwt;
    for (const [token, kind] of [[me.platformToken, 'a platform access token'], [master, 'a master token'], [v1, 'a Marketplace V1 token']] as const) {
      expect(await errorsFor(token)).toEqual([{ code: 'WRONG_TOKEN_KIND', message: `The widget needs a tenant access token; this is ${kind}` }]);
      const direct = await fetch(`${app.url}${B}/profile`, { headers: bearer(token) });
      expect(direct.status).toBeGreaterThanOrEqual(400);
      expect(direct.status).toBeLessThan(500);
    }
  });

  it('SERVER_ERROR when the API answers 5xx, NETWORK_ERROR when it cannot be reached', async () => {
    // The widget talks to wherever widget.js came from: here a real reverse proxy in front of the app,
    // answering 503 for the API as a load balancer does when its backends are down, then stopped.
    const proxy = await startProxy(app.url);
    try {
      proxy.failApi = true;
      expect(await errorsFor(tokens.acme, proxy.url)).toEqual([{ code: 'SERVER_ERROR', message: 'The credit report service failed (HTTP 503); try again later' }]);
      proxy.failApi = false;
      expect(await shownFieldsThrough(proxy.url)).toEqual(await expectedFields(tokens.acme));
      proxy.stopApi = true;
      expect(await errorsFor(tokens.acme, proxy.url)).toEqual([{ code: 'NETWORK_ERROR', message: 'The credit report service could not be reached' }]);
    } finally {
      await proxy.close();
    }
  });

  async function shownFieldsThrough(origin: string): Promise<Record<string, string>> {
    const page = await browser.newPage();
    try {
      await openHostPage(page, `/proxy-${Math.random()}`, hostPage(origin, initCall('.svcFundingSearch', tokens.acme)));
      return await shownFields(page, '.svcFundingSearch');
    } finally {
      await page.close();
    }
  }
});

/**
 * A reverse proxy to the app that can answer 503 to the API's requests (after the CORS preflight went
 * through, as when the backend fails mid-request) or drop API connections (the API being down).
 */
async function startProxy(target: string) {
  const state = { failApi: false, stopApi: false };
  const server = http.createServer(async (req, res) => {
    const isApi = (req.url ?? '').startsWith('/api/');
    if (isApi && state.stopApi) return req.socket.destroy();
    if (isApi && state.failApi && req.method === 'GET') {
      return res.writeHead(503, { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization', 'content-type': 'text/plain' }).end('Service Unavailable');
    }
    const upstream = http.request(`${target}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  });
}

describe('frame embed (embed.html)', () => {
  it('shows the same credit report and takes the token out of the address bar', async () => {
    // CSP is bypassed only so that axe-core can be injected; the framed test below runs under it.
    const page = await browser.newPage({ bypassCSP: true });
    try {
      const response = await page.goto(`${app.url}/app/ui/widget/embed.html?accessToken=${encodeURIComponent(tokens.acme)}`);
      expect(response?.headers()['content-security-policy']).toContain('frame-ancestors *');
      expect(response?.headers()['referrer-policy']).toBe('no-referrer');
      expect(await shownFields(page, '#credit-widget')).toEqual(await expectedFields(tokens.acme));
      expect(page.url()).toBe(`${app.url}/app/ui/widget/embed.html`);
      expect(await page.evaluate(() => location.href)).not.toContain(tokens.acme.slice(-20));
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('can be framed by a page of another origin (demo), and shows errors in the frame', async () => {
    const page = await browser.newPage();
    try {
      host.pages.set(
        '/frames',
        `<!doctype html><html lang="en"><head><title>Frames</title></head><body><main>
        <iframe title="Credit report" id="good" src="${app.url}/app/ui/widget/embed.html?accessToken=${encodeURIComponent(tokens.acme)}" width="740" height="700"></iframe>
        <iframe title="Credit report of a sole trader" id="bad" src="${app.url}/app/ui/widget/embed.html?accessToken=${encodeURIComponent(tokens.soleTrader)}" width="320" height="300"></iframe>
        </main></body></html>`,
      );
      await page.goto(`${host.url}/frames`);
      const good = page.frameLocator('#good');
      await good.locator('svc-credit-widget [data-field="name"]').waitFor();
      expect(await good.locator('svc-credit-widget [data-field="name"]').textContent()).toBe('ACME WIDGETS LIMITED');
      const problem = page.frameLocator('#bad').locator('#problem');
      await problem.waitFor();
      expect(await problem.getAttribute('data-code')).toBe('NOT_ELIGIBLE');
      expect(await problem.textContent()).toBe('A credit report is offered for limited companies only; this company is a SOLE_TRADER');
    } finally {
      await page.close();
    }
  });
});

describe('cross-origin policy', () => {
  it('demo: the widget’s API path answers preflights for any origin, without credentials', async () => {
    const preflight = await fetch(`${app.url}${B}/profile`, {
      method: 'OPTIONS',
      headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    // Other API paths are not opened by the widget's policy.
    const other = await fetch(`${app.url}${B}/tenants`, { headers: { origin: 'https://anywhere.example', ...bearer(me.platformToken) } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('production: only the configured origins, for CORS and frame-ancestors', async () => {
    const config = loadConfig({ DEPLOY_ENV: 'production', AUTH_SIGNING_KEYS: 'x', WIDGET_EMBED_ORIGINS: 'https://partner.example, https://other.example:8443' });
    expect(config.WIDGET_EMBED_ORIGINS).toEqual(['https://partner.example', 'https://other.example:8443']);
    // As the servers mount them: the widget API paths' CORS ahead of everything, the widget's pages.
    const server = express().use(widgetCors(widgetEmbedOrigins(config)), widgetRouter(config, createLogger('silent'))).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ask = (origin: string) =>
        fetch(`${base}${B}/profile`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
      expect((await ask('https://partner.example')).headers.get('access-control-allow-origin')).toBe('https://partner.example');
      expect((await ask('https://other.example:8443')).headers.get('access-control-allow-origin')).toBe('https://other.example:8443');
      const refused = await ask('https://evil.example');
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      expect(refused.headers.get('vary')).toContain('Origin');
      const embed = await fetch(`${base}/app/ui/widget/embed.html`);
      expect(embed.headers.get('content-security-policy')).toContain('frame-ancestors https://partner.example https://other.example:8443');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(() => loadConfig({ WIDGET_EMBED_ORIGINS: 'https://partner.example/path' })).toThrow(/WIDGET_EMBED_ORIGINS/);
    const unset = loadConfig({ DEPLOY_ENV: 'production', AUTH_SIGNING_KEYS: 'x' });
    const closed = express().use(widgetRouter(unset, createLogger('silent'))).listen(0, '127.0.0.1');
    await new Promise((resolve) => closed.once('listening', resolve));
    try {
      const embed = await fetch(`http://127.0.0.1:${(closed.address() as AddressInfo).port}/app/ui/widget/embed.html`);
      expect(embed.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    } finally {
      await new Promise((resolve) => closed.close(resolve));
    }
  });
});
