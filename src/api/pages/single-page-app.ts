/**
 * How a signed-in single-page app of this server is served (the operators' dashboard, the lender
 * console): a static HTML shell, its stylesheet and its browser bundle (built by esbuild into
 * dist/web). The page calls the APIs with its user's token, so these routes serve no data and need
 * no credentials. The CSP allows only this origin's script, style and connections (REST, GraphQL
 * over HTTP and graphql-ws).
 */
import express, { type Router } from 'express';
import type { EdgeServices } from '../http/edge-services.js';
import { readWebBundle } from './web-bundles.js';

const APP_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

export interface SinglePageApp {
  /** Where the shell answers, e.g. /app/dashboard; the stylesheet and bundle answer beneath it. */
  path: string;
  title: string;
  /** The id of the element the bundle renders into. */
  rootId: string;
  stylesheet: { file: string; styles: string };
  /** The bundle's name in web-bundles.ts. */
  bundle: string;
}

export function singlePageAppRouter(runtime: EdgeServices, page: SinglePageApp): Router {
  const shell = `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${page.title}</title>
<link rel="stylesheet" href="${page.path}/${page.stylesheet.file}">
<script defer src="${page.path}/${page.bundle}"></script>
</head>
<body>
<div id="${page.rootId}"><main><h1>${page.title}</h1><p>Loading…</p></main></div>
</body>
</html>`;
  const router = express.Router();
  router.get(page.path, (_req, res) => {
    res
      .set({ ...APP_HEADERS, 'Cache-Control': 'no-store' })
      .type('html')
      .send(shell);
  });
  router.get(`${page.path}/${page.stylesheet.file}`, (_req, res) => {
    res
      .set({ ...APP_HEADERS, 'Cache-Control': 'no-cache' })
      .type('text/css')
      .send(page.stylesheet.styles);
  });
  router.get(`${page.path}/${page.bundle}`, async (_req, res) => {
    try {
      const bundle = await readWebBundle(page.bundle);
      res
        .set({ ...APP_HEADERS, 'Cache-Control': 'no-cache' })
        .type('text/javascript')
        .send(bundle);
    } catch (err) {
      runtime.logger.error({ err, bundle: page.bundle }, `${page.title} bundle could not be built`);
      res.status(500).end();
    }
  });
  return router;
}
