/**
 * Applying to preferred lenders (Marketplace V1 POST /profiles/{uuid}/funding/apply, spec 4.1 rule 3):
 * 1 to 4 selected lenders, each with products among the profile's current matches, go to a funding
 * specialist's review queue. Nothing is sent to lenders and no credit check is made here.
 * The profile must be owned by the caller's account (an anonymous one is claimed first): the lender
 * applications that follow are visible only to their profile's owner.
 * Idempotent: the same selection for the same profile is one queue entry (by content), and an
 * Idempotency-Key replays its first answer (src/infra/idempotent-answers.ts; a reused key with
 * another selection is a 422).
 */
import type { ServiceContext } from '../../kernel/context.js';
import { requireAccess } from '../../kernel/access-policy.js';
import type { CheckedLater } from '../../kernel/validation.js';
import { answerOnceAsIs } from '../../infra/idempotent-answers.js';
import { findOwnedProfileId } from '../profiles/profile-visibility.js';
import { matchProfileById, recordFundingSearch, toFundingSearchResult } from './funding-search.js';
import type { RecordedFundingSearch } from './funding-search-schemas.js';
import { normaliseSelection, queueReviewSelection, type SelectedLenders } from './review-selection.js';

export async function applyToLenders(
  ctx: ServiceContext,
  uuid: unknown,
  input: CheckedLater<SelectedLenders>,
  idempotencyKey: unknown,
): Promise<RecordedFundingSearch> {
  const actor = requireAccess(ctx, 'funding.apply');
  const profileId = await findOwnedProfileId(ctx, actor, uuid);
  const requested = input();
  const selection = normaliseSelection(requested);
  const request = { owner: { accountId: actor.accountId }, operation: 'funding.apply', target: profileId, body: selection };
  return answerOnceAsIs(ctx, idempotencyKey, request, async () => {
    const matching = await matchProfileById(ctx, profileId, { reasons: true });
    const search = { ...toFundingSearchResult(matching, false), ...(await recordFundingSearch(ctx, matching)) };
    const chosen = await queueReviewSelection(ctx, profileId, search, selection, requested);
    return { ...search, matches: search.matches.filter((m) => chosen.has(`${m.lender.id}:${m.product}`)) };
  });
}
