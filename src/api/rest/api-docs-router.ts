/**
 * GET /openapi.json (generated once per process from the route table) and GET /docs: the reference
 * page, rendered by Scalar's API reference from our own assets (no CDN), with "try it" against this
 * server.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import compression from 'compression';
import express, { type Router } from 'express';
import { readWebBundle } from '../pages/web-bundles.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { PROBLEMS_PAGE_PATH } from './problem-details.js';
import { problemsPage } from './problems-page.js';

/** The renderer's browser build (standalone.js and the chunks it loads), as the npm package ships it. */
const scalarBrowserDir = path.join(path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser');

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Funding gateway API reference</title>
<style>
/* System fonts from the first paint: the renderer's web fonts live on another host, unreachable offline. */
:root { --scalar-font: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; --scalar-font-code: ui-monospace, 'DejaVu Sans Mono', monospace; }
</style>
</head>
<body>
<main id="reference" aria-label="API reference"></main>
<script src="/docs/assets/scalar/standalone.js"></script>
<script src="/docs/assets/api-docs.js"></script>
</body>
</html>`;

/** `publicUrl`: the configured PUBLIC_URL, the document's server; without it, the URL the document was asked on. */
export function apiDocsRouter(options: { publicUrl?: string } = {}): Router {
  const router = express.Router();
  // The reference's renderer is ~4 MB of script and the document ~200 KB of JSON: sent compressed
  // (gzip or brotli, as the browser asks) they load several times faster on a slow link.
  router.use(['/openapi.json', '/docs'], compression());
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
  router.get(PROBLEMS_PAGE_PATH, (_req, res) => {
    res.set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }).type('html').send(problemsPage());
  });
  router.get('/docs', (_req, res) => {
    res.set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }).type('html').send(DOCS_PAGE);
  });
  router.use('/docs/assets/scalar', express.static(scalarBrowserDir, { maxAge: '1h', index: false, fallthrough: false }));
  router.get('/docs/assets/api-docs.js', async (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('application/javascript').send(await readWebBundle('api-docs.js'));
  });
  return router;
}
