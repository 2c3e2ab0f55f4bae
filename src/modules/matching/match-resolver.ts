/** Thin adapters: Profile.matches, applying to preferred lenders, and the staff review queue. */
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { applyToLenders } from './apply-service.js';
import { listReviewQueue, type ReviewQueuePage as ReviewQueuePageResult } from './review-selection-queue.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../kernel/keyset-pages.js';
import { matchesOfProfiles, MatchQuery, profileMatches } from './matching-service.js';
import { SelectedLenders } from './review-selection.js';
import { checkLater, parseInput } from '../../kernel/validation.js';
import type { FundingSearchResult } from './funding-search-schemas.js';
import { loadBatched } from '../../infra/graphql/field-loaders.js';
import { Profile } from '../lenders/lender-types.js';
import { FundingSearch, ReviewQueuePage, SelectedLenderInput } from './match-types.js';

@Resolver(() => Profile)
export class ProfileMatchesResolver {
  @Query(() => FundingSearch, {
    description:
      "A visible profile's matches, by uuid: for callers holding funding:read alone. Profile.matches answers the same with its own row (funding:read or profile:read) on a profile the caller reads",
  })
  profileMatches(
    @Arg('uuid', () => ID) uuid: string,
    @Arg('productTypes', () => [String], { nullable: true }) productTypes: string[] | undefined,
    @Arg('explain', () => Boolean, { defaultValue: false }) explain: boolean,
    @Ctx() ctx: ServiceContext,
  ): Promise<FundingSearchResult> {
    return profileMatches(ctx, uuid, checkLater(MatchQuery, { productTypes, explain: String(explain) }, 'Query'));
  }

  @FieldResolver(() => FundingSearch, {
    description: 'Eligible lender products; explain adds why each other product did not match (access row Profile.matches)',
  })
  matches(
    @Root() profile: Profile,
    @Arg('productTypes', () => [String], { nullable: true }) productTypes: string[] | undefined,
    @Arg('explain', () => Boolean, { defaultValue: false }) explain: boolean,
    @Ctx() ctx: ServiceContext,
  ): Promise<FundingSearchResult> {
    // Parsed before the batch, whose key it is: the parent profile is one the caller already sees.
    const options = parseInput(MatchQuery, { productTypes, explain: String(explain) }, 'Query');
    // Batched per distinct argument set: each set is its own field.
    const field = `Profile.matches ${JSON.stringify(options)}`;
    return loadBatched(ctx, field, (ids) => matchesOfProfiles(ctx, ids, options), profile.uuid);
  }
}

@Resolver()
export class ApplyResolver {
  @Mutation(() => FundingSearch, { description: 'POST /profiles/{uuid}/funding/apply: 1-4 preferred lenders to the review queue' })
  applyToLenders(
    @Arg('profileId', () => ID) profileId: string,
    @Arg('selection', () => [SelectedLenderInput], { description: "1 to 4 lenders among the profile's current matches" }) selection: unknown[],
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<FundingSearchResult> {
    return applyToLenders(ctx, profileId, checkLater(SelectedLenders, selection), idempotencyKey);
  }

  @Query(() => ReviewQueuePage, { description: "A page of the funding specialists' review queue (staff), newest first" })
  reviewQueue(
    @Arg('state', () => String, { nullable: true }) state: string | undefined,
    @Arg('first', () => Int, { nullable: true, description: `Selections in the page: ${DEFAULT_PAGE_SIZE} unless given, at most ${MAX_PAGE_SIZE}` })
    first: number | undefined,
    @Arg('after', () => String, { nullable: true, description: "The previous page's pageInfo.endCursor" }) after: string | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<ReviewQueuePageResult> {
    return listReviewQueue(ctx, { state: state ?? undefined }, { first: first ?? undefined, after: after ?? undefined });
  }
}
