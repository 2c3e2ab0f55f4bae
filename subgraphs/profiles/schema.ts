/** The profiles subgraph: owns the Profile entity, the company registry and credit report, and adds Tenant.profile. */
import type { ServiceContext } from '../../src/domain/context.js';
import { getProfile } from '../../src/domain/profiles/profile-service.js';
import { tenantsVisibleAmong } from '../../src/domain/tenants/tenant-service.js';
import { buildFederatedSchema } from '../shared/build-federated-schema.js';
import { visibleReference } from '../shared/field-loaders.js';
import { CompanyResolver } from './company-resolver.js';
import { QuestionnaireResolver } from './questionnaire-resolver.js';
import { ProfileResolver, TenantProfileResolver } from './profile-resolver.js';
import { Tenant } from './profile-types.js';

export function buildProfilesSubgraph() {
  return buildFederatedSchema(
    { resolvers: [ProfileResolver, TenantProfileResolver, CompanyResolver, QuestionnaireResolver], orphanedTypes: [Tenant] },
    {
      Profile: {
        __resolveReference: (ref: { uuid: string }, ctx: ServiceContext) => getProfile(ctx, ref.uuid),
      },
      Tenant: { __resolveReference: visibleReference('Tenant', (ref: { id: string }) => ref.id, tenantsVisibleAmong) },
    },
  );
}
