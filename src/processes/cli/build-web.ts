/**
 * `npm run build:web`: regenerates the dashboard's GraphQL types from the committed supergraph (so a
 * schema change reaches them with the next build), then builds every browser bundle into dist/web
 * (run by `npm install` too).
 */
import { DASHBOARD_GRAPHQL_TYPES_PATH, writeDashboardGraphqlTypes } from './dashboard-graphql-types.js';
import { buildWebBundles, WEB_BUNDLE_DIR, WEB_BUNDLES } from '../../api/pages/web-bundles.js';
import { buildDocsAssets } from '../../api/rest/docs-assets.js';

const started = Date.now();
if (await writeDashboardGraphqlTypes()) console.log(`regenerated ${DASHBOARD_GRAPHQL_TYPES_PATH} from the supergraph: commit it`);
await Promise.all([buildWebBundles(), buildDocsAssets()]);
console.log(
  `built ${Object.keys(WEB_BUNDLES).length} web bundle(s) and the reference renderer's compressed files into ${WEB_BUNDLE_DIR} in ${Date.now() - started} ms`,
);
