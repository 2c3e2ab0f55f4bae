import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { composeSupergraph, printSubgraphSdls, readCommittedSupergraph, subgraphSdlPath } from '../src/api/graphql/compose.js';
import { SUBGRAPH_NAMES } from '../src/api/graphql/subgraphs/index.js';

// When this fails, the code changed the graph: run `npm run compose:supergraph` and commit the result.
describe('committed GraphQL schemas', () => {
  it('each subgraph SDL matches the code', async () => {
    const sdls = await printSubgraphSdls();
    for (const name of SUBGRAPH_NAMES) {
      expect(sdls[name], `subgraphs/${name}/schema.graphql`).toBe(await readFile(subgraphSdlPath(name), 'utf8'));
    }
  });

  it('the supergraph composed from the code matches src/api/graphql/supergraph.graphql', async () => {
    expect(await composeSupergraph()).toBe(await readCommittedSupergraph());
  });
});
