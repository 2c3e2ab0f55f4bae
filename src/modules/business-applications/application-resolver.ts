/** Thin adapters: Business V1 applications (a tenant's), Profile.applications and Application.preselectedOffers. */
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { loadBatched } from '../../infra/graphql/field-loaders.js';
import type { ServiceContext } from '../../kernel/context.js';
import * as applications from './business-application-service.js';
import type * as preselected from '../offers/preselected-offer-schemas.js';
import { Application, PreselectedOffer, Profile } from './application-types.js';

@Resolver(() => Profile)
export class ProfileApplicationsResolver {
  @FieldResolver(() => [Application], { description: 'Business V1 applications made for this profile (access row Profile.applications)' })
  applications(@Root() profile: Profile, @Ctx() ctx: ServiceContext): Promise<applications.BusinessApplicationRecord[]> {
    return loadBatched(ctx, 'Profile.applications', (ids) => applications.applicationsOfProfiles(ctx, ids), profile.uuid);
  }
}

@Resolver(() => Application)
export class ApplicationResolver {
  @Query(() => Application, { description: "One of the tenant's Business V1 applications (tenant token or Service-tenant-id)" })
  application(@Arg('id', () => ID) id: string, @Ctx() ctx: ServiceContext): Promise<applications.BusinessApplicationRecord> {
    return applications.getApplication(ctx, id);
  }

  @Mutation(() => Application, {
    description: 'POST /applications (Business V1): the answer variant named by type; tenant token or Service-tenant-id. Returns the application as stored',
  })
  createApplication(
    @Arg('input', () => GraphQLJSONObject, {
      description:
        "Free-form JSON: the answers of the questionnaire named by `type` (default business-all-funding-products), one of several answer variants whose fields differ; validated by that questionnaire's JSON Schema (questionnaireJsonSchema), errors naming JSON pointers",
    })
    input: Record<string, unknown>,
    @Ctx() ctx: ServiceContext,
  ): Promise<applications.BusinessApplicationRecord> {
    return applications.createApplication(ctx, input);
  }

  @Mutation(() => Boolean, {
    description: 'DELETE /applications/{applicationId}/continue-url (Business V1): ends every continue link of the application made until now; true once done',
  })
  async revokeContinueUrls(@Arg('applicationId', () => ID) applicationId: string, @Ctx() ctx: ServiceContext): Promise<boolean> {
    await applications.revokeContinueUrls(ctx, applicationId);
    return true;
  }

  @FieldResolver(() => [PreselectedOffer], {
    description: 'Indicative instant offers (GET /applications/{id}/pre-selected; access row Application.preselectedOffers)',
  })
  preselectedOffers(@Root() application: applications.BusinessApplicationRecord, @Ctx() ctx: ServiceContext): Promise<preselected.PreselectedOffer[]> {
    return loadBatched(ctx, 'Application.preselectedOffers', (ids) => applications.preselectedOffersOfApplications(ctx, ids), application.id);
  }
}
