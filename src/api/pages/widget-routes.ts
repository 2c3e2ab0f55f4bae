/**
 * The credit widget's files (spec 4.3): widget.js for the script embed and embed.html (with its
 * script) for the frame embed. embed.html's looks (themed by the widget's CSS custom properties)
 * and its texts (in the widget's locale) come from its script; the page holds the layout only. Every header that decides whether another origin may load or frame
 * them is set here, per route, so that site-wide security headers cannot silently break embedding.
 */
import express, { type Router } from 'express';
import type { AppConfig } from '../../kernel/config.js';
import type { Logger } from '../../infra/logger.js';
import { readWebBundle } from './web-bundles.js';
import { frameAncestors, widgetEmbedOrigins } from './widget-cors.js';

const WIDGET_SCRIPT_PATH = '/app/ui/widget/widget.js';
const WIDGET_EMBED_PATH = '/app/ui/widget/embed.html';
const EMBED_SCRIPT_PATH = '/app/ui/widget/embed.js';

const EMBED_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Credit report</title>
<style>body { margin: 0; padding: 8px; } .problem { margin: 0; }</style>
</head>
<body>
<main>
<h1 style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">Credit report</h1>
<div id="credit-widget"></div>
<p id="problem" class="problem" role="alert" hidden></p>
</main>
<script src="${EMBED_SCRIPT_PATH}" defer></script>
</body>
</html>`;

export function widgetRouter(config: Pick<AppConfig, 'WIDGET_EMBED_ORIGINS' | 'DEPLOY_ENV'>, logger: Logger): Router {
  const origins = widgetEmbedOrigins(config);
  const router = express.Router();
  const script =
    (bundle: string): express.RequestHandler =>
    async (_req, res) => {
      try {
        const body = await readWebBundle(bundle);
        // Loaded by pages of other origins: a same-origin resource policy would block it.
        res.set({ 'Cache-Control': 'public, max-age=300', 'Cross-Origin-Resource-Policy': 'cross-origin', 'X-Content-Type-Options': 'nosniff' });
        res.type('text/javascript').send(body);
      } catch (err) {
        logger.error({ err, bundle }, 'widget bundle unavailable');
        res.status(503).end();
      }
    };
  router.get(WIDGET_SCRIPT_PATH, script('widget.js'));
  router.get(EMBED_SCRIPT_PATH, script('widget-embed.js'));
  router.get(WIDGET_EMBED_PATH, (_req, res) => {
    res.removeHeader('X-Frame-Options');
    res.set({
      'Content-Security-Policy': [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "connect-src 'self'",
        "img-src 'self' data:",
        "base-uri 'none'",
        "form-action 'none'",
        `frame-ancestors ${frameAncestors(origins)}`,
      ].join('; '),
      'Cache-Control': 'no-store',
      // The token is in this page's address: never send it on as a referrer.
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
    res.type('html').send(EMBED_HTML);
  });
  return router;
}
