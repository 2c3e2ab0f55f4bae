/** Thin adapters: a lender application's submission, the client's decision on its offer, and its status events. */
import { Arg, Args, ArgsType, Ctx, Field, ID, Int, Mutation, Resolver, Root, Subscription } from 'type-graphql';
import { mappedSubscribe } from '../../infra/graphql/graphql-errors.js';
import type { ServiceContext } from '../../kernel/context.js';
import type { ApplicationStatusChanged, OfferStatusChanged } from './application-event-schemas.js';
import type { IntegratorApplicationDocument } from './funding-application-schemas.js';
import { decideOnOffer, resubmit, subscribeApplicationStatus, subscribeOfferStatus } from './lender-application-service.js';
import {
  ApplicationStatusChange,
  ApplicationSubmission,
  IntegratorFundingApplication,
  OfferStatusChange,
  SelectionSubmission,
} from './lender-application-types.js';
import type { ApplicationSubmission as ApplicationSubmissionResult } from './submission-schemas.js';
import { SelectedLender } from '../matching/selection-schemas.js';
import { checkLater } from '../../kernel/validation.js';
import { submitBusinessApplication, submitReviewedSelection, type SubmissionResult } from './submission-service.js';

@Resolver()
export class LenderApplicationResolver {
  @Mutation(() => IntegratorFundingApplication, {
    description: 'The client accepts the current offer on a lender application; returns the application after (without the lender’s apiProvider)',
  })
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
    return submitBusinessApplication(ctx, applicationId, checkLater(SelectedLender, { lenderId, products }));
  }

  @Mutation(() => IntegratorFundingApplication, {
    description: 'After a Failed answer and a fix: send the lender application again; returns the application (without the lender’s apiProvider)',
  })
  resubmitApplication(@Arg('applicationId', () => Int) applicationId: number, @Ctx() ctx: ServiceContext): Promise<IntegratorApplicationDocument> {
    return resubmit(ctx, applicationId);
  }

  @Mutation(() => IntegratorFundingApplication, {
    description: 'The client declines the current offer on a lender application; returns the application after (without the lender’s apiProvider)',
  })
  declineOffer(@Arg('applicationId', () => Int) applicationId: number, @Ctx() ctx: ServiceContext): Promise<IntegratorApplicationDocument> {
    return decideOnOffer(ctx, applicationId, 'decline');
  }
}

/** The staff's submission of a reviewed selection; served by the matches subgraph, beside the review queue it empties. */
@Resolver()
export class ReviewSubmissionResolver {
  @Mutation(() => SelectionSubmission, { description: 'Submit a reviewed selection to its lenders (staff): one lender application each, delivered by webhook' })
  submitReviewedSelection(@Arg('selectionId', () => ID) selectionId: string, @Ctx() ctx: ServiceContext): Promise<SubmissionResult> {
    return submitReviewedSelection(ctx, selectionId);
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
    description:
      "Status changes of the lender applications the caller sees (lender: its own; tenant token: its tenant's; integrator: its account's; staff: all); with applicationId, that application's only",
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
