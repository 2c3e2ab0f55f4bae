/**
 * The lender console at /app/lender (web/lender), served as single-page-app.ts serves each app; its
 * stylesheet is the operators' dashboard's design system with the console's own rules.
 */
import type { Router } from 'express';
import type { EdgeServices } from '../http/edge-services.js';
import { singlePageAppRouter } from './single-page-app.js';
import { LENDER_CONSOLE_STYLES } from '../../../web/lender/styles.js';

export function lenderConsoleRouter(runtime: EdgeServices): Router {
  return singlePageAppRouter(runtime, {
    path: '/app/lender',
    title: 'Lender console',
    rootId: 'lender-console',
    stylesheet: { file: 'lender.css', styles: LENDER_CONSOLE_STYLES },
    bundle: 'lender-console.js',
  });
}
