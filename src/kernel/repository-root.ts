/**
 * The checkout's root directory, found from this module's own location, so that files read at run
 * time (migrations, questionnaire definitions, the supergraph, web bundles) are found both when the
 * sources run through tsx (src/...) and when the compiled JavaScript runs (dist/server/src/...).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'prisma', 'schema.prisma'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no checkout root above ${start}`);
  }
}

export const REPOSITORY_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

/** A path inside the checkout, e.g. `repositoryPath('prisma', 'migrations')`. */
export function repositoryPath(...segments: string[]): string {
  return path.join(REPOSITORY_ROOT, ...segments);
}

/** True when running the compiled build (dist/server) rather than the TypeScript sources. */
export const RUNNING_COMPILED = import.meta.url.endsWith('.js');
