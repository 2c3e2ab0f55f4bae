/** The tenants subgraph: owns the Tenant entity, and the account's own API keys, request log and console tenant views. */
import { getTenant } from '../../../../modules/tenants/tenant-service.js';
import type { ServiceContext } from '../../../../kernel/context.js';
import { buildFederatedSchema } from '../../build-federated-schema.js';
import { TenantResolver } from '../../../../modules/tenants/tenant-resolver.js';
import { ApiKeyResolver } from '../../../../modules/identity/api-key-resolver.js';
import { RequestLogResolver } from '../../../../modules/request-log/request-log-resolver.js';
import { ConsoleTenantResolver } from '../../../../modules/integrator-console/console-tenant-resolver.js';

export function buildTenantsSubgraph() {
  return buildFederatedSchema(
    { resolvers: [TenantResolver, ApiKeyResolver, RequestLogResolver, ConsoleTenantResolver] },
    {
      Tenant: {
        __resolveReference: (ref: { id: string }, ctx: ServiceContext) => getTenant(ctx, ref.id),
      },
    },
  );
}
