/** `npm run build:web`: builds every browser bundle into dist/web (run by `npm install` too). */
import { buildWebBundles, WEB_BUNDLE_DIR, WEB_BUNDLES } from '../web/web-bundles.js';

const started = Date.now();
await buildWebBundles();
console.log(`built ${Object.keys(WEB_BUNDLES).length} web bundle(s) into ${WEB_BUNDLE_DIR} in ${Date.now() - started} ms`);
