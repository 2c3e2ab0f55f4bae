/** The dashboard's committed GraphQL types against what GraphQL Code Generator makes of the committed supergraph. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { readCommittedSupergraph } from '../src/api/graphql/compose.js';
import { DASHBOARD_GRAPHQL_TYPES_PATH, generateDashboardGraphqlTypes } from '../src/processes/cli/dashboard-graphql-types.js';

// When this fails, the supergraph or web/dashboard/queries.ts changed: run `npm run codegen:dashboard` and commit the result.
describe("the dashboard's generated GraphQL types", () => {
  it('match what codegen generates from the committed supergraph and the dashboard documents', async () => {
    expect(await generateDashboardGraphqlTypes()).toBe(await readFile(DASHBOARD_GRAPHQL_TYPES_PATH, 'utf8'));
  });

  it('follow the supergraph: a field that became non-null changes the generated result type', async () => {
    const supergraph = await readCommittedSupergraph();
    const rowStart = supergraph.indexOf('type LenderApplicationRow ');
    const changed = supergraph.slice(0, rowStart) + supergraph.slice(rowStart).replace('companyName: String\n', 'companyName: String!\n');
    expect(changed).not.toBe(supergraph);
    const committed = await generateDashboardGraphqlTypes();
    const regenerated = await generateDashboardGraphqlTypes(changed);
    expect(committed).toContain('lenderApplicationBoard: { nodes: Array<{ id: number, companyName: string | null,');
    expect(regenerated).toContain('lenderApplicationBoard: { nodes: Array<{ id: number, companyName: string,');
  });

  it('refuse a dashboard document that asks for a field the supergraph no longer has', async () => {
    const supergraph = await readCommittedSupergraph();
    const rowStart = supergraph.indexOf('type LenderApplicationRow ');
    const withoutLenderName = supergraph.slice(0, rowStart) + supergraph.slice(rowStart).replace('  lenderName: String!\n', '');
    expect(withoutLenderName).not.toBe(supergraph);
    await expect(generateDashboardGraphqlTypes(withoutLenderName)).rejects.toThrow(/lenderName/);
  });

  it('leave out the federation machinery: only the public schema reaches the dashboard', async () => {
    const generated = await generateDashboardGraphqlTypes();
    expect(generated).not.toMatch(/join__|link__/);
  });
});
