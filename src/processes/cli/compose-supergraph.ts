/** `npm run compose:supergraph`: writes each subgraph's SDL and the composed supergraph. */
import { writeFile } from 'node:fs/promises';
import { SUBGRAPH_NAMES } from '../../api/graphql/subgraphs/index.js';
import { composeSupergraph, printSubgraphSdls, subgraphSdlPath, SUPERGRAPH_PATH } from '../../api/graphql/compose.js';

const sdls = await printSubgraphSdls();
for (const name of SUBGRAPH_NAMES) {
  await writeFile(subgraphSdlPath(name), sdls[name]);
  console.log(`wrote ${subgraphSdlPath(name)}`);
}
await writeFile(SUPERGRAPH_PATH, await composeSupergraph());
console.log(`wrote ${SUPERGRAPH_PATH}`);
