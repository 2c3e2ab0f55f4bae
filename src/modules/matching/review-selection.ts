/**
 * Queueing a client's choice of lenders for a funding specialist's review (internal operation: the
 * caller has decided access and scoped the profile). Marketplace V1 funding/apply and the Business V1
 * continue page both go through it: 1 to 4 lenders, each with products among the profile's current
 * matches; the same selection for the same profile is one queue entry (by content).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError, type FieldError } from '../../kernel/errors.js';
import { isUniqueViolation } from '../../infra/prisma-errors.js';
import type { RecordedFundingSearch } from './funding-search-schemas.js';
import { SelectedLender } from './selection-schemas.js';
import { recordMatchesOfLenders } from './funding-search.js';

export const SelectedLenders = z
  .array(SelectedLender, { message: 'must be an array of selected lenders' })
  .min(1, 'must select at least 1 lender')
  .max(4, 'must select at most 4 lenders (only the first 4 matches may be added)')
  .refine((items) => new Set(items.map((i) => i.lenderId)).size === items.length, 'must not select a lender twice');
export type SelectedLenders = z.infer<typeof SelectedLenders>;

/** The selection as stored and hashed: lenders and their products in a fixed order. */
export function normaliseSelection(selection: SelectedLenders): SelectedLenders {
  return [...selection]
    .sort((a, b) => a.lenderId - b.lenderId)
    .map((s) => ({ lenderId: s.lenderId, products: [...new Set(s.products)].sort() as SelectedLenders[number]['products'] }));
}

/**
 * Queues `selection` (normalised) against the recorded `search`; `requested` is the body as sent, for
 * error pointers. Returns the chosen "lenderId:PRODUCT" pairs.
 */
export async function queueReviewSelection(
  ctx: ServiceContext,
  profileId: string,
  search: RecordedFundingSearch,
  selection: SelectedLenders,
  requested: SelectedLenders,
  idempotencyKey?: string,
): Promise<Set<string>> {
  const offered = new Set(search.matches.map((m) => `${m.lender.id}:${m.product}`));
  const notMatched: FieldError[] = [];
  requested.forEach((item, i) =>
    item.products.forEach((product, j) => {
      if (!offered.has(`${item.lenderId}:${product}`)) {
        notMatched.push({ pointer: `/${i}/products/${j}`, message: `lender ${item.lenderId} has no ${product} among this profile's current matches` });
      }
    }),
  );
  if (notMatched.length) throw AppError.unprocessable('Only lenders and products among the profile\'s current matches can be selected', notMatched);

  const contentHash = createHash('sha256').update(JSON.stringify(selection)).digest('hex');
  if (idempotencyKey) {
    const previous = await ctx.db.reviewSelection.findFirst({ where: { profileId, idempotencyKey } });
    if (previous && previous.contentHash !== contentHash) {
      throw AppError.conflict('This Idempotency-Key was used with another selection', [{ pointer: 'header:Idempotency-Key', message: 'was used with another body' }]);
    }
  }
  // The chosen lenders' matches become rows before the selection refers to them (review, submission).
  await recordMatchesOfLenders(ctx.db, search.id, selection.map((s) => s.lenderId));
  try {
    await ctx.db.reviewSelection.upsert({
      where: { profileId_contentHash: { profileId, contentHash } },
      create: { profileId, fundingSearchId: search.id, selection: selection as Prisma.InputJsonValue, contentHash, idempotencyKey: idempotencyKey ?? null },
      update: {},
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err; // a concurrent identical apply created it first
  }
  ctx.logger.info({ profileId, lenders: selection.map((s) => s.lenderId) }, 'selection queued for review');
  return new Set(selection.flatMap((s) => s.products.map((p) => `${s.lenderId}:${p}`)));
}
