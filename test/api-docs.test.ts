/**
 * The reference page at /docs: Scalar's renderer served from our own assets renders the generated
 * document in Debian's Chromium with the network limited to this server (offline), lists every
 * surface, and has no serious accessibility violations.
 */
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SURFACE_TAGS } from '../src/api/rest/openapi-document.js';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
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
  it('renders the reference offline with every surface listed, and no serious accessibility violations', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const foreign: string[] = [];
    // Anything not from this server is refused and remembered: the page must not need it.
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
    // The reference itself is on the first screen: its title, not a loading skeleton, in the viewport.
    const title = page.getByRole('heading', { level: 1 }).first();
    await title.waitFor();
    const box = await title.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);
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
    new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
      get(`${app.url}${path}`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
      }).on('error', reject);
    });

  it.for(['/openapi.json', '/docs/assets/scalar/standalone.js'])('%s: gzip when asked, the same bytes once inflated, several times smaller', async (path) => {
    const plain = await raw(path, 'identity');
    expect(plain.encoding).toBeUndefined();
    const zipped = await raw(path, 'gzip');
    expect(zipped.encoding).toBe('gzip');
    expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true);
    expect(zipped.bytes.length * 3).toBeLessThan(plain.bytes.length);
  });
});
