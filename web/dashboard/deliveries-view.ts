/** Webhook deliveries to lenders, grouped by lender, with each attempt's answer and a redelivery action. */
import { html, nothing, type TemplateResult } from 'lit';
import { formatMoment } from '../shared/format.js';
import type { DeliveriesQuery, DeliveriesQueryVariables, RedeliverMutation, RedeliverMutationVariables } from './generated/graphql.js';
import { graphql } from './graphql-api.js';
import { DELIVERIES, REDELIVER } from './deliveries-queries.js';
import { attempt, lenderName, LIST_PAGE, token } from './app.js';

type Delivery = DeliveriesQuery['webhookDeliveries']['nodes'][number];

const deliveries = {
  rows: [] as Delivery[],
  status: '',
};

export async function loadDeliveries(): Promise<void> {
  const data = await graphql<DeliveriesQuery, DeliveriesQueryVariables>(token(), DELIVERIES, { first: LIST_PAGE, ...(deliveries.status ? { status: deliveries.status } : {}) });
  deliveries.rows = data.webhookDeliveries.nodes;
}

export function closeDeliveries(): void {
  deliveries.rows = [];
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
  const byLender = new Map<number, Delivery[]>();
  for (const d of deliveries.rows) byLender.set(d.lenderId, [...(byLender.get(d.lenderId) ?? []), d]);
  return html`<section aria-labelledby="deliveries-title">
    <h2 id="deliveries-title">Webhook deliveries</h2>
    <div class="filters">
      <div><label for="delivery-status">Status</label>
        <select id="delivery-status" @change=${statusChanged}>
          <option value="">All</option>
          ${['PENDING', 'FAILED', 'DEAD', 'DELIVERED'].map((s) => html`<option value=${s} ?selected=${deliveries.status === s}>${s}</option>`)}
        </select></div>
      <div><button type="button" @click=${() => attempt(loadDeliveries)}>Refresh</button></div>
    </div>
    ${deliveries.rows.length === 0 ? html`<p class="muted">No deliveries.</p>` : nothing}
    ${[...byLender.entries()].map(
      ([lenderId, rows]) => html`<h3>${lenderName(lenderId)}</h3>
        <table>
          <thead><tr><th scope="col">Application</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts: answer, latency</th><th scope="col">Next attempt</th><th scope="col">URL</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>${rows.map(
            (d) => html`<tr data-testid="delivery-${d.id}" data-status=${d.status}>
              <td>${d.lenderApplicationId}</td><td>${d.event}</td><td class="status">${d.status}</td>
              <td>
                ${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}${d.attemptLog.length === 0 ? nothing : html`<ol class="attempts" aria-label="Attempts, newest first">${d.attemptLog.map(
                  (a) => html`<li><time datetime=${a.attemptedAt}>${formatMoment(a.attemptedAt)}</time>: ${a.statusCode ?? 'no answer'}, ${a.latencyMs} ms${a.error ? html` <span class="muted">${a.error}</span>` : nothing}</li>`,
                )}</ol>`}
              </td>
              <td>${d.nextAttemptAt ? formatMoment(d.nextAttemptAt) : d.deliveredAt ? html`delivered ${formatMoment(d.deliveredAt)}` : '—'}</td>
              <td><code>${d.url}</code></td>
              <td>${d.status === 'DEAD' || d.status === 'FAILED' ? html`<button type="button" @click=${() => redeliver(d)} aria-label="Redeliver ${d.event} of application ${d.lenderApplicationId}">Redeliver</button>` : nothing}</td>
            </tr>`,
          )}</tbody>
        </table>`,
    )}
  </section>`;
}
