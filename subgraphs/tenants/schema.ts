/** The tenants subgraph: owns the Tenant entity. */
import { getTenant } from '../../src/domain/tenants/tenant-service.js';
import type { ServiceContext } from '../../src/domain/context.js';
import { buildFederatedSchema } from '../shared/build-federated-schema.js';
import { TenantResolver } from './tenant-resolver.js';

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
