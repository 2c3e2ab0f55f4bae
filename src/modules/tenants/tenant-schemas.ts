/** Tenant request and response shapes (spec 2.5), declared once: validation, types and API docs. */
import { z } from 'zod';

export const CreateTenantBody = z
  .strictObject({
    referenceId: z.string().trim().min(1, 'must not be empty').max(255).optional(),
  })
  .describe('Create a tenant: one tenant manages one business');
export type CreateTenantBody = z.infer<typeof CreateTenantBody>;

export const UpdateTenantBody = z
  .strictObject({
    referenceId: z.string().trim().min(1, 'must not be empty').max(255).nullable(),
  })
  .describe('Change a tenant: its referenceId (null clears it)');

export const TenantId = z.uuid({ message: 'must be a uuid' });

/** A tenant as every surface answers it (REST bodies, the GraphQL Tenant entity, tenantCreated events). */
export const TenantDto = z
  .strictObject({
    id: z.uuid(),
    referenceId: z.string().nullable().describe('Integrator reference, unique per account.'),
    createdDateTime: z.iso.datetime(),
    updatedDateTime: z.iso.datetime(),
  })
  .meta({ id: 'Tenant', description: 'One tenant manages one business (spec 2.5)' });
export type TenantDto = z.infer<typeof TenantDto>;

/**
 * A tenant as Marketplace V2 answers it: spec 2.5's Tenant, plus the same two times under the names
 * the live platform's Marketplace V2 documents give them (createdAt, updatedAt), so that a client
 * written for either reads its own. The tenant's company is not repeated here: it belongs to the
 * tenant's profile, which spec 5.4 keeps from the master token this list is read with.
 */
export const MarketplaceV2Tenant = TenantDto.extend({
  createdAt: z.iso.datetime().describe('= createdDateTime (the Marketplace V2 name)'),
  updatedAt: z.iso.datetime().describe('= updatedDateTime (the Marketplace V2 name)'),
}).meta({ id: 'MarketplaceV2Tenant', description: 'A tenant (spec 2.5), with the Marketplace V2 names of its times' });
export type MarketplaceV2Tenant = z.infer<typeof MarketplaceV2Tenant>;

const PageLimit = z.coerce.number().int().min(1).max(100).default(20);

export const PageQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: PageLimit,
});
export type PageQuery = z.infer<typeof PageQuery>;

/**
 * GET /tenants: an offset page (offset/limit, with the total), or with `after` a keyset page: the
 * tenants after the one named, in the same order, at the same cost at any depth, without a total.
 */
export const TenantListQuery = z
  .object({
    offset: z.coerce.number().int().min(0).optional(),
    limit: PageLimit,
    after: TenantId.optional().describe(
      'Keyset paging: the id of the last tenant of the previous page (offset page or keyset page); the answer is the tenants after it, oldest first. Cannot be combined with offset.',
    ),
  })
  .refine((query) => query.after === undefined || query.offset === undefined, { path: ['after'], message: 'cannot be combined with offset' });
export type TenantListQuery = z.infer<typeof TenantListQuery>;

/** One page of the account's tenants, oldest first (REST wraps it with links: pagination.ts). */
export const TenantPage = z.strictObject({
  items: z.array(TenantDto),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type TenantPage = z.infer<typeof TenantPage>;

/** One keyset page: the tenants after `after` (null: from the first), and the cursor of the next page when there is one. */
export const TenantCursorPage = z.strictObject({
  items: z.array(TenantDto),
  limit: z.number().int(),
  after: z.uuid().nullable(),
  nextAfter: z.uuid().nullable(),
});
export type TenantCursorPage = z.infer<typeof TenantCursorPage>;

declare module '../../kernel/events.js' {
  interface ModuleEventTopics {
    /** On tenant-visibility.ts `tenantChannelsOf`: a subscriber only ever hears of the tenants it sees. */
    tenantCreated: [channel: string, payload: TenantDto];
  }
}

/** GraphQL tenantConnection's arguments: `first` tenants after the one `after` names (the previous page's endCursor). */
export const TenantConnectionArgs = z.object({ first: PageLimit, after: TenantId.optional() });

/** A keyset page as a GraphQL connection: its tenants and where the next page starts. */
export const TenantConnection = z
  .strictObject({
    nodes: z.array(TenantDto),
    pageInfo: z.strictObject({
      endCursor: z
        .uuid()
        .meta({ graphqlType: 'ID' })
        .nullable()
        .describe("The id of this page's last tenant (null on an empty page): pass it as `after` for the next page."),
      hasNextPage: z.boolean(),
    }),
  })
  .describe('Tenants in keyset pages, oldest first: one statement per page at any depth, and no total (tenants(offset, limit) gives it, once).');
export type TenantConnection = z.infer<typeof TenantConnection>;
