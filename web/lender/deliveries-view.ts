/**
 * The lender's webhook deliveries, newest first: searched by application and filtered by status,
 * each with its attempts (status, latency, error, the start of what the receiver answered), the headers and body sent (secrets redacted); redeliver one, replay every failed one or
 * those of a time range (each a new attempt of the same webhook-id), and send a test event to an
 * endpoint with its answer shown.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { formatMoment } from '../shared/format.js';
import { formValues, urlWithBreaks } from '../shared/page-helpers.js';
import { attempt, PAGE_SIZE, token } from './console.js';
import { lenderApi, queryOf, type Delivery, type DeliveryPage, type EndpointTestResult, type ReplayResult } from './lender-api.js';

const DELIVERY_STATUSES = ['PENDING', 'FAILED', 'DEAD', 'DELIVERED'] as const;
const STATUS_TEXT: Record<string, string> = { PENDING: 'pending', FAILED: 'retrying', DEAD: 'failed, retries ran out', DELIVERED: 'delivered' };

const deliveries = {
  filter: { applicationId: '', status: '' },
  rows: [] as Delivery[],
  /** Cursors of the pages before this one. */
  previous: [] as Array<string | undefined>,
  after: undefined as string | undefined,
  next: null as string | null,
  testResult: null as (EndpointTestResult & { kind: string }) | null,
};

export async function loadDeliveries(): Promise<void> {
  const page = await lenderApi<DeliveryPage>(token(), 'GET', `/deliveries${queryOf({ ...deliveries.filter, first: PAGE_SIZE, after: deliveries.after })}`);
  deliveries.rows = page.nodes;
  deliveries.next = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
}

export function closeDeliveries(): void {
  deliveries.rows = [];
  deliveries.previous = [];
  deliveries.after = undefined;
  deliveries.testResult = null;
}

const replayed = (result: ReplayResult) =>
  `Queued ${result.queued} ${result.queued === 1 ? 'delivery' : 'deliveries'} again${result.more ? ' (more matched: replay again for the rest)' : ''}.`;

function attemptsView(d: Delivery): TemplateResult {
  if (d.attempts.length === 0) return html`<span class="muted">none yet</span>`;
  return html`<ol class="attempts" aria-label="Attempts, newest first">${d.attempts.map((a) => {
    const response = a.response;
    return html`<li><time datetime=${a.attemptedAt}>${formatMoment(a.attemptedAt)}</time>: ${a.statusCode ?? 'no answer'}, ${a.latencyMs} ms${a.error ? html` <span class="muted">${a.error}</span>` : nothing}
      ${response?.body ? html`<pre class="excerpt" tabindex="0" role="region" aria-label="What your endpoint answered" data-testid="response-body">${response.body}${response.bodyTruncated ? '…' : ''}</pre>` : nothing}</li>`;
  })}</ol>`;
}

export function deliveriesView(): TemplateResult {
  const search = (event: SubmitEvent) => {
    event.preventDefault();
    const v = formValues(event.target as HTMLFormElement);
    deliveries.filter = { applicationId: (v.applicationId ?? '').trim(), status: v.status ?? '' };
    deliveries.previous = [];
    deliveries.after = undefined;
    void attempt(loadDeliveries);
  };
  const page = (direction: 'next' | 'previous') =>
    attempt(async () => {
      if (direction === 'next') {
        deliveries.previous.push(deliveries.after);
        deliveries.after = deliveries.next ?? undefined;
      } else deliveries.after = deliveries.previous.pop();
      await loadDeliveries();
    });
  const redeliver = (d: Delivery) =>
    attempt(async () => {
      await lenderApi<Delivery>(token(), 'POST', `/deliveries/${d.id}/redeliver`);
      await loadDeliveries();
    }, `Delivery ${d.id} of application ${d.applicationId} queued again.`);
  const replay = (body: Record<string, string>) => {
    let result: ReplayResult | undefined;
    return attempt(
      async () => {
        result = await lenderApi<ReplayResult>(token(), 'POST', '/deliveries/replay', body);
        await loadDeliveries();
      },
      () => replayed(result!),
    );
  };
  const replayRange = (event: SubmitEvent) => {
    event.preventDefault();
    const v = formValues(event.target as HTMLFormElement);
    const instant = (local: string | undefined) => (local ? new Date(local).toISOString() : '');
    void replay({ from: instant(v.from), to: instant(v.to) });
  };
  const sendTest = (event: SubmitEvent) => {
    event.preventDefault();
    const kind = formValues(event.target as HTMLFormElement).kind ?? 'created';
    void attempt(async () => {
      deliveries.testResult = { kind, ...(await lenderApi<EndpointTestResult>(token(), 'POST', `/endpoints/${kind}/test`)) };
    });
  };
  const test = deliveries.testResult;
  return html`<section aria-labelledby="deliveries-title">
    <h2 id="deliveries-title">Webhook deliveries</h2>
    <form class="grid" role="search" aria-label="Search deliveries" @submit=${search}>
      <div><label for="delivery-application">Application id</label><input id="delivery-application" name="applicationId" inputmode="numeric" pattern="[0-9]*" .value=${deliveries.filter.applicationId}></div>
      <div><label for="delivery-status">Status</label><select id="delivery-status" name="status">
        <option value="">Any status</option>
        ${DELIVERY_STATUSES.map((s) => html`<option value=${s} ?selected=${deliveries.filter.status === s}>${STATUS_TEXT[s]}</option>`)}
      </select></div>
      <div><button type="submit">Search</button></div>
    </form>
    <div class="actions-row">
      <section class="panel" aria-labelledby="replay-title">
        <h3 id="replay-title">Replay</h3>
        <p>Each replayed delivery is a new attempt of the same <code>webhook-id</code>.</p>
        <button type="button" @click=${() => replay({ status: 'FAILED' })}>Replay all failed</button>
        <form class="grid" aria-label="Replay a time range" @submit=${replayRange}>
          <div><label for="replay-from">Created from</label><input id="replay-from" name="from" type="datetime-local" required></div>
          <div><label for="replay-to">Until</label><input id="replay-to" name="to" type="datetime-local" required></div>
          <div><button type="submit">Replay this range</button></div>
        </form>
      </section>
      <section class="panel" aria-labelledby="test-title">
        <h3 id="test-title">Test event</h3>
        <form class="grid" aria-label="Send a test event" @submit=${sendTest}>
          <div><label for="test-kind">Endpoint</label><select id="test-kind" name="kind"><option value="created">Application URL (created)</option><option value="updated">Update URL (updated)</option></select></div>
          <div><button type="submit">Send test event</button></div>
        </form>
        ${
          test
            ? html`<dl data-testid="test-result">
              <dt>Sent to</dt><dd><code>${urlWithBreaks(test.url)}</code></dd>
              <dt>Answer</dt><dd data-testid="test-status">${test.statusCode ?? 'no answer'}${test.delivered ? html` <span class="badge" data-status="DELIVERED">delivered</span>` : html` <span class="badge" data-status="FAILED">not delivered</span>`}</dd>
              <dt>Latency</dt><dd>${test.latencyMs} ms</dd>
              ${test.error ? html`<dt>Error</dt><dd class="error">${test.error}</dd>` : nothing}
              <dt>webhook-id</dt><dd><code>${test.webhookId}</code></dd>
            </dl>`
            : nothing
        }
      </section>
    </div>
    ${
      deliveries.rows.length === 0
        ? html`<p class="muted" data-testid="no-deliveries">No deliveries match.</p>`
        : html`<table class="stacked" data-testid="deliveries">
          <caption class="sr-only">Your webhook deliveries, newest first</caption>
          <thead><tr><th scope="col">Application</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts: answer, latency</th><th scope="col">Sent</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>${deliveries.rows.map(
            (d) => html`<tr data-testid="delivery-${d.id}" data-status=${d.status} data-application=${String(d.applicationId)}>
              <td data-label="Application">${d.applicationId}</td>
              <td data-label="Event">${d.eventType} #${d.sequence}<br><code class="muted" data-testid="webhook-id">${d.id}</code></td>
              <td data-label="Status"><span class="badge" data-status=${d.status}>${STATUS_TEXT[d.status] ?? d.status}</span></td>
              <td data-label="Attempts">${attemptsView(d)}</td>
              <td data-label="Sent">
                <details><summary>Request</summary>
                  <p>To <code>${urlWithBreaks(d.url)}</code></p>
                  ${
                    d.attempts[0]
                      ? html`<pre class="json" tabindex="0" role="region" aria-label="Headers sent">${Object.entries(d.attempts[0].requestHeaders)
                          .map(([k, v]) => `${k}: ${v}`)
                          .join('\n')}</pre>`
                      : nothing
                  }
                  <pre class="json" tabindex="0" role="region" aria-label="Body sent">${JSON.stringify(d.requestBody, null, 2)}</pre>
                </details>
              </td>
              <td data-label="">${d.status === 'PENDING' ? nothing : html`<button type="button" @click=${() => redeliver(d)} aria-label="Redeliver ${d.eventType} #${d.sequence} of application ${d.applicationId}">Redeliver</button>`}</td>
            </tr>`,
          )}</tbody>
        </table>`
    }
    <div class="pager">
      <button type="button" ?disabled=${deliveries.previous.length === 0} @click=${() => page('previous')}>Previous</button>
      <button type="button" ?disabled=${!deliveries.next} @click=${() => page('next')}>Next</button>
    </div>
  </section>`;
}
