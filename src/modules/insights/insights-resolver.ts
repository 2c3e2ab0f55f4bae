/** Thin adapters: the dashboard's insights (pipeline by status, lenders' response times, the review queue now). */
import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { inputTypeFrom, objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import { applicationsByStatus, lenderResponseTimes } from './pipeline-insights.js';
import { getReviewQueueStanding } from './review-queue-standing.js';
import {
  ApplicationsByStatus as ApplicationsByStatusSchema,
  InsightsWindow as InsightsWindowSchema,
  LenderResponseTimes as LenderResponseTimesSchema,
  ReviewQueueStanding as ReviewQueueStandingSchema,
  type ApplicationsByStatus as ApplicationsByStatusResult,
  type LenderResponseTimes as LenderResponseTimesResult,
  type ReviewQueueStanding as ReviewQueueStandingResult,
} from './insights-schemas.js';

const ApplicationsByStatus = objectTypeFrom(ApplicationsByStatusSchema);
const LenderResponseTimes = objectTypeFrom(LenderResponseTimesSchema);
const ReviewQueueStanding = objectTypeFrom(ReviewQueueStandingSchema);
const InsightsWindow = inputTypeFrom(InsightsWindowSchema, { name: 'InsightsWindow', exactName: true });

/** An explicit null means "not given" (the default), as an absent field does. */
const given = (window: object) => Object.fromEntries(Object.entries(window).filter(([, value]) => value !== null && value !== undefined));

@Resolver()
export class InsightsResolver {
  @Query(() => ApplicationsByStatus, {
    description: "Per day or week, the lender applications the platform user sees (staff: all; others: their account's) that moved into each status",
  })
  applicationsByStatus(@Arg('window', () => InsightsWindow) window: Record<string, unknown>, @Ctx() ctx: ServiceContext): Promise<ApplicationsByStatusResult> {
    return applicationsByStatus(ctx, given(window));
  }

  @Query(() => [LenderResponseTimes], {
    description:
      "Per lender, median and 90th percentile time from submission to the first acknowledgement and the first offer that came in the window (staff: all; others: their account's applications)",
  })
  lenderResponseTimes(@Arg('window', () => InsightsWindow) window: Record<string, unknown>, @Ctx() ctx: ServiceContext): Promise<LenderResponseTimesResult[]> {
    return lenderResponseTimes(ctx, given(window));
  }

  @Query(() => ReviewQueueStanding, { description: "The funding specialists' review queue now: selections waiting and the oldest one's age (staff)" })
  reviewQueueStanding(@Ctx() ctx: ServiceContext): Promise<ReviewQueueStandingResult> {
    return getReviewQueueStanding(ctx);
  }
}
