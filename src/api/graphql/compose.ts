/**
 * Supergraph composition. The composed supergraph (and each subgraph's SDL) is committed;
 * test/supergraph-drift.test.ts fails when the code and the committed files disagree.
 * Regenerate with `npm run compose:supergraph`.
 */
import { readFile } from 'node:fs/promises';
import { printSubgraphSchema } from '@apollo/subgraph';
import { composeServices } from '@theguild/federation-composition';
import { parse } from 'graphql';
import { repositoryPath } from '../../kernel/repository-root.js';
import { buildSubgraphSchemas, SUBGRAPH_NAMES, type SubgraphName } from './subgraphs/index.js';

/** Default subgraph locations written into the supergraph; the distributed gateway overrides them from config. */
const DEFAULT_SUBGRAPH_URLS: Record<SubgraphName, string> = {
  profiles: 'http://127.0.0.1:4011/graphql',
  matches: 'http://127.0.0.1:4012/graphql',
  applications: 'http://127.0.0.1:4013/graphql',
  tenants: 'http://127.0.0.1:4014/graphql',
};

export const SUPERGRAPH_PATH = repositoryPath('src', 'api', 'graphql', 'supergraph.graphql');

export function subgraphSdlPath(name: SubgraphName): string {
  return repositoryPath('src', 'api', 'graphql', 'subgraphs', name, 'schema.graphql');
}

export async function printSubgraphSdls(): Promise<Record<SubgraphName, string>> {
  const schemas = await buildSubgraphSchemas();
  return Object.fromEntries(SUBGRAPH_NAMES.map((n) => [n, printSubgraphSchema(schemas[n]) + '\n'])) as Record<SubgraphName, string>;
}

export async function composeSupergraph(): Promise<string> {
  const sdls = await printSubgraphSdls();
  const result = composeServices(SUBGRAPH_NAMES.map((name) => ({ name, typeDefs: parse(sdls[name]), url: DEFAULT_SUBGRAPH_URLS[name] })));
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((e) => `  ${e.message}`).join('\n')}`);
  }
  return result.supergraphSdl + '\n';
}

export function readCommittedSupergraph(): Promise<string> {
  return readFile(SUPERGRAPH_PATH, 'utf8');
}
