/**
 * Security headers on every response (helmet): nosniff, HSTS in production, a strict CSP for
 * anything that is not a page with its own policy, no framing. Pages that need another policy
 * (GraphiQL, embeddable pages) set theirs at route level, after this (the later header wins).
 * helmet's headers depend on nothing in the request, so its dozen middlewares run once, at start,
 * and every response gets the headers they set, in one middleware.
 */
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { DeployEnvironment } from '../../kernel/context.js';

export function securityHeaders(environment: DeployEnvironment): RequestHandler {
  const headers = Object.entries(helmetHeaders(environment));
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/** The headers helmet sets with our options, computed by running it once against a recording response. */
function helmetHeaders(environment: DeployEnvironment): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      return recorder;
    },
    // helmet removes X-Powered-By: every server already disables it (app.disable('x-powered-by')).
    removeHeader() {},
  };
  let failure: unknown;
  helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: { 'default-src': ["'self'"], 'frame-ancestors': ["'none'"], 'upgrade-insecure-requests': null },
    },
    // Browser bundles (e.g. the widget's script) are loaded by other sites: CORP must not block them.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
    // HSTS only where the deployment is served over TLS; a demo on http://localhost must not pin https.
    strictTransportSecurity: environment === 'production' ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
  })({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/**
 * GraphiQL's page runs inline scripts and styles and web workers from blob: URLs (the editor);
 * everything it loads is inlined, so nothing but this origin is allowed to be fetched.
 */
export const GRAPHIQL_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";
