/**
 * The review queue: selections waiting for a funding specialist, grouped by the company they are for
 * (one profile's selections together), each previewed before it is submitted to its lenders, or
 * rejected (with the reason the client reads), returned to the client, taken ("assign to me"), and
 * annotated with staff-only notes.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { formatMoment } from '../shared/format.js';
import type {
  AddReviewNoteMutation,
  AddReviewNoteMutationVariables,
  AssignSelectionMutation,
  AssignSelectionMutationVariables,
  RejectSelectionMutation,
  RejectSelectionMutationVariables,
  ReturnSelectionMutation,
  ReturnSelectionMutationVariables,
  ReviewQuery,
  ReviewQueryVariables,
  ReviewsQuery,
  ReviewsQueryVariables,
  SubmitMutation,
  SubmitMutationVariables,
} from './generated/graphql.js';
import { graphql } from './graphql-api.js';
import { ADD_REVIEW_NOTE, ASSIGN_SELECTION, REJECT_SELECTION, RETURN_SELECTION, REVIEW_QUEUE, REVIEW_SELECTION, SUBMIT_SELECTION } from './review-queries.js';
import { app, attempt, enumLabel, focusAfterRender, formValues, lenderName, LIST_PAGE, money, token, update } from './app.js';

type ReviewSelection = ReviewsQuery['reviewQueue']['nodes'][number];
type ReviewPreview = ReviewQuery['reviewSelection'];

const reviews = {
  queue: [] as ReviewSelection[],
  open: null as ReviewPreview | null,
};

/** Review states in words (the badge's text; its colour is never the only signal). */
const REVIEW_STATE_LABELS: Record<string, string> = {
  PENDING_REVIEW: 'Waiting for review',
  IN_REVIEW: 'In review',
  SUBMITTED: 'Sent to lenders',
  REJECTED: 'Rejected',
  RETURNED: 'Returned to client',
  CLOSED: 'Replaced by the client',
};

const ACTION_LABELS: Record<string, string> = {
  ASSIGNED: 'Assigned',
  REJECTED: 'Rejected',
  RETURNED: 'Returned to client',
  NOTE: 'Note',
  SUBMITTED: 'Submitted',
  REPLACED: 'Replaced by the client',
};

/** LIMITED_COMPANY → "Limited company". */
const sentence = (value: string | null) => {
  if (!value) return '—';
  const words = enumLabel(value);
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const stateBadge = (state: string) =>
  html`<span class="badge" data-status=${state} data-testid="selection-state">${REVIEW_STATE_LABELS[state] ?? sentence(state)}</span>`;
const who = (user: { name: string | null; email: string } | null) => (user ? (user.name ?? user.email) : 'the client');
const OPEN = ['PENDING_REVIEW', 'IN_REVIEW'];

export async function loadReviews(): Promise<void> {
  reviews.queue = (await graphql<ReviewsQuery, ReviewsQueryVariables>(token(), REVIEW_QUEUE, { first: LIST_PAGE })).reviewQueue.nodes;
}

export function closeReviews(): void {
  reviews.queue = [];
  reviews.open = null;
}

async function openReview(id: string): Promise<void> {
  reviews.open = (await graphql<ReviewQuery, ReviewQueryVariables>(token(), REVIEW_SELECTION, { id })).reviewSelection;
}

/** After an action: the queue and the open panel read again, so both show what the server holds. */
async function refresh(id: string): Promise<void> {
  await Promise.all([loadReviews(), openReview(id)]);
}

const assignToMe = (id: string) =>
  attempt(async () => {
    await graphql<AssignSelectionMutation, AssignSelectionMutationVariables>(token(), ASSIGN_SELECTION, { id });
    await refresh(id);
  }, 'Assigned to you.');

/** Selections grouped by profile, groups in the order of their newest selection. */
function byProfile(queue: ReviewSelection[]): ReviewSelection[][] {
  const groups = new Map<string, ReviewSelection[]>();
  for (const item of queue) groups.set(item.company.profileId, [...(groups.get(item.company.profileId) ?? []), item]);
  return [...groups.values()];
}

export function reviewsView(): TemplateResult {
  const groups = byProfile(reviews.queue);
  return html`<section aria-labelledby="reviews-title" class="reviews">
    <h2 id="reviews-title">Review queue</h2>
    ${groups.length === 0 ? html`<p class="muted">The queue is empty.</p>` : nothing}
    ${groups.map((items) => {
      const company = items[0]!.company;
      const headingId = `review-group-${company.profileId}`;
      return html`<section class="review-group" aria-labelledby=${headingId} data-testid="queue-group-${company.profileId}">
        <h3 id=${headingId}>${company.name ?? 'Unnamed company'}
          <span class="muted">${company.number ? `company number ${company.number}` : 'no company number'} · ${sentence(company.type)}</span></h3>
        <table class="stacked" data-testid="reviews">
          <thead><tr><th scope="col">Received</th><th scope="col">Preferred lenders and products</th><th scope="col">State</th><th scope="col">Assigned to</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            ${items.map(
              (r) => html`<tr data-testid="review-${r.id}">
                <td data-label="Received">${formatMoment(r.createdAt)}</td>
                <td data-label="Preferred lenders and products"><ul>${r.selection.map((s) => html`<li>${lenderName(s.lenderId)}: ${s.products.map(sentence).join(', ')}</li>`)}</ul></td>
                <td data-label="State">${stateBadge(r.state)}${r.reason ? html`<div class="muted">Reason: ${r.reason}</div>` : nothing}</td>
                <td data-label="Assigned to" data-testid="assignee">${r.assignee ? who(r.assignee) : html`<span class="muted">Nobody</span>`}</td>
                <td data-label="Actions" class="actions">
                  <button type="button" @click=${() => attempt(() => openReview(r.id)).then(() => focusAfterRender('review-title'))} aria-label="Review the selection for ${company.name ?? 'an unnamed company'} received ${formatMoment(r.createdAt)}">Review</button>
                  ${OPEN.includes(r.state) ? html`<button type="button" @click=${() => assignToMe(r.id)} aria-label="Assign to me: the selection received ${formatMoment(r.createdAt)}">Assign to me</button>` : nothing}
                </td>
              </tr>`,
            )}
          </tbody>
        </table>
      </section>`;
    })}
    ${reviews.open ? reviewView(reviews.open) : nothing}
  </section>`;
}

function reviewView(review: ReviewPreview): TemplateResult {
  const id = review.selectionId;
  const blocked = review.lenders.some((l) => !l.matched || l.missingFields.length > 0);
  const open = OPEN.includes(review.state);
  const submit = () =>
    attempt(async () => {
      const result = await graphql<SubmitMutation, SubmitMutationVariables>(token(), SUBMIT_SELECTION, { id });
      app.notice = `Submitted to ${result.submitReviewedSelection.applications.length} lender(s).`;
      reviews.open = null;
      await loadReviews();
    });
  const reject = (event: SubmitEvent) => {
    event.preventDefault();
    const { reason = '' } = formValues(event.target as HTMLFormElement);
    return attempt(async () => {
      await graphql<RejectSelectionMutation, RejectSelectionMutationVariables>(token(), REJECT_SELECTION, { id, reason });
      await refresh(id);
    }, 'Rejected: the client sees the reason on the continue page.');
  };
  const giveBack = (event: SubmitEvent) => {
    event.preventDefault();
    const { reason = '' } = formValues(event.target as HTMLFormElement);
    return attempt(async () => {
      await graphql<ReturnSelectionMutation, ReturnSelectionMutationVariables>(token(), RETURN_SELECTION, { id, reason: reason.trim() || null });
      await refresh(id);
    }, 'Returned to the client, who can choose again.');
  };
  const addNote = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const { text = '' } = formValues(form);
    return attempt(async () => {
      await graphql<AddReviewNoteMutation, AddReviewNoteMutationVariables>(token(), ADD_REVIEW_NOTE, { id, text });
      form.reset();
      await openReview(id);
    }, 'Note added.');
  };
  const a = review.applicant;
  const facts: Array<[string, string]> = [
    ['Company', a.companyName ?? '—'],
    ['Company number', a.companyNumber ?? '—'],
    ['Company type', sentence(a.companyType)],
    ['Sector', sentence(a.sector)],
    ['Credit grade', a.creditGrade ?? 'not known'],
    ['Funding asked for', `${money(a.amount)}${a.periodMonths ? ` over ${a.periodMonths} months` : ''}`],
    ['Use of funds', sentence(a.useOfFunds)],
    ['Urgency', sentence(a.urgency)],
    ['Assigned to', review.assignee ? who(review.assignee) : 'Nobody'],
  ];
  return html`<section class="panel" aria-labelledby="review-title" data-testid="review">
    <h3 id="review-title" tabindex="-1">Selection for ${a.companyName ?? 'an unnamed company'}</h3>
    <p>${stateBadge(review.state)} ${review.reason ? html`<span data-testid="decision-reason">Reason given to the client: ${review.reason}</span>` : nothing}</p>
    <dl>${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
    <h4>Selected lenders</h4>
    <ul>${review.lenders.map(
      (l) => html`<li data-testid="reviewed-lender-${l.lenderId}">
        <strong>${l.lenderName ?? lenderName(l.lenderId)}</strong>: ${l.products.map(sentence).join(', ')}
        ${l.likelihood !== null ? html`<span class="muted">(likelihood ${Math.round(l.likelihood * 100)}%)</span>` : nothing}
        ${!l.matched ? html`<p class="error">No longer matches this profile.</p>` : nothing}
        ${l.reasons.length ? html`<p>Why it matched: ${l.reasons.join('; ')}</p>` : nothing}
        ${
          l.missingFields.length
            ? html`<p class="error">Missing fields this lender requires:</p><ul class="error">${l.missingFields.map((f) => html`<li><code>${f.field}</code>: ${f.message}</li>`)}</ul>`
            : l.matched
              ? html`<p class="ok">Every field this lender requires is present.</p>`
              : nothing
        }
      </li>`,
    )}</ul>
    ${
      open
        ? html`<div class="review-actions">
          <button type="button" ?disabled=${blocked} @click=${submit}>Submit to lenders</button>
          ${blocked ? html`<p class="error">Fix the missing fields (or the selection) before submitting.</p>` : nothing}
          <button type="button" @click=${() => assignToMe(id)}>Assign to me</button>
          <form @submit=${reject} data-testid="reject-form">
            <label for="reject-reason">Reason for rejecting (the client reads it)</label>
            <textarea id="reject-reason" name="reason" required maxlength="1000" rows="2"></textarea>
            <button type="submit">Reject</button>
          </form>
          <form @submit=${giveBack} data-testid="return-form">
            <label for="return-reason">Message to the client (optional)</label>
            <textarea id="return-reason" name="reason" maxlength="1000" rows="2"></textarea>
            <button type="submit">Return to client</button>
          </form>
        </div>`
        : html`<p>This selection is ${(REVIEW_STATE_LABELS[review.state] ?? review.state).toLowerCase()}: nothing more can be decided on it.</p>`
    }
    <h4>Notes (staff only)</h4>
    ${review.notes.length === 0 ? html`<p class="muted">No notes yet.</p>` : nothing}
    <ul data-testid="staff-notes">${review.notes.map((n) => html`<li><strong>${who(n.actor)}</strong> <span class="muted">${formatMoment(n.createdAt)}</span>: ${n.text}</li>`)}</ul>
    <form @submit=${addNote} data-testid="note-form">
      <label for="note-text">New note</label>
      <textarea id="note-text" name="text" required maxlength="2000" rows="2"></textarea>
      <button type="submit">Add note</button>
    </form>
    <h4>History</h4>
    <ol data-testid="selection-history">${review.history.map(
      (h) =>
        html`<li>${formatMoment(h.createdAt)}: ${ACTION_LABELS[h.kind] ?? h.kind} by ${who(h.actor)}${h.text && h.kind !== 'NOTE' ? html` — ${h.text}` : nothing}</li>`,
    )}</ol>
    <button type="button" @click=${() => {
      reviews.open = null;
      update();
    }}>Close</button>
  </section>`;
}
