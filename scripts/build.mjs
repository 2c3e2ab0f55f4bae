/**
 * `npm run build`: compiles the server to dist/server (tsc: the decorators' metadata and every
 * module's own class names stay as written, which TypeGraphQL relies on) and builds the browser
 * bundles into dist/web. `npm install` runs it (postinstall); `npm start` runs it with --if-stale
 * first, so a checkout whose sources changed since the last build is rebuilt (incrementally) before
 * it starts. Plain JavaScript: it must run before anything is compiled.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
  console.error('build: no sources yet, nothing to build');
  process.exit(0);
}
if (process.argv.includes('--if-stale') && existsSync(stamp) && Math.max(...SOURCES.map(newestChange)) <= statSync(stamp).mtimeMs) {
  process.exit(0);
}

const started = Date.now();
// Everything the build prints goes to stderr: a CLI's pre-script build must not mix into the CLI's
// stdout, which may be JSON piped to another program (npm run admin -- … | jq).
const TO_STDERR = ['inherit', 2, 2];
// A pulled schema change needs its clients regenerated before anything compiles against them
// (otherwise tsc fails on every import of the generated Prisma and Kysely types).
const schema = path.join(root, 'prisma', 'schema.prisma');
const generatedMarker = path.join(root, 'src', 'generated', 'kysely', 'database.ts');
if (!existsSync(generatedMarker) || statSync(schema).mtimeMs > statSync(generatedMarker).mtimeMs) {
  console.error('build: prisma/schema.prisma changed: regenerating the Prisma client and Kysely types');
  const generated = spawnSync('npm', ['run', '-s', 'prisma:generate'], { cwd: root, stdio: TO_STDERR });
  if (generated.status !== 0) process.exit(generated.status ?? 1);
}
console.error(
  existsSync(stamp)
    ? 'build: sources changed since the last build: compiling the server and the web bundles…'
    : 'build: compiling the server and the web bundles (a minute or two on a fresh checkout)…',
);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: TO_STDERR });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);
// A new build's code: V8's code cache of the previous one (src/processes/start.ts) is of no use.
rmSync(path.join(root, 'dist', 'server', '.compile-cache'), { recursive: true, force: true });
const web = spawnSync(process.execPath, [path.join(root, 'dist', 'server', 'src', 'processes', 'cli', 'build-web.js')], { stdio: TO_STDERR });
if (web.status !== 0) process.exit(web.status ?? 1);
writeFileSync(stamp, new Date().toISOString() + '\n');
console.error(`built the server into dist/server in ${Date.now() - started} ms`);
