/** The applications subgraph: Business V1 applications, lender applications (decisions, events, the board, the insights) and webhook deliveries. */
import { applicationsVisibleAmong } from '../../../../modules/business-applications/business-application-service.js';
import { profilesVisibleAmong } from '../../../../modules/profiles/profile-service.js';
import { buildFederatedSchema } from '../../build-federated-schema.js';
import { visibleReference } from '../../../../infra/graphql/field-loaders.js';
import { ApplicationResolver, ProfileApplicationsResolver } from '../../../../modules/business-applications/application-resolver.js';
import { ApplicationEventsResolver, LenderApplicationResolver } from '../../../../modules/lender-applications/lender-application-resolver.js';
import { WebhookDeliveryResolver } from '../../../../modules/webhooks/webhook-delivery-resolver.js';
import { Profile } from '../../../../modules/business-applications/application-types.js';
import { ApplicationBoardResolver } from '../../../../modules/lender-applications/board-resolver.js';
import { InsightsResolver } from '../../../../modules/insights/insights-resolver.js';

export function buildApplicationsSubgraph() {
  return buildFederatedSchema(
    {
      resolvers: [
        ProfileApplicationsResolver,
        ApplicationResolver,
        LenderApplicationResolver,
        ApplicationEventsResolver,
        WebhookDeliveryResolver,
        ApplicationBoardResolver,
        InsightsResolver,
      ],
      orphanedTypes: [Profile],
    },
    {
      Profile: { __resolveReference: visibleReference('Profile', (ref: { uuid: string }) => ref.uuid, profilesVisibleAmong) },
      Application: { __resolveReference: visibleReference('Application', (ref: { id: string }) => ref.id, applicationsVisibleAmong) },
    },
  );
}
