/** GraphQL types of matching: a profile's FundingSearch, its matches, and the staff review queue. */
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { SelectionSubmission as SelectionSubmissionSchema } from '../../src/domain/lender-api/submission-schemas.js';
import { MatchExplanation as MatchExplanationSchema, type MatchExplanation as MatchExplanationResult } from '../../src/domain/matching/funding-search-schemas.js';
import { SelectedLender as SelectedLenderSchema } from '../../src/domain/matching/selection-schemas.js';
import { inputTypeFrom, objectTypeFrom } from '../shared/zod-graphql-types.js';

export const MatchExplanation = objectTypeFrom(MatchExplanationSchema);
export const SelectedLender = objectTypeFrom(SelectedLenderSchema);
export const SelectedLenderInput = inputTypeFrom(SelectedLenderSchema);
export const SelectionSubmission = objectTypeFrom(SelectionSubmissionSchema);

@ObjectType({ description: 'The lender of a match (spec 2.6 lender object)' })
export class MatchLender {
  @Field(() => Int) id!: number;
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => String, { nullable: true }) logo?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true, description: 'LOW, AVERAGE, EXPENSIVE or MOST_EXPENSIVE' }) average?: string;
  @Field(() => Int, { nullable: true, description: 'Hours' }) responseTime?: number;
  @Field(() => [String], { nullable: true }) documents?: string[];
}

@ObjectType({ description: 'One eligible lender product' })
export class Match {
  @Field(() => MatchLender) lender!: MatchLender;
  @Field(() => String, { description: 'Product type (spec 2.3)' }) product!: string;
  @Field(() => Int) productId!: number;
  @Field(() => String) productName!: string;
  @Field(() => Float, { description: '0..1' }) likelihood!: number;
  @Field(() => Boolean) instantOffer!: boolean;
  @Field(() => [String], { description: 'Why it matched' }) reasons!: string[];
}

@ObjectType({ description: 'A funding search (spec 2.3): the profile’s matches, by likelihood then cost' })
export class FundingSearch {
  @Field(() => Int, { nullable: true, description: 'The recorded search (null from a query for a search never recorded: queries record nothing)' }) id!: number | null;
  @Field(() => Float) amount!: number;
  @Field(() => [Match]) matches!: Match[];
  @Field(() => MatchExplanation, { nullable: true, description: 'With explain only' }) explanation?: MatchExplanationResult | null;
}

@ObjectType({ description: "A selection in the funding specialists' review queue" })
export class ReviewSelection {
  @Field(() => ID) id!: string;
  @Field(() => ID) profileId!: string;
  @Field(() => Int) fundingSearchId!: number;
  @Field(() => String, { description: 'PENDING_REVIEW, IN_REVIEW, SUBMITTED or CLOSED' }) state!: string;
  @Field(() => [SelectedLender]) selection!: unknown;
  @Field(() => String) createdAt!: string;
}

@ObjectType({ description: 'Fees of a matched product, percent' })
export class MatchFees {
  @Field(() => Float) arrangementFees!: number;
  @Field(() => Float) earlyRepaymentFees!: number;
  @Field(() => Float) exitFees!: number;
}

@ObjectType({ description: 'One match of a Business V1 application (spec 2.6 match list)' })
export class ApplicationMatch {
  @Field(() => MatchLender) lender!: MatchLender;
  @Field(() => String) product!: string;
  @Field(() => MatchFees) fees!: MatchFees;
  @Field(() => Float) likelihood!: number;
  @Field(() => Boolean) instantOffer!: boolean;
}

@ObjectType()
export class ApplicationMatchList {
  @Field(() => Int) numberOfMatches!: number;
  @Field(() => [ApplicationMatch]) matches!: ApplicationMatch[];
}
