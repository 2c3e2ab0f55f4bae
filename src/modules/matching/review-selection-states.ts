/**
 * The life of a review selection, declared once: which state each action may start from, and what
 * the client may do on the continue page. Every action (staff's and the client's) checks here, so
 * an action from any other state is a 409 naming the state, on REST, GraphQL and the page alike.
 *
 *   PENDING_REVIEW --assign--> IN_REVIEW (assignee recorded; re-assigning to another specialist stays IN_REVIEW)
 *   PENDING_REVIEW | IN_REVIEW --reject--> REJECTED (final, reason shown to the client)
 *   PENDING_REVIEW | IN_REVIEW --return--> RETURNED (reason shown; the client chooses again)
 *   PENDING_REVIEW | IN_REVIEW --submit--> SUBMITTED (sent to lenders, final)
 *   PENDING_REVIEW | IN_REVIEW | RETURNED --client's new choice--> CLOSED (replaced by the new selection)
 * Notes may be added in any state.
 */
import { AppError } from '../../kernel/errors.js';
import type { ReviewState } from './funding-search-schemas.js';

export type ReviewTransition = 'assign' | 'reject' | 'return' | 'submit' | 'replace';

const FROM: Record<ReviewTransition, readonly ReviewState[]> = {
  assign: ['PENDING_REVIEW', 'IN_REVIEW'],
  reject: ['PENDING_REVIEW', 'IN_REVIEW'],
  return: ['PENDING_REVIEW', 'IN_REVIEW'],
  submit: ['PENDING_REVIEW', 'IN_REVIEW'],
  replace: ['PENDING_REVIEW', 'IN_REVIEW', 'RETURNED'],
};

const TO: Record<ReviewTransition, ReviewState> = {
  assign: 'IN_REVIEW',
  reject: 'REJECTED',
  return: 'RETURNED',
  submit: 'SUBMITTED',
  replace: 'CLOSED',
};

/** Selections waiting for a specialist's decision: at most one per profile (the client's choice replaces it). */
export const OPEN_REVIEW_STATES = ['PENDING_REVIEW', 'IN_REVIEW'] as const satisfies readonly ReviewState[];

const STATE_WORDS: Record<ReviewState, string> = {
  PENDING_REVIEW: 'waiting for review',
  IN_REVIEW: 'in review',
  SUBMITTED: 'already sent to lenders',
  REJECTED: 'rejected',
  RETURNED: 'returned to the client',
  CLOSED: 'replaced by a later choice',
};

export function stateWords(state: ReviewState): string {
  return STATE_WORDS[state];
}

function canTransition(state: ReviewState, transition: ReviewTransition): boolean {
  return FROM[transition].includes(state);
}

/** The state after `transition`, or a 409 saying why it cannot happen from `state`. */
export function transitionFrom(state: ReviewState, transition: ReviewTransition): ReviewState {
  if (!canTransition(state, transition)) {
    throw AppError.conflict(`The selection is ${stateWords(state)} (${state}): it cannot be ${PAST[transition]}`);
  }
  return TO[transition];
}

const PAST: Record<ReviewTransition, string> = {
  assign: 'assigned',
  reject: 'rejected',
  return: 'returned to the client',
  submit: 'submitted',
  replace: 'replaced',
};

/** Whether the client may (still) choose on the continue page, given its latest selection's state. */
export function clientMayChoose(latest: ReviewState | null): boolean {
  return latest === null || latest === 'CLOSED' || canTransition(latest, 'replace');
}
