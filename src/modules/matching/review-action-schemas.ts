/** The review queue's staff actions, declared once: their inputs (REST/GraphQL alike) and the trail they leave (a note, an action). */
import { z } from 'zod';
import { ReviewUser } from './funding-search-schemas.js';

const REVIEW_ACTION_KINDS = ['ASSIGNED', 'REJECTED', 'RETURNED', 'NOTE', 'SUBMITTED', 'REPLACED'] as const;

export const SelectionId = z.uuid({ message: 'must be a review selection id (uuid)' });

const words = (what: string, max: number) =>
  z
    .string({ message: `must be text: ${what}` })
    .trim()
    .min(1, `must not be empty: ${what}`)
    .max(max, `must be at most ${max} characters`);

/** Reject: final, with the reason the client reads on the continue page. */
export const RejectInput = z.strictObject({ selectionId: SelectionId, reason: words('why the selection is rejected (the client reads it)', 1000) });
/** Return to the client: it chooses again; the reason (optional) tells it why. */
export const ReturnInput = z.strictObject({ selectionId: SelectionId, reason: words('why it is returned (the client reads it)', 1000).optional() });
export const NoteInput = z.strictObject({ selectionId: SelectionId, text: words('the note', 2000) });

/** One entry of a selection's audit trail: who did what, when, and the reason or note. */
export const ReviewActionRecord = z
  .strictObject({
    id: z.uuid(),
    kind: z.enum(REVIEW_ACTION_KINDS).meta({ id: 'ReviewActionKind' }),
    actor: ReviewUser.nullable().describe('The funding specialist; null when the client replaced its choice'),
    text: z.string().nullable().describe('The reason (reject, return) or the note'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ReviewAction', description: 'An action on a review selection (its audit trail); notes are the NOTE actions' });
export type ReviewActionRecord = z.infer<typeof ReviewActionRecord>;
