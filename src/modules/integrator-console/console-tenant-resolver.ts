/** Thin adapters: the integrator console's tenants (platform login tokens), over console-tenants.ts. */
import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import { openConsoleTenant, searchConsoleTenants } from './console-tenants.js';
import {
  ConsoleTenantDetail as ConsoleTenantDetailSchema,
  ConsoleTenantPage as ConsoleTenantPageSchema,
  type ConsoleTenantDetail as DetailResult,
  type ConsoleTenantPage as PageResult,
} from './console-tenant-schemas.js';

const ConsoleTenantPage = objectTypeFrom(ConsoleTenantPageSchema);
const ConsoleTenantDetail = objectTypeFrom(ConsoleTenantDetailSchema);

@Resolver()
export class ConsoleTenantResolver {
  @Query(() => ConsoleTenantPage, { description: "The signed-in user's account's tenants, newest first, matching `search` (integrator console)" })
  consoleTenants(
    @Arg('search', () => String, { nullable: true }) search: string | null,
    @Arg('offset', () => Int, { defaultValue: 0 }) offset: number,
    @Arg('limit', () => Int, { defaultValue: 20 }) limit: number,
    @Ctx() ctx: ServiceContext,
  ): Promise<PageResult> {
    return searchConsoleTenants(ctx, { ...(search ? { search } : {}), offset, limit });
  }

  @Query(() => ConsoleTenantDetail, {
    description: "One tenant of the signed-in user's account with its profile, credit report, applications and review selections (integrator console)",
  })
  consoleTenant(@Arg('id', () => ID) id: string, @Ctx() ctx: ServiceContext): Promise<DetailResult> {
    return openConsoleTenant(ctx, id);
  }
}
