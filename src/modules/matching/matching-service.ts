/**
 * Lender matching for a profile (public operations: Marketplace V1 funding/matches, GraphQL
 * Profile.matches). The REST results are the profile's recorded funding search (spec 2.3: it has an
 * id a later apply refers to); the GraphQL field is a query and records nothing.
 */
import { z } from 'zod';
import type { ServiceContext } from '../../kernel/context.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { findVisibleProfileId } from '../profiles/profile-visibility.js';
import { parseInput } from '../../kernel/validation.js';
import { findRecordedSearch, findRecordedSearches, matchProfileById, matchProfilesByIds, recordFundingSearch, toFundingSearchResult } from './funding-search.js';
import type { FundingSearchResult, RecordedFundingSearch } from './funding-search-schemas.js';
import { PRODUCT_TYPES } from './matching-engine.js';

const asList = (value: unknown) => (value === undefined ? undefined : (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).filter(Boolean));

export const MatchQuery = z.object({
  productTypes: z.preprocess(asList, z.array(z.enum(PRODUCT_TYPES, { message: `must be one of ${PRODUCT_TYPES.join(', ')}` })).optional()),
  explain: z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
});
export type MatchQuery = { productTypes?: string[]; explain?: boolean };

export function parseMatchQuery(query: unknown): MatchQuery {
  const parsed = parseInput(MatchQuery, query ?? {}, 'Query');
  return { productTypes: parsed.productTypes, explain: parsed.explain === 'true' };
}

/** GET /profiles/{uuid}/funding/matches/count → the number of matches. */
export async function countMatches(ctx: ServiceContext, uuid: unknown, query: unknown): Promise<number> {
  const actor = requireAccess(ctx, 'funding.read');
  const profileId = await findVisibleProfileId(ctx, actor, uuid);
  const { outcome } = await matchProfileById(ctx, profileId, parseMatchQuery(query));
  return outcome.matches.length;
}

/** GET /profiles/{uuid}/funding/matches/results → the FundingSearch, recorded once per distinct search. */
export async function matchResults(ctx: ServiceContext, uuid: unknown, query: unknown): Promise<RecordedFundingSearch> {
  const actor = requireAccess(ctx, 'funding.read');
  const profileId = await findVisibleProfileId(ctx, actor, uuid);
  const options = parseMatchQuery(query);
  const matching = await matchProfileById(ctx, profileId, { ...options, reasons: true });
  const search = await recordFundingSearch(ctx, matching);
  return { ...toFundingSearchResult(matching, options.explain ?? false), id: search.id };
}

/** GraphQL profileMatches: the same search, read only (its id once the REST results or an apply recorded it). */
export async function profileMatches(ctx: ServiceContext, uuid: unknown, options: { productTypes?: string[]; explain: boolean }): Promise<FundingSearchResult> {
  const actor = requireAccess(ctx, 'funding.read');
  const profileId = await findVisibleProfileId(ctx, actor, uuid);
  const [result] = await profileSearchResults(ctx, [profileId], options);
  return result!;
}

/** GraphQL Profile.matches: that search for each profile the caller already sees. */
export async function matchesOfProfiles(ctx: ServiceContext, profileIds: readonly string[], options: { productTypes?: string[]; explain: boolean }): Promise<FundingSearchResult[]> {
  requireAccess(ctx, 'Profile.matches');
  return profileSearchResults(ctx, profileIds, options);
}

/**
 * Each profile's search, read only: the inputs, the registry grades and the recorded searches of all
 * the profiles are each read in one statement (the engine itself runs in memory).
 * @access internal: the profile ids come from a look-up that established their visibility
 */
export async function profileSearchResults(ctx: ServiceContext, profileIds: readonly string[], options: { productTypes?: string[]; explain: boolean }): Promise<FundingSearchResult[]> {
  const query = parseMatchQuery({ productTypes: options.productTypes, explain: String(options.explain) });
  const matchings = await matchProfilesByIds(ctx, profileIds, { ...query, reasons: true });
  const recorded = await findRecordedSearches(ctx, matchings);
  return matchings.map((matching, i) => ({ ...toFundingSearchResult(matching, query.explain ?? false), ...(recorded[i] ? { id: recorded[i].id } : {}) }));
}
