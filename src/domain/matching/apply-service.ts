/**
 * Applying to preferred lenders (Marketplace V1 POST /profiles/{uuid}/funding/apply, spec 4.1 rule 3):
 * 1 to 4 selected lenders, each with products among the profile's current matches, go to a funding
 * specialist's review queue. Nothing is sent to lenders and no credit check is made here.
 * Idempotent: the same selection for the same profile is one queue entry (by content), and an
 * Idempotency-Key replays its first answer (a reused key with another selection is a 409).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../context.js';
import { AppError, type FieldError } from '../errors.js';
import { requireAccess } from '../identity/access-policy.js';
import { isUniqueViolation } from '../../infra/prisma-errors.js';
import { parseInput } from '../validation.js';
import { findVisibleProfileId } from '../profiles/profile-visibility.js';
import { matchProfileById, recordFundingSearch, toFundingSearchResult, type FundingSearchResult } from './funding-search.js';
import { SelectedLender } from './selection-schemas.js';

export const SelectedLenders = z
  .array(SelectedLender, { message: 'must be an array of selected lenders' })
  .min(1, 'must select at least 1 lender')
  .max(4, 'must select at most 4 lenders (only the first 4 matches may be added)')
  .refine((items) => new Set(items.map((i) => i.lenderId)).size === items.length, 'must not select a lender twice');
type SelectedLenders = z.infer<typeof SelectedLenders>;

const IdempotencyKey = z.string().trim().min(1).max(255).optional();

/** The selection as stored and hashed: lenders and their products in a fixed order. */
function normalise(selection: SelectedLenders): SelectedLenders {
  return [...selection]
    .sort((a, b) => a.lenderId - b.lenderId)
    .map((s) => ({ lenderId: s.lenderId, products: [...new Set(s.products)].sort() as SelectedLenders[number]['products'] }));
}

export async function applyToLenders(ctx: ServiceContext, uuid: unknown, body: unknown, idempotencyKey: unknown): Promise<FundingSearchResult & { id: number }> {
  const actor = requireAccess(ctx, 'funding.apply');
  const profileId = await findVisibleProfileId(ctx, actor, uuid);
  const requested = parseInput(SelectedLenders, body);
  const selection = normalise(requested);
  const key = parseInput(IdempotencyKey, idempotencyKey ?? undefined, 'Idempotency-Key header');
  const matching = await matchProfileById(ctx, profileId, { reasons: true });
  const search = { ...toFundingSearchResult(matching, false), ...(await recordFundingSearch(ctx, matching)) };

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
  if (key) {
    const previous = await ctx.db.reviewSelection.findFirst({ where: { profileId, idempotencyKey: key } });
    if (previous && previous.contentHash !== contentHash) {
      throw AppError.conflict('This Idempotency-Key was used with another selection', [{ pointer: 'header:Idempotency-Key', message: 'was used with another body' }]);
    }
  }
  try {
    await ctx.db.reviewSelection.upsert({
      where: { profileId_contentHash: { profileId, contentHash } },
      create: { profileId, fundingSearchId: search.id, selection: selection as Prisma.InputJsonValue, contentHash, idempotencyKey: key ?? null },
      update: {},
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err; // a concurrent identical apply created it first
  }
  ctx.logger.info({ profileId, lenders: selection.map((s) => s.lenderId) }, 'selection queued for review');
  const chosen = new Set(selection.flatMap((s) => s.products.map((p) => `${s.lenderId}:${p}`)));
  return { ...search, matches: search.matches.filter((m) => chosen.has(`${m.lender.id}:${m.product}`)) };
}

export interface ReviewSelectionDto {
  id: string;
  profileId: string;
  fundingSearchId: number;
  state: string;
  selection: unknown;
  createdAt: string;
  updatedAt: string;
}

/** The funding specialists' review queue (staff), newest first. */
export async function listReviewQueue(ctx: ServiceContext, state?: string): Promise<ReviewSelectionDto[]> {
  requireAccess(ctx, 'reviews.read');
  const rows = await ctx.db.reviewSelection.findMany({
    where: { profile: { environment: ctx.environment }, ...(state ? { state: state as never } : {}) },
    orderBy: { createdAt: 'desc' },
    take: 200,
  });
  return rows.map((r) => ({
    id: r.id,
    profileId: r.profileId,
    fundingSearchId: r.fundingSearchId,
    state: r.state,
    selection: r.selection,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}
