/** Thin adapters: the review queue's staff actions (reject, return to the client, assign to me, notes). */
import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import type { ReviewSelection as ReviewSelectionResult } from './funding-search-schemas.js';
import { ReviewActionRecord as ReviewActionSchema, type ReviewActionRecord } from './review-action-schemas.js';
import { addReviewNote, assignReviewSelectionToMe, rejectReviewSelection, returnReviewSelection } from './review-selection-actions.js';
import { ReviewSelection } from './match-types.js';

const ReviewAction = objectTypeFrom(ReviewActionSchema);

@Resolver()
export class ReviewActionsResolver {
  @Mutation(() => ReviewSelection, {
    description: 'Reject a selection waiting for review, with the reason the client reads on the continue page (staff; final)',
  })
  rejectReviewSelection(
    @Arg('selectionId', () => ID) selectionId: string,
    @Arg('reason', () => String) reason: string,
    @Ctx() ctx: ServiceContext,
  ): Promise<ReviewSelectionResult> {
    return rejectReviewSelection(ctx, { selectionId, reason });
  }

  @Mutation(() => ReviewSelection, { description: 'Return a selection waiting for review to the client, who chooses again (staff)' })
  returnReviewSelection(
    @Arg('selectionId', () => ID) selectionId: string,
    @Arg('reason', () => String, { nullable: true }) reason: string | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<ReviewSelectionResult> {
    return returnReviewSelection(ctx, { selectionId, ...(reason === undefined || reason === null ? {} : { reason }) });
  }

  @Mutation(() => ReviewSelection, { description: 'Take a selection waiting for review: the caller becomes its assignee and it is IN_REVIEW (staff)' })
  assignReviewSelectionToMe(@Arg('selectionId', () => ID) selectionId: string, @Ctx() ctx: ServiceContext): Promise<ReviewSelectionResult> {
    return assignReviewSelectionToMe(ctx, selectionId);
  }

  @Mutation(() => ReviewAction, { description: 'Add a staff-only note to a review selection (staff)' })
  addReviewNote(
    @Arg('selectionId', () => ID) selectionId: string,
    @Arg('text', () => String) text: string,
    @Ctx() ctx: ServiceContext,
  ): Promise<ReviewActionRecord> {
    return addReviewNote(ctx, { selectionId, text });
  }
}
