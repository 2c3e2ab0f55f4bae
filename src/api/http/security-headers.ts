/**
 * Security headers on every response (helmet): nosniff, HSTS in production, a strict CSP for
 * anything that is not a page with its own policy, no framing. Pages that need another policy
 * (GraphiQL, embeddable pages) set theirs at route level, after this (the later header wins).
 */
import helmet from 'helmet';
import type { RequestHandler } from 'express';
import type { DeployEnvironment } from '../../kernel/context.js';

export function securityHeaders(environment: DeployEnvironment): RequestHandler {
  return helmet({
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
  });
}

/**
 * GraphiQL's page runs inline scripts and styles and web workers from blob: URLs (the editor);
 * everything it loads is inlined, so nothing but this origin is allowed to be fetched.
 */
export const GRAPHIQL_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";
