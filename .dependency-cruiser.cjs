/**
 * The import rules of src/ (`npm run deps:check`, run by `npm test`), checked by dependency-cruiser
 * on the resolved imports, type imports included (they tie the files just the same).
 *
 * Layers: kernel -> infra -> modules -> api -> processes; a file imports its own layer or the ones
 * to its left, never to its right, and no file is part of an import loop. test/layering.test.ts keeps
 * the one rule this tool does not express: no loop between modules (src/modules/<subject>) through
 * different files, which is a loop of folders, not of files.
 *
 * Inside src/api, each sub-layer has its own allowed imports:
 * - http: the edge every server puts in front (security headers, rate limits, credentials, health).
 *   It serves every protocol, so it knows none of them: it imports no rest, graphql or pages file,
 *   except two it still borrows: the problem answer writer of rest/rest-router.ts and GraphQL's path
 *   (graphql/graphql-path.ts), named below so that no third one comes in unseen.
 * - rest: the REST router, problem details and OpenAPI; it may use http's middleware, and pages'
 *   web-bundles.ts alone (the docs page serves the built renderer): not graphql.
 * - graphql: schemas, gateway and subscriptions; it may use http's middleware, not rest or pages.
 * - pages: the browser pages and their bundles; it may use http's middleware, not rest or graphql.
 */
const layer = (name) => `^src/${name}/`;

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'An import loop between files.', from: { path: '^src/' }, to: { circular: true } },
    { name: 'kernel-imports-nothing-above', severity: 'error', from: { path: layer('kernel') }, to: { path: '^src/(infra|modules|api|processes)/' } },
    { name: 'infra-imports-kernel-only', severity: 'error', from: { path: layer('infra') }, to: { path: '^src/(modules|api|processes)/' } },
    { name: 'modules-import-infra-and-kernel', severity: 'error', from: { path: layer('modules') }, to: { path: '^src/(api|processes)/' } },
    { name: 'api-imports-below', severity: 'error', from: { path: layer('api') }, to: { path: '^src/processes/' } },
    {
      name: 'every-file-in-a-layer',
      severity: 'error',
      comment: 'A source file outside the five layers.',
      from: { path: '^src/', pathNot: '^src/(kernel|infra|modules|api|processes|generated)/' },
      to: {},
    },
    {
      name: 'api-http-knows-no-protocol',
      severity: 'error',
      from: { path: '^src/api/http/' },
      to: { path: '^src/api/(rest|graphql|pages)/', pathNot: '^src/api/(rest/rest-router|graphql/graphql-path)\\.ts$' },
    },
    {
      name: 'api-rest-no-graphql',
      severity: 'error',
      from: { path: '^src/api/rest/' },
      to: { path: '^src/api/(graphql|pages)/', pathNot: '^src/api/pages/web-bundles\\.ts$' },
    },
    { name: 'api-graphql-no-rest-or-pages', severity: 'error', from: { path: '^src/api/graphql/' }, to: { path: '^src/api/(rest|pages)/' } },
    { name: 'api-pages-no-rest-or-graphql', severity: 'error', from: { path: '^src/api/pages/' }, to: { path: '^src/api/(rest|graphql)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.ts$', '^src/generated/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
