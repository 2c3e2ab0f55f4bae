/** The matches subgraph: the lender catalogue, Profile.matches, applying to lenders and the review queue. */
import { buildFederatedSchema } from '../shared/build-federated-schema.js';
import { LenderResolver } from './lender-resolver.js';
import { ApplicationMatchesResolver, ApplyResolver, ProfileMatchesResolver } from './match-resolver.js';
import { Application, Profile } from './lender-types.js';
import { ReviewPreviewResolver } from './review-resolver.js';

export function buildMatchesSubgraph() {
  return buildFederatedSchema(
    { resolvers: [LenderResolver, ProfileMatchesResolver, ApplyResolver, ApplicationMatchesResolver, ReviewPreviewResolver], orphanedTypes: [Profile, Application] },
    {
      Profile: { __resolveReference: (ref: { uuid: string }) => ref },
      Application: { __resolveReference: (ref: { id: string }) => ref },
    },
  );
}
