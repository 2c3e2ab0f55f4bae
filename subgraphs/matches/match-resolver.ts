/** Thin adapters: Profile.matches, applying to preferred lenders, and the staff review queue. */
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ServiceContext } from '../../src/domain/context.js';
import { applyToLenders, listReviewQueue, type ReviewSelectionDto } from '../../src/domain/matching/apply-service.js';
import { matchResults, type FundingSearchDto } from '../../src/domain/matching/matching-service.js';
import { productCatalogue } from '../../src/domain/matching/product-catalogue.js';
import { getApplicationMatches } from '../../src/domain/applications/business-application-service.js';
import { Application, Profile } from './lender-types.js';
import { ApplicationMatchList, FundingSearch, ReviewSelection, SelectedLenderInput, SelectionSubmission } from './match-types.js';
import { submitReviewedSelection, type SubmissionResult } from '../../src/domain/lender-api/submission-service.js';

/** The REST FundingSearch with each match's lender filled from the catalogue. */
async function toGraphQL(ctx: ServiceContext, search: FundingSearchDto): Promise<FundingSearch> {
  const { lenders } = await productCatalogue(ctx.db, ctx.environment);
  return {
    id: search.id,
    amount: search.amount,
    explanation: search.explanation ?? null,
    matches: search.matches.map((m) => {
      const lender = lenders.get(m.lender.id);
      return {
        lender: {
          id: m.lender.id,
          name: lender?.name,
          logo: lender?.logo,
          description: lender?.description,
          average: lender?.priceBand,
          responseTime: lender?.responseTimeHours,
          documents: lender?.requiredDocuments,
        },
        product: m.product,
        productId: m.productId,
        productName: m.productName,
        likelihood: m.likelihood.value,
        instantOffer: m.instantOffer,
        reasons: m.reasons ?? [],
      };
    }),
  };
}

@Resolver(() => Profile)
export class ProfileMatchesResolver {
  @FieldResolver(() => FundingSearch, { description: 'Eligible lender products; explain adds why each other product did not match' })
  async matches(
    @Root() profile: Profile,
    @Arg('productTypes', () => [String], { nullable: true }) productTypes: string[] | undefined,
    @Arg('explain', () => Boolean, { defaultValue: false }) explain: boolean,
    @Ctx() ctx: ServiceContext,
  ): Promise<FundingSearch> {
    return toGraphQL(ctx, await matchResults(ctx, profile.uuid, { productTypes, explain: String(explain) }));
  }
}

@Resolver()
export class ApplyResolver {
  @Mutation(() => FundingSearch, { description: 'POST /profiles/{uuid}/funding/apply: 1-4 preferred lenders to the review queue' })
  async applyToLenders(
    @Arg('profileId', () => ID) profileId: string,
    @Arg('selection', () => [SelectedLenderInput], { description: '1 to 4 lenders among the profile\'s current matches' }) selection: unknown[],
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<FundingSearch> {
    return toGraphQL(ctx, await applyToLenders(ctx, profileId, selection, idempotencyKey));
  }

  @Mutation(() => SelectionSubmission, { description: "Submit a reviewed selection to its lenders (staff): one lender application each, delivered by webhook" })
  submitReviewedSelection(@Arg('selectionId', () => ID) selectionId: string, @Ctx() ctx: ServiceContext): Promise<SubmissionResult> {
    return submitReviewedSelection(ctx, selectionId);
  }

  @Query(() => [ReviewSelection], { description: "The funding specialists' review queue (staff)" })
  reviewQueue(@Arg('state', () => String, { nullable: true }) state: string | undefined, @Ctx() ctx: ServiceContext): Promise<ReviewSelectionDto[]> {
    return listReviewQueue(ctx, state);
  }
}

@Resolver(() => Application)
export class ApplicationMatchesResolver {
  @FieldResolver(() => ApplicationMatchList, { description: 'GET /applications/{id}/matches' })
  async matches(@Root() application: Application, @Ctx() ctx: ServiceContext): Promise<ApplicationMatchList> {
    const list = await getApplicationMatches(ctx, application.id);
    return { numberOfMatches: list.numberOfMatches, matches: list.matches.map((m) => ({ ...m, likelihood: m.likelihood.value })) };
  }
}
