/**
 * The operations dashboard: funding specialists follow lender applications live, work the review
 * queue, redeliver webhooks and manage the lender catalogue; integrator users see their account's
 * applications. State lives in this module; every change re-renders with lit-html (only the parts
 * of the DOM that changed are touched).
 */
import { html, nothing, render, type TemplateResult } from 'lit';
import type { Client } from 'graphql-ws';
import { formatMoment, formatMoney } from '../shared/format.js';
import type {
  BoardOfferFieldsFragment,
  BoardQuery,
  BoardQueryVariables,
  CreateLenderMutation,
  DeliveriesQuery,
  DeliveriesQueryVariables,
  HistoryQuery,
  HistoryQueryVariables,
  LenderApplicationFilter,
  LendersQuery,
  RedeliverMutation,
  RedeliverMutationVariables,
  ReviewQuery,
  ReviewQueryVariables,
  ReviewsQuery,
  ReviewsQueryVariables,
  SaveProductMutation,
  SubmitMutation,
  SubmitMutationVariables,
  UpdateLenderMutation,
  UpdateLenderMutationVariables,
} from './generated/graphql.js';
import { ApiError, graphql, openLiveConnection } from './graphql-api.js';
import {
  APPLICATION_STATUSES,
  BOARD,
  CREATE_LENDER,
  DELIVERIES,
  HISTORY,
  LENDERS,
  PRODUCT_TYPES,
  REDELIVER,
  REVIEW_QUEUE,
  REVIEW_SELECTION,
  SAVE_PRODUCT,
  SUBMIT_SELECTION,
  UPDATE_LENDER,
} from './queries.js';
import { restoreSession, signIn, signOut, type Session } from './session.js';

type BoardPage = BoardQuery['lenderApplicationBoard'];
type BoardRow = BoardPage['nodes'][number];
type HistoryEntry = HistoryQuery['lenderApplicationHistory'][number];
type LenderSummary = LendersQuery['lenders'][number];
type ReviewSelection = ReviewsQuery['reviewQueue']['nodes'][number];
type ReviewPreview = ReviewQuery['reviewSelection'];
type Delivery = DeliveriesQuery['webhookDeliveries']['nodes'][number];

type Tab = 'board' | 'reviews' | 'deliveries' | 'catalogue';

const state = {
  session: restoreSession() as Session | null,
  tab: 'board' as Tab,
  rows: new Map<number, BoardRow>(),
  filter: { status: '', lenderId: '' },
  /** The latest `updatedAt` seen: a reconnect asks for every row changed since. */
  lastChange: null as string | null,
  connection: 'offline' as 'offline' | 'live' | 'reconnecting',
  history: null as { applicationId: number; entries: HistoryEntry[] } | null,
  lenders: [] as LenderSummary[],
  reviews: [] as ReviewSelection[],
  review: null as ReviewPreview | null,
  deliveries: [] as Delivery[],
  deliveryStatus: '',
  notice: '' as string,
  problem: null as ApiError | Error | null,
};
let live: Client | null = null;

const root = document.getElementById('dashboard')!;
// The shell's loading text is static HTML: lit renders into an emptied container.
root.replaceChildren();
const update = () => render(view(), root);

function token(): string {
  return state.session!.token;
}

async function attempt(action: () => Promise<void>, done?: string): Promise<void> {
  state.problem = null;
  try {
    await action();
    if (done) state.notice = done;
  } catch (err) {
    state.problem = err instanceof Error ? err : new Error(String(err));
    state.notice = '';
    // An expired or revoked login ends the session: the user signs in again.
    if (err instanceof ApiError && err.code === 'UNAUTHENTICATED') endSession();
  }
  update();
}

// ---- live board -----------------------------------------------------------------------------

function boardFilter(extra: LenderApplicationFilter = {}): LenderApplicationFilter {
  return {
    ...(state.filter.status ? { status: state.filter.status } : {}),
    ...(state.filter.lenderId ? { lenderId: Number(state.filter.lenderId) } : {}),
    ...extra,
  };
}

function remember(rows: BoardRow[]): void {
  for (const row of rows) {
    state.rows.set(row.id, row);
    if (!state.lastChange || row.updatedAt > state.lastChange) state.lastChange = row.updatedAt;
  }
}

/** The most rows a list view shows, and the board's page: the largest page the API answers. */
const LIST_PAGE = 200;

async function boardPage(filter: LenderApplicationFilter, after?: string): Promise<BoardPage> {
  return (await graphql<BoardQuery, BoardQueryVariables>(token(), BOARD, { filter, first: LIST_PAGE, ...(after ? { after } : {}) })).lenderApplicationBoard;
}

/** The board: the most recently changed rows, one page. */
async function loadBoard(): Promise<void> {
  const page = await boardPage(boardFilter());
  state.rows.clear();
  remember(page.nodes);
}

/** One row again after its event; a row that no longer passes the filters leaves the board. */
async function refreshRow(applicationId: number): Promise<void> {
  const page = await boardPage(boardFilter({ applicationId }));
  if (page.nodes.length === 0) state.rows.delete(applicationId);
  remember(page.nodes);
  if (state.history?.applicationId === applicationId) await openHistory(applicationId);
  update();
}

/** After a dropped connection: every row changed since the last change seen (or the whole board). */
async function catchUp(): Promise<void> {
  if (!state.lastChange) return loadBoard();
  const filter = boardFilter({ updatedSince: state.lastChange });
  // Every changed row, however many: page after page until the last.
  for (let after: string | undefined; ; ) {
    const page = await boardPage(filter, after);
    remember(page.nodes);
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return;
    after = page.pageInfo.endCursor;
  }
}

function connectLive(): void {
  live = openLiveConnection(token(), {
    connected: (wasRetry) => {
      state.connection = 'live';
      update();
      if (wasRetry) void attempt(catchUp);
    },
    disconnected: () => {
      if (state.connection !== 'offline') state.connection = 'reconnecting';
      update();
    },
    refused: () => {
      if (!state.session) return;
      endSession();
      state.problem = new Error('Your session has ended (it expired, or your access changed): sign in again.');
      update();
    },
    applicationChanged: (applicationId) => void refreshRow(applicationId).catch((err: Error) => attempt(() => Promise.reject(err))),
  });
}

async function openHistory(applicationId: number): Promise<void> {
  const data = await graphql<HistoryQuery, HistoryQueryVariables>(token(), HISTORY, { id: applicationId });
  state.history = { applicationId, entries: data.lenderApplicationHistory };
}

/** A panel opened from a button takes the keyboard focus (its heading), so a keyboard user lands on it. */
function focusAfterRender(id: string): void {
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}

// ---- other views ----------------------------------------------------------------------------

async function loadLenders(): Promise<void> {
  state.lenders = (await graphql<LendersQuery>(token(), LENDERS)).lenders;
}

async function loadReviews(): Promise<void> {
  state.reviews = (await graphql<ReviewsQuery, ReviewsQueryVariables>(token(), REVIEW_QUEUE, { first: LIST_PAGE })).reviewQueue.nodes;
}

async function loadDeliveries(): Promise<void> {
  const data = await graphql<DeliveriesQuery, DeliveriesQueryVariables>(token(), DELIVERIES, { first: LIST_PAGE, ...(state.deliveryStatus ? { status: state.deliveryStatus } : {}) });
  state.deliveries = data.webhookDeliveries.nodes;
}

async function openTab(tab: Tab): Promise<void> {
  state.tab = tab;
  state.notice = '';
  await attempt(async () => {
    if (tab === 'board') await loadBoard();
    if (tab === 'reviews') await Promise.all([loadReviews(), loadLenders()]);
    if (tab === 'deliveries') await Promise.all([loadDeliveries(), loadLenders()]);
    if (tab === 'catalogue') await loadLenders();
  });
}

function formValues(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v)]));
}

const numberOrUndefined = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : Number(value));

async function saveProduct(form: HTMLFormElement): Promise<void> {
  const v = formValues(form);
  const input = {
    productType: v.productType,
    name: v.name,
    minAmount: numberOrUndefined(v.minAmount),
    maxAmount: numberOrUndefined(v.maxAmount),
    minTermMonths: numberOrUndefined(v.minTermMonths),
    maxTermMonths: numberOrUndefined(v.maxTermMonths),
    annualRateMin: numberOrUndefined(v.annualRateMin),
    annualRateMax: numberOrUndefined(v.annualRateMax),
    minAnnualRevenue: numberOrUndefined(v.minAnnualRevenue),
    minTradingMonths: numberOrUndefined(v.minTradingMonths),
    instantOffer: v.instantOffer === 'on',
  };
  // The form's values go as entered (blank numbers left out): the server's validation names each missing or invalid field.
  await graphql<SaveProductMutation>(token(), SAVE_PRODUCT, { lenderId: Number(v.lenderId), input });
  await loadLenders();
}

async function createLender(form: HTMLFormElement): Promise<void> {
  const v = formValues(form);
  await graphql<CreateLenderMutation>(token(), CREATE_LENDER, { input: { name: v.name, priceBand: v.priceBand, responseTimeHours: numberOrUndefined(v.responseTimeHours) } });
  await loadLenders();
  form.reset();
}

async function setWebhookUrls(form: HTMLFormElement): Promise<void> {
  const v = formValues(form);
  const input = { applicationUrl: v.applicationUrl, updateUrl: v.updateUrl?.trim() ? v.updateUrl : null };
  await graphql<UpdateLenderMutation, UpdateLenderMutationVariables>(token(), UPDATE_LENDER, { id: Number(v.lenderId), input });
}

// ---- views ----------------------------------------------------------------------------------

const money = (value: number | null) => (value === null ? '—' : formatMoney(value));
const lenderName = (id: number) => state.lenders.find((l) => l.id === id)?.name ?? `Lender ${id}`;

function offerTerms(offer: BoardOfferFieldsFragment): string {
  const parts = [offer.productType.replace(/_/g, ' ').toLowerCase(), money(offer.amount)];
  if (offer.termMonths !== null) parts.push(`${offer.termMonths} months`);
  if (offer.interestRate !== null) parts.push(`${offer.interestRate}% rate`);
  return parts.join(', ');
}

function problemView(): TemplateResult | typeof nothing {
  const problem = state.problem;
  if (!problem) return nothing;
  const fields = problem instanceof ApiError ? problem.fields : [];
  return html`<div class="panel error" role="alert" data-testid="problem">
    <p>${problem.message}</p>
    ${fields.length ? html`<ul>${fields.map((f) => html`<li><code>${f.pointer}</code>: ${f.message}</li>`)}</ul>` : nothing}
  </div>`;
}

function signInView(): TemplateResult {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const v = formValues(event.target as HTMLFormElement);
    void attempt(async () => {
      state.session = await signIn(v.email ?? '', v.password ?? '');
      await startSession();
    });
  };
  return html`<main>
    <h1>Operations dashboard</h1>
    <p>Sign in with your platform login.</p>
    <form class="grid" @submit=${submit} aria-label="Sign in">
      <div><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required></div>
      <div><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
      <div><button type="submit">Sign in</button></div>
    </form>
    ${problemView()}
  </main>`;
}

function boardView(): TemplateResult {
  const rows = [...state.rows.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
  const filterChanged = (event: Event) => {
    const el = event.target as HTMLSelectElement;
    state.filter = { ...state.filter, [el.name]: el.value };
    void attempt(loadBoard);
  };
  const lenderIds = [...new Set([...state.lenders.map((l) => l.id), ...rows.map((r) => r.lenderId)])];
  return html`<section aria-labelledby="board-title">
    <h2 id="board-title">Lender applications</h2>
    <div class="filters">
      <div><label for="filter-status">Status</label>
        <select id="filter-status" name="status" @change=${filterChanged}>
          <option value="">All statuses</option>
          ${APPLICATION_STATUSES.map((s) => html`<option value=${s} ?selected=${state.filter.status === s}>${s}</option>`)}
        </select></div>
      <div><label for="filter-lender">Lender</label>
        <select id="filter-lender" name="lenderId" @change=${filterChanged}>
          <option value="">All lenders</option>
          ${lenderIds.map((id) => html`<option value=${String(id)} ?selected=${state.filter.lenderId === String(id)}>${rows.find((r) => r.lenderId === id)?.lenderName ?? lenderName(id)}</option>`)}
        </select></div>
    </div>
    <table data-testid="board">
      <caption class="sr-only">Lender applications, last changed first</caption>
      <thead><tr><th scope="col">Application</th><th scope="col">Company</th><th scope="col">Lender</th><th scope="col">Product</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Current offer</th><th scope="col">Last change</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>
        ${rows.length === 0 ? html`<tr><td colspan="9" class="muted">No lender applications.</td></tr>` : nothing}
        ${rows.map(
          (row) => html`<tr data-testid="row-${row.id}" data-status=${row.status}>
            <td>${row.id}</td>
            <td>${row.companyName ?? '—'}</td>
            <td>${row.lenderName}</td>
            <td>${row.productType?.replace(/_/g, ' ').toLowerCase() ?? '—'}</td>
            <td>${money(row.amount)}</td>
            <td class="status" data-testid="status">${row.status}</td>
            <td data-testid="offer">${row.offer ? html`${row.offer.status}${row.offer.decision ? html` (${row.offer.decision})` : nothing}: ${offerTerms(row.offer)} <span class="muted">ref ${row.offer.reference}</span>` : '—'}</td>
            <td>${formatMoment(row.updatedAt)}</td>
            <td><button type="button" @click=${() => attempt(() => openHistory(row.id)).then(() => focusAfterRender('history-title'))} aria-label="History of application ${row.id}">History</button></td>
          </tr>`,
        )}
      </tbody>
    </table>
    ${state.history ? historyView(state.history.applicationId, state.history.entries) : nothing}
  </section>`;
}

function historyView(applicationId: number, entries: HistoryEntry[]): TemplateResult {
  const describe = (e: HistoryEntry) => {
    if (e.kind === 'STATUS') return `${e.fromStatus ?? 'new'} → ${e.status}${e.reason ? ` (${e.reason})` : ''}${e.comment ? `: ${e.comment}` : ''}`;
    if (e.kind === 'OFFER') return `Offer ${e.offer?.reference} ${e.status}: ${e.offer ? offerTerms(e.offer) : ''}${e.replacedAt ? ` — replaced ${formatMoment(e.replacedAt)}` : ''}`;
    return `Client ${e.status?.toLowerCase()} offer ${e.offer?.reference}`;
  };
  return html`<section class="panel" aria-labelledby="history-title" data-testid="history">
    <h3 id="history-title" tabindex="-1">History of application ${applicationId}</h3>
    <ol>${entries.map((e) => html`<li><time datetime=${e.at}>${formatMoment(e.at)}</time>: ${describe(e)}</li>`)}</ol>
    <button type="button" @click=${() => { state.history = null; update(); }}>Close history</button>
  </section>`;
}

function reviewsView(): TemplateResult {
  const open = (selection: ReviewSelection) =>
    attempt(async () => {
      state.review = (await graphql<ReviewQuery, ReviewQueryVariables>(token(), REVIEW_SELECTION, { id: selection.id })).reviewSelection;
    });
  return html`<section aria-labelledby="reviews-title">
    <h2 id="reviews-title">Review queue</h2>
    <table data-testid="reviews">
      <thead><tr><th scope="col">Received</th><th scope="col">Profile</th><th scope="col">Preferred lenders and products</th><th scope="col">State</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>
        ${state.reviews.length === 0 ? html`<tr><td colspan="5" class="muted">The queue is empty.</td></tr>` : nothing}
        ${state.reviews.map(
          (r) => html`<tr data-testid="review-${r.id}">
            <td>${formatMoment(r.createdAt)}</td>
            <td><code>${r.profileId}</code></td>
            <td><ul>${r.selection.map((s) => html`<li>${lenderName(s.lenderId)}: ${s.products.map((p) => p.replace(/_/g, ' ').toLowerCase()).join(', ')}</li>`)}</ul></td>
            <td>${r.state}</td>
            <td><button type="button" @click=${() => open(r).then(() => focusAfterRender('review-title'))} aria-label="Review the selection received ${formatMoment(r.createdAt)}">Review</button></td>
          </tr>`,
        )}
      </tbody>
    </table>
    ${state.review ? reviewView(state.review) : nothing}
  </section>`;
}

function reviewView(review: ReviewPreview): TemplateResult {
  const blocked = review.lenders.some((l) => !l.matched || l.missingFields.length > 0);
  const submittable = review.state === 'PENDING_REVIEW' || review.state === 'IN_REVIEW';
  const submit = () =>
    attempt(async () => {
      const result = await graphql<SubmitMutation, SubmitMutationVariables>(token(), SUBMIT_SELECTION, { id: review.selectionId });
      state.notice = `Submitted to ${result.submitReviewedSelection.applications.length} lender(s).`;
      state.review = null;
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
        <strong>${l.lenderName ?? lenderName(l.lenderId)}</strong>: ${l.products.map((p) => p.replace(/_/g, ' ').toLowerCase()).join(', ')}
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
    <button type="button" @click=${() => { state.review = null; update(); }}>Close</button>
  </section>`;
}

function deliveriesView(): TemplateResult {
  const statusChanged = (event: Event) => {
    state.deliveryStatus = (event.target as HTMLSelectElement).value;
    void attempt(loadDeliveries);
  };
  const redeliver = (d: Delivery) =>
    attempt(async () => {
      await graphql<RedeliverMutation, RedeliverMutationVariables>(token(), REDELIVER, { id: d.id });
      await loadDeliveries();
    }, `Delivery ${d.id} queued again.`);
  const byLender = new Map<number, Delivery[]>();
  for (const d of state.deliveries) byLender.set(d.lenderId, [...(byLender.get(d.lenderId) ?? []), d]);
  return html`<section aria-labelledby="deliveries-title">
    <h2 id="deliveries-title">Webhook deliveries</h2>
    <div class="filters">
      <div><label for="delivery-status">Status</label>
        <select id="delivery-status" @change=${statusChanged}>
          <option value="">All</option>
          ${['PENDING', 'FAILED', 'DEAD', 'DELIVERED'].map((s) => html`<option value=${s} ?selected=${state.deliveryStatus === s}>${s}</option>`)}
        </select></div>
      <div><button type="button" @click=${() => attempt(loadDeliveries)}>Refresh</button></div>
    </div>
    ${state.deliveries.length === 0 ? html`<p class="muted">No deliveries.</p>` : nothing}
    ${[...byLender.entries()].map(
      ([lenderId, deliveries]) => html`<h3>${lenderName(lenderId)}</h3>
        <table>
          <thead><tr><th scope="col">Application</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts: answer, latency</th><th scope="col">Next attempt</th><th scope="col">URL</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>${deliveries.map(
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

function catalogueView(): TemplateResult {
  const onSubmit = (action: (form: HTMLFormElement) => Promise<void>, done: string) => (event: SubmitEvent) => {
    event.preventDefault();
    void attempt(() => action(event.target as HTMLFormElement), done);
  };
  const numberField = (name: string, label: string, required = true, step = 'any') =>
    html`<div><label for="product-${name}">${label}</label><input id="product-${name}" name=${name} type="number" min="0" step=${step} ?required=${required}></div>`;
  return html`<section aria-labelledby="catalogue-title">
    <h2 id="catalogue-title">Lender catalogue</h2>
    <table data-testid="lenders">
      <thead><tr><th scope="col">Lender</th><th scope="col">Price band</th><th scope="col">Response time</th><th scope="col">Products</th></tr></thead>
      <tbody>${state.lenders.map(
        (l) => html`<tr><td>${l.name}</td><td>${l.priceBand}</td><td>${l.responseTimeHours} h</td>
          <td>${l.products.map((p) => html`${p.name} <span class="muted">(${p.productType.replace(/_/g, ' ').toLowerCase()}${p.instantOffer ? ', instant offer' : ''})</span><br>`)}</td></tr>`,
      )}</tbody>
    </table>
    <h3>Save a product</h3>
    <p class="muted">Creates the lender's product of that type, or replaces its terms. Amounts in pounds, rates in % a year.</p>
    <form class="grid" aria-label="Save a product" @submit=${onSubmit(saveProduct, 'Product saved.')}>
      <div><label for="product-lender">Lender</label><select id="product-lender" name="lenderId" required>${state.lenders.map((l) => html`<option value=${String(l.id)}>${l.name}</option>`)}</select></div>
      <div><label for="product-type">Product type</label><select id="product-type" name="productType" required>${PRODUCT_TYPES.map((t) => html`<option value=${t}>${t.replace(/_/g, ' ').toLowerCase()}</option>`)}</select></div>
      <div><label for="product-name">Product name</label><input id="product-name" name="name" required maxlength="200"></div>
      <div><label><input type="checkbox" name="instantOffer"> Instant offer</label></div>
      ${numberField('minAmount', 'Minimum amount (£)')}
      ${numberField('maxAmount', 'Maximum amount (£)')}
      ${numberField('minTermMonths', 'Minimum term (months)', true, '1')}
      ${numberField('maxTermMonths', 'Maximum term (months)', true, '1')}
      ${numberField('annualRateMin', 'Lowest annual rate (%)')}
      ${numberField('annualRateMax', 'Highest annual rate (%)')}
      ${numberField('minAnnualRevenue', 'Minimum annual revenue (£)', false)}
      ${numberField('minTradingMonths', 'Minimum trading (months)', false, '1')}
      <div><button type="submit">Save product</button></div>
    </form>
    <h3>Webhook URLs of a lender</h3>
    <p class="muted">Checked against the webhook URL policy (http or https; no private networks unless this deployment allows them).</p>
    <form class="grid" aria-label="Webhook URLs" @submit=${onSubmit(setWebhookUrls, 'Webhook URLs saved.')}>
      <div><label for="webhook-lender">Lender</label><select id="webhook-lender" name="lenderId" required>${state.lenders.map((l) => html`<option value=${String(l.id)}>${l.name}</option>`)}</select></div>
      <div><label for="webhook-application">Application URL</label><input id="webhook-application" name="applicationUrl" type="url" required></div>
      <div><label for="webhook-update">Update URL (optional)</label><input id="webhook-update" name="updateUrl" type="url"></div>
      <div><button type="submit">Save webhook URLs</button></div>
    </form>
    <h3>Add a lender</h3>
    <form class="grid" aria-label="Add a lender" @submit=${onSubmit(createLender, 'Lender added.')}>
      <div><label for="lender-name">Name</label><input id="lender-name" name="name" required maxlength="200"></div>
      <div><label for="lender-band">Price band</label><select id="lender-band" name="priceBand">${['LOW', 'AVERAGE', 'EXPENSIVE', 'MOST_EXPENSIVE'].map((b) => html`<option value=${b}>${b}</option>`)}</select></div>
      <div><label for="lender-response">Response time (hours)</label><input id="lender-response" name="responseTimeHours" type="number" min="1" step="1"></div>
      <div><button type="submit">Add lender</button></div>
    </form>
  </section>`;
}

function view(): TemplateResult {
  const session = state.session;
  if (!session) return signInView();
  const tabs: Array<[Tab, string]> = [['board', 'Applications'], ...(session.staff ? ([['reviews', 'Review queue'], ['deliveries', 'Deliveries']] as Array<[Tab, string]>) : []), ...(session.admin ? ([['catalogue', 'Lender catalogue']] as Array<[Tab, string]>) : [])];
  const connection = { live: 'Live', reconnecting: 'Reconnecting…', offline: 'Offline' }[state.connection];
  return html`<header>
      <h1>Operations dashboard</h1>
      <nav aria-label="Views"><ul>${tabs.map(([tab, label]) => html`<li><button type="button" aria-current=${state.tab === tab ? 'page' : 'false'} @click=${() => openTab(tab)}>${label}</button></li>`)}</ul></nav>
      <span class="connection" role="status" data-testid="connection" data-state=${state.connection}>${connection}</span>
      <button type="button" @click=${endSession}>Sign out</button>
    </header>
    <main>
      <p role="status" class="ok" data-testid="notice">${state.notice}</p>
      ${problemView()}
      ${state.tab === 'board' ? boardView() : state.tab === 'reviews' ? reviewsView() : state.tab === 'deliveries' ? deliveriesView() : catalogueView()}
    </main>`;
}

async function startSession(): Promise<void> {
  await loadBoard();
  if (state.session?.staff || state.session?.admin) await loadLenders().catch(() => undefined);
  connectLive();
}

function endSession(): void {
  signOut();
  state.connection = 'offline';
  void live?.dispose();
  live = null;
  state.session = null;
  state.rows.clear();
  state.lastChange = null;
  update();
}

update();
if (state.session) void attempt(startSession);
