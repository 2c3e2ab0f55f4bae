/**
 * The integrator console's request log: the account's recent API requests, newest first, filtered
 * by outcome or status, route, credential and request id; a failure opens to its problem body (the
 * answer the client got). Successful requests' bodies are never stored, so there is none to show.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { formatMoment } from '../shared/format.js';
import type { RequestLogQuery, RequestLogQueryVariables } from './generated/graphql.js';
import { graphql } from './graphql-api.js';
import { REQUEST_LOG } from './console-queries.js';
import { attempt, formValues, numberOrUndefined, token } from './app.js';

type Entry = RequestLogQuery['requestLog']['nodes'][number];
type Filter = NonNullable<RequestLogQueryVariables['filter']>;

const LOG_PAGE = 50;

const log = {
  filter: {} as Filter,
  rows: [] as Entry[],
  endCursor: null as string | null,
};

export async function loadRequestLog(more = false): Promise<void> {
  const filter: Filter = { ...log.filter, first: LOG_PAGE, ...(more && log.endCursor ? { before: log.endCursor } : {}) };
  const page = (await graphql<RequestLogQuery, RequestLogQueryVariables>(token(), REQUEST_LOG, { filter })).requestLog;
  log.rows = more ? [...log.rows, ...page.nodes] : page.nodes;
  log.endCursor = page.endCursor ?? null;
}

export function closeRequestLog(): void {
  log.rows = [];
  log.endCursor = null;
  log.filter = {};
}

/** The problem body, indented for reading (it is JSON as the API sent it). */
function problemText(problem: string): string {
  try {
    return JSON.stringify(JSON.parse(problem), null, 2);
  } catch {
    return problem;
  }
}

const credentialOf = (e: Entry) =>
  `${e.credentialKind.replace('_', ' ')}${e.apiKeyId ? ` key ${e.apiKeyId}` : e.userId ? ` user ${e.userId}` : ''}${e.tenantId ? `, tenant ${e.tenantId}` : ''}`;

export function requestLogView(): TemplateResult {
  const apply = (event: SubmitEvent) => {
    event.preventDefault();
    const v = formValues(event.target as HTMLFormElement);
    const status = numberOrUndefined(v.status);
    log.filter = {
      ...(v.outcome ? { outcome: v.outcome as Filter['outcome'] } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(v.route?.trim() ? { route: v.route.trim() } : {}),
      ...(v.credential?.trim() ? { credential: v.credential.trim() } : {}),
      ...(v.requestId?.trim() ? { requestId: v.requestId.trim() } : {}),
    };
    void attempt(() => loadRequestLog());
  };
  const f = log.filter;
  return html`<section aria-labelledby="log-title" class="console">
    <h2 id="log-title">Request log</h2>
    <p class="muted">Your account's API requests of the last days, newest first. A failed request keeps the problem body it was answered with; successful requests keep no body.</p>
    <form class="grid" aria-label="Filter requests" @submit=${apply}>
      <div><label for="log-outcome">Outcome</label>
        <select id="log-outcome" name="outcome">
          ${[
            ['', 'All'],
            ['FAILED', 'Failed (4xx, 5xx)'],
            ['CLIENT_ERROR', 'Client errors (4xx)'],
            ['SERVER_ERROR', 'Server errors (5xx)'],
            ['SUCCEEDED', 'Succeeded'],
          ].map(([value, label]) => html`<option value=${value!} ?selected=${(f.outcome ?? '') === value}>${label}</option>`)}
        </select></div>
      <div><label for="log-status">Status</label><input id="log-status" name="status" type="number" min="100" max="599" .value=${f.status === undefined || f.status === null ? '' : String(f.status)}></div>
      <div><label for="log-route">Route contains</label><input id="log-route" name="route" .value=${f.route ?? ''}></div>
      <div><label for="log-credential">Credential (key id, user id or token kind)</label><input id="log-credential" name="credential" .value=${f.credential ?? ''}></div>
      <div><label for="log-request-id">Request id</label><input id="log-request-id" name="requestId" .value=${f.requestId ?? ''}></div>
      <div><button type="submit">Apply</button></div>
    </form>
    ${
      log.rows.length === 0
        ? html`<p class="muted">No requests match.</p>`
        : html`<table class="stacked" data-testid="request-log">
      <thead><tr><th scope="col">Time</th><th scope="col">Request</th><th scope="col">Status</th><th scope="col">Latency</th><th scope="col">Credential</th><th scope="col">Request id</th></tr></thead>
      <tbody>${log.rows.map(
        (e) => html`<tr data-testid="request-${e.requestId}" data-status=${String(e.status)}>
          <td data-label="Time">${formatMoment(e.createdAt)}</td>
          <td data-label="Request"><code>${e.method} ${e.route}</code>${e.problem ? html`<details><summary>Problem body</summary><pre class="problem" data-testid="problem-body">${problemText(e.problem)}</pre></details>` : nothing}</td>
          <td data-label="Status"><span class="badge" data-status=${e.status >= 500 ? 'DEAD' : e.status >= 400 ? 'FAILED' : 'DELIVERED'}>${e.status}</span></td>
          <td data-label="Latency">${e.latencyMs.toFixed(1)} ms</td>
          <td data-label="Credential"><code>${credentialOf(e)}</code></td>
          <td data-label="Request id"><code>${e.requestId}</code></td>
        </tr>`,
      )}</tbody>
    </table>
    ${log.endCursor ? html`<div class="pager"><button type="button" @click=${() => attempt(() => loadRequestLog(true))}>Older requests</button></div>` : nothing}`
    }
  </section>`;
}
