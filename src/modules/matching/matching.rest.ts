/**
 * The Marketplace V1 FundingSearch body (spec 2.3), made from the funding search result: the lender
 * by id only, likelihood as { value }, reasons and the explanation only when explained. REST-only,
 * so it lives beside the REST rows; its schema is built from the result's declarations.
 */
import { z } from 'zod';
import { FundingSearch, Match, MatchExplanation, MatchLender, type RecordedFundingSearch } from './funding-search-schemas.js';

/** Spec 2.3 writes a likelihood as an object. */
export const Likelihood = z.strictObject({ value: z.number().describe('0..1') }).meta({ id: 'Likelihood' });

export const FundingSearchBody = z
  .strictObject({
    amount: FundingSearch.shape.amount,
    id: z.number().int(),
    matches: z.array(
      Match.extend({
        lender: MatchLender.pick({ id: true }),
        likelihood: Likelihood,
        reasons: Match.shape.reasons.optional().describe('With explain only'),
      }),
    ),
    explanation: MatchExplanation.optional(),
  })
  .meta({ id: 'FundingSearchBody', description: 'A recorded funding search (spec 2.3): its matches by likelihood then cost' });
export type FundingSearchBody = z.infer<typeof FundingSearchBody>;

type BodyMatch = FundingSearchBody['matches'][number];

/** Bodies of a search's matches without explain, by the result's matches array: a repeated search's array is shared, so it is shaped once. */
const unexplainedMatches = new WeakMap<readonly unknown[], BodyMatch[]>();

export function toFundingSearchBody(result: RecordedFundingSearch): FundingSearchBody {
  const explained = result.explanation !== null;
  let matches = explained ? undefined : unexplainedMatches.get(result.matches);
  if (!matches) {
    matches = bodyMatches(result, explained);
    if (!explained) unexplainedMatches.set(result.matches, matches);
  }
  return {
    amount: result.amount,
    id: result.id,
    matches,
    ...(result.explanation ? { explanation: result.explanation } : {}),
  };
}

function bodyMatches(result: RecordedFundingSearch, explained: boolean): BodyMatch[] {
  return result.matches.map((m) => ({
    lender: { id: m.lender.id },
    product: m.product,
    productId: m.productId,
    productName: m.productName,
    likelihood: { value: m.likelihood },
    instantOffer: m.instantOffer,
    ...(explained ? { reasons: m.reasons } : {}),
  }));
}
