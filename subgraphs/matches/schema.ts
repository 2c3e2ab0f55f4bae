/** The matches subgraph: the lender catalogue, Profile.matches, applying to lenders and the review queue. */
import { applicationsVisibleAmong } from '../../src/domain/applications/business-application-service.js';
import { profilesVisibleAmong } from '../../src/domain/profiles/profile-service.js';
import { buildFederatedSchema } from '../shared/build-federated-schema.js';
import { visibleReference } from '../shared/field-loaders.js';
import { LenderResolver } from './lender-resolver.js';
import { ApplicationMatchesResolver, ApplyResolver, ProfileMatchesResolver } from './match-resolver.js';
import { Application, Profile } from './lender-types.js';
import { ReviewPreviewResolver } from './review-resolver.js';

export function buildMatchesSubgraph() {
  return buildFederatedSchema(
    { resolvers: [LenderResolver, ProfileMatchesResolver, ApplyResolver, ApplicationMatchesResolver, ReviewPreviewResolver], orphanedTypes: [Profile, Application] },
    {
      Profile: { __resolveReference: visibleReference('Profile', (ref: { uuid: string }) => ref.uuid, profilesVisibleAmong) },
      Application: { __resolveReference: visibleReference('Application', (ref: { id: string }) => ref.id, applicationsVisibleAmong) },
    },
  );
}
