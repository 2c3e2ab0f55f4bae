/** The operations dashboard at /app/dashboard (web/dashboard), served as single-page-app.ts serves each app. */
import type { Router } from 'express';
import type { EdgeServices } from '../http/edge-services.js';
import { singlePageAppRouter } from './single-page-app.js';
import { DASHBOARD_STYLES } from '../../../web/dashboard/styles.js';

export function dashboardRouter(runtime: EdgeServices): Router {
  return singlePageAppRouter(runtime, {
    path: '/app/dashboard',
    title: 'Operations dashboard',
    rootId: 'dashboard',
    stylesheet: { file: 'dashboard.css', styles: DASHBOARD_STYLES },
    bundle: 'dashboard.js',
  });
}
