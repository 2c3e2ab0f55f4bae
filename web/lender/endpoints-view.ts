/**
 * The lender's webhook endpoints: where each kind of event goes (created, updated), how many
 * deliveries wait, enable or disable each (a disabled one's deliveries wait, never dead-lettered),
 * change a URL, and rotate the signing secret with an overlap window (the new secret shown once;
 * both signatures are sent until the window ends).
 */
import { html, nothing, type TemplateResult } from 'lit';
import { formatMoment } from '../shared/format.js';
import { formValues, urlWithBreaks } from '../shared/page-helpers.js';
import { attempt, token } from './console.js';
import { lenderApi, type Endpoint, type Endpoints, type RotatedSecret } from './lender-api.js';

const OVERLAPS: Array<[number, string]> = [
  [86_400, 'a day'],
  [3_600, 'an hour'],
  [7 * 86_400, 'a week'],
  [0, 'none: the old secret stops now'],
];
const KIND_TEXT = { created: 'New applications (created)', updated: 'Updates (updated)' } as const;

const endpoints = {
  current: null as Endpoints | null,
  /** The new secret, shown until the view is left: it is never shown again. */
  rotated: null as RotatedSecret | null,
};

export async function loadEndpoints(): Promise<void> {
  endpoints.current = await lenderApi<Endpoints>(token(), 'GET', '/endpoints');
}

export function closeEndpoints(): void {
  endpoints.current = null;
  endpoints.rotated = null;
}

function endpointRow(e: Endpoint): TemplateResult {
  const change = (body: { url?: string | null; enabled?: boolean }, done: string) =>
    attempt(async () => {
      await lenderApi<Endpoint>(token(), 'PATCH', `/endpoints/${e.kind}`, body);
      await loadEndpoints();
    }, done);
  const saveUrl = (event: SubmitEvent) => {
    event.preventDefault();
    const url = (formValues(event.target as HTMLFormElement).url ?? '').trim();
    void change({ url: url === '' && e.kind === 'updated' ? null : url }, `The ${e.kind} URL is saved.`);
  };
  return html`<tr data-testid="endpoint-${e.kind}" data-enabled=${String(e.enabled)}>
    <th scope="row" data-label="Events">${KIND_TEXT[e.kind]}</th>
    <td data-label="URL">${e.url ? html`<code>${urlWithBreaks(e.url)}</code>` : html`<span class="muted">not set</span>`}${e.ownUrl ? nothing : html` <span class="muted">(your application URL)</span>`}
      <form class="inline" aria-label="Change the ${e.kind} URL" @submit=${saveUrl}>
        <label for="url-${e.kind}">New URL${e.kind === 'updated' ? ' (empty: your application URL)' : ''}</label>
        <input id="url-${e.kind}" name="url" type="url" ?required=${e.kind === 'created'}>
        <button type="submit">Save URL</button>
      </form></td>
    <td data-label="State"><span class="badge" data-status=${e.enabled ? 'DELIVERED' : 'FAILED'}>${e.enabled ? 'enabled' : 'disabled: deliveries wait'}</span></td>
    <td data-label="Waiting" data-testid="waiting">${e.waiting}</td>
    <td data-label=""><button type="button" @click=${() => change({ enabled: !e.enabled }, e.enabled ? `The ${e.kind} endpoint is disabled: its deliveries wait.` : `The ${e.kind} endpoint is enabled: what waited is sent now.`)}>${e.enabled ? 'Disable' : 'Enable'}</button></td>
  </tr>`;
}

export function endpointsView(): TemplateResult {
  const current = endpoints.current;
  const rotate = (event: SubmitEvent) => {
    event.preventDefault();
    const overlapSeconds = Number(formValues(event.target as HTMLFormElement).overlap ?? 86_400);
    void attempt(async () => {
      endpoints.rotated = await lenderApi<RotatedSecret>(token(), 'POST', '/webhook-secret/rotate', { overlapSeconds });
      await loadEndpoints();
    }, 'A new signing secret is made: copy it now, it is not shown again.');
  };
  const secret = current?.signingSecret;
  return html`<section aria-labelledby="endpoints-title">
    <h2 id="endpoints-title">Endpoints</h2>
    ${
      current
        ? html`<table class="stacked" data-testid="endpoints">
          <caption class="sr-only">Your webhook endpoints</caption>
          <thead><tr><th scope="col">Events</th><th scope="col">URL</th><th scope="col">State</th><th scope="col">Waiting</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>${current.endpoints.map(endpointRow)}</tbody>
        </table>`
        : nothing
    }
    <section class="panel" aria-labelledby="secret-title">
      <h3 id="secret-title">Signing secret</h3>
      <p data-testid="secret-status">${
        secret
          ? secret.status === 'NONE'
            ? 'No signing secret: deliveries are not signed.'
            : secret.status === 'ROTATING'
              ? html`Rotating: deliveries carry signatures with the new and the previous secret until ${secret.previousSecretValidUntil ? formatMoment(secret.previousSecretValidUntil) : 'the window ends'}.`
              : 'Active: deliveries are signed with your secret (Standard Webhooks).'
          : nothing
      }</p>
      <form class="grid" aria-label="Rotate the signing secret" @submit=${rotate}>
        <div><label for="overlap">The previous secret also signs for</label><select id="overlap" name="overlap">${OVERLAPS.map(([seconds, label]) => html`<option value=${String(seconds)}>${label}</option>`)}</select></div>
        <div><button type="submit">Rotate the signing secret</button></div>
      </form>
      ${
        endpoints.rotated
          ? html`<div class="panel" role="status" data-testid="new-secret">
            <p><strong>Your new signing secret</strong> (shown this once):</p>
            <p><code data-testid="secret">${endpoints.rotated.webhookSecret}</code></p>
          </div>`
          : nothing
      }
    </section>
  </section>`;
}
