/**
 * GET /openapi.json (generated once per process from the route table) and GET /docs: the reference
 * page, rendered by Scalar's API reference from our own assets (no CDN), with "try it" against this
 * server, under a bar linking the getting-started guides (/docs/guides/…, docs-guides.ts).
 * Compression is every server's (src/api/http/response-compression.ts).
 */
import express, { type Router } from 'express';
import { readWebBundle } from '../pages/web-bundles.js';
import { DOCS_ASSETS_PATH, RENDERER_ENTRY, rendererAssets, rendererPreloadLinks } from './docs-assets.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { guidesNavigation, guidesRouter } from './docs-guides.js';
import { PROBLEMS_PAGE_PATH } from './problem-details.js';
import { problemsPage } from './problems-page.js';

/** The page; built on its first request, when the build's list of the renderer's modules is there to read. */
const docsPage = () => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Funding gateway API reference</title>
<!-- The document is fetched while the renderer's modules load (the renderer asks for it only once it runs). -->
<link rel="preload" href="/openapi.json" as="fetch" crossorigin="anonymous">
<!-- The modules the renderer's entry imports, fetched with it rather than after it has been parsed. -->
${rendererPreloadLinks()}
<style>
/* System fonts from the first paint: the renderer's web fonts live on another host, unreachable offline. */
:root { --scalar-font: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; --scalar-font-code: ui-monospace, 'DejaVu Sans Mono', monospace; }
body { margin: 0; }
/* The guides' bar: one line above the reference (Scalar keeps its sticky sidebar below a header of this height). */
:root { --scalar-custom-header-height: 2.5rem; }
nav.guides { box-sizing: border-box; height: 2.5rem; display: flex; gap: 1rem; align-items: center; padding: 0 1rem; overflow-x: auto; white-space: nowrap;
  border-bottom: 1px solid #d0d7de; background: #f6f8fa; color: #111; font: .9rem system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
nav.guides a { color: #0b57d0; }
nav.guides a[aria-current="page"] { color: #111; font-weight: 600; text-decoration: none; }
</style>
</head>
<body>
<header>${guidesNavigation()}</header>
<main id="reference" aria-label="API reference"></main>
<!-- The renderer's ES module build: ~2.8 MB of modules for the first screen, the rest loaded when used
     (the classic standalone.js is 4.4 MB, all parsed before anything renders). Modules run in order. -->
<script type="module" src="${DOCS_ASSETS_PATH}/${RENDERER_ENTRY}"></script>
<script type="module" src="/docs/assets/api-docs.js"></script>
</body>
</html>`;

/** `publicUrl`: the configured PUBLIC_URL, the document's server; without it, the URL the document was asked on. */
export function apiDocsRouter(options: { publicUrl?: string } = {}): Router {
  const router = express.Router();
  const documents = new Map<string, string>();
  router.get('/openapi.json', (req, res) => {
    const serverUrl = options.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    let document = documents.get(serverUrl);
    if (document === undefined) {
      document = JSON.stringify(buildOpenApiDocument({ serverUrl }));
      if (documents.size < 8) documents.set(serverUrl, document);
    }
    res.set('Cache-Control', 'no-cache').type('application/json').send(document);
  });
  // Built once: the error vocabulary it is generated from does not change while the process runs.
  let problems: string | undefined;
  router.get(PROBLEMS_PAGE_PATH, (_req, res) => {
    problems ??= problemsPage();
    res.set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }).type('html').send(problems);
  });
  let page: string | undefined;
  router.get('/docs', (_req, res) => {
    page ??= docsPage();
    res.set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }).type('html').send(page);
  });
  router.use(DOCS_ASSETS_PATH, rendererAssets());
  router.get('/docs/assets/api-docs.js', async (_req, res) => {
    res
      .set('Cache-Control', 'no-cache')
      .type('application/javascript')
      .send(await readWebBundle('api-docs.js'));
  });
  router.use(guidesRouter());
  return router;
}
