/** Thin adapter: a review selection as a funding specialist reviews it before submitting (staff). */
import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { previewReviewSelection } from './review-preview.js';
import { ReviewPreview as ReviewPreviewSchema, type ReviewPreview as ReviewPreviewResult } from './review-preview-schemas.js';
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';

const ReviewPreview = objectTypeFrom(ReviewPreviewSchema);

@Resolver()
export class ReviewPreviewResolver {
  @Query(() => ReviewPreview, {
    description: "A review selection with the applicant's facts, the matching explanations and each lender's missing required fields (staff)",
  })
  reviewSelection(@Arg('selectionId', () => ID) selectionId: string, @Ctx() ctx: ServiceContext): Promise<ReviewPreviewResult> {
    return previewReviewSelection(ctx, selectionId);
  }
}
