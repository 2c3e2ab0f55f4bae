/**
 * The embeddable credit widget (spec 4.3) in Debian's Chromium: a host page on another origin with
 * hostile CSS loads widget.js asynchronously and calls service('init') before and after it loaded;
 * the widget shows exactly the credit report GET {business_v1_base}/profile returns, fits 320, 740
 * and 1024 px, reports every failure to onError with its documented code and the end user's
 * wording, and passes axe-core. embed.html shows the same report and takes the token out of the
 * address bar. The frame embed made by widget.js sizes itself (origin- and window-checked
 * messages); destroy, setToken, onReady, theming and locale as docs/integrators.md documents them.
 */
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Browser, Frame, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/kernel/config.js';
import { createLogger } from '../src/infra/logger.js';
import { widgetRouter } from '../src/api/pages/widget-routes.js';
import { widgetCors, widgetEmbedOrigins } from '../src/api/pages/widget-cors.js';
import { importBasicCompanyData } from '../src/modules/companies/register-import.js';
import { SAMPLE_FILE } from './support/basic-company-data-file.js';
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
  window.widgetReady = [];
  window.service = window.service || function () { (window.service.q = window.service.q || []).push(arguments); };
  ${initBeforeLoad}
</script>
<script async src="${widgetOrigin}/app/ui/widget/widget.js"></script>
</body></html>`;
}

const initCall = (selector: string, token: string) =>
  `service('init', { element: ${JSON.stringify(selector)}, accessToken: ${JSON.stringify(token)}, onError: function (e) { window.widgetErrors.push(e); } });`;

/** init with every option: errors and ready calls recorded per element; `extra` adds options (JS source). */
const initWith = (selector: string, token: string, extra = '') =>
  `service('init', { element: ${JSON.stringify(selector)}, accessToken: ${JSON.stringify(token)}, ${extra}
    onError: function (e) { window.widgetErrors.push(Object.assign({ element: ${JSON.stringify(selector)} }, e)); },
    onReady: function () { window.widgetReady.push(${JSON.stringify(selector)}); } });`;

/** The end user's words for each code (en-GB), as docs/integrators.md lists them. */
const USER_MESSAGES = {
  TOKEN_EXPIRED: 'This link has expired – please refresh the page.',
  TOKEN_INVALID: 'This link is not valid – please refresh the page.',
  WRONG_TOKEN_KIND: 'The credit report cannot be shown here. Please contact the website you are using.',
  NO_PROFILE: 'There is no company profile to show a credit report for yet.',
  NOT_ELIGIBLE: 'A credit report is available only for limited companies with a company registration number.',
  NETWORK_ERROR: 'The credit report could not be loaded. Please check your internet connection and refresh the page.',
  SERVER_ERROR: 'The credit report service is not available at the moment. Please try again later.',
  INVALID_OPTIONS: 'The credit report cannot be shown right now. Please try again later.',
};

async function openHostPage(page: Page, path: string, html: string): Promise<void> {
  host.pages.set(path, html);
  await page.goto(`${host.url}${path}`);
  await page.waitForFunction(() => !('q' in (window as unknown as { service: object }).service));
}

const formatsOf = (locale: string) => ({
  money: (v: number) =>
    new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: 'GBP',
      ...(Number.isInteger(v) ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
    }).format(v),
  date: (v: string) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' }).format(new Date(v)),
});

/** What the widget must show, from the API's own answer (texts in en-GB, formats in `locale`). */
async function expectedFields(token: string, locale = 'en-GB'): Promise<Record<string, string>> {
  const en = formatsOf(locale);
  const res = await fetch(`${app.url}${B}/profile`, { headers: bearer(token) });
  expect(res.status).toBe(200);
  const info = (await res.json()).data.companyInformation;
  const notices = (n: { last12MonthsCount: number; last12MonthsValue: { value: number } }) =>
    `${n.last12MonthsCount} ${n.last12MonthsCount === 1 ? 'notice' : 'notices'}, ${en.money(n.last12MonthsValue.value)}`;
  const meaning: Record<string, string> = {
    A: 'Minimum risk (scores 91-100)',
    B: 'Low risk (scores 81-90)',
    C: 'Below average risk (scores 51-80)',
    D: 'Above average risk (scores 26-50)',
    E: 'High risk (scores 16-25)',
    F: 'Maximum risk (scores 0-15)',
    G: 'Company dissolved',
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

async function shownFields(page: Page | FrameLocator, scope: string): Promise<Record<string, string>> {
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
      expect(await page.locator('h2.host-title').evaluate((el) => [getComputedStyle(el).fontSize, getComputedStyle(el).color])).toEqual([
        '13px',
        'rgb(200, 0, 0)',
      ]);
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

  it('says so for a company no credit-data source has scored, naming no grade', async () => {
    await importBasicCompanyData(app.runtime.database.prisma, SAMPLE_FILE);
    const unscored = await tenantToken('00445566');
    const page = await browser.newPage();
    try {
      await openHostPage(page, '/unscored', hostPage(app.url, initCall('.svcFundingSearch', unscored)));
      const shown = await shownFields(page, '.svcFundingSearch');
      expect(Object.keys(shown).sort()).toEqual(['company', 'name', 'noCreditData']);
      expect(shown).toMatchObject({ name: 'ZYLOPHANE ORCHARD HOLDINGS LIMITED', company: 'Company number 00445566 · Limited company' });
      expect(shown.noCreditData).toContain('No credit reference agency has data on this company yet, so it has no credit grade.');
      expect(await page.locator('svc-credit-widget .grade').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { widgetErrors: unknown[] }).widgetErrors)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('adds no global but `service`', async () => {
    const page = await browser.newPage();
    try {
      host.pages.set(
        '/blank',
        '<!doctype html><html lang="en"><head><title>Blank</title></head><body><main><div class="svcFundingSearch"></div></main></body></html>',
      );
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
  async function errorsFor(token: string, url = app.url): Promise<Array<{ code: string; message: string; userMessage: string }>> {
    const page = await browser.newPage();
    try {
      await openHostPage(page, `/errors-${Math.random()}`, hostPage(url, initCall('.svcFundingSearch', token)));
      await page.waitForFunction(() => (window as unknown as { widgetErrors: unknown[] }).widgetErrors.length > 0);
      // Rendering nothing: the host's element is left as the page made it (empty), with no widget
      // element, loading line or message in it, and none elsewhere on the page.
      expect(await page.locator('.svcFundingSearch').evaluate((element) => element.outerHTML)).toBe('<div class="svcFundingSearch"></div>');
      expect(await page.locator('svc-credit-widget').count()).toBe(0);
      return await page.evaluate(() => (window as unknown as { widgetErrors: Array<{ code: string; message: string; userMessage: string }> }).widgetErrors);
    } finally {
      await page.close();
    }
  }

  it('NOT_ELIGIBLE for a sole trader, rendering nothing', async () => {
    expect(await errorsFor(tokens.soleTrader)).toEqual([
      {
        code: 'NOT_ELIGIBLE',
        message: 'A credit report is offered for limited companies only; this company is a SOLE_TRADER',
        userMessage: USER_MESSAGES.NOT_ELIGIBLE,
      },
    ]);
  });

  it('NO_PROFILE for a tenant without a profile', async () => {
    expect(await errorsFor(tokens.noProfile)).toEqual([
      { code: 'NO_PROFILE', message: expect.stringContaining('no profile'), userMessage: USER_MESSAGES.NO_PROFILE },
    ]);
  });

  it('TOKEN_EXPIRED once the tenant token has expired (by the server’s clock)', async () => {
    const issuedAt = now;
    const token = await tenantToken('09876543');
    now = new Date(issuedAt.getTime() + 36_001_000);
    try {
      expect(await errorsFor(token)).toEqual([{ code: 'TOKEN_EXPIRED', message: 'Invalid token: it has expired', userMessage: USER_MESSAGES.TOKEN_EXPIRED }]);
    } finally {
      now = issuedAt;
    }
  });

  it('TOKEN_INVALID for a token that is not ours: not a JWT, another service’s JWT (as docs/integrators.md promises), a forged signature', async () => {
    expect(await errorsFor('not-a-token')).toEqual([
      { code: 'TOKEN_INVALID', message: 'The access token is not a token of this service (not a JWT)', userMessage: USER_MESSAGES.TOKEN_INVALID },
    ]);
    // Another issuer's token: a well-formed JWT with none of our token kinds. The API refuses it as invalid too (401).
    const foreign = foreignJwt({ iss: 'https://accounts.elsewhere.example', sub: 'someone', aud: 'their-api', exp: Math.floor(Date.now() / 1000) + 3600 });
    expect(await errorsFor(foreign)).toEqual([
      {
        code: 'TOKEN_INVALID',
        message: 'The access token is not a token of this service (a JWT without one of its token kinds)',
        userMessage: USER_MESSAGES.TOKEN_INVALID,
      },
    ]);
    expect((await fetch(`${app.url}${B}/profile`, { headers: bearer(foreign) })).status).toBe(401);
    const [head, payload] = tokens.acme.split('.');
    expect(await errorsFor(`${head}.${payload}.forged-signature`)).toEqual([
      { code: 'TOKEN_INVALID', message: expect.stringMatching(/^Invalid token/), userMessage: USER_MESSAGES.TOKEN_INVALID },
    ]);
  });

  it('WRONG_TOKEN_KIND for platform, master and Marketplace V1 tokens, which the API itself refuses here too', async () => {
    const master = (await masterToken(app, (await createApiKey(app, me.loginToken, { name: 'master', scopes: ['profile:read'], isMaster: true })).key))
      .access_token;
    const v1 = (await marketplaceV1Token(app, me.apiKey)).jwt;
    for (const [token, kind] of [
      [me.platformToken, 'a platform access token'],
      [master, 'a master token'],
      [v1, 'a Marketplace V1 token'],
    ] as const) {
      expect(await errorsFor(token)).toEqual([
        { code: 'WRONG_TOKEN_KIND', message: `The widget needs a tenant access token; this is ${kind}`, userMessage: USER_MESSAGES.WRONG_TOKEN_KIND },
      ]);
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
      expect(await errorsFor(tokens.acme, proxy.url)).toEqual([
        { code: 'SERVER_ERROR', message: 'The credit report service failed (HTTP 503); try again later', userMessage: USER_MESSAGES.SERVER_ERROR },
      ]);
      proxy.failApi = false;
      expect(await shownFieldsThrough(proxy.url)).toEqual(await expectedFields(tokens.acme));
      proxy.stopApi = true;
      expect(await errorsFor(tokens.acme, proxy.url)).toEqual([
        { code: 'NETWORK_ERROR', message: 'The credit report service could not be reached', userMessage: USER_MESSAGES.NETWORK_ERROR },
      ]);
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
      return res
        .writeHead(503, { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization', 'content-type': 'text/plain' })
        .end('Service Unavailable');
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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
      // The end user reads plain words; the developer's detail is in the frame's console.
      expect(await problem.textContent()).toBe(USER_MESSAGES.NOT_ELIGIBLE);
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
    const config = loadConfig({
      DEPLOY_ENV: 'production',
      AUTH_SIGNING_KEYS: 'x',
      WIDGET_EMBED_ORIGINS: 'https://partner.example, https://other.example:8443',
    });
    expect(config.WIDGET_EMBED_ORIGINS).toEqual(['https://partner.example', 'https://other.example:8443']);
    // As the servers mount them: the widget API paths' CORS ahead of everything, the widget's pages.
    const server = express()
      .use(widgetCors(widgetEmbedOrigins(config)), widgetRouter(config, createLogger('silent')))
      .listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ask = (origin: string) =>
        fetch(`${base}${B}/profile`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
        });
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
    const closed = express()
      .use(widgetRouter(unset, createLogger('silent')))
      .listen(0, '127.0.0.1');
    await new Promise((resolve) => closed.once('listening', resolve));
    try {
      const embed = await fetch(`http://127.0.0.1:${(closed.address() as AddressInfo).port}/app/ui/widget/embed.html`);
      expect(embed.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    } finally {
      await new Promise((resolve) => closed.close(resolve));
    }
  });
});

/** A well-formed JWT of another issuer (signed by a key we never saw). */
function foreignJwt(claims: Record<string, unknown>): string {
  const encoded = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encoded({ alg: 'RS256', typ: 'JWT', kid: 'their-key' })}.${encoded(claims)}.${Buffer.from('a signature of theirs').toString('base64url')}`;
}

/** An ordinary integrator page (no hostile CSS): widget.js loaded async, `init` calls queued before. */
function plainHostPage(widgetOrigin: string, initBeforeLoad: string, css = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Integrator page</title><style>body { margin: 8px; font-family: sans-serif } ${css}</style></head>
<body><main><h1>Integrator page</h1><div id="first"></div><div id="second"></div></main>
<script>
  window.widgetErrors = [];
  window.widgetReady = [];
  window.service = window.service || function () { (window.service.q = window.service.q || []).push(arguments); };
  ${initBeforeLoad}
</script>
<script async src="${widgetOrigin}/app/ui/widget/widget.js"></script>
</body></html>`;
}

interface Recorded {
  widgetErrors: Array<{ element: string; code: string; message: string; userMessage: string }>;
  widgetReady: string[];
}
const recorded = (page: Page) =>
  page.evaluate(() => ({ widgetErrors: (window as unknown as Recorded).widgetErrors, widgetReady: (window as unknown as Recorded).widgetReady }));

async function frameOf(page: Page, selector: string): Promise<Frame> {
  const frame = await (await page.locator(`${selector} iframe`).elementHandle())!.contentFrame();
  if (!frame) throw new Error(`no frame in ${selector}`);
  return frame;
}

/**
 * Waits until the host page has sized the frame to its content, then measures: the iframe's height on
 * the host page, and inside the frame its content height and whether anything scrolls.
 */
async function settledFrame(page: Page, selector: string) {
  const frame = await frameOf(page, selector);
  const measure = async () => {
    const iframeHeight = await page.locator(`${selector} iframe`).evaluate((el) => el.getBoundingClientRect().height);
    const inside = await frame.evaluate(() => {
      const html = document.documentElement;
      return {
        content: Math.ceil(document.body.getBoundingClientRect().height),
        scrollsDown: html.scrollHeight > html.clientHeight,
        scrollsSideways: html.scrollWidth > html.clientWidth,
      };
    });
    return { iframeHeight, ...inside };
  };
  await expect
    .poll(
      async () => {
        const m = await measure();
        return m.iframeHeight === m.content;
      },
      { timeout: 30_000, interval: 200 },
    )
    .toBe(true);
  return measure();
}

/** The page's own `message` listeners (DevTools protocol), to see that destroy removes the widget's. */
async function messageListeners(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! });
    return listeners.filter((l) => l.type === 'message').length;
  } finally {
    await cdp.detach();
  }
}

async function openPlainHostPage(page: Page, html: string): Promise<void> {
  await openHostPage(page, `/plain-${Math.random()}`, html);
}

describe('frame embed made by widget.js (mode: frame)', () => {
  it.each([390, 1280])('sizes the iframe to its content at %i px: nothing scrolls inside the frame, onReady once sized', async (width) => {
    const page = await browser.newPage({ viewport: { width, height: 700 } });
    try {
      await openPlainHostPage(page, plainHostPage(app.url, initWith('#first', tokens.acme, "mode: 'frame',")));
      await page.waitForFunction(() => (window as unknown as Recorded).widgetReady.length === 1);
      // onReady comes after the height: the frame is sized when the host hears it.
      const atReady = await page.locator('#first iframe').evaluate((el) => el.getBoundingClientRect().height);
      expect(atReady).toBeGreaterThan(300);
      const sized = await settledFrame(page, '#first');
      expect(sized).toMatchObject({ scrollsDown: false, scrollsSideways: false });
      expect(sized.iframeHeight).toBe(sized.content);
      await page.screenshot({ fullPage: true, path: path.join(tmpdir(), `credit-widget-frame-${width}.png`) });
      expect(await shownFields(page.frameLocator('#first iframe'), '#credit-widget')).toEqual(await expectedFields(tokens.acme));
      // The token travelled by message, never in the frame's address.
      expect(await page.locator('#first iframe').getAttribute('src')).toBe(`${app.url}/app/ui/widget/embed.html?parent=${encodeURIComponent(host.url)}`);
      expect(await recorded(page)).toEqual({ widgetErrors: [], widgetReady: ['#first'] });
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('believes only its own frame’s messages from the widget’s origin, and reports the frame’s errors to onError', async () => {
    const page = await browser.newPage({ viewport: { width: 740, height: 700 } });
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(message.text()));
    try {
      await openPlainHostPage(
        page,
        plainHostPage(app.url, initWith('#first', tokens.acme, "mode: 'frame',") + initWith('#second', tokens.soleTrader, "mode: 'frame',")),
      );
      await page.waitForFunction(() => (window as unknown as Recorded).widgetReady.length === 1 && (window as unknown as Recorded).widgetErrors.length === 1);
      const first = await settledFrame(page, '#first');
      const second = await settledFrame(page, '#second');
      // Each frame has its own height (a report, a one-line message): neither took the other's.
      expect(second.iframeHeight).toBeLessThan(first.iframeHeight / 3);
      expect(await recorded(page)).toEqual({
        widgetReady: ['#first'],
        widgetErrors: [
          {
            element: '#second',
            code: 'NOT_ELIGIBLE',
            message: 'A credit report is offered for limited companies only; this company is a SOLE_TRADER',
            userMessage: USER_MESSAGES.NOT_ELIGIBLE,
          },
        ],
      });
      // In the frame: the end user's words; the developer's detail went to the frame's console.
      const problem = page.frameLocator('#second iframe').locator('#problem');
      expect(await problem.textContent()).toBe(USER_MESSAGES.NOT_ELIGIBLE);
      await page.locator('#second iframe').screenshot({ path: path.join(tmpdir(), 'credit-widget-frame-message.png') });
      expect(consoleLines).toContain('[credit widget] NOT_ELIGIBLE: A credit report is offered for limited companies only; this company is a SOLE_TRADER');

      // Forged messages of the right form change nothing: from the widget's origin but another
      // window (a third frame of embed.html, not made by widget.js), and from the host page's own
      // origin. Each sender posts 'done' last: messages from one sender arrive in order.
      const heights = () => page.locator('#first iframe, #second iframe').evaluateAll((frames) => frames.map((f) => f.getBoundingClientRect().height));
      type WithDone = { doneSeen?: Promise<void> };
      const listenForDone = () =>
        page.evaluate(() => {
          (window as WithDone).doneSeen = new Promise<void>((resolve) => {
            window.addEventListener('message', function once(event) {
              if (event.data === 'done') {
                window.removeEventListener('message', once);
                resolve();
              }
            });
          });
        });
      const doneSeen = () => page.evaluate(() => (window as WithDone).doneSeen);
      const forge = () => {
        for (const message of [
          { source: 'svc-credit-widget', type: 'resize', height: 41 },
          { source: 'svc-credit-widget', type: 'ready' },
          { source: 'svc-credit-widget', type: 'error', error: { code: 'TOKEN_EXPIRED', message: 'forged' } },
        ])
          parent.postMessage(message, '*');
        parent.postMessage('done', '*');
      };
      await page.evaluate(
        (src) =>
          new Promise<void>((resolve) => {
            const probe = Object.assign(document.createElement('iframe'), { id: 'probe', title: 'probe', src });
            probe.addEventListener('load', () => resolve());
            document.body.append(probe);
          }),
        `${app.url}/app/ui/widget/embed.html`,
      );
      const probe = await (await page.locator('#probe').elementHandle())!.contentFrame();
      await listenForDone();
      await probe!.evaluate(forge);
      await doneSeen();
      await listenForDone();
      await page.evaluate(forge);
      await doneSeen();
      expect(await heights()).toEqual([first.iframeHeight, second.iframeHeight]);
      expect(await recorded(page)).toMatchObject({ widgetReady: ['#first'], widgetErrors: [{ element: '#second', code: 'NOT_ELIGIBLE' }] });
    } finally {
      await page.close();
    }
  });

  it('a hand-written frame takes the locale and theme variables from its address', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(
        `${app.url}/app/ui/widget/embed.html?accessToken=${encodeURIComponent(tokens.acme)}&locale=en-US&--svc-accent-color=rgb(4%2C%205%2C%206)`,
      );
      expect(await shownFields(page, '#credit-widget')).toEqual(await expectedFields(tokens.acme, 'en-US'));
      expect(await page.locator('svc-credit-widget .gauge .fill').evaluate((el) => getComputedStyle(el).stroke)).toBe('rgb(4, 5, 6)');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-GB');
      expect(page.url()).not.toContain('accessToken');
    } finally {
      await page.close();
    }
  });
});

describe('service commands and callbacks', () => {
  it('destroy removes every widget, its frame and its listeners; nothing is reported afterwards', async () => {
    const page = await browser.newPage();
    try {
      await openPlainHostPage(page, plainHostPage(app.url, initWith('#first', tokens.acme) + initWith('#second', tokens.acme, "mode: 'frame',")));
      await page.waitForFunction(() => (window as unknown as Recorded).widgetReady.length === 2);
      expect(await page.locator('svc-credit-widget').count()).toBe(1);
      expect(await page.locator('iframe').count()).toBe(1);
      const listening = await messageListeners(page);
      expect(listening).toBe(1);
      await page.evaluate(() => (window as unknown as { service: (c: string, a?: unknown) => void }).service('destroy'));
      expect(await page.locator('svc-credit-widget').count()).toBe(0);
      expect(await page.locator('iframe').count()).toBe(0);
      expect(await messageListeners(page)).toBe(0);
      // A destroyed widget takes no token (no widget is left to give it to: the console says so).
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      await page.evaluate((token) => (window as unknown as { service: (c: string, a?: unknown) => void }).service('setToken', token), tokens.acme);
      await expect.poll(() => errors).toEqual(['[credit widget] INVALID_OPTIONS: setToken: there is no widget on the page; call init first']);
      expect(await recorded(page)).toEqual({ widgetErrors: [], widgetReady: ['#first', '#second'] });
      // init works again after destroy.
      await page.evaluate(initWith('#first', tokens.acme));
      await page.waitForFunction(() => (window as unknown as Recorded).widgetReady.length === 3);
      expect(await page.locator('svc-credit-widget').count()).toBe(1);

      // destroy while the report is loading: the request is abandoned, and neither onError nor
      // onReady hears of it (the API's answer is held until destroy has run, then let through).
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(`${app.url}${B}/profile`, async (route) => {
        if (route.request().method() === 'GET') await held;
        await route.continue().catch(() => undefined);
      });
      const requested = page.waitForRequest((request) => request.url() === `${app.url}${B}/profile` && request.method() === 'GET');
      await page.evaluate(initWith('#second', tokens.acme));
      await requested;
      await page.evaluate(() => (window as unknown as { service: (c: string, a?: unknown) => void }).service('destroy'));
      release();
      // Two turns of the page's event loop: an abandoned load settles within them.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
      expect(await page.locator('svc-credit-widget').count()).toBe(0);
      expect(await recorded(page)).toEqual({ widgetErrors: [], widgetReady: ['#first', '#second', '#first'] });
    } finally {
      await page.close();
    }
  });

  it('setToken swaps the token without re-init: an expired one is reported (the frame says so in plain words), a fresh one shows the report in place, the next tenant’s replaces it; onReady once', async () => {
    const issuedAt = now;
    const expiring = await tenantWithToken('09876543');
    const next = await tenantWithToken('04512398');
    now = new Date(issuedAt.getTime() + 36_001_000);
    const page = await browser.newPage({ viewport: { width: 740, height: 700 } });
    try {
      await openPlainHostPage(page, plainHostPage(app.url, initWith('#first', expiring.token) + initWith('#second', expiring.token, "mode: 'frame',")));
      await page.waitForFunction(() => (window as unknown as Recorded).widgetErrors.length === 2);
      const expired = { code: 'TOKEN_EXPIRED', message: 'Invalid token: it has expired', userMessage: USER_MESSAGES.TOKEN_EXPIRED };
      expect((await recorded(page)).widgetErrors).toEqual(
        expect.arrayContaining([
          { element: '#first', ...expired },
          { element: '#second', ...expired },
        ]),
      );
      expect(await page.frameLocator('#second iframe').locator('#problem').textContent()).toBe('This link has expired – please refresh the page.');
      await page.locator('#second iframe').evaluate((el) => el.setAttribute('data-original', 'yes'));

      // The host refreshes the tenant's token (same tenant, issued now) and hands it over.
      const fresh = (await platformToken(app, me.apiKey, expiring.tenantId)).access_token;
      await page.evaluate((token) => (window as unknown as { service: (c: string, a?: unknown) => void }).service('setToken', token), fresh);
      await page.waitForFunction(() => (window as unknown as Recorded).widgetReady.length === 2);
      expect(await shownFields(page, '#first')).toEqual(await expectedFields(fresh));
      expect(await shownFields(page.frameLocator('#second iframe'), '#credit-widget')).toEqual(await expectedFields(fresh));
      expect(await page.frameLocator('#second iframe').locator('#problem').isHidden()).toBe(true);
      expect(await page.locator('#second iframe').getAttribute('data-original')).toBe('yes');

      // The next requests use the token set last: another tenant's report replaces the first.
      const nextToken = (await platformToken(app, me.apiKey, next.tenantId)).access_token;
      await page.evaluate((token) => (window as unknown as { service: (c: string, a?: unknown) => void }).service('setToken', token), nextToken);
      await page.locator('#first svc-credit-widget [data-field="name"]', { hasText: 'OLD MILL BAKERY LIMITED' }).waitFor();
      await page.frameLocator('#second iframe').locator('svc-credit-widget [data-field="name"]', { hasText: 'OLD MILL BAKERY LIMITED' }).waitFor();
      expect(await page.locator('svc-credit-widget').count()).toBe(1);
      const final = await recorded(page);
      expect(final.widgetReady.sort()).toEqual(['#first', '#second']);
      expect(final.widgetErrors).toHaveLength(2);
      await settledFrame(page, '#second');
    } finally {
      now = issuedAt;
      await page.close();
    }
  });

  it('theming: custom properties from the page’s CSS and the theme option, ::part names, and the theme passed into the frame', async () => {
    const page = await browser.newPage({ viewport: { width: 1024, height: 900 } });
    try {
      const css = `#first svc-credit-widget { --svc-accent-color: rgb(1, 2, 3) } svc-credit-widget::part(title) { color: rgb(0, 110, 0) } svc-credit-widget::part(card) { border-width: 3px }`;
      const theme = `theme: { '--svc-background': 'rgb(250, 240, 230)', '--svc-font-family': 'Georgia, serif' },`;
      await openPlainHostPage(
        page,
        plainHostPage(
          app.url,
          initWith('#first', tokens.acme, theme) +
            initWith('#second', tokens.acme, `mode: 'frame', theme: { '--svc-accent-color': 'rgb(7, 8, 9)', '--svc-page-background': 'rgb(20, 30, 40)' },`),
          css,
        ),
      );
      await page.waitForFunction(() => (window as unknown as Recorded).widgetReady.length === 2);
      const inline = await page.locator('#first svc-credit-widget').evaluate((host) => {
        const root = host.shadowRoot!;
        const style = (selector: string) => getComputedStyle(root.querySelector(selector)!);
        return {
          fill: style('.gauge .fill').stroke,
          title: style('h2').color,
          card: style('.card').backgroundColor,
          border: style('.card').borderTopWidth,
          font: style('.card').fontFamily,
        };
      });
      expect(inline).toEqual({ fill: 'rgb(1, 2, 3)', title: 'rgb(0, 110, 0)', card: 'rgb(250, 240, 230)', border: '3px', font: 'Georgia, serif' });
      const framed = await (
        await frameOf(page, '#second')
      ).evaluate(() => ({
        fill: getComputedStyle(document.querySelector('svc-credit-widget')!.shadowRoot!.querySelector('.gauge .fill')!).stroke,
        page: getComputedStyle(document.body).backgroundColor,
      }));
      expect(framed).toEqual({ fill: 'rgb(7, 8, 9)', page: 'rgb(20, 30, 40)' });
      expect(await seriousAccessibilityViolations(page, 'svc-credit-widget')).toEqual([]);
      // A variable the widget does not read is a mistake to report, not to ignore.
      await page.evaluate(initWith('#first', tokens.acme, "theme: { '--svc-accent-colour': 'red' },"));
      await page.waitForFunction(() => (window as unknown as Recorded).widgetErrors.length === 1);
      expect((await recorded(page)).widgetErrors[0]).toMatchObject({
        code: 'INVALID_OPTIONS',
        message: expect.stringContaining('unknown variable --svc-accent-colour'),
      });
    } finally {
      await page.close();
    }
  });

  it('locale: en-GB by default; another English locale formats by Intl with the en-GB texts; a language without texts falls back to en-GB whole; a bad tag is INVALID_OPTIONS', async () => {
    const page = await browser.newPage();
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    try {
      await openPlainHostPage(
        page,
        plainHostPage(app.url, initWith('#first', tokens.acme, "locale: 'en-US',") + initWith('#second', tokens.acme, "locale: 'fr-FR',")),
      );
      await page.waitForFunction(() => (window as unknown as Recorded).widgetReady.length === 2);
      const us = await shownFields(page, '#first');
      expect(us).toEqual(await expectedFields(tokens.acme, 'en-US'));
      expect(us.lastAssessedAt).not.toEqual((await expectedFields(tokens.acme)).lastAssessedAt);
      expect(await shownFields(page, '#second')).toEqual(await expectedFields(tokens.acme));
      expect(await page.locator('svc-credit-widget').evaluateAll((hosts) => hosts.map((h) => h.getAttribute('lang')))).toEqual(['en-GB', 'en-GB']);
      expect(warnings).toContain('[credit widget] no texts in fr-FR: showing en-GB');
      await page.evaluate(initWith('#first', tokens.acme, "locale: 'not a locale!',"));
      await page.waitForFunction(() => (window as unknown as Recorded).widgetErrors.length === 1);
      expect((await recorded(page)).widgetErrors).toEqual([
        {
          element: '#first',
          code: 'INVALID_OPTIONS',
          message: 'options.locale is not a BCP 47 language tag: not a locale!',
          userMessage: USER_MESSAGES.INVALID_OPTIONS,
        },
      ]);
    } finally {
      await page.close();
    }
  });
});

/** A new tenant with a profile for `registrationNumber`, and a tenant token for it. */
async function tenantWithToken(registrationNumber: string): Promise<{ tenantId: string; token: string }> {
  const { id } = await createTenant(app, me.platformToken);
  const token = (await platformToken(app, me.apiKey, id)).access_token;
  const res = await postJson(`${app.url}${B}/profile`, { companyInformation: { registrationNumber } }, bearer(token));
  expect(res.status).toBe(201);
  return { tenantId: id, token };
}
