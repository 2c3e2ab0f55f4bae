/** The tenants module's REST rows: create and list on the three integrator surfaces, read and change on the platform's. */
import type { Surface } from '../../kernel/access-policy.js';
import * as tenants from './tenant-service.js';
import { z } from 'zod';
import { CreateTenantBody, MarketplaceV2Tenant, TenantDto, TenantListQuery, UpdateTenantBody } from './tenant-schemas.js';
import { cursorPageWithLinks, linkedCursorPageOf, linkedPageOf, pageWithLinks } from '../../kernel/rest/pagination.js';
import { BASES, header, routeCheckedInOperation, route, type RouteDefinition } from '../../kernel/rest/route-definition.js';
import { IDEMPOTENT_DESCRIPTION, idempotencyKeyHeader } from '../../infra/idempotent-answers.js';

const TENANT_LIST_PAGING = [
  'Two ways to page, in the same order: creation order, oldest first. A tenant created meanwhile joins the end of the list, so no page before it shifts.',
  '- offset/limit: meta carries the total, links self/prev/next by offset. Any page, and its total, costs the same at any offset and any number of tenants.',
  '- keyset: `after` = the id of the last tenant of the page before (from an offset page or a keyset page). One statement per page at any depth; meta carries no total (ask an offset page for it); links.next carries the next cursor and is left out on the last page. Tenants created meanwhile are not skipped or repeated. An `after` that is not a tenant you can see is a 400 naming `after`.',
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

/** Each surface's example creates its own tenant: a referenceId is unique in the account. */
const EXAMPLE_REFERENCE: Record<string, string> = { Platform: 'CRM-004211', Marketplace: 'CRM-004212', Business: 'CRM-004213' };

const tenantRowsOf = (base: string, surface: Surface, prefix: string, withList: boolean, form: TenantForm = SPEC_TENANT): RouteDefinition[] => [
  route({
    method: 'post',
    path: `${base}/tenants`,
    operationId: `${prefix}TenantController_create`,
    summary: 'Create a tenant',
    description:
      "Onboarding step 4: a tenant stands for one business you manage. `referenceId` (optional, your own id for the business, e.g. your CRM's) is unique in the account: a second tenant with the same one is a 409, which tells you it exists. Then set up its profile with a tenant token (`POST …/auth/token` with `Service-tenant-id`). " +
      IDEMPOTENT_DESCRIPTION,
    access: 'tenants.create',
    example: { summary: "A business known by its record number in the integrator's CRM", body: { referenceId: EXAMPLE_REFERENCE[prefix] } },
    body: CreateTenantBody,
    response: form.schema,
    successStatus: 201,
    surface,
    headers: idempotencyKeyHeader('account'),
    handle: async (ctx, req) => form.body(await tenants.createTenant(ctx, req.body, header(req, 'idempotency-key'))),
  }),
  ...(withList
    ? [
        route({
          method: 'get',
          path: `${base}/tenants`,
          operationId: `${prefix}TenantController_list`,
          summary: 'List tenants',
          description: `The account's tenants, oldest first.\n\n${TENANT_LIST_PAGING}`,
          access: 'tenants.list',
          example: { summary: 'The first page of 20', query: { offset: 0, limit: 20 } },
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
    summary: 'Get a tenant',
    description:
      "One tenant of the account. Another account's tenant, or an unknown id, is a 404.\n\nCompatibility: an addition; the live platform lists and changes tenants but has no read by id.",
    access: 'tenants.read',
    response: TenantDto,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => tenants.getTenant(ctx, req.params.tenantId),
  }),
  routeCheckedInOperation({
    method: 'patch',
    path: `${BASES.platform}/tenants/:tenantId`,
    operationId: 'PlatformTenantController_update',
    summary: 'Change a tenant',
    description: "Sets the tenant's `referenceId` (`null` clears it). A referenceId another tenant of the account has is a 409.",
    access: 'tenants.update',
    example: { summary: 'The business moved to a new CRM record', body: { referenceId: 'CRM-004211-B' } },
    body: UpdateTenantBody,
    response: TenantDto,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => tenants.updateTenant(ctx, req.params.tenantId, req.body),
  }),
  ...tenantRowsOf(BASES.marketplaceV2, 'marketplaceV2', 'Marketplace', true, MARKETPLACE_V2_TENANT),
  ...tenantRowsOf(BASES.businessV1, 'businessV1', 'Business', false),
];
