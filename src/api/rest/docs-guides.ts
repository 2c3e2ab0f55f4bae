/**
 * The getting-started guides, one per audience, served at /docs/guides/<name> beside the reference:
 * Markdown under docs/guides/ (read on GitHub as it is) rendered to HTML by micromark (CommonMark and
 * GitHub's tables; raw HTML in the Markdown is escaped, not passed through, and comments are left
 * out), once per process.
 * A guide links only to its siblings (`integrator-graphql.md`), to pages of the deployment given as
 * the demo's address (`http://127.0.0.1:4000/docs`, served as `/docs`, so they work on any host) and
 * to other sites: a link to anything else would be broken on the served page, so rendering refuses it.
 */
import { readFile } from 'node:fs/promises';
import express, { type Router } from 'express';
import { loadOnFirstUse } from '../../kernel/load-on-first-use.js';
import { repositoryPath } from '../../kernel/repository-root.js';

export interface Guide {
  /** The file name under docs/guides/ without `.md`, and the page's path segment. */
  name: string;
  /** Who it is for, as the navigation names it. */
  audience: string;
  /** What it walks through, in a line. */
  summary: string;
}

export const GUIDES: readonly Guide[] = [
  {
    name: 'integrator-rest',
    audience: 'Integrators: REST',
    summary: 'From sign-in to an application sent to a lender, with curl, or with the typed TypeScript client.',
  },
  { name: 'integrator-graphql', audience: 'Integrators: GraphQL', summary: 'A token, a first query in GraphiQL or curl, and live offers over graphql-ws.' },
  { name: 'widget', audience: 'Credit widget', summary: 'A tenant token and the credit report on your own page, by script or in a frame.' },
  { name: 'lender', audience: 'Lenders', summary: 'Credentials, a token from /oauth/token, the applications sent to you, and your answers.' },
];

/** The address the guides' examples use for the deployment (`npm start`'s). */
const DEMO_ORIGIN = 'http://127.0.0.1:4000';

export const guidePath = (guide: Guide) => `/docs/guides/${guide.name}`;

/**
 * The guides' navigation, as the reference page and every guide show it; `current` names the page
 * it is on: undefined for the reference, '' for the guides' index, else a guide's name.
 */
export function guidesNavigation(current?: string): string {
  const link = (href: string, text: string, here: boolean) => `<a href="${href}"${here ? ' aria-current="page"' : ''}>${text}</a>`;
  const links = [
    link('/docs', 'API reference', current === undefined),
    link('/docs/guides', 'Getting started', current === ''),
    ...GUIDES.map((g) => link(guidePath(g), g.audience, g.name === current)),
  ];
  return `<nav class="guides" aria-label="Getting started">${links.join(' ')}</nav>`;
}

const markdownRenderer = loadOnFirstUse(() => Promise.all([import('micromark'), import('micromark-extension-gfm')]));

/** The body of a guide: its Markdown as HTML, links made to work on the served page, headings given ids. */
export async function renderGuideMarkdown(markdown: string, source: string): Promise<string> {
  const [{ micromark }, { gfm, gfmHtml }] = await markdownRenderer();
  // HTML comments are notes for the repository's readers and tests (a block's test marker): not shown.
  const html = micromark(markdown.replace(/<!--[\s\S]*?-->\n?/g, ''), { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  const seen = new Map<string, number>();
  return html
    .replace(/ href="([^"]*)"/g, (_all, href: string) => ` href="${servedHref(href, source)}"`)
    .replace(/<h([1-3])>([\s\S]*?)<\/h\1>/g, (_all, level: string, inner: string) => {
      const base = slug(inner.replace(/<[^>]+>/g, ''));
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      return `<h${level} id="${count ? `${base}-${count}` : base}">${inner}</h${level}>`;
    });
}

function servedHref(href: string, source: string): string {
  const decoded = href.replace(/&amp;/g, '&');
  if (decoded.startsWith(`${DEMO_ORIGIN}/`)) return href.slice(DEMO_ORIGIN.length);
  if (/^[a-z][a-z0-9+.-]*:/i.test(decoded) || decoded.startsWith('#')) return href;
  const sibling = /^(?:\.\/)?([a-z0-9-]+)\.md(#[\w-]*)?$/.exec(decoded);
  if (sibling && GUIDES.some((g) => g.name === sibling[1])) return `/docs/guides/${sibling[1]}${sibling[2] ?? ''}`;
  throw new Error(`${source}: the link ${href} would be broken on the served page (link a sibling guide, ${DEMO_ORIGIN}/… or another site)`);
}

/** GitHub's heading anchors (lower case, punctuation dropped, spaces to hyphens), so links work on both. */
function slug(text: string): string {
  return text
    .replace(/&[a-z]+;|&#\d+;/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

const PAGE_STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #111; background: #fff; line-height: 1.5; }
body { margin: 0; }
nav.guides { display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid #d0d7de; background: #f6f8fa; font-size: .95rem; }
nav.guides a { color: #0b57d0; }
nav.guides a[aria-current="page"] { color: #111; font-weight: 600; text-decoration: none; }
main { max-width: 52rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
a { color: #0b57d0; }
code, pre { font-family: ui-monospace, 'DejaVu Sans Mono', monospace; font-size: .9em; }
:not(pre) > code { background: #f0f2f4; padding: .1em .3em; border-radius: 4px; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: .75rem 1rem; overflow-x: auto; }
pre:focus { outline: 2px solid #0b57d0; }
table { border-collapse: collapse; display: block; overflow-x: auto; }
th, td { border: 1px solid #d0d7de; padding: .3rem .6rem; text-align: left; vertical-align: top; }
`;

function guidePage(current: string | undefined, fallbackTitle: string, body: string): string {
  const title = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(body)?.[1]?.replace(/<[^>]+>/g, '') ?? fallbackTitle;
  // Code blocks scroll sideways on a narrow screen: they take the keyboard focus so that they can be scrolled without a mouse.
  const focusableCode = body.replace(/<pre>/g, '<pre tabindex="0">');
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Funding gateway</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header>${guidesNavigation(current)}</header>
<main>
${focusableCode}
</main>
</body>
</html>`;
}

/** A guide's page, rendered from docs/guides/<name>.md. */
async function renderGuidePage(guide: Guide): Promise<string> {
  const source = `docs/guides/${guide.name}.md`;
  return guidePage(guide.name, guide.audience, await renderGuideMarkdown(await readFile(repositoryPath(source), 'utf8'), source));
}

/** The guides' index: one line per audience. */
function renderGuidesIndex(): string {
  const items = GUIDES.map((g) => `<li><a href="${guidePath(g)}">${g.audience}</a>: ${g.summary}</li>`).join('\n');
  return guidePage(
    '',
    'Getting started',
    `<h1>Getting started</h1>\n<p>One guide per audience; the <a href="/docs">API reference</a> has every operation.</p>\n<ul>\n${items}\n</ul>`,
  );
}

export function guidesRouter(): Router {
  const router = express.Router();
  const pages = new Map<string, Promise<string>>();
  for (const guide of GUIDES) {
    router.get(guidePath(guide), async (_req, res, next) => {
      try {
        if (!pages.has(guide.name))
          pages.set(
            guide.name,
            renderGuidePage(guide).catch((err) => (pages.delete(guide.name), Promise.reject(err))),
          );
        res
          .set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' })
          .type('html')
          .send(await pages.get(guide.name));
      } catch (err) {
        next(err);
      }
    });
  }
  router.get('/docs/guides', (_req, res) => {
    res.set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }).type('html').send(renderGuidesIndex());
  });
  return router;
}
