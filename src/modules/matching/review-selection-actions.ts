/**
 * What a funding specialist does to a selection in the review queue besides submitting it (staff):
 * reject it (final, with the reason the client reads on the continue page), return it to the client
 * (who chooses again), take it ("assign to me") and write staff-only notes. Each is a public operation
 * with its one access decision; each leaves a review_action row (who, when, what, reason) in the same
 * transaction as the change, and the audit log line requireAccess writes for staff actions.
 * Transitions are those of review-selection-states.ts (anything else is a 409).
 */
import type { ReviewActionKind } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { parseInput } from '../../kernel/validation.js';
import type { ReviewSelection } from './funding-search-schemas.js';
import { NoteInput, RejectInput, ReturnInput, SelectionId, type ReviewActionRecord } from './review-action-schemas.js';
import { reviewQueueItem } from './review-selection-queue.js';
import { transitionFrom, type ReviewTransition } from './review-selection-states.js';
import { reviewSelectionScope } from './review-selection-visibility.js';

export async function rejectReviewSelection(ctx: ServiceContext, input: unknown): Promise<ReviewSelection> {
  const actor = requireAccess(ctx, 'reviews.reject');
  const { selectionId, reason } = parseInput(RejectInput, input, 'Rejection');
  return decide(ctx, actor.userId, selectionId, 'reject', reason);
}

export async function returnReviewSelection(ctx: ServiceContext, input: unknown): Promise<ReviewSelection> {
  const actor = requireAccess(ctx, 'reviews.return');
  const { selectionId, reason } = parseInput(ReturnInput, input, 'Return');
  return decide(ctx, actor.userId, selectionId, 'return', reason);
}

export async function assignReviewSelectionToMe(ctx: ServiceContext, selectionId: unknown): Promise<ReviewSelection> {
  const actor = requireAccess(ctx, 'reviews.assign');
  return decide(ctx, actor.userId, parseInput(SelectionId, selectionId, 'Selection id'), 'assign');
}

export async function addReviewNote(ctx: ServiceContext, input: unknown): Promise<ReviewActionRecord> {
  const actor = requireAccess(ctx, 'reviews.note');
  const { selectionId, text } = parseInput(NoteInput, input, 'Note');
  const selection = await ctx.db.reviewSelection.findFirst({ where: { AND: [{ id: selectionId }, reviewSelectionScope(ctx)] }, select: { id: true } });
  if (!selection) throw AppError.notFound('Review selection');
  const note = await ctx.db.reviewAction.create({
    data: { selectionId, kind: 'NOTE', actorId: actor.userId, text, createdAt: ctx.clock.now() },
    include: { actor: { select: { id: true, name: true, email: true } } },
  });
  ctx.logger.info({ selectionId, action: 'NOTE', userId: actor.userId }, 'review note added');
  return toActionRecord(note);
}

const KIND_OF: Record<Exclude<ReviewTransition, 'submit' | 'replace'>, ReviewActionKind> = { assign: 'ASSIGNED', reject: 'REJECTED', return: 'RETURNED' };

/** The selection locked, its transition checked, changed, and the action recorded, in one transaction. */
async function decide(ctx: ServiceContext, userId: string, selectionId: string, transition: keyof typeof KIND_OF, reason?: string): Promise<ReviewSelection> {
  await ctx.db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM review_selection WHERE id = ${selectionId}::uuid FOR UPDATE`;
    const selection = locked.length ? await tx.reviewSelection.findFirst({ where: { AND: [{ id: selectionId }, reviewSelectionScope(ctx)] } }) : null;
    if (!selection) throw AppError.notFound('Review selection');
    const state = transitionFrom(selection.state, transition);
    const change = transition === 'assign' ? { assigneeId: userId } : { decisionReason: reason ?? null };
    await tx.reviewSelection.update({ where: { id: selectionId }, data: { state, ...change } });
    await tx.reviewAction.create({ data: { selectionId, kind: KIND_OF[transition], actorId: userId, text: reason ?? null, createdAt: ctx.clock.now() } });
  });
  ctx.logger.info({ selectionId, action: KIND_OF[transition], userId }, 'review selection decided');
  return reviewQueueItem(ctx, selectionId);
}

type ActionRow = { id: string; kind: ReviewActionKind; text: string | null; createdAt: Date; actor: { id: string; name: string | null; email: string } | null };

export function toActionRecord(row: ActionRow): ReviewActionRecord {
  return {
    id: row.id,
    kind: row.kind,
    actor: row.actor ? { userId: row.actor.id, name: row.actor.name, email: row.actor.email } : null,
    text: row.text,
    createdAt: row.createdAt.toISOString(),
  };
}
