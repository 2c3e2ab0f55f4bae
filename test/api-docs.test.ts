/**
 * The reference page at /docs: Scalar's renderer served from our own assets renders the generated
 * document in Debian's Chromium with the network limited to this server (offline): its first
 * screen shows the API's title and its first operations, below the guides' links (how soon is
 * bench/docs-first-screen.ts's to measure); it lists every surface, and has no serious
 * accessibility violations.
 */
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDES } from '../src/api/rest/docs-guides.js';
import { SURFACE_TAGS } from '../src/api/rest/openapi-document.js';
import { launchBrowser, seriousAccessibilityViolations, untilNamedOnScreen } from './support/browser.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('GET /docs', () => {
  it('shows the reference on its first screen, not a loading skeleton, offline, from a compressed script', { timeout: 120_000 }, async () => {
    const openapi = (await (await fetch(`${app.url}/openapi.json`)).json()) as {
      info: { title: string };
      paths: Record<string, Record<string, { summary?: string }>>;
    };
    const summaries = Object.values(openapi.paths).flatMap((operations) => Object.values(operations).map((o) => o.summary!));
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const foreign: string[] = [];
    // Anything not from this server is refused and remembered: the page must not need it.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(app.url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      foreign.push(url);
      return route.abort();
    });
    const scriptEncoding = new Promise<string | null>((resolve) =>
      page.on('response', (res) => void (res.url().endsWith('/docs/assets/scalar/standalone.esm.js') && res.headerValue('content-encoding').then(resolve))),
    );
    const inViewport = async (locator: Locator) => {
      const box = await locator.boundingBox().catch(() => null);
      return box !== null && box.y >= 0 && box.y + box.height <= 800 && box.x >= 0 && box.x + box.width <= 1280;
    };
    // A first visit (nothing cached). How long it takes is the benchmark's to say, not this test's:
    // a suite of parallel files on two cores would make any time budget here flaky.
    await page.goto(`${app.url}/docs`, { waitUntil: 'commit' });
    try {
      // (The test's own time limit ends a wait for a screen that never comes.)
      await untilNamedOnScreen(page, openapi.info.title, summaries, 3);
    } finally {
      // What the first screen shows (kept in the temp directory, to look at).
      await page.screenshot({ path: path.join(tmpdir(), 'api-docs-first-screen.png') });
    }
    // The title on screen is the page's first-level heading.
    expect(await inViewport(page.getByRole('heading', { level: 1, name: openapi.info.title }))).toBe(true);
    expect(await scriptEncoding).toMatch(/^(br|gzip)$/);
    // The first screen is the reference, not a loading skeleton: no placeholder is left in view.
    expect(await page.locator('.scalar-api-reference [class*="skeleton"]:visible, .scalar-api-reference [class*="loading"]:visible').count()).toBe(0);
    // The getting-started guides are linked above it.
    const guides = page.getByRole('navigation', { name: 'Getting started' });
    for (const guide of GUIDES) expect(await inViewport(guides.getByRole('link', { name: guide.audience, exact: true }))).toBe(true);
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('renders the reference offline with every surface listed, and no serious accessibility violations', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const foreign: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(app.url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      foreign.push(url);
      return route.abort();
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(String(err)));
    const res = await page.goto(`${app.url}/docs`);
    expect(res?.status()).toBe(200);
    for (const surface of ['platform', 'marketplaceV2', 'businessV1', 'marketplaceV1', 'lenderApi'] as const) {
      await expect.poll(() => page.getByText(SURFACE_TAGS[surface].name, { exact: true }).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    }
    // An operation of each surface is named on the page.
    await expect.poll(() => page.getByText('Create a tenant', { exact: true }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // One renderer, mounted once: Scalar's standalone script also mounts itself on any element with
    // id "api-reference", which left a second, never-loading skeleton on the whole first screen.
    expect(await page.locator('.scalar-api-reference').count()).toBe(1);
    // No toolbar of the renderer's hosted services (Share, Deploy), which need the network.
    expect(await page.getByRole('button', { name: /^(Share|Deploy)$/ }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(foreign).toEqual([]);
    await context.close();
  });
});

describe('the reference and the document are sent compressed', () => {
  /** The raw answer (fetch would decompress it): its encoding and the bytes on the wire. */
  const raw = (path: string, acceptEncoding: string) =>
    new Promise<{ status: number | undefined; encoding: string | undefined; type: string | undefined; vary: string | undefined; bytes: Buffer }>(
      (resolve, reject) => {
        get(`${app.url}${path}`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode,
              encoding: res.headers['content-encoding'],
              type: res.headers['content-type'],
              vary: res.headers.vary,
              bytes: Buffer.concat(chunks),
            }),
          );
        }).on('error', reject);
      },
    );

  it.for(['/openapi.json', '/docs/assets/scalar/standalone.esm.js'])(
    '%s: gzip when asked, the same bytes once inflated, several times smaller',
    async (path) => {
      const plain = await raw(path, 'identity');
      expect(plain.encoding).toBeUndefined();
      const zipped = await raw(path, 'gzip');
      expect(zipped.encoding).toBe('gzip');
      expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true);
      expect(zipped.bytes.length * 3).toBeLessThan(plain.bytes.length);
    },
  );

  it("the renderer's modules the page preloads: Brotli or gzip as the build compressed them, typed as scripts, the same bytes once decoded", async () => {
    const page = await (await fetch(`${app.url}/docs`)).text();
    const preloaded = [...page.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]!);
    // The entry's own imports: Vue's runtime, the renderer's components, its markdown, at least.
    expect(preloaded.length).toBeGreaterThanOrEqual(5);
    for (const path of ['/docs/assets/scalar/standalone.esm.js', ...preloaded]) {
      const plain = await raw(path, 'identity');
      expect([plain.status, plain.encoding, plain.type], path).toEqual([200, undefined, expect.stringMatching(/^text\/javascript/)]);
      const brotli = await raw(path, 'gzip, deflate, br');
      expect([brotli.status, brotli.encoding, brotli.type, brotli.vary], path).toEqual([
        200,
        'br',
        expect.stringMatching(/^text\/javascript/),
        'Accept-Encoding',
      ]);
      expect(brotliDecompressSync(brotli.bytes).equals(plain.bytes), path).toBe(true);
      const zipped = await raw(path, 'gzip');
      expect([zipped.encoding, zipped.type], path).toEqual(['gzip', expect.stringMatching(/^text\/javascript/)]);
      expect(gunzipSync(zipped.bytes).equals(plain.bytes), path).toBe(true);
    }
    expect((await raw('/docs/assets/scalar/chunks/no-such-module.js', 'br')).status).toBe(404);
  });
});
