/** The applications subgraph: Business V1 applications (and, with the lender issue, lender applications). */
import { buildFederatedSchema } from '../shared/build-federated-schema.js';
import { ApplicationEventsResolver, ApplicationResolver, ProfileApplicationsResolver, WebhookDeliveryResolver } from './application-resolver.js';
import { Profile } from './application-types.js';
import { ApplicationBoardResolver } from './board-resolver.js';

export function buildApplicationsSubgraph() {
  return buildFederatedSchema(
    { resolvers: [ProfileApplicationsResolver, ApplicationResolver, ApplicationEventsResolver, WebhookDeliveryResolver, ApplicationBoardResolver], orphanedTypes: [Profile] },
    {
      Profile: { __resolveReference: (ref: { uuid: string }) => ref },
      // Fields of an application check access themselves (tenant of the caller).
      Application: { __resolveReference: (ref: { id: string }) => ref },
    },
  );
}
