/** The matches subgraph: the lender catalogue, Profile.matches, applying to lenders and the review queue. */
import { applicationsVisibleAmong } from '../../../../modules/business-applications/business-application-service.js';
import { profilesVisibleAmong } from '../../../../modules/profiles/profile-service.js';
import { buildFederatedSchema } from '../../build-federated-schema.js';
import { visibleReference } from '../../../../infra/graphql/field-loaders.js';
import { LenderResolver } from '../../../../modules/lenders/lender-resolver.js';
import { ApplicationMatchesResolver, ApplicationReference } from '../../../../modules/business-applications/application-matches-resolver.js';
import { ReviewSubmissionResolver } from '../../../../modules/lender-applications/lender-application-resolver.js';
import { ReviewPreviewResolver } from '../../../../modules/lender-applications/review-preview-resolver.js';
import { ApplyResolver, ProfileMatchesResolver } from '../../../../modules/matching/match-resolver.js';
import { ReviewActionsResolver } from '../../../../modules/matching/review-selection-resolver.js';
import { Profile } from '../../../../modules/lenders/lender-types.js';

export function buildMatchesSubgraph() {
  return buildFederatedSchema(
    {
      resolvers: [
        LenderResolver,
        ProfileMatchesResolver,
        ApplyResolver,
        ReviewSubmissionResolver,
        ApplicationMatchesResolver,
        ReviewPreviewResolver,
        ReviewActionsResolver,
      ],
      orphanedTypes: [Profile, ApplicationReference],
    },
    {
      Profile: { __resolveReference: visibleReference('Profile', (ref: { uuid: string }) => ref.uuid, profilesVisibleAmong) },
      Application: { __resolveReference: visibleReference('Application', (ref: { id: string }) => ref.id, applicationsVisibleAmong) },
    },
  );
}
