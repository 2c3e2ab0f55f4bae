/** GraphQL types of matching: a profile's FundingSearch, its matches, and the staff review queue, derived from their zod declarations. */
import { SelectionSubmission as SelectionSubmissionSchema } from '../../src/domain/lender-api/submission-schemas.js';
import {
  ApplicationMatchList as ApplicationMatchListSchema,
  FundingSearch as FundingSearchSchema,
  ReviewSelection as ReviewSelectionSchema,
} from '../../src/domain/matching/funding-search-schemas.js';
import { SelectedLender as SelectedLenderSchema } from '../../src/domain/matching/selection-schemas.js';
import { inputTypeFrom, objectTypeFrom } from '../shared/zod-graphql-types.js';

export const FundingSearch = objectTypeFrom(FundingSearchSchema);
export const ApplicationMatchList = objectTypeFrom(ApplicationMatchListSchema);
export const ReviewSelection = objectTypeFrom(ReviewSelectionSchema);
export const SelectedLenderInput = inputTypeFrom(SelectedLenderSchema);
export const SelectionSubmission = objectTypeFrom(SelectionSubmissionSchema);
