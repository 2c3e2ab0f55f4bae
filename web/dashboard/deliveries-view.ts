/**
 * Webhook deliveries to lenders: each lender's health over the last week first (counts by status and
 * success rate, failing lenders first), then each lender's deliveries in the same order, with each
 * attempt's answer and a redelivery action.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { formatMoment } from '../shared/format.js';
import type {
  DeliveriesQuery,
  DeliveriesQueryVariables,
  DeliverySummaryQuery,
  DeliverySummaryQueryVariables,
  RedeliverMutation,
  RedeliverMutationVariables,
} from './generated/graphql.js';
import { graphql } from './graphql-api.js';
import { DELIVERIES, DELIVERY_SUMMARY, REDELIVER } from './deliveries-queries.js';
import { attempt, enumLabel, lenderName, LIST_PAGE, token, urlWithBreaks } from './app.js';

type Delivery = DeliveriesQuery['webhookDeliveries']['nodes'][number];
type LenderHealth = DeliverySummaryQuery['webhookDeliverySummary'][number];

/** The summary's window: the last week of deliveries. */
const SUMMARY_HOURS = 24 * 7;

const deliveries = {
  rows: [] as Delivery[],
  summary: [] as LenderHealth[],
  status: '',
};

export async function loadDeliveries(): Promise<void> {
  const [list, summary] = await Promise.all([
    graphql<DeliveriesQuery, DeliveriesQueryVariables>(token(), DELIVERIES, { first: LIST_PAGE, ...(deliveries.status ? { status: deliveries.status } : {}) }),
    graphql<DeliverySummaryQuery, DeliverySummaryQueryVariables>(token(), DELIVERY_SUMMARY, { hours: SUMMARY_HOURS }),
  ]);
  deliveries.rows = list.webhookDeliveries.nodes;
  deliveries.summary = summary.webhookDeliverySummary;
}

export function closeDeliveries(): void {
  deliveries.rows = [];
  deliveries.summary = [];
}

const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1)}%`);

function summaryView(): TemplateResult {
  if (deliveries.summary.length === 0) return html`<p class="muted">No deliveries in the last ${SUMMARY_HOURS / 24} days.</p>`;
  return html`<table class="stacked" data-testid="delivery-summary">
    <caption>Each lender's deliveries of the last ${SUMMARY_HOURS / 24} days, failing lenders first</caption>
    <thead><tr><th scope="col">Lender</th><th scope="col">Success rate</th><th scope="col">Delivered</th><th scope="col">Retrying</th><th scope="col">Dead</th><th scope="col">Pending</th><th scope="col">Last failure</th></tr></thead>
    <tbody>${deliveries.summary.map(
      (s) => html`<tr data-testid="summary-${s.lenderId}" data-failing=${s.failing + s.dead > 0 ? 'true' : 'false'}>
        <th scope="row" data-label="Lender">${s.lenderName}${s.failing + s.dead > 0 ? html` <span class="badge" data-status=${s.dead > 0 ? 'DEAD' : 'FAILED'}>failing</span>` : nothing}</th>
        <td data-label="Success rate" data-testid="success-rate">${percent(s.successRate)}</td>
        <td data-label="Delivered" data-testid="delivered">${s.delivered}</td>
        <td data-label="Retrying" data-testid="failing">${s.failing}</td>
        <td data-label="Dead" data-testid="dead">${s.dead}</td>
        <td data-label="Pending" data-testid="pending">${s.pending}</td>
        <td data-label="Last failure">${s.lastFailureAt ? formatMoment(s.lastFailureAt) : '—'}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}

/** Lenders in the summary's order (failing first); lenders of older deliveries outside the window after them. */
function groupedByLender(): Array<[number, Delivery[]]> {
  const byLender = new Map<number, Delivery[]>();
  for (const s of deliveries.summary) byLender.set(s.lenderId, []);
  for (const d of deliveries.rows) byLender.set(d.lenderId, [...(byLender.get(d.lenderId) ?? []), d]);
  return [...byLender.entries()].filter(([, rows]) => rows.length > 0);
}

export function deliveriesView(): TemplateResult {
  const statusChanged = (event: Event) => {
    deliveries.status = (event.target as HTMLSelectElement).value;
    void attempt(loadDeliveries);
  };
  const redeliver = (d: Delivery) =>
    attempt(async () => {
      await graphql<RedeliverMutation, RedeliverMutationVariables>(token(), REDELIVER, { id: d.id });
      await loadDeliveries();
    }, `Delivery ${d.id} queued again.`);
  const summaryName = (id: number) => deliveries.summary.find((s) => s.lenderId === id)?.lenderName ?? lenderName(id);
  return html`<section aria-labelledby="deliveries-title">
    <h2 id="deliveries-title">Webhook deliveries</h2>
    <div class="filters">
      <div><label for="delivery-status">Status</label>
        <select id="delivery-status" @change=${statusChanged}>
          <option value="">All</option>
          ${['PENDING', 'FAILED', 'DEAD', 'DELIVERED'].map((s) => html`<option value=${s} ?selected=${deliveries.status === s}>${enumLabel(s)}</option>`)}
        </select></div>
      <div><button type="button" @click=${() => attempt(loadDeliveries)}>Refresh</button></div>
    </div>
    <h3>Lenders</h3>
    ${summaryView()}
    ${deliveries.rows.length === 0 ? html`<p class="muted">No deliveries.</p>` : nothing}
    ${groupedByLender().map(
      ([lenderId, rows]) => html`<h3 data-testid="lender-deliveries" data-lender=${String(lenderId)}>${summaryName(lenderId)}</h3>
        <table class="stacked">
          <thead><tr><th scope="col">Application</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts: answer, latency</th><th scope="col">Next attempt</th><th scope="col">URL</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>${rows.map(
            (d) => html`<tr data-testid="delivery-${d.id}" data-status=${d.status}>
              <td data-label="Application">${d.lenderApplicationId}</td>
              <td data-label="Event">${enumLabel(d.event)}</td>
              <td data-label="Status"><span class="badge" data-status=${d.status}>${d.status === 'FAILED' ? 'retrying' : enumLabel(d.status)}</span></td>
              <td data-label="Attempts">
                ${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}${
                  d.attemptLog.length === 0
                    ? nothing
                    : html`<ol class="attempts" aria-label="Attempts, newest first">${d.attemptLog.map(
                        (a) =>
                          html`<li><time datetime=${a.attemptedAt}>${formatMoment(a.attemptedAt)}</time>: ${a.statusCode ?? 'no answer'}, ${a.latencyMs} ms${a.error ? html` <span class="muted">${a.error}</span>` : nothing}</li>`,
                      )}</ol>`
                }
              </td>
              <td data-label="Next attempt">${d.nextAttemptAt ? formatMoment(d.nextAttemptAt) : d.deliveredAt ? html`delivered ${formatMoment(d.deliveredAt)}` : '—'}</td>
              <td data-label="URL"><code>${urlWithBreaks(d.url)}</code></td>
              <td data-label="">${d.status === 'DEAD' || d.status === 'FAILED' ? html`<button type="button" @click=${() => redeliver(d)} aria-label="Redeliver ${enumLabel(d.event)} of application ${d.lenderApplicationId}">Redeliver</button>` : nothing}</td>
            </tr>`,
          )}</tbody>
        </table>`,
    )}
  </section>`;
}
