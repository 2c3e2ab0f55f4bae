/**
 * The commands the image's processes run, as the deployment files (docker-compose.yml,
 * deploy/kubernetes) give them: `node <file> [args]`, where <file> is the built file a package.json
 * script runs. The image's entrypoint (tini) starts that command as its child: node receives the
 * signals and no npm stands between them, nor the `pre*` scripts' build check at every start.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** The built file each script runs with node (`... node dist/server/….js`) -> the script's name. */
export const NODE_SCRIPT_FILES: ReadonlyMap<string, string> = new Map(
  Object.entries(packageJson.scripts).flatMap(([name, text]) => {
    const match = /(?:^|\s)node (dist\/\S+\.js)$/.exec(text);
    return match ? [[match[1]!, name] as const] : [];
  }),
);

/** SERVICE_NAMES of src/processes/service.ts, from its text (importing it would start a server). */
export function readServiceNames(): string[] {
  const match = /export\s+const\s+SERVICE_NAMES\s*=\s*\[([^\]]*)\]/.exec(readFileSync(join(ROOT, 'src/processes/service.ts'), 'utf8'));
  if (!match?.[1]) throw new Error('SERVICE_NAMES not found in src/processes/service.ts');
  return [...match[1].matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

/** The package.json script a command stands for, or undefined. */
export function scriptOf(command: readonly string[] | undefined): string | undefined {
  return command?.[0] === 'node' && command[1] !== undefined ? NODE_SCRIPT_FILES.get(command[1]) : undefined;
}

/** The service a `start:service` command runs. */
export function serviceOf(command: readonly string[] | undefined): string | undefined {
  return scriptOf(command) === 'start:service' ? command![2] : undefined;
}

/** What is wrong with a command: not node, not a script's file, an unknown service, extra arguments. */
export function nodeCommandProblems(at: string, command: readonly string[] | undefined, services: readonly string[]): string[] {
  if (!command) return [`${at}: no command (it would run the image's CMD, the all-in-one process)`];
  const [bin, file, ...rest] = command;
  if (bin !== 'node')
    return [
      `${at}: ${JSON.stringify(command)} does not run node itself (npm as the process would stand between the signals and node, and re-check the build at every start)`,
    ];
  const script = scriptOf(command);
  if (!script) return [`${at}: ${file} is not the built file of a package.json script`];
  if (script === 'start:service') {
    const [name, ...extra] = rest;
    if (!name || !services.includes(name)) return [`${at}: start:service has no service "${name}"`];
    return extra.length > 0 ? [`${at}: unexpected arguments ${JSON.stringify(extra)}`] : [];
  }
  return rest.length > 0 ? [`${at}: unexpected arguments ${JSON.stringify(rest)} to ${script}`] : [];
}
