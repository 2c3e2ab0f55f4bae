/**
 * The operations dashboard at /app/dashboard: a static HTML shell, its stylesheet and its browser
 * bundle (built from web/dashboard by esbuild). All data comes from the GraphQL API the page calls
 * with the signed-in user's token, so this route serves no data and needs no credentials. Its CSP
 * allows only this origin's script, style and connections (GraphQL over HTTP and graphql-ws).
 */
import express, { type Router } from 'express';
import type { EdgeServices } from '../http/edge-services.js';
import { readWebBundle } from './web-bundles.js';
import { DASHBOARD_STYLES } from '../../../web/dashboard/styles.js';

const DASHBOARD_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

const SHELL = `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Operations dashboard</title>
<link rel="stylesheet" href="/app/dashboard/dashboard.css">
<script defer src="/app/dashboard/dashboard.js"></script>
</head>
<body>
<div id="dashboard"><main><h1>Operations dashboard</h1><p>Loading…</p></main></div>
</body>
</html>`;

export function dashboardRouter(runtime: EdgeServices): Router {
  const router = express.Router();
  router.get('/app/dashboard', (_req, res) => {
    res
      .set({ ...DASHBOARD_HEADERS, 'Cache-Control': 'no-store' })
      .type('html')
      .send(SHELL);
  });
  router.get('/app/dashboard/dashboard.css', (_req, res) => {
    res
      .set({ ...DASHBOARD_HEADERS, 'Cache-Control': 'no-cache' })
      .type('text/css')
      .send(DASHBOARD_STYLES);
  });
  router.get('/app/dashboard/dashboard.js', async (_req, res) => {
    try {
      const bundle = await readWebBundle('dashboard.js');
      res
        .set({ ...DASHBOARD_HEADERS, 'Cache-Control': 'no-cache' })
        .type('text/javascript')
        .send(bundle);
    } catch (err) {
      runtime.logger.error({ err }, 'dashboard bundle could not be built');
      res.status(500).end();
    }
  });
  return router;
}
