/**
 * The REST surface as data: each documented method and path → one domain operation.
 * Handlers are adapters of a line or two; what they call is what the GraphQL resolvers call.
 */
import type { ServiceContext } from '../src/domain/context.js';
import * as tenants from '../src/domain/tenants/tenant-service.js';

export const BASES = {
  marketplaceV1: '/api/marketplace/v1',
  marketplaceV2: '/api/marketplace/v2',
  businessV1: '/api/business/v1',
  platform: '/api/platform/v1',
  lenderApi: '/api/platform/v1/funding',
} as const;

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export interface RouteDefinition {
  method: HttpMethod;
  /** Express path with :params, including its base. */
  path: string;
  operationId: string;
  summary: string;
  successStatus: number;
  handle(ctx: ServiceContext, req: RestRequest): Promise<unknown>;
}

export const ROUTES: RouteDefinition[] = [
  {
    method: 'post',
    path: `${BASES.businessV1}/tenants`,
    operationId: 'BusinessTenantController_create',
    summary: 'Create a tenant (onboarding step 4)',
    successStatus: 201,
    handle: (ctx, req) => tenants.createTenant(ctx, req.body),
  },
  {
    method: 'post',
    path: `${BASES.marketplaceV2}/tenants`,
    operationId: 'MarketplaceTenantController_create',
    summary: 'Create a tenant (onboarding step 4, marketplace base)',
    successStatus: 201,
    handle: (ctx, req) => tenants.createTenant(ctx, req.body),
  },
  {
    method: 'get',
    path: `${BASES.platform}/tenants/:tenantId`,
    operationId: 'PlatformTenantController_get',
    summary: 'Read one tenant (an extension: the live platform lists and patches tenants but has no by-id read)',
    successStatus: 200,
    handle: (ctx, req) => tenants.getTenant(ctx, req.params.tenantId),
  },
];
