/**
 * The one status machine of a lender application, enforced here and nowhere else. An illegal move
 * is a 409 that changes nothing. Spec 3 names In Review (an application sent to the lender, awaiting
 * its answer), Client Accepted and Client Declined; an acknowledgement leaves the status as it is
 * (its reference, comment and time are recorded: acknowledgedAt). The states the spec leaves
 * unnamed keep our names: Offered, Failed (a failure the client may fix and resubmit) and Rejected.
 *
 *   In Review ──ack (reference/comment)──▶ In Review
 *   In Review ──offer──▶ Offered ──offer (replaces)──▶ Offered
 *   In Review / Offered ──rejection "Ineligible" (any reason but Failed)──▶ Rejected   (terminal)
 *   In Review ──rejection "Failed"──▶ Failed ──client resubmits──▶ In Review
 *   Offered ──client accepts──▶ Client Accepted (terminal)   Offered ──client declines──▶ Client Declined (terminal)
 */
import { AppError } from '../../kernel/errors.js';
import type { ApplicationMove } from '../../infra/metrics.js';

export const APPLICATION_STATUSES = ['In Review', 'Offered', 'Failed', 'Rejected', 'Client Accepted', 'Client Declined'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** Where every application starts, and where a resubmission returns (spec 3's "In Review"). */
export const IN_REVIEW: ApplicationStatus = 'In Review';

/** The business counter (lender_application_moves_total) a move into each status counts on. */
export const APPLICATION_MOVE_OF: Record<ApplicationStatus, ApplicationMove> = {
  'In Review': 'submitted',
  Offered: 'offered',
  Failed: 'failed',
  Rejected: 'rejected',
  'Client Accepted': 'accepted',
  'Client Declined': 'declined',
};

export type ApplicationEvent = 'acknowledge' | 'offer' | 'fail' | 'reject' | 'resubmit' | 'accept' | 'decline';

const MOVES: Record<ApplicationEvent, { from: readonly ApplicationStatus[]; to: ApplicationStatus | 'unchanged' }> = {
  acknowledge: { from: ['In Review'], to: 'unchanged' },
  offer: { from: ['In Review', 'Offered'], to: 'Offered' },
  fail: { from: ['In Review'], to: 'Failed' },
  reject: { from: ['In Review', 'Offered'], to: 'Rejected' },
  resubmit: { from: ['Failed'], to: 'In Review' },
  accept: { from: ['Offered'], to: 'Client Accepted' },
  decline: { from: ['Offered'], to: 'Client Declined' },
};

const WHY_NOT: Partial<Record<ApplicationEvent, string>> = {
  acknowledge: 'comments and references are accepted until a quote or a rejection is given',
  offer: 'an offer can only be made on an open application',
  accept: 'only an application with a current offer can be accepted, once',
  decline: 'only an application with a current offer can be declined, once',
  resubmit: 'only an application that failed can be resubmitted',
};

/** The status after `event`, or a 409 naming the current status. */
export function nextStatus(current: string, event: ApplicationEvent): ApplicationStatus {
  const move = MOVES[event];
  if (!(move.from as readonly string[]).includes(current)) {
    throw AppError.conflict(`The application is ${current}: ${WHY_NOT[event] ?? `it cannot move on ${event}`}`);
  }
  return move.to === 'unchanged' ? (current as ApplicationStatus) : move.to;
}

/** Documented rejection reasons: Failed can be fixed and resubmitted; any other reason is terminal. */
export const FAILURE_REASON = 'Failed';
const KNOWN_REJECTION_REASONS = ['Failed', 'Ineligible'] as const;
