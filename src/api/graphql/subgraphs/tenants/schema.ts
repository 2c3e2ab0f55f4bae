/** The tenants subgraph: owns the Tenant entity. */
import { getTenant } from '../../../../modules/tenants/tenant-service.js';
import type { ServiceContext } from '../../../../kernel/context.js';
import { buildFederatedSchema } from '../../build-federated-schema.js';
import { TenantResolver } from '../../../../modules/tenants/tenant-resolver.js';

export function buildTenantsSubgraph() {
  return buildFederatedSchema(
    { resolvers: [TenantResolver] },
    {
      Tenant: {
        __resolveReference: (ref: { id: string }, ctx: ServiceContext) => getTenant(ctx, ref.id),
      },
    },
  );
}
