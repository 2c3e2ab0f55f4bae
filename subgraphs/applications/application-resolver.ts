/** Thin adapter: Profile.applications over domain/applications. */
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { ServiceContext } from '../../src/domain/context.js';
import * as applications from '../../src/domain/applications/business-application-service.js';
import { Application, Profile } from './application-types.js';

@Resolver(() => Profile)
export class ProfileApplicationsResolver {
  @FieldResolver(() => [Application], { description: 'Business V1 applications made for this profile' })
  applications(@Root() profile: Profile, @Ctx() ctx: ServiceContext): Promise<applications.BusinessApplicationSummary[]> {
    return applications.listProfileApplications(ctx, profile.uuid);
  }
}
