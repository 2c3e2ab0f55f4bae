/** Thin adapter: a review selection as a funding specialist reviews it before submitting (staff). */
import { Arg, Ctx, Field, Float, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../src/domain/context.js';
import { previewReviewSelection, type ReviewPreview as ReviewPreviewResult } from '../../src/domain/lender-api/review-preview.js';

@ObjectType({ description: "The applicant's facts a reviewer reads: the company and its funding search" })
export class ApplicantFacts {
  @Field(() => String, { nullable: true }) companyName!: string | null;
  @Field(() => String, { nullable: true }) companyNumber!: string | null;
  @Field(() => String, { nullable: true }) companyType!: string | null;
  @Field(() => String, { nullable: true }) sector!: string | null;
  @Field(() => String, { nullable: true, description: 'A-G from the company registry' }) creditGrade!: string | null;
  @Field(() => Float, { description: 'Funding asked for, in pounds' }) amount!: number;
  @Field(() => Int, { nullable: true }) periodMonths!: number | null;
  @Field(() => String, { nullable: true }) useOfFunds!: string | null;
  @Field(() => String, { nullable: true }) urgency!: string | null;
}

@ObjectType({ description: 'A field a lender requires that the application document would lack' })
export class MissingLenderField {
  @Field(() => String, { description: 'Dot path in the spec 2.7 document' }) field!: string;
  @Field(() => String) message!: string;
}

@ObjectType({ description: 'A selected lender as submission would see it now' })
export class ReviewedLender {
  @Field(() => Int) lenderId!: number;
  @Field(() => String, { nullable: true }) lenderName!: string | null;
  @Field(() => Boolean, { description: 'False when the lender no longer matches (submitting would be refused)' }) matched!: boolean;
  @Field(() => [String]) products!: string[];
  @Field(() => Float, { nullable: true }) likelihood!: number | null;
  @Field(() => [String], { description: 'Why it matched' }) reasons!: string[];
  @Field(() => [MissingLenderField], { description: 'Empty when the lender can be sent the application' }) missingFields!: MissingLenderField[];
}

@ObjectType({ description: 'A review selection with what the reviewer needs before submitting it' })
export class ReviewPreview {
  @Field(() => ID) selectionId!: string;
  @Field(() => String) state!: string;
  @Field(() => ApplicantFacts) applicant!: ApplicantFacts;
  @Field(() => [ReviewedLender]) lenders!: ReviewedLender[];
}

@Resolver()
export class ReviewPreviewResolver {
  @Query(() => ReviewPreview, { description: "A review selection with the applicant's facts, the matching explanations and each lender's missing required fields (staff)" })
  reviewSelection(@Arg('selectionId', () => ID) selectionId: string, @Ctx() ctx: ServiceContext): Promise<ReviewPreviewResult> {
    return previewReviewSelection(ctx, selectionId);
  }
}
