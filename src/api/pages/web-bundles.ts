/**
 * Browser bundles (widget, pages, dashboard) are built from the TypeScript under `web/` by esbuild,
 * into `dist/web/`: no CDN and no committed minified files. `npm install` builds them (postinstall),
 * the test run builds them once in its global setup, and a server started without them builds them on first use.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPOSITORY_ROOT } from '../../kernel/repository-root.js';

const REPO_ROOT = REPOSITORY_ROOT;
export const WEB_BUNDLE_DIR = path.join(REPO_ROOT, 'dist', 'web');

/** Bundle name (the served file name) -> its entry point under `web/`. */
export const WEB_BUNDLES: Record<string, string> = {
  'widget.js': 'web/widget/widget.ts',
  'widget-embed.js': 'web/widget/embed.ts',
  'dashboard.js': 'web/dashboard/main.ts',
  'lender-console.js': 'web/lender/main.ts',
  'api-docs.js': 'web/api-docs/api-docs.ts',
  'continue-page.js': 'web/continue/continue-page.ts',
};

export async function buildWebBundles(names: string[] = Object.keys(WEB_BUNDLES)): Promise<void> {
  if (names.length === 0) return;
  // Loaded only when a bundle is missing: a built checkout never needs esbuild at run time.
  const { build } = await import('esbuild');
  await build({
    entryPoints: Object.fromEntries(names.map((name) => [name.replace(/\.js$/, ''), path.join(REPO_ROOT, WEB_BUNDLES[name]!)])),
    outdir: WEB_BUNDLE_DIR,
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    platform: 'browser',
    tsconfig: path.join(REPO_ROOT, 'web', 'tsconfig.json'),
    legalComments: 'none',
    logLevel: 'warning',
  });
}

let pendingBuild: Promise<void> | undefined;

/** The built bundle's bytes; a checkout that has not been built yet builds every bundle once. */
export async function readWebBundle(name: string): Promise<Buffer> {
  if (!(name in WEB_BUNDLES)) throw new Error(`No web bundle named ${name}`);
  const file = path.join(WEB_BUNDLE_DIR, name);
  if (!existsSync(file)) {
    pendingBuild ??= buildWebBundles().finally(() => (pendingBuild = undefined));
    await pendingBuild;
  }
  return readFile(file);
}
