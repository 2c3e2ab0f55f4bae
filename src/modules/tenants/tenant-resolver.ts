/** Thin adapter: GraphQL operations on tenants → domain/tenants/tenant-service. */
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import type { z } from 'zod';
import {
  CreateTenantBody,
  PageQuery,
  TenantConnectionArgs,
  UpdateTenantBody,
  type TenantConnection as TenantConnectionResult,
  type TenantDto,
  type TenantPage as TenantPageResult,
} from './tenant-schemas.js';
import { checkLater, parseInput } from '../../kernel/validation.js';
import * as tenants from './tenant-service.js';
import { mappedSubscribe } from '../../infra/graphql/graphql-errors.js';
import { CreateTenantInput, Tenant, TenantConnection, TenantPage, UpdateTenantInput } from './tenant-types.js';

@Resolver(() => Tenant)
export class TenantResolver {
  @Query(() => Tenant, { description: 'One tenant by id' })
  tenant(@Arg('id', () => ID) id: string, @Ctx() ctx: ServiceContext): Promise<TenantDto> {
    return tenants.getTenant(ctx, id);
  }

  @Query(() => TenantPage, { description: 'Tenants, oldest first' })
  tenants(
    @Arg('offset', () => Int, { defaultValue: 0 }) offset: number,
    @Arg('limit', () => Int, { defaultValue: 20 }) limit: number,
    @Ctx() ctx: ServiceContext,
  ): Promise<TenantPageResult> {
    return tenants.listTenants(ctx, parseInput(PageQuery, { offset, limit }, 'Query'));
  }

  @Query(() => TenantConnection, {
    description:
      "Tenants, oldest first, in keyset pages: `after` is the previous page's pageInfo.endCursor (a tenant id). No total: tenants(offset, limit) gives it.",
  })
  async tenantConnection(
    @Arg('first', () => Int, { defaultValue: 20 }) first: number,
    @Arg('after', () => ID, { nullable: true }) after: string | null,
    @Ctx() ctx: ServiceContext,
  ): Promise<TenantConnectionResult> {
    const args = parseInput(TenantConnectionArgs, { first, after: after ?? undefined }, 'Query');
    const page = await tenants.listTenantsAfter(ctx, args.after ?? null, args.first);
    return { nodes: page.items, pageInfo: { endCursor: page.items.at(-1)?.id ?? null, hasNextPage: page.nextAfter !== null } };
  }

  @Mutation(() => Tenant)
  createTenant(
    @Arg('input', () => CreateTenantInput, { nullable: true }) input: z.input<typeof CreateTenantBody> | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<TenantDto> {
    return tenants.createTenant(ctx, parseInput(CreateTenantBody, input ? { ...input } : {}));
  }

  @Mutation(() => Tenant)
  updateTenant(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateTenantInput) input: z.input<typeof UpdateTenantBody>,
    @Ctx() ctx: ServiceContext,
  ): Promise<TenantDto> {
    return tenants.updateTenant(ctx, id, checkLater(UpdateTenantBody, { ...input }));
  }

  @Subscription(() => Tenant, {
    description: "Every tenant of the caller's account created from now on",
    subscribe: mappedSubscribe(tenants.subscribeTenantCreated),
  })
  tenantCreated(@Root() tenant: TenantDto): TenantDto {
    return tenant;
  }
}
