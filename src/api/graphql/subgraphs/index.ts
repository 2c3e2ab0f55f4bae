/** The four subgraphs by name: the one list the gateway, composition and the servers share. */
import type { GraphQLSchema } from 'graphql';
import { buildApplicationsSubgraph } from './applications/schema.js';
import { buildMatchesSubgraph } from './matches/schema.js';
import { buildProfilesSubgraph } from './profiles/schema.js';
import { buildTenantsSubgraph } from './tenants/schema.js';

export const SUBGRAPH_NAMES = ['profiles', 'matches', 'applications', 'tenants'] as const;
export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];

const builders: Record<SubgraphName, () => Promise<GraphQLSchema>> = {
  profiles: buildProfilesSubgraph,
  matches: buildMatchesSubgraph,
  applications: buildApplicationsSubgraph,
  tenants: buildTenantsSubgraph,
};

let built: Promise<Record<SubgraphName, GraphQLSchema>> | undefined;

/** Schemas hold no runtime state (context carries db and events), so one build serves the process. */
export function buildSubgraphSchemas(): Promise<Record<SubgraphName, GraphQLSchema>> {
  built ??= (async () => {
    const entries = await Promise.all(SUBGRAPH_NAMES.map(async (name) => [name, await builders[name]()] as const));
    return Object.fromEntries(entries) as Record<SubgraphName, GraphQLSchema>;
  })();
  return built;
}

export function isSubgraphName(name: string): name is SubgraphName {
  return (SUBGRAPH_NAMES as readonly string[]).includes(name);
}
