/** The profiles subgraph: owns the Profile entity, the company registry and credit report, and adds Tenant.profile. */
import type { ServiceContext } from '../../../../kernel/context.js';
import { getProfile } from '../../../../modules/profiles/profile-service.js';
import { tenantsVisibleAmong } from '../../../../modules/tenants/tenant-service.js';
import { buildFederatedSchema } from '../../build-federated-schema.js';
import { visibleReference } from '../../../../infra/graphql/field-loaders.js';
import { CompanyResolver } from '../../../../modules/companies/company-resolver.js';
import { QuestionnaireResolver } from '../../../../modules/questionnaires/questionnaire-resolver.js';
import { ProfileResolver, TenantProfileResolver } from '../../../../modules/profiles/profile-resolver.js';
import { CreditReportResolver } from '../../../../modules/profiles/credit-report-resolver.js';
import { FundingSearchLinkResolver } from '../../../../modules/matching/funding-search-link-resolver.js';
import { ProfileDocumentsResolver } from '../../../../modules/documents/document-resolver.js';
import { ProfileCasesResolver } from '../../../../modules/cases/case-resolver.js';
import { Tenant } from '../../../../modules/profiles/profile-types.js';

export function buildProfilesSubgraph() {
  return buildFederatedSchema(
    {
      resolvers: [
        ProfileResolver,
        ProfileDocumentsResolver,
        ProfileCasesResolver,
        TenantProfileResolver,
        CreditReportResolver,
        FundingSearchLinkResolver,
        CompanyResolver,
        QuestionnaireResolver,
      ],
      orphanedTypes: [Tenant],
    },
    {
      Profile: {
        __resolveReference: (ref: { uuid: string }, ctx: ServiceContext) => getProfile(ctx, ref.uuid),
      },
      Tenant: { __resolveReference: visibleReference('Tenant', (ref: { id: string }) => ref.id, tenantsVisibleAmong) },
    },
  );
}
