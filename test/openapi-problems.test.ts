/**
 * Problem types that resolve: every code of the error vocabulary (what the REST and GraphQL mappers
 * emit) has its entry on the problems page, each problem's `type` is `/docs/problems#<code>` and,
 * resolved against the URL a client called, names a page this server serves with that entry; the
 * table of docs/api.md is the one generated from the same vocabulary; no problem has the blank type any more.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemFor, ProblemDetailsSchema } from '../src/api/rest/problem-details.js';
import { problemsMarkdownTable } from '../src/api/rest/problems-page.js';
import { toGraphQLError } from '../src/infra/graphql/graphql-errors.js';
import { AppError, ERROR_CODES, ERROR_VOCABULARY, HTTP_STATUS_BY_CODE } from '../src/kernel/errors.js';
import { repositoryPath } from '../src/kernel/repository-root.js';
import { launchBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe('problem types', () => {
  it('every code the mappers emit has its entry, and each problem links to it', async () => {
    const page = await fetch(`${app.url}/docs/problems`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    for (const code of ERROR_CODES) {
      const problem = problemFor(new AppError(code, 'example'));
      expect(problem.type).toBe(`/docs/problems#${code}`);
      expect(problem.status).toBe(ERROR_VOCABULARY[code].status);
      expect(ProblemDetailsSchema.safeParse(problem).success, code).toBe(true);
      // The URI resolves: the page it names is served and has the fragment's entry.
      const resolved = new URL(problem.type, `${app.url}/api/platform/v1/tenants`);
      expect(resolved.pathname).toBe('/docs/problems');
      expect(html).toContain(`<section id="${resolved.hash.slice(1)}"`);
      expect(html).toContain(`${ERROR_VOCABULARY[code].status} `);
      // GraphQL carries the same code and status.
      expect(toGraphQLError(new AppError(code, 'example')).extensions).toMatchObject({ code, status: HTTP_STATUS_BY_CODE[code] });
    }
    // A bug and an unanticipated database failure are problems of the vocabulary too.
    expect(problemFor(new Error('boom')).type).toBe('/docs/problems#INTERNAL');
    expect(problemFor({ code: 'P2002', meta: { target: ['referenceId'] } }).type).toBe('/docs/problems#CONFLICT');
  });

  it("a live problem's type resolves against the URL that was called", async () => {
    const res = await fetch(`${app.url}/api/platform/v1/tenants`, { headers: { authorization: 'Bearer nonsense' } });
    expect(res.status).toBe(401);
    const problem = (await res.json()) as { type: string; code: string };
    const page = await fetch(new URL(problem.type, res.url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`id="${problem.code}"`);
  });

  it('the page opens at the entry a type names, in Chromium, with no serious accessibility violations', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      const problem = problemFor(AppError.notFound('Tenant'));
      await page.goto(new URL(problem.type, `${app.url}/api/platform/v1/tenants/0`).toString());
      const entry = page.locator('section:target');
      await expect.poll(() => entry.getAttribute('id')).toBe('NOT_FOUND');
      expect(await entry.isVisible()).toBe(true);
      const box = await entry.boundingBox();
      expect(box!.y).toBeLessThan(844);
      expect(await entry.textContent()).toContain(ERROR_VOCABULARY.NOT_FOUND.whatToDo.replace(/`/g, ''));
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("docs/api.md's error table is the one generated from the vocabulary", async () => {
    const doc = await readFile(repositoryPath('docs', 'api.md'), 'utf8');
    expect(doc).toContain(problemsMarkdownTable());
  });

  it('the blank problem type is nowhere in the sources, tests and docs', () => {
    const blank = ['about', 'blank'].join(':');
    // git grep exits 1 when nothing matches.
    const found = spawnSync('git', ['grep', '-l', '--untracked', '-F', blank, '--', 'src', 'test', 'docs', 'web', 'README.md'], {
      cwd: repositoryPath(),
      encoding: 'utf8',
    });
    expect(found.status, found.stderr).toBe(1);
    expect(found.stdout).toBe('');
  });
});
