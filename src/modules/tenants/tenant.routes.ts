/** The tenants module's REST rows: create and list on the three integrator surfaces, read and change on the platform's. */
import type { Surface } from '../../kernel/access-policy.js';
import * as tenants from './tenant-service.js';
import { CreateTenantBody, PageQuery, TenantDto, UpdateTenantBody } from './tenant-schemas.js';
import { linkedPageOf, pageWithLinks } from '../../kernel/rest/pagination.js';
import { BASES, routeCheckedInOperation, route, type RouteDefinition } from '../../kernel/rest/route-definition.js';

const tenantRowsOf = (base: string, surface: Surface, prefix: string, withList: boolean): RouteDefinition[] => [
  route({
    method: 'post',
    path: `${base}/tenants`,
    operationId: `${prefix}TenantController_create`,
    summary: 'Create a tenant (onboarding step 4)',
    body: CreateTenantBody,
    response: TenantDto,
    successStatus: 201,
    surface,
    handle: (ctx, req) => tenants.createTenant(ctx, req.body),
  }),
  ...(withList
    ? [
        route({
          method: 'get',
          path: `${base}/tenants`,
          operationId: `${prefix}TenantController_list`,
          summary: "List the account's tenants (offset/limit, with self/prev/next links)",
          query: PageQuery,
          response: linkedPageOf(TenantDto),
          successStatus: 200,
          surface,
          handle: async (ctx, req) => pageWithLinks(await tenants.listTenants(ctx, req.query), req.originalUrl),
        }),
      ]
    : []),
];

export const tenantRoutes: RouteDefinition[] = [
  ...tenantRowsOf(BASES.platform, 'platform', 'Platform', true),
  route({
    method: 'get',
    path: `${BASES.platform}/tenants/:tenantId`,
    operationId: 'PlatformTenantController_get',
    summary: 'Read one tenant (an extension: the live platform lists and patches tenants but has no by-id read)',
    response: TenantDto,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => tenants.getTenant(ctx, req.params.tenantId),
  }),
  routeCheckedInOperation({
    method: 'patch',
    path: `${BASES.platform}/tenants/:tenantId`,
    operationId: 'PlatformTenantController_update',
    summary: "Change a tenant's referenceId",
    body: UpdateTenantBody,
    response: TenantDto,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => tenants.updateTenant(ctx, req.params.tenantId, req.body),
  }),
  ...tenantRowsOf(BASES.marketplaceV2, 'marketplaceV2', 'Marketplace', true),
  ...tenantRowsOf(BASES.businessV1, 'businessV1', 'Business', false),
];
