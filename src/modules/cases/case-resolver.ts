/** Thin adapters: a profile's non-funding cases (Profile.cases, which this module adds to the profile) and opening one. */
import { Arg, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import { loadBatched } from '../../infra/graphql/field-loaders.js';
import type { ServiceContext } from '../../kernel/context.js';
import type { ProfileRecord } from '../profiles/profile-records.js';
import { Profile } from '../profiles/profile-types.js';
import * as cases from './case-service.js';
import { Case } from './case-types.js';

@Resolver(() => Profile)
export class ProfileCasesResolver {
  @FieldResolver(() => [Case], { description: "The profile's non-funding cases, with their state history (access row Profile.cases)" })
  cases(@Root() profile: ProfileRecord, @Ctx() ctx: ServiceContext): Promise<cases.CaseDto[]> {
    return loadBatched(ctx, 'Profile.cases', (ids) => cases.casesOfProfiles(ctx, ids), profile.uuid);
  }

  @Mutation(() => Case, { description: 'POST /profiles/{uuid}/cases/apply' })
  applyForCase(@Arg('uuid', () => ID) uuid: string, @Ctx() ctx: ServiceContext): Promise<cases.CaseDto> {
    return cases.applyForCase(ctx, uuid);
  }
}
