/**
 * The lender console at /app/lender: a static HTML shell, its stylesheet (the operators'
 * dashboard's design system and the console's own rules) and its browser bundle (built from
 * web/lender by esbuild). All data comes from the Lender Application API and GraphQL, called with
 * the signed-in lender's token, so this route serves no data and needs no credentials. Its CSP
 * allows only this origin's script, style and connections (REST, GraphQL and graphql-ws).
 */
import express, { type Router } from 'express';
import type { EdgeServices } from '../http/edge-services.js';
import { readWebBundle } from './web-bundles.js';
import { LENDER_CONSOLE_STYLES } from '../../../web/lender/styles.js';

const CONSOLE_HEADERS = {
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
<title>Lender console</title>
<link rel="stylesheet" href="/app/lender/lender.css">
<script defer src="/app/lender/lender-console.js"></script>
</head>
<body>
<div id="lender-console"><main><h1>Lender console</h1><p>Loading…</p></main></div>
</body>
</html>`;

export function lenderConsoleRouter(runtime: EdgeServices): Router {
  const router = express.Router();
  router.get('/app/lender', (_req, res) => {
    res
      .set({ ...CONSOLE_HEADERS, 'Cache-Control': 'no-store' })
      .type('html')
      .send(SHELL);
  });
  router.get('/app/lender/lender.css', (_req, res) => {
    res
      .set({ ...CONSOLE_HEADERS, 'Cache-Control': 'no-cache' })
      .type('text/css')
      .send(LENDER_CONSOLE_STYLES);
  });
  router.get('/app/lender/lender-console.js', async (_req, res) => {
    try {
      const bundle = await readWebBundle('lender-console.js');
      res
        .set({ ...CONSOLE_HEADERS, 'Cache-Control': 'no-cache' })
        .type('text/javascript')
        .send(bundle);
    } catch (err) {
      runtime.logger.error({ err }, 'lender console bundle could not be built');
      res.status(500).end();
    }
  });
  return router;
}
