/**
 * The reference renderer's browser build (Scalar's standalone.esm.js and the chunks it imports, as
 * the npm package ships them), compressed once by the build rather than on every first visit, and
 * the list of modules its first screen imports, so the page asks for them all at once.
 *
 * `npm run build` writes each file with its Brotli (quality 11) and gzip (level 9) forms into
 * dist/web/scalar, beside `preload.json`. Served from there, a first visit costs the server no
 * compression (gzip at level 3 took ~40 ms of CPU per visit for the first screen's 2.8 MB of
 * modules, on the same two cores the browser renders with) and the browser receives fewer bytes.
 * A checkout that has not been built serves the package's files, compressed per request
 * (src/api/http/response-compression.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import express, { type RequestHandler } from 'express';
import { WEB_BUNDLE_DIR } from '../pages/web-bundles.js';

/**
 * Where the package keeps its browser build. Resolved when used (by the build, or by a checkout that
 * has not been built): the package is a build-time dependency, absent from the production image.
 */
const packageBrowserDir = () => path.join(path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser');
const BUILT_DIR = path.join(WEB_BUNDLE_DIR, 'scalar');
const PRELOAD_MANIFEST = path.join(BUILT_DIR, 'preload.json');
/** The module the page loads; the rest are its chunks. */
export const RENDERER_ENTRY = 'standalone.esm.js';
/** Served under this path (api-docs-router.ts). */
export const DOCS_ASSETS_PATH = '/docs/assets/scalar';

/** The encodings built, in the order they are preferred. */
const ENCODINGS = [
  { name: 'br', extension: '.br' },
  { name: 'gzip', extension: '.gz' },
] as const;

/** The files the page may load: the ES module build (not the 4.4 MB classic standalone.js, nor source maps). */
async function rendererFiles(): Promise<string[]> {
  const chunks = await readdir(path.join(packageBrowserDir(), 'chunks'));
  return [RENDERER_ENTRY, ...chunks.filter((name) => name.endsWith('.js')).map((name) => `chunks/${name}`)];
}

/** Module specifiers a file imports statically (`import … from "./x.js"`, `import "./x.js"`, `export … from`): not `import()`. */
function staticImports(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]!);
}

/** The modules the entry imports, directly or through others, as paths relative to the browser build. */
async function firstScreenModules(): Promise<string[]> {
  const seen = new Set<string>();
  const browserDir = packageBrowserDir();
  const visit = async (file: string) => {
    for (const specifier of staticImports(await readFile(path.join(browserDir, file), 'utf8'))) {
      const imported = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (seen.has(imported)) continue;
      seen.add(imported);
      await visit(imported);
    }
  };
  await visit(RENDERER_ENTRY);
  return [...seen].sort();
}

/** `npm run build`: the renderer's files with their compressed forms, and the first screen's module list. */
export async function buildDocsAssets(): Promise<void> {
  const files = await rendererFiles();
  const browserDir = packageBrowserDir();
  await rm(BUILT_DIR, { recursive: true, force: true });
  await mkdir(path.join(BUILT_DIR, 'chunks'), { recursive: true });
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  // Each on libuv's threads: the build waits for about the largest file, not the sum.
  await Promise.all(
    files.map(async (file) => {
      const from = path.join(browserDir, file);
      const to = path.join(BUILT_DIR, file);
      const bytes = await readFile(from);
      await copyFile(from, to);
      await writeFile(
        `${to}.br`,
        await brotli(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
      );
      await writeFile(`${to}.gz`, await gzipped(bytes, { level: 9 }));
    }),
  );
  await writeFile(PRELOAD_MANIFEST, JSON.stringify(await firstScreenModules()));
}

/** `<link rel="modulepreload">` for every module of the first screen (none before a build). */
export function rendererPreloadLinks(): string {
  if (!existsSync(PRELOAD_MANIFEST)) return '';
  const modules = JSON.parse(readFileSync(PRELOAD_MANIFEST, 'utf8')) as string[];
  return modules.map((module) => `<link rel="modulepreload" href="${DOCS_ASSETS_PATH}/${module}">`).join('\n');
}

/** The renderer's files: the built compressed form the client accepts, else the file as it is. */
export function rendererAssets(): RequestHandler {
  const staticOptions = { maxAge: '1h', index: false, fallthrough: false } as const;
  if (!existsSync(PRELOAD_MANIFEST)) return express.static(packageBrowserDir(), staticOptions);
  const plain = express.static(BUILT_DIR, staticOptions);
  const encoded = new Map(
    ENCODINGS.map(
      ({ name, extension }) => [name, express.static(BUILT_DIR, { ...staticOptions, setHeaders: (res) => res.set('Content-Encoding', name) })] as const,
    ),
  );
  return (req, res, next) => {
    res.vary('Accept-Encoding');
    // The server's preference among those the client accepts: browsers list br after gzip, at the same weight.
    const accepted = req.path.endsWith('.js') ? req.acceptsEncodings() : [];
    const chosen = ENCODINGS.find((e) => accepted.includes(e.name));
    if (!chosen) return plain(req, res, next);
    // The compressed file's bytes, typed as the script they encode, as the plain file is (static would type them by .br/.gz).
    res.type('js');
    req.url = `${req.url.split('?')[0]}${chosen.extension}`;
    return encoded.get(chosen.name)!(req, res, next);
  };
}
