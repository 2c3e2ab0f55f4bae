/** The applications subgraph: Business V1 applications (and, with the lender issue, lender applications). */
import { buildFederatedSchema } from '../shared/build-federated-schema.js';
import { ProfileApplicationsResolver } from './application-resolver.js';
import { Profile } from './application-types.js';

export function buildApplicationsSubgraph() {
  return buildFederatedSchema(
    { resolvers: [ProfileApplicationsResolver], orphanedTypes: [Profile] },
    { Profile: { __resolveReference: (ref: { uuid: string }) => ref } },
  );
}
