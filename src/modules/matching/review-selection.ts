/**
 * Queueing a client's choice of lenders for a funding specialist's review (internal operation: the
 * caller has decided access and scoped the profile). Marketplace V1 funding/apply and the Business V1
 * continue page both go through it: 1 to 4 lenders, each with products among the profile's current
 * matches; the same selection for the same profile is one queue entry (by content), and a profile has
 * at most one selection waiting for review (a new choice replaces it).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError, type FieldError } from '../../kernel/errors.js';
import type { RecordedFundingSearch } from './funding-search-schemas.js';
import { SelectedLender } from './selection-schemas.js';
import { recordMatchesOfLenders } from './funding-search.js';
import { clientMayChoose, OPEN_REVIEW_STATES, stateWords, transitionFrom } from './review-selection-states.js';

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

/** The pointer of the 409 asking the client to confirm replacing its choice (the continue page asks before replacing). */
export const REPLACE_POINTER = 'replace';

export interface QueueOptions {
  /**
   * The continue page's client: it may not choose after its selection was sent to lenders or
   * rejected, and a choice waiting for review is replaced only when the client confirmed it
   * (`replaceConfirmed`), else a 409 at REPLACE_POINTER. Marketplace V1 apply replaces silently.
   */
  client?: { replaceConfirmed: boolean };
}

/**
 * Queues `selection` (normalised) against the recorded `search`; `requested` is the body as sent, for
 * error pointers. Returns the chosen "lenderId:PRODUCT" pairs. A profile has at most one selection
 * waiting for review: a new one closes (REPLACED) the open or returned one, atomically — the profile
 * row is locked for the transaction, so two choices at once are queued one after the other and leave
 * one pending selection.
 */
export async function queueReviewSelection(
  ctx: ServiceContext,
  profileId: string,
  search: RecordedFundingSearch,
  selection: SelectedLenders,
  requested: SelectedLenders,
  options: QueueOptions = {},
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
  if (notMatched.length) throw AppError.unprocessable("Only lenders and products among the profile's current matches can be selected", notMatched);

  const contentHash = createHash('sha256').update(JSON.stringify(selection)).digest('hex');
  const { client } = options;
  const replaced = await ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM profile WHERE id = ${profileId}::uuid FOR UPDATE`;
    if (client) {
      const latest = await tx.reviewSelection.findFirst({ where: { profileId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: { state: true } });
      if (latest && !clientMayChoose(latest.state)) throw AppError.conflict(`Your choice was ${stateWords(latest.state)}: it can no longer be changed`);
    }
    const same = await tx.reviewSelection.findUnique({ where: { profileId_contentHash: { profileId, contentHash } } });
    // The same choice already sent to lenders or rejected is that decided selection: nothing changes.
    if (same && (same.state === 'SUBMITTED' || same.state === 'REJECTED')) return 0;
    const others = await tx.reviewSelection.findMany({
      where: { profileId, state: { in: [...OPEN_REVIEW_STATES, 'RETURNED'] }, ...(same ? { id: { not: same.id } } : {}) },
      select: { id: true, state: true },
    });
    if (client && !client.replaceConfirmed && others.some((o) => (OPEN_REVIEW_STATES as readonly string[]).includes(o.state))) {
      throw AppError.conflict('You already sent a choice that is waiting for review', [
        { pointer: REPLACE_POINTER, message: 'confirm that the new choice replaces it' },
      ]);
    }
    for (const other of others) transitionFrom(other.state, 'replace');
    if (others.length) {
      await tx.reviewSelection.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { state: 'CLOSED' } });
      await tx.reviewAction.createMany({
        data: others.map((o) => ({ selectionId: o.id, kind: 'REPLACED' as const, text: 'Replaced by a later choice', createdAt: ctx.clock.now() })),
      });
    }
    // The chosen lenders' matches become rows before the selection refers to them (review, submission).
    await recordMatchesOfLenders(
      tx,
      search.id,
      selection.map((s) => s.lenderId),
    );
    if (!same) {
      await tx.reviewSelection.create({ data: { profileId, fundingSearchId: search.id, selection: selection as Prisma.InputJsonValue, contentHash } });
    } else if (same.state === 'RETURNED' || same.state === 'CLOSED') {
      // The same choice made again after it was returned or replaced: waiting for review once more.
      await tx.reviewSelection.update({
        where: { id: same.id },
        data: { state: 'PENDING_REVIEW', fundingSearchId: search.id, assigneeId: null, decisionReason: null },
      });
    }
    return others.length;
  });
  ctx.logger.info({ profileId, lenders: selection.map((s) => s.lenderId), replaced }, 'selection queued for review');
  return new Set(selection.flatMap((s) => s.products.map((p) => `${s.lenderId}:${p}`)));
}
