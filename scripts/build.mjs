/**
 * `npm run build`: compiles the server to dist/server (tsc: the decorators' metadata and every
 * module's own class names stay as written, which TypeGraphQL relies on) and builds the browser
 * bundles into dist/web. `npm install` runs it (postinstall); `npm start` runs it with --if-stale
 * first, so a checkout whose sources changed since the last build is rebuilt (incrementally) before
 * it starts. Plain JavaScript: it must run before anything is compiled.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = path.join(root, 'dist', 'server', '.build-stamp');
const SOURCES = ['src', 'prisma', 'web', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function newestChange(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(full)) newest = Math.max(newest, newestChange(path.join(entry, child)));
  return newest;
}

if (!existsSync(path.join(root, 'src', 'processes', 'main.ts'))) {
  // A Docker layer installs dependencies before the sources are copied in; its Dockerfile builds after.
  console.log('build: no sources yet, nothing to build');
  process.exit(0);
}
if (process.argv.includes('--if-stale') && existsSync(stamp) && Math.max(...SOURCES.map(newestChange)) <= statSync(stamp).mtimeMs) {
  process.exit(0);
}

const started = Date.now();
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);
const web = spawnSync(process.execPath, [path.join(root, 'dist', 'server', 'src', 'processes', 'cli', 'build-web.js')], { stdio: 'inherit' });
if (web.status !== 0) process.exit(web.status ?? 1);
writeFileSync(stamp, new Date().toISOString() + '\n');
console.log(`built the server into dist/server in ${Date.now() - started} ms`);
