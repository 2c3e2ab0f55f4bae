/**
 * The getting-started guides (docs/guides/*.md, served at /docs/guides/<name>): each guide's marked
 * shell block runs as written (bash, curl, jq, the admin CLI) against a fresh deployment with the
 * demo data, as a reader following it would; each page is served from its Markdown with every link
 * working on the served page, is reachable from /docs, and has no serious accessibility violation
 * in Chromium.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDES, guidePath, renderGuideMarkdown } from '../src/api/rest/docs-guides.js';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const MARKER = '<!-- guide-test:';

/** The guide's marked shell block, with the deployment's address set to this test's server. */
async function guideScript(name: string, baseUrl: string): Promise<string> {
  const page = await readFile(new URL(`../docs/guides/${name}.md`, import.meta.url), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(page.slice(page.indexOf(MARKER)))?.[1];
  if (!page.includes(MARKER) || !block) throw new Error(`docs/guides/${name}.md has no marked shell block`);
  expect(block).toMatch(/^B=http:\/\/127\.0\.0\.1:4000$/m);
  return `set -euo pipefail\n${block.replace(/^B=\S+$/m, `B=${baseUrl}`)}`;
}

/** Runs a guide's block from the repository's root, as its reader would; its exit code and output. */
async function runGuide(name: string): Promise<{ code: number | null; stdout: string; output: string }> {
  const shell = spawn('bash', ['-c', await guideScript(name, app.url)], {
    cwd: new URL('..', import.meta.url),
    // The admin CLI writes to the deployment's database and prints the deployment's URLs.
    env: { ...process.env, DATABASE_URL: app.database.url, PUBLIC_URL: app.url, DEPLOY_ENV: 'demo', ENV_FILE: '/nonexistent/.env', LOG_LEVEL: 'warn' },
  });
  let stdout = '';
  let output = '';
  shell.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), (output += chunk.toString())));
  shell.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => shell.once('exit', resolve));
  return { code, stdout, output };
}

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  // As `npm start` on a fresh clone: demo data seeded, the demo users among it.
  app = await startTestApp({ config: { SEED_DEMO_DATA: true } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('each guide’s commands work as written', () => {
  it('REST: sign-in, API key, tokens, tenant, profile, application, matches, submission', { timeout: 120_000 }, async () => {
    const run = await runGuide('integrator-rest');
    expect(run.code, run.output).toBe(0);
    expect(run.stdout).toContain('"registrationNumber": "09876543"');
    expect(run.stdout).toMatch(/"likelihood":0\.\d+/);
    expect(run.stdout).toMatch(/"applications": \[\s*\{\s*"lenderId": \d+/);
    const submitted = await app.runtime.database.prisma.lenderApplication.count({ where: { createdAt: { gte: new Date(Date.now() - 120_000) } } });
    expect(submitted).toBeGreaterThanOrEqual(1);
  });

  it('GraphQL: a platform token, a query and a mutation', { timeout: 60_000 }, async () => {
    const run = await runGuide('integrator-graphql');
    expect(run.code, run.output).toBe(0);
    expect(run.stdout).not.toContain('"errors"');
    expect(run.stdout).toMatch(/"total": \d+/);
    expect(run.stdout).toMatch(/"referenceId": "graphql-\d+"/);
  });

  it('widget: a tenant token, and the frame embed’s address, which shows the widget', { timeout: 60_000 }, async () => {
    const run = await runGuide('widget');
    expect(run.code, run.output).toBe(0);
    const embed = run.stdout.trim().split('\n').at(-1)!;
    expect(embed).toMatch(new RegExp(`^${app.url}/app/ui/widget/embed\\.html\\?accessToken=ey`));
    const page = await browser.newPage();
    await page.goto(embed);
    // The registry's company for 09876543, as the widget renders it from GET /profile.
    await expect.poll(() => page.getByText('09876543').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.close();
  });

  it('lender: credentials from the admin CLI, an id_token from /oauth/token, the application list', { timeout: 180_000 }, async () => {
    const run = await runGuide('lender');
    expect(run.code, run.output).toBe(0);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('0');
  });
});

describe('the guides as served', () => {
  const get = (path: string) => fetch(`${app.url}${path}`, { headers: { accept: 'text/html' }, redirect: 'manual' });

  it.for(GUIDES.map((g) => g.name))('/docs/guides/%s: its Markdown as HTML, every link on this server answering', async (name) => {
    const res = await get(`/docs/guides/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    const markdown = await readFile(new URL(`../docs/guides/${name}.md`, import.meta.url), 'utf8');
    expect(html).toContain((await renderGuideMarkdown(markdown, name)).slice(0, 200));
    // The test marker (an HTML comment) is a note for the repository's readers, not shown.
    expect(html).not.toContain('guide-test');
    const local = [...html.matchAll(/ href="(\/[^"#]*)/g)].map((m) => m[1]!);
    expect(local).toContain('/docs');
    for (const path of new Set(local)) expect((await get(path)).status, path).toBe(200);
  });

  it('refuses to render a link that would be broken on the served page', async () => {
    await expect(renderGuideMarkdown('[ops](../operations.md)', 'a guide')).rejects.toThrow(/would be broken/);
    expect(await renderGuideMarkdown('[gql](integrator-graphql.md#live-updates) [ref](http://127.0.0.1:4000/docs)', 'a guide')).toBe(
      '<p><a href="/docs/guides/integrator-graphql#live-updates">gql</a> <a href="/docs">ref</a></p>',
    );
  });

  it('are reachable from /docs and from one another, with no serious accessibility violation', { timeout: 120_000 }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const nav = page.getByRole('navigation', { name: 'Getting started' });
    await page.goto(`${app.url}/docs`);
    for (const guide of GUIDES) {
      await nav.getByRole('link', { name: guide.audience, exact: true }).click();
      await page.waitForURL(`${app.url}${guidePath(guide)}`);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBe(1);
      expect(await nav.getByRole('link', { name: guide.audience, exact: true }).getAttribute('aria-current')).toBe('page');
      expect(await seriousAccessibilityViolations(page), guide.name).toEqual([]);
      await nav.getByRole('link', { name: 'API reference', exact: true }).click();
      await page.waitForURL(`${app.url}/docs`);
    }
    await page.goto(`${app.url}/docs/guides`);
    expect(await page.getByRole('main').getByRole('link').count()).toBeGreaterThan(GUIDES.length);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });
});
