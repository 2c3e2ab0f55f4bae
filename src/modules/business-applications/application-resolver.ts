/** Thin adapter: Profile.applications over domain/applications. */
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { listDeliveries, redeliver } from '../webhooks/webhook-delivery.js';
import type { WebhookDelivery as WebhookDeliveryResult } from '../webhooks/webhook-delivery-schemas.js';
import type { ApplicationStatusChanged, OfferStatusChanged } from '../../kernel/events.js';
import { submitBusinessApplication } from '../lender-applications/submission-service.js';
import { decideOnOffer, resubmit, subscribeApplicationStatus, subscribeOfferStatus } from '../lender-applications/lender-application-service.js';
import { mappedSubscribe } from '../../infra/graphql/graphql-errors.js';
import { loadBatched } from '../../infra/graphql/field-loaders.js';
import type { ServiceContext } from '../../kernel/context.js';
import * as applications from './business-application-service.js';
import type * as preselected from '../offers/preselected-offer-schemas.js';
import type { IntegratorApplicationDocument } from '../lender-applications/funding-application-schemas.js';
import type { ApplicationSubmission as ApplicationSubmissionResult } from '../lender-applications/submission-schemas.js';
import {
  Application,
  ApplicationStatusChange,
  ApplicationSubmission,
  IntegratorFundingApplication,
  OfferStatusChange,
  PreselectedOffer,
  Profile,
  WebhookDelivery,
} from './application-types.js';

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

  @Mutation(() => Application, { description: 'POST /applications (Business V1): the answer variant named by type; tenant token or Service-tenant-id. Returns the application as stored' })
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

  @Mutation(() => IntegratorFundingApplication, { description: 'The client accepts the current offer on a lender application; returns the application after (without the lender’s apiProvider)' })
  acceptOffer(@Arg('applicationId', () => Int) applicationId: number, @Ctx() ctx: ServiceContext): Promise<IntegratorApplicationDocument> {
    return decideOnOffer(ctx, applicationId, 'accept');
  }

  @Mutation(() => ApplicationSubmission, { description: 'Send a Business V1 application to one of its matched lenders (POST /applications/{id}/submit)' })
  submitApplicationToLender(
    @Arg('applicationId', () => ID) applicationId: string,
    @Arg('lenderId', () => Int) lenderId: number,
    @Arg('products', () => [String]) products: string[],
    @Ctx() ctx: ServiceContext,
  ): Promise<ApplicationSubmissionResult> {
    return submitBusinessApplication(ctx, applicationId, { lenderId, products });
  }

  @Mutation(() => IntegratorFundingApplication, { description: 'After a Failed answer and a fix: send the lender application again; returns the application (without the lender’s apiProvider)' })
  resubmitApplication(@Arg('applicationId', () => Int) applicationId: number, @Ctx() ctx: ServiceContext): Promise<IntegratorApplicationDocument> {
    return resubmit(ctx, applicationId);
  }

  @Mutation(() => IntegratorFundingApplication, { description: 'The client declines the current offer on a lender application; returns the application after (without the lender’s apiProvider)' })
  declineOffer(@Arg('applicationId', () => Int) applicationId: number, @Ctx() ctx: ServiceContext): Promise<IntegratorApplicationDocument> {
    return decideOnOffer(ctx, applicationId, 'decline');
  }

  @FieldResolver(() => [PreselectedOffer], { description: 'Indicative instant offers (GET /applications/{id}/pre-selected; access row Application.preselectedOffers)' })
  preselectedOffers(@Root() application: applications.BusinessApplicationRecord, @Ctx() ctx: ServiceContext): Promise<preselected.PreselectedOffer[]> {
    return loadBatched(ctx, 'Application.preselectedOffers', (ids) => applications.preselectedOffersOfApplications(ctx, ids), application.id);
  }
}

@ArgsType()
class ApplicationStatusArgs {
  @Field(() => Int, { nullable: true, description: 'Only this application' })
  applicationId?: number;
}

@Resolver(() => ApplicationStatusChange)
export class ApplicationEventsResolver {
  @Subscription(() => ApplicationStatusChange, {
    description: "Status changes of the lender applications the caller sees (lender: its own; tenant token: its tenant's; integrator: its account's; staff: all); with applicationId, that application's only",
    subscribe: ({ args, context }) => mappedSubscribe((ctx) => subscribeApplicationStatus(ctx, (args as ApplicationStatusArgs).applicationId))({ context }),
  })
  applicationStatusChanged(@Root() event: ApplicationStatusChanged, @Args(() => ApplicationStatusArgs) _args: ApplicationStatusArgs): ApplicationStatusChanged {
    return event;
  }

  @Subscription(() => OfferStatusChange, {
    description: 'Offers made, replaced, accepted or declined on the lender applications the caller may see',
    subscribe: ({ args, context }) => mappedSubscribe((ctx) => subscribeOfferStatus(ctx, (args as ApplicationStatusArgs).applicationId))({ context }),
  })
  offerStatusChanged(@Root() event: OfferStatusChanged, @Args(() => ApplicationStatusArgs) _args: ApplicationStatusArgs): OfferStatusChanged {
    return event;
  }
}

@Resolver(() => WebhookDelivery)
export class WebhookDeliveryResolver {
  @Query(() => [WebhookDelivery], { description: 'Webhook deliveries, newest first (staff); status DEAD lists the dead letters' })
  webhookDeliveries(@Arg('status', () => String, { nullable: true }) status: string | undefined, @Ctx() ctx: ServiceContext): Promise<WebhookDeliveryResult[]> {
    return listDeliveries(ctx, status);
  }

  @Mutation(() => WebhookDelivery, { description: 'Send a dead-lettered or failing delivery again, on a fresh schedule (staff)' })
  redeliverWebhook(@Arg('deliveryId', () => ID) deliveryId: string, @Ctx() ctx: ServiceContext): Promise<WebhookDeliveryResult> {
    return redeliver(ctx, deliveryId);
  }
}
