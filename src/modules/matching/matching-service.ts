/**
 * Lender matching for a profile (public operations: Marketplace V1 funding/matches, GraphQL
 * Profile.matches). The REST results are the profile's recorded funding search (spec 2.3: it has an
 * id a later apply refers to); the GraphQL field is a query and records nothing.
 */
import { z } from 'zod';
import type { ServiceContext } from '../../kernel/context.js';
import type { CheckedLater } from '../../kernel/validation.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { findVisibleProfileId } from '../profiles/profile-visibility.js';
import { findRecordedSearches, matchProfileById, matchProfilesByIds, recordFundingSearch, toFundingSearchResult } from './funding-search.js';
import type { FundingSearchResult, RecordedFundingSearch } from './funding-search-schemas.js';
import { PRODUCT_TYPES } from '../lenders/product-types.js';

const asList = (value: unknown) =>
  value === undefined ? undefined : (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).filter(Boolean);

/**
 * A search's options as REST's query string writes them (GraphQL's arguments are parsed with it
 * too, explain written as its string): parsed once, at the edge, into the options the services take.
 */
export const MatchQuery = z.object({
  productTypes: z.preprocess(asList, z.array(z.enum(PRODUCT_TYPES, { message: `must be one of ${PRODUCT_TYPES.join(', ')}` })).optional()),
  explain: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .optional()
    .transform((explain) => explain === 'true'),
});
export type MatchQuery = z.output<typeof MatchQuery>;

/** GET /profiles/{uuid}/funding/matches/count → the number of matches. */
export async function countMatches(ctx: ServiceContext, uuid: unknown, query: CheckedLater<MatchQuery>): Promise<number> {
  const actor = requireAccess(ctx, 'funding.read');
  const profileId = await findVisibleProfileId(ctx, actor, uuid);
  const { outcome } = await matchProfileById(ctx, profileId, query());
  return outcome.matches.length;
}

/** GET /profiles/{uuid}/funding/matches/results → the FundingSearch, recorded once per distinct search. */
export async function matchResults(ctx: ServiceContext, uuid: unknown, input: CheckedLater<MatchQuery>): Promise<RecordedFundingSearch> {
  const actor = requireAccess(ctx, 'funding.read');
  const profileId = await findVisibleProfileId(ctx, actor, uuid);
  const query = input();
  const matching = await matchProfileById(ctx, profileId, { ...query, reasons: true });
  const search = await recordFundingSearch(ctx, matching);
  return { ...toFundingSearchResult(matching, query.explain), id: search.id };
}

/** GraphQL profileMatches: the same search, read only (its id once the REST results or an apply recorded it). */
export async function profileMatches(ctx: ServiceContext, uuid: unknown, options: CheckedLater<MatchQuery>): Promise<FundingSearchResult> {
  const actor = requireAccess(ctx, 'funding.read');
  const profileId = await findVisibleProfileId(ctx, actor, uuid);
  const [result] = await profileSearchResults(ctx, [profileId], options());
  return result!;
}

/** GraphQL Profile.matches: that search for each profile the caller already sees. */
export async function matchesOfProfiles(ctx: ServiceContext, profileIds: readonly string[], options: MatchQuery): Promise<FundingSearchResult[]> {
  requireAccess(ctx, 'Profile.matches');
  return profileSearchResults(ctx, profileIds, options);
}

/**
 * Each profile's search, read only: the inputs, the registry grades and the recorded searches of all
 * the profiles are each read in one statement (the engine itself runs in memory).
 * @access internal: the profile ids come from a look-up that established their visibility
 */
async function profileSearchResults(ctx: ServiceContext, profileIds: readonly string[], options: MatchQuery): Promise<FundingSearchResult[]> {
  const matchings = await matchProfilesByIds(ctx, profileIds, { ...options, reasons: true });
  const recorded = await findRecordedSearches(ctx, matchings);
  return matchings.map((matching, i) => ({ ...toFundingSearchResult(matching, options.explain), ...(recorded[i] ? { id: recorded[i].id } : {}) }));
}
