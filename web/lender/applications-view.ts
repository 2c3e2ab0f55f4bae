/**
 * The lender's applications: searched (company name, reference, id), filtered by status and by how
 * long they have waited, sorted and paged on the server (keyset: each page continues after the
 * last id of the one before), with the totals of the filter. An application opens in a panel: the
 * spec 2.7 document as sent, its documents to download, its history (every event its webhooks
 * carried, from its deliveries) and the offers it posted.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { formatMoment, formatMoney } from '../shared/format.js';
import { focusAfterRender, formValues } from '../shared/page-helpers.js';
import { attempt, consoleState, PAGE_SIZE, token, update } from './console.js';
import { downloadDocument, lenderApi, queryOf, type ApplicationDocument, type ApplicationTotals, type Delivery, type DeliveryPage } from './lender-api.js';

const STATUSES = ['In Review', 'Offered', 'Failed', 'Rejected', 'Client Accepted', 'Client Declined'] as const;
const AGES: Array<[string, string]> = [
  ['', 'Any age'],
  ['1', 'Waiting over 1 day'],
  ['3', 'Waiting over 3 days'],
  ['7', 'Waiting over 7 days'],
  ['30', 'Waiting over 30 days'],
];
const SORTS: Array<[string, string]> = [
  ['received', 'Received, oldest first'],
  ['-received', 'Received, newest first'],
  ['-updated', 'Last change, newest first'],
  ['company', 'Company, A to Z'],
  ['-company', 'Company, Z to A'],
  ['-amount', 'Amount, largest first'],
  ['amount', 'Amount, smallest first'],
  ['status', 'Status'],
];
const DAY_MS = 86_400_000;

type Offer = NonNullable<ApplicationDocument['application']['offer']>;

const list = {
  filter: { q: '', status: '', ageDays: '', sort: 'received' },
  rows: [] as ApplicationDocument[],
  /** The `after` of each page before this one: "Previous" pops one. */
  previous: [] as Array<number | undefined>,
  after: undefined as number | undefined,
  totals: null as ApplicationTotals | null,
  detail: null as { document: ApplicationDocument; deliveries: Delivery[] } | null,
};

function filterQuery(): Record<string, string | undefined> {
  const { q, status, ageDays } = list.filter;
  return { q: q.trim(), status, receivedBefore: ageDays ? new Date(Date.now() - Number(ageDays) * DAY_MS).toISOString() : undefined };
}

export async function loadApplications(): Promise<void> {
  const query = filterQuery();
  const [rows, totals] = await Promise.all([
    lenderApi<ApplicationDocument[]>(token(), 'GET', `/applications${queryOf({ ...query, sort: list.filter.sort, limit: PAGE_SIZE, after: list.after })}`),
    lenderApi<ApplicationTotals>(token(), 'GET', `/applications/totals${queryOf(query)}`),
  ]);
  list.rows = rows;
  list.totals = totals;
}

/** A live event named this application: the page and, when it is open, its panel are read again. */
export async function applicationChanged(applicationId: number): Promise<void> {
  await loadApplications();
  if (list.detail?.document.application.id === applicationId) await openApplication(applicationId, false);
}

export function closeApplications(): void {
  list.rows = [];
  list.totals = null;
  list.detail = null;
  list.previous = [];
  list.after = undefined;
}

async function openApplication(id: number, focus = true): Promise<void> {
  const [document, deliveries] = await Promise.all([
    lenderApi<ApplicationDocument>(token(), 'GET', `/applications/${id}`),
    lenderApi<DeliveryPage>(token(), 'GET', `/deliveries${queryOf({ applicationId: id, first: 200 })}`),
  ]);
  list.detail = { document, deliveries: deliveries.nodes };
  if (focus) focusAfterRender('application-title');
}

const companyOf = (d: ApplicationDocument) => d.application.profile?.basicCompanyDetails.companyName ?? '(no company name)';
const amountOf = (d: ApplicationDocument) => {
  const amount = Number(d.application.fundingSearch?.amount);
  return Number.isFinite(amount) && d.application.fundingSearch?.amount ? formatMoney(amount) : '—';
};

function offerSummary(offer: Offer): string {
  const product = Object.entries(offer).find(([key, value]) => typeof value === 'object' && value !== null && !['decision'].includes(key));
  const terms = product?.[1] as { maximumAmount?: { value?: number } | number; term?: number } | undefined;
  const max = typeof terms?.maximumAmount === 'object' ? terms.maximumAmount.value : terms?.maximumAmount;
  return [offer.status.toLowerCase(), product?.[0], max !== undefined ? formatMoney(max) : null, terms?.term ? `${terms.term} months` : null]
    .filter(Boolean)
    .join(', ');
}

export function applicationsView(): TemplateResult {
  const search = (event: SubmitEvent) => {
    event.preventDefault();
    const v = formValues(event.target as HTMLFormElement);
    list.filter = { q: v.q ?? '', status: v.status ?? '', ageDays: v.age ?? '', sort: v.sort ?? 'received' };
    list.previous = [];
    list.after = undefined;
    void attempt(loadApplications);
  };
  const page = (direction: 'next' | 'previous') =>
    attempt(async () => {
      if (direction === 'next') {
        list.previous.push(list.after);
        list.after = list.rows.at(-1)?.application.id;
      } else list.after = list.previous.pop();
      await loadApplications();
    });
  const totals = list.totals;
  return html`<section aria-labelledby="applications-title">
    <h2 id="applications-title">Applications</h2>
    <form class="grid" role="search" aria-label="Search applications" @submit=${search}>
      <div><label for="q">Company, reference or id</label><input id="q" name="q" type="search" .value=${list.filter.q} maxlength="100"></div>
      <div><label for="status">Status</label><select id="status" name="status">
        <option value="">Any status</option>
        ${STATUSES.map((s) => html`<option value=${s} ?selected=${list.filter.status === s}>${s}</option>`)}
      </select></div>
      <div><label for="age">Age</label><select id="age" name="age">${AGES.map(([value, label]) => html`<option value=${value} ?selected=${list.filter.ageDays === value}>${label}</option>`)}</select></div>
      <div><label for="sort">Order</label><select id="sort" name="sort">${SORTS.map(([value, label]) => html`<option value=${value} ?selected=${list.filter.sort === value}>${label}</option>`)}</select></div>
      <div><button type="submit">Search</button></div>
    </form>
    ${
      totals
        ? html`<p data-testid="totals"><strong>${totals.total}</strong> ${totals.total === 1 ? 'application' : 'applications'}${
            totals.byStatus.length
              ? html`: <span class="status-counts">${totals.byStatus.map((s, i) => html`${i ? ', ' : ''}<span data-testid="count-${s.status}">${s.status} ${s.count}</span>`)}</span>`
              : nothing
          }</p>`
        : nothing
    }
    ${
      list.rows.length === 0
        ? html`<p class="muted" data-testid="no-applications">No applications match.</p>`
        : html`<table class="stacked" data-testid="applications">
          <caption class="sr-only">Your applications</caption>
          <thead><tr><th scope="col">Id</th><th scope="col">Company</th><th scope="col">Your reference</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Current offer</th></tr></thead>
          <tbody>${list.rows.map(
            (d) => html`<tr data-testid="application-${d.application.id}">
              <td data-label="Id">${d.application.id}</td>
              <td data-label="Company"><button type="button" class="link" @click=${() => attempt(() => openApplication(d.application.id))}>${companyOf(d)}</button></td>
              <td data-label="Your reference">${d.application.reference ?? '—'}</td>
              <td data-label="Amount">${amountOf(d)}</td>
              <td data-label="Status"><span class="badge" data-status=${d.application.status}>${d.application.status}</span></td>
              <td data-label="Current offer">${d.application.offer ? offerSummary(d.application.offer) : '—'}</td>
            </tr>`,
          )}</tbody>
        </table>`
    }
    <div class="pager">
      <button type="button" ?disabled=${list.previous.length === 0} @click=${() => page('previous')}>Previous</button>
      <button type="button" ?disabled=${list.rows.length < PAGE_SIZE} @click=${() => page('next')}>Next</button>
    </div>
    ${list.detail ? detailView(list.detail.document, list.detail.deliveries) : nothing}
  </section>`;
}

/** The offers the lender posted, as its update events carried them (the current one last). */
function offersOf(document: ApplicationDocument, deliveries: Delivery[]): Offer[] {
  const byId = new Map<string, Offer>();
  for (const d of [...deliveries].sort((a, b) => a.sequence - b.sequence)) {
    const offer = (d.requestBody as { application?: { offer?: Offer | null } }).application?.offer;
    if (offer) byId.set(offer.id, offer);
  }
  if (document.application.offer) byId.set(document.application.offer.id, document.application.offer);
  return [...byId.values()];
}

function detailView(document: ApplicationDocument, deliveries: Delivery[]): TemplateResult {
  const a = document.application;
  const close = () => {
    list.detail = null;
    update();
  };
  const download = (url: string, fileName: string) => attempt(() => downloadDocument(token(), url, fileName), `Downloaded ${fileName}.`);
  const history = [...deliveries].sort((x, y) => x.sequence - y.sequence);
  const offers = offersOf(document, deliveries);
  return html`<section class="panel" aria-labelledby="application-title" data-testid="application-detail">
    <h3 id="application-title" tabindex="-1">Application ${a.id}: ${companyOf(document)}</h3>
    <button type="button" @click=${close}>Close</button>
    <dl>
      <dt>Status</dt><dd><span class="badge" data-status=${a.status}>${a.status}</span>${a.responseReason ? html` <span class="muted">${a.responseReason}</span>` : nothing}</dd>
      <dt>Your reference</dt><dd>${a.reference ?? '—'}</dd>
      <dt>Amount</dt><dd>${amountOf(document)}</dd>
      <dt>Company number</dt><dd>${a.profile?.basicCompanyDetails.companyNumber ?? '—'}</dd>
      <dt>Comment</dt><dd>${a.comment ?? '—'}</dd>
    </dl>
    <h4>Documents</h4>
    ${
      a.profile?.attachments.length
        ? html`<ul class="documents">${a.profile.attachments.map(
            (file) => html`<li>${file.fileName} <span class="muted">(${file.contentType}, ${file.sizeBytes} bytes)</span>
            <button type="button" @click=${() => download(file.url, file.fileName)} aria-label="Download ${file.fileName}">Download</button></li>`,
          )}</ul>`
        : html`<p class="muted">No documents.</p>`
    }
    <h4>Offers you posted</h4>
    ${
      offers.length
        ? html`<ul data-testid="offers">${offers.map((o) => html`<li><strong>${o.reference}</strong>: ${offerSummary(o)}${o.decision ? html` <span class="badge">${o.decision.toLowerCase()}</span>` : nothing}${o.id === a.offer?.id ? html` <span class="muted">(current)</span>` : nothing}</li>`)}</ul>`
        : html`<p class="muted">No offers yet.</p>`
    }
    <h4>History</h4>
    ${
      history.length
        ? html`<ol class="history" data-testid="history">${history.map((d) => {
            const sent = (d.requestBody as { application?: { status?: string } }).application;
            return html`<li><time datetime=${d.createdAt}>${formatMoment(d.createdAt)}</time>: ${d.eventType} #${d.sequence}, status ${sent?.status ?? '—'}; delivery <span class="badge" data-status=${d.status}>${d.status.toLowerCase()}</span></li>`;
          })}</ol>`
        : html`<p class="muted">No events yet.</p>`
    }
    <details>
      <summary>The document as sent (spec 2.7)</summary>
      <pre class="json" tabindex="0" role="region" aria-label="The document as sent" data-testid="document-json">${JSON.stringify(document, null, 2)}</pre>
    </details>
  </section>`;
}
