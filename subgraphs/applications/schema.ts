/** The applications subgraph: Business V1 applications (and, with the lender issue, lender applications). */
import { applicationsVisibleAmong } from '../../src/domain/applications/business-application-service.js';
import { profilesVisibleAmong } from '../../src/domain/profiles/profile-service.js';
import { buildFederatedSchema } from '../shared/build-federated-schema.js';
import { visibleReference } from '../shared/field-loaders.js';
import { ApplicationEventsResolver, ApplicationResolver, ProfileApplicationsResolver, WebhookDeliveryResolver } from './application-resolver.js';
import { Profile } from './application-types.js';
import { ApplicationBoardResolver } from './board-resolver.js';

export function buildApplicationsSubgraph() {
  return buildFederatedSchema(
    { resolvers: [ProfileApplicationsResolver, ApplicationResolver, ApplicationEventsResolver, WebhookDeliveryResolver, ApplicationBoardResolver], orphanedTypes: [Profile] },
    {
      Profile: { __resolveReference: visibleReference('Profile', (ref: { uuid: string }) => ref.uuid, profilesVisibleAmong) },
      Application: { __resolveReference: visibleReference('Application', (ref: { id: string }) => ref.id, applicationsVisibleAmong) },
    },
  );
}
