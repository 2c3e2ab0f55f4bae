/** Thin adapters: profile queries, and Tenant.profile contributed to the tenants subgraph's entity. */
import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { ServiceContext } from '../../src/domain/context.js';
import * as profiles from '../../src/domain/profiles/profile-service.js';
import { Profile, Tenant } from './profile-types.js';

@Resolver(() => Profile)
export class ProfileResolver {
  @Query(() => Profile)
  profile(@Arg('uuid', () => ID) uuid: string, @Ctx() ctx: ServiceContext): Promise<profiles.ProfileSummary> {
    return profiles.getProfile(ctx, uuid);
  }
}

@Resolver(() => Tenant)
export class TenantProfileResolver {
  @FieldResolver(() => Profile, { nullable: true, description: "The tenant's business profile, once set up" })
  profile(@Root() tenant: Tenant, @Ctx() ctx: ServiceContext): Promise<profiles.ProfileSummary | null> {
    return profiles.findTenantProfile(ctx, tenant.id);
  }
}
