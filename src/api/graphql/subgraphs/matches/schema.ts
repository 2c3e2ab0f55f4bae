/** The matches subgraph: the lender catalogue, Profile.matches, applying to lenders and the review queue. */
import { applicationsVisibleAmong } from '../../../../modules/business-applications/business-application-service.js';
import { profilesVisibleAmong } from '../../../../modules/profiles/profile-service.js';
import { buildFederatedSchema } from '../../build-federated-schema.js';
import { visibleReference } from '../../../../infra/graphql/field-loaders.js';
import { LenderResolver } from '../../../../modules/lenders/lender-resolver.js';
import { ApplicationMatchesResolver, ApplyResolver, ProfileMatchesResolver } from '../../../../modules/matching/match-resolver.js';
import { Application, Profile } from '../../../../modules/lenders/lender-types.js';
import { ReviewPreviewResolver } from '../../../../modules/matching/review-resolver.js';

export function buildMatchesSubgraph() {
  return buildFederatedSchema(
    { resolvers: [LenderResolver, ProfileMatchesResolver, ApplyResolver, ApplicationMatchesResolver, ReviewPreviewResolver], orphanedTypes: [Profile, Application] },
    {
      Profile: { __resolveReference: visibleReference('Profile', (ref: { uuid: string }) => ref.uuid, profilesVisibleAmong) },
      Application: { __resolveReference: visibleReference('Application', (ref: { id: string }) => ref.id, applicationsVisibleAmong) },
    },
  );
}
