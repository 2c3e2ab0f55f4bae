/**
 * The typed client package (clients/typescript, @funding-gateway/client): its committed generated
 * files are what `npm run client:generate` makes of the current code (REST types from the OpenAPI
 * document, typed GraphQL documents from the supergraph, the API's version); it builds with the
 * project's compiler; and its README's example, compiled strictly against the built package as an
 * integrator's project would import it, runs against a started server.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCommittedSupergraph } from '../src/api/graphql/compose.js';
import { buildASTSchema, parse, validate, type OperationDefinitionNode } from 'graphql';
import { transformSupergraphToPublicSchema } from '@theguild/federation-composition';
import {
  apiVersion,
  CLIENT_OPERATIONS_PATH,
  CLIENT_PACKAGE_DIR,
  CLIENT_ROOT_OPERATIONS_PATH,
  generateClientGraphql,
  generateClientPackage,
} from '../src/processes/cli/client-package.js';
import { coveredRootFields, rootFields } from '../src/processes/cli/client-root-operations.js';
import { repositoryPath } from '../src/kernel/repository-root.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { compileStrictProject, writeStrictProject } from './support/strict-project.js';

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

// When this fails, the REST API, the supergraph or operations.graphql changed: run `npm run client:generate` and commit the result.
describe('the generated files of the client package', () => {
  it('match what the current OpenAPI document, supergraph and operations generate', async () => {
    for (const [file, generated] of Object.entries(await generateClientPackage())) {
      expect(generated, path.relative(repositoryPath(), file)).toBe(await readFile(file, 'utf8'));
    }
  });

  it('follow the API: the version is the OpenAPI document’s, a changed field changes the GraphQL types', async () => {
    const pkg = JSON.parse(await readFile(path.join(CLIENT_PACKAGE_DIR, 'package.json'), 'utf8')) as { name: string; version: string; license: string };
    expect(pkg).toMatchObject({ name: '@funding-gateway/client', version: apiVersion(), license: 'Apache-2.0' });
    const supergraph = await readCommittedSupergraph();
    const start = supergraph.indexOf('type LenderApplicationRow ');
    const changed = supergraph.slice(0, start) + supergraph.slice(start).replace('companyName: String\n', 'companyName: String!\n');
    expect(changed).not.toBe(supergraph);
    expect(await generateClientGraphql()).toContain('nodes: Array<{ id: number, companyName: string | null,');
    expect(await generateClientGraphql(changed)).toContain('nodes: Array<{ id: number, companyName: string,');
  });
});

/** The package's operations (curated and generated), as the typed documents name them. */
async function packageOperations(): Promise<Array<{ name: string; kind: string; typeName: string; needsVariables: boolean }>> {
  const documents = [await readFile(CLIENT_OPERATIONS_PATH, 'utf8'), await readFile(CLIENT_ROOT_OPERATIONS_PATH, 'utf8')];
  return documents.flatMap((text) =>
    parse(text)
      .definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')
      .map((d) => {
        const kind = d.operation.charAt(0).toUpperCase() + d.operation.slice(1);
        const name = d.name!.value;
        return {
          name,
          kind,
          typeName: `${name}${kind}`,
          needsVariables: (d.variableDefinitions ?? []).some((v) => v.type.kind === 'NonNullType' && !v.defaultValue),
        };
      }),
  );
}

describe('the GraphQL operations of the client package', () => {
  it('cover every root field (query, mutation and subscription) of the public schema, each valid against it', async () => {
    const schema = buildASTSchema(transformSupergraphToPublicSchema(parse(await readCommittedSupergraph())));
    const documents = [await readFile(CLIENT_OPERATIONS_PATH, 'utf8'), await readFile(CLIENT_ROOT_OPERATIONS_PATH, 'utf8')].join('\n');
    const covered = coveredRootFields(documents);
    const fields = rootFields(schema).map(({ kind, field }) => `${kind}:${field}`);
    expect(fields.length).toBeGreaterThan(50);
    expect(fields.filter((field) => !covered.has(field))).toEqual([]);
    expect(fields.some((field) => field.startsWith('subscription:'))).toBe(true);
    expect(validate(schema, parse(documents)).map((e) => e.message)).toEqual([]);
  });
});

describe('the README example', () => {
  let app: TestApp;
  let project: string;

  beforeAll(async () => {
    // The demo integrator the example signs in as is among the demo data.
    app = await startTestApp({ config: { SEED_DEMO_DATA: true } });
    // The package as the project builds it (`npm run client:build`).
    await run(process.execPath, [tsc, '-p', CLIENT_PACKAGE_DIR], { cwd: repositoryPath() });
    // An integrator's project: the example as its module, the package installed (linked) under node_modules.
    project = await mkdtemp(path.join(tmpdir(), 'fg-client-example-'));
    await mkdir(path.join(project, 'node_modules', '@funding-gateway'), { recursive: true });
    await symlink(CLIENT_PACKAGE_DIR, path.join(project, 'node_modules', '@funding-gateway', 'client'), 'dir');
  }, 240_000);
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
    await app?.close();
  });

  it(
    'compiles strictly against the built package and runs: login → API key → profile → matches → apply, and a GraphQL query',
    { timeout: 240_000 },
    async () => {
      const readme = await readFile(path.join(CLIENT_PACKAGE_DIR, 'README.md'), 'utf8');
      const marker = readme.indexOf('<!-- client-example:');
      const example = /```ts\n([\s\S]*?)```/.exec(readme.slice(marker))?.[1];
      if (marker < 0 || !example) throw new Error('clients/typescript/README.md has no marked example');
      await writeFile(path.join(project, 'example.ts'), example);
      await writeStrictProject(project, 'integrator-project', 'example.ts');
      // No cast in the example, and none needed: the compiler checks every path, body and answer.
      expect(example).not.toMatch(/\bas (?!const\b)\w/);
      expect(await compileStrictProject(project)).toBe('');
      // Twice in a row: an integrator re-runs it as it stands (its names are unique per run).
      for (let run_ = 0; run_ < 2; run_++) {
        const { stdout } = await run(process.execPath, [path.join(project, 'out', 'example.js')], {
          cwd: project,
          env: { ...process.env, FUNDING_GATEWAY_URL: app.url },
        });
        expect(stdout).toContain('profile: ');
        expect(stdout).toMatch(/^best match: .+ TERM_LOAN$/m);
        expect(stdout).toMatch(/^submitted: \{/m);
        expect(stdout).toMatch(/^tenants: [1-9]\d* .*acme-\d+/m);
      }
      const sent = await app.runtime.database.prisma.lenderApplication.count({ where: { createdAt: { gte: new Date(Date.now() - 240_000) } } });
      expect(sent).toBeGreaterThanOrEqual(1);
    },
  );

  it(
    'calls every GraphQL root field with no cast: each document with its typed variables compiles strictly, and each query needing no variable runs',
    { timeout: 240_000 },
    async () => {
      const operations = await packageOperations();
      const imports = operations.flatMap(({ name, typeName }) => [`${name}Document`, `type ${typeName}`, `type ${typeName}Variables`]);
      const calls = operations.map(({ name, kind, typeName }) =>
        kind === 'Subscription'
          ? // Subscriptions go over graphql-ws: the event type, field by field, is the document's.
            `export const on${name} = (event: ${typeName}): unknown => Object.values(event)[0];\nvoid ${name}Document;`
          : `export const call${name} = (variables: ${typeName}Variables): Promise<${typeName}> => graphql.request(${name}Document, variables);`,
      );
      // Run at once: every query that needs no variable, as the demo integrator (access errors are answers too; a malformed document is not).
      const runnable = operations.filter((o) => o.kind === 'Query' && !o.needsVariables);
      const program = [
        `import { createGraphQLClient, GraphQLRequestError, ${imports.join(', ')} } from '@funding-gateway/client';`,
        `import type { components } from '@funding-gateway/client';`,
        `const graphql = createGraphQLClient({ baseUrl: process.env.FUNDING_GATEWAY_URL ?? '', token: process.env.FUNDING_GATEWAY_TOKEN ?? '' });`,
        // The matched product is the product-type enum, in GraphQL and in REST alike.
        `type GraphQLProduct = ProfileMatchesQuery['profileMatches']['matches'][number]['product'];`,
        `type RestProduct = components['schemas']['ProductType'];`,
        `export const restProduct: RestProduct = 'TERM_LOAN';`,
        `export const products: Array<GraphQLProduct & RestProduct> = ['TERM_LOAN', 'INVOICE_FINANCE'];`,
        ...calls,
        `const codes: Record<string, string[]> = {};`,
        ...runnable.map(
          ({ name }) =>
            `codes['${name}'] = await call${name}({}).then(() => [], (err: unknown) => (err instanceof GraphQLRequestError ? err.errors.map((e) => String(e.extensions?.code ?? e.message)) : [String(err)]));`,
        ),
        `console.log(JSON.stringify(codes));`,
      ].join('\n');
      await writeFile(path.join(project, 'every-operation.ts'), program);
      await writeStrictProject(project, 'every-operation', 'every-operation.ts');
      expect(program).not.toMatch(/\bas (?!const\b)\w/);
      expect(await compileStrictProject(project)).toBe('');
      const { demoIntegratorToken } = await import('./support/identities.js');
      const { DEMO_CREDENTIALS } = await import('../prisma/seed/demo-identities.js');
      const token = await demoIntegratorToken(app.url, DEMO_CREDENTIALS.integrator.email, DEMO_CREDENTIALS.integrator.password);
      const { stdout } = await run(process.execPath, [path.join(project, 'out', 'every-operation.js')], {
        cwd: project,
        env: { ...process.env, FUNDING_GATEWAY_URL: app.url, FUNDING_GATEWAY_TOKEN: token },
      });
      const codes = JSON.parse(stdout) as Record<string, string[]>;
      expect(Object.keys(codes).length).toBe(runnable.length);
      const malformed = Object.entries(codes).filter(([, errors]) => errors.some((code) => /VALIDATION|PARSE|INTERNAL/.test(code)));
      expect(malformed).toEqual([]);
    },
  );

  it('packs with its build, README and licence field (what `npm pack ./clients/typescript` ships)', { timeout: 60_000 }, async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', CLIENT_PACKAGE_DIR], {
      cwd: project,
      env: { ...process.env, npm_config_loglevel: 'silent' },
    });
    const [packed] = JSON.parse(stdout) as Array<{ name: string; files: Array<{ path: string }> }>;
    expect(packed!.name).toBe('@funding-gateway/client');
    expect(packed!.files.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'operations.graphql',
        'operations.generated.graphql',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/generated/openapi.d.ts',
        'dist/generated/graphql.js',
      ]),
    );
  });
});
