/** The review queue: selections waiting for a funding specialist, each previewed before it is submitted to its lenders. */
import { html, nothing, type TemplateResult } from 'lit';
import { formatMoment } from '../shared/format.js';
import type { ReviewQuery, ReviewQueryVariables, ReviewsQuery, ReviewsQueryVariables, SubmitMutation, SubmitMutationVariables } from './generated/graphql.js';
import { graphql } from './graphql-api.js';
import { REVIEW_QUEUE, REVIEW_SELECTION, SUBMIT_SELECTION } from './review-queries.js';
import { app, attempt, enumLabel, focusAfterRender, lenderName, LIST_PAGE, money, token, update } from './app.js';

type ReviewSelection = ReviewsQuery['reviewQueue']['nodes'][number];
type ReviewPreview = ReviewQuery['reviewSelection'];

const reviews = {
  queue: [] as ReviewSelection[],
  open: null as ReviewPreview | null,
};

export async function loadReviews(): Promise<void> {
  reviews.queue = (await graphql<ReviewsQuery, ReviewsQueryVariables>(token(), REVIEW_QUEUE, { first: LIST_PAGE })).reviewQueue.nodes;
}

export function closeReviews(): void {
  reviews.queue = [];
  reviews.open = null;
}

export function reviewsView(): TemplateResult {
  const open = (selection: ReviewSelection) =>
    attempt(async () => {
      reviews.open = (await graphql<ReviewQuery, ReviewQueryVariables>(token(), REVIEW_SELECTION, { id: selection.id })).reviewSelection;
    });
  return html`<section aria-labelledby="reviews-title">
    <h2 id="reviews-title">Review queue</h2>
    <table data-testid="reviews">
      <thead><tr><th scope="col">Received</th><th scope="col">Profile</th><th scope="col">Preferred lenders and products</th><th scope="col">State</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>
        ${reviews.queue.length === 0 ? html`<tr><td colspan="5" class="muted">The queue is empty.</td></tr>` : nothing}
        ${reviews.queue.map(
          (r) => html`<tr data-testid="review-${r.id}">
            <td>${formatMoment(r.createdAt)}</td>
            <td><code>${r.profileId}</code></td>
            <td><ul>${r.selection.map((s) => html`<li>${lenderName(s.lenderId)}: ${s.products.map(enumLabel).join(', ')}</li>`)}</ul></td>
            <td>${r.state}</td>
            <td><button type="button" @click=${() => open(r).then(() => focusAfterRender('review-title'))} aria-label="Review the selection received ${formatMoment(r.createdAt)}">Review</button></td>
          </tr>`,
        )}
      </tbody>
    </table>
    ${reviews.open ? reviewView(reviews.open) : nothing}
  </section>`;
}

function reviewView(review: ReviewPreview): TemplateResult {
  const blocked = review.lenders.some((l) => !l.matched || l.missingFields.length > 0);
  const submittable = review.state === 'PENDING_REVIEW' || review.state === 'IN_REVIEW';
  const submit = () =>
    attempt(async () => {
      const result = await graphql<SubmitMutation, SubmitMutationVariables>(token(), SUBMIT_SELECTION, { id: review.selectionId });
      app.notice = `Submitted to ${result.submitReviewedSelection.applications.length} lender(s).`;
      reviews.open = null;
      await loadReviews();
    });
  const a = review.applicant;
  const facts: Array<[string, string]> = [
    ['Company', a.companyName ?? '—'],
    ['Company number', a.companyNumber ?? '—'],
    ['Company type', a.companyType ?? '—'],
    ['Sector', a.sector ?? '—'],
    ['Credit grade', a.creditGrade ?? 'not known'],
    ['Funding asked for', `${money(a.amount)}${a.periodMonths ? ` over ${a.periodMonths} months` : ''}`],
    ['Use of funds', a.useOfFunds ?? '—'],
    ['Urgency', a.urgency ?? '—'],
  ];
  return html`<section class="panel" aria-labelledby="review-title" data-testid="review">
    <h3 id="review-title" tabindex="-1">Selection for ${a.companyName ?? 'an unnamed company'}</h3>
    <dl>${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
    <h4>Selected lenders</h4>
    <ul>${review.lenders.map(
      (l) => html`<li data-testid="reviewed-lender-${l.lenderId}">
        <strong>${l.lenderName ?? lenderName(l.lenderId)}</strong>: ${l.products.map(enumLabel).join(', ')}
        ${l.likelihood !== null ? html`<span class="muted">(likelihood ${Math.round(l.likelihood * 100)}%)</span>` : nothing}
        ${!l.matched ? html`<p class="error">No longer matches this profile.</p>` : nothing}
        ${l.reasons.length ? html`<p>Why it matched: ${l.reasons.join('; ')}</p>` : nothing}
        ${l.missingFields.length
          ? html`<p class="error">Missing fields this lender requires:</p><ul class="error">${l.missingFields.map((f) => html`<li><code>${f.field}</code>: ${f.message}</li>`)}</ul>`
          : l.matched ? html`<p class="ok">Every field this lender requires is present.</p>` : nothing}
      </li>`,
    )}</ul>
    ${submittable
      ? html`<button type="button" ?disabled=${blocked} @click=${submit}>Submit to lenders</button>
          ${blocked ? html`<p class="error">Fix the missing fields (or the selection) before submitting.</p>` : nothing}`
      : html`<p>This selection is ${review.state}.</p>`}
    <button type="button" @click=${() => { reviews.open = null; update(); }}>Close</button>
  </section>`;
}
