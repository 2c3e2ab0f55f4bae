/** The matches subgraph: the lender catalogue, and (with the matching issue) Profile.matches. */
import { buildFederatedSchema } from '../shared/build-federated-schema.js';
import { LenderResolver } from './lender-resolver.js';
import { Profile } from './lender-types.js';

export function buildMatchesSubgraph() {
  return buildFederatedSchema(
    { resolvers: [LenderResolver], orphanedTypes: [Profile] },
    { Profile: { __resolveReference: (ref: { uuid: string }) => ref } },
  );
}
