/** The tenants module's REST rows: create and list on the three integrator surfaces, read and change on the platform's. */
import type { Surface } from '../../kernel/access-policy.js';
import * as tenants from './tenant-service.js';
import { z } from 'zod';
import { CreateTenantBody, MarketplaceV2Tenant, TenantDto, TenantListQuery, UpdateTenantBody } from './tenant-schemas.js';
import { cursorPageWithLinks, linkedCursorPageOf, linkedPageOf, pageWithLinks } from '../../kernel/rest/pagination.js';
import { BASES, routeCheckedInOperation, route, type RouteDefinition } from '../../kernel/rest/route-definition.js';

const TENANT_LIST_PAGING = [
  'Two ways to page, in the same order (createdDateTime, then id):',
  '- offset/limit: meta carries the total (counted on each such page), links self/prev/next by offset. A deep offset still walks the rows before it.',
  "- keyset: `after` = the id of the last tenant of the page before (from an offset page or a keyset page). One statement per page at any depth; meta carries no total (ask an offset page for it, once); links.next carries the next cursor and is left out on the last page. Tenants created meanwhile are not skipped or repeated. An `after` that is not a tenant you can see is a 400 naming `after`.",
].join('\n');

/** How a surface answers a tenant: spec 2.5's Tenant, or Marketplace V2's with its own names of the times too. */
interface TenantForm {
  schema: z.ZodType;
  body: (tenant: TenantDto) => TenantDto | MarketplaceV2Tenant;
}
const SPEC_TENANT: TenantForm = { schema: TenantDto, body: (tenant) => tenant };
const MARKETPLACE_V2_TENANT: TenantForm = {
  schema: MarketplaceV2Tenant,
  body: (tenant) => ({ ...tenant, createdAt: tenant.createdDateTime, updatedAt: tenant.updatedDateTime }),
};
const inForm = <P extends { items: TenantDto[] }>(page: P, form: TenantForm) => ({ ...page, items: page.items.map(form.body) });

const tenantRowsOf = (base: string, surface: Surface, prefix: string, withList: boolean, form: TenantForm = SPEC_TENANT): RouteDefinition[] => [
  route({
    method: 'post',
    path: `${base}/tenants`,
    operationId: `${prefix}TenantController_create`,
    summary: 'Create a tenant (onboarding step 4)',
    body: CreateTenantBody,
    response: form.schema,
    successStatus: 201,
    surface,
    handle: async (ctx, req) => form.body(await tenants.createTenant(ctx, req.body)),
  }),
  ...(withList
    ? [
        route({
          method: 'get',
          path: `${base}/tenants`,
          operationId: `${prefix}TenantController_list`,
          summary: "List the account's tenants, oldest first (offset/limit with the total, or keyset pages with `after`)",
          query: TenantListQuery,
          response: z.union([linkedPageOf(form.schema), linkedCursorPageOf(form.schema)]).describe(TENANT_LIST_PAGING),
          successStatus: 200,
          surface,
          handle: async (ctx, req) => {
            const { after, offset, limit } = req.query;
            if (after !== undefined) return cursorPageWithLinks(inForm(await tenants.listTenantsAfter(ctx, after, limit), form), req.originalUrl);
            return pageWithLinks(inForm(await tenants.listTenants(ctx, { offset: offset ?? 0, limit }), form), req.originalUrl);
          },
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
  ...tenantRowsOf(BASES.marketplaceV2, 'marketplaceV2', 'Marketplace', true, MARKETPLACE_V2_TENANT),
  ...tenantRowsOf(BASES.businessV1, 'businessV1', 'Business', false),
];
