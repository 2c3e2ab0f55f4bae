/** GraphQL types of matching: a profile's FundingSearch, its matches, and the staff review queue, derived from their zod declarations. */
import {
  ApplicationMatchList as ApplicationMatchListSchema,
  FundingSearch as FundingSearchSchema,
  ReviewSelection as ReviewSelectionSchema,
} from './funding-search-schemas.js';
import { ReviewQueuePage as ReviewQueuePageSchema } from './review-selection-queue.js';
import { SelectedLender as SelectedLenderSchema } from './selection-schemas.js';
import { inputTypeFrom, objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';

export const FundingSearch = objectTypeFrom(FundingSearchSchema);
export const ApplicationMatchList = objectTypeFrom(ApplicationMatchListSchema);
export const ReviewQueuePage = objectTypeFrom(ReviewQueuePageSchema);
export const ReviewSelection = objectTypeFrom(ReviewSelectionSchema);
export const SelectedLenderInput = inputTypeFrom(SelectedLenderSchema);
