/**
 * The board: lender applications searched, filtered (status chips with counts, lender), sorted by
 * any column and paged by cursor on the server, followed live over graphql-ws (a changed row is read
 * again, highlighted and announced; the counts are read again too). Time in status is marked
 * against a service level the operator sets (kept in this browser; docs/operations.md). When live
 * updates stop, a banner says so and the rows are marked stale until the page is read again.
 * History opens in a side panel in causal order, to the second. CSV export pages through the
 * whole filter.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Client } from 'graphql-ws';
import type {
  BoardOfferFieldsFragment,
  BoardQuery,
  BoardQueryVariables,
  BoardRowQuery,
  BoardRowQueryVariables,
  HistoryQuery,
  HistoryQueryVariables,
  LenderApplicationFilter,
  LenderApplicationOrder,
} from './generated/graphql.js';
import { graphql, openLiveConnection } from './graphql-api.js';
import { APPLICATION_STATUSES, BOARD, BOARD_ROW, HISTORY } from './board-queries.js';
import { app, attempt, endSession, enumLabel, focusAfterRender, lenderName, money, token, update } from './app.js';
import { csvOf } from './board-csv.js';

type BoardPage = BoardQuery['lenderApplicationBoard'];
type BoardRow = BoardPage['nodes'][number];
type HistoryEntry = HistoryQuery['lenderApplicationHistory'][number];
type SortField = 'LAST_CHANGE' | 'CREATED' | 'AMOUNT' | 'COMPANY' | 'STATUS';

/** Rows a page of the board shows. */
const BOARD_PAGE = 100;
/** Statuses where the application waits on someone (lender or client): only these age. */
const WAITING = new Set(['In Review', 'Offered']);
const SERVICE_LEVEL_KEY = 'board.serviceLevelHours';
const DEFAULT_SERVICE_LEVEL_HOURS = 48;
const HIGHLIGHT_MS = 6_000;

const board = {
  rows: [] as BoardRow[],
  filter: { status: '', lenderId: '', search: '' },
  order: { field: 'LAST_CHANGE' as SortField, direction: 'DESC' as 'ASC' | 'DESC' },
  /** Cursors of the pages before this one (the first page has none): "previous" pops one. */
  previous: [] as Array<string | undefined>,
  after: undefined as string | undefined,
  next: null as string | null,
  total: 0,
  counts: [] as Array<{ status: string; count: number }>,
  connection: 'offline' as 'offline' | 'live' | 'reconnecting',
  stale: false,
  highlighted: new Set<number>(),
  announcement: '',
  exporting: false,
  history: null as { applicationId: number; entries: HistoryEntry[] } | null,
};
let live: Client | null = null;

export const connectionState = () => board.connection;

function serviceLevelHours(): number {
  const stored = Number(localStorage.getItem(SERVICE_LEVEL_KEY));
  return Number.isFinite(stored) && stored > 0 ? stored : DEFAULT_SERVICE_LEVEL_HOURS;
}

function boardFilter(extra: LenderApplicationFilter = {}, withStatus = true): LenderApplicationFilter {
  return {
    ...(withStatus && board.filter.status ? { status: board.filter.status } : {}),
    ...(board.filter.lenderId ? { lenderId: Number(board.filter.lenderId) } : {}),
    ...(board.filter.search.trim() ? { search: board.filter.search.trim() } : {}),
    ...extra,
  };
}

const boardOrder = (): LenderApplicationOrder => ({ field: board.order.field, direction: board.order.direction });

async function boardPage(filter: LenderApplicationFilter, after?: string, first = BOARD_PAGE): Promise<BoardPage> {
  return (await graphql<BoardQuery, BoardQueryVariables>(token(), BOARD, { filter, first, orderBy: boardOrder(), ...(after ? { after } : {}) }))
    .lenderApplicationBoard;
}

/** The current page (from `board.after`) with its total and counts. */
async function readPage(): Promise<void> {
  const page = await boardPage(boardFilter(), board.after);
  board.rows = page.nodes;
  board.next = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  board.total = page.totalCount;
  board.counts = page.statusCounts;
  board.stale = false;
}

/** The board from its first page (after a change of filter or order, and at sign-in). */
export async function loadBoard(): Promise<void> {
  board.previous = [];
  board.after = undefined;
  await readPage();
}

async function nextPage(): Promise<void> {
  if (!board.next) return;
  board.previous.push(board.after);
  board.after = board.next;
  await readPage();
}

async function previousPage(): Promise<void> {
  if (board.previous.length === 0) return;
  board.after = board.previous.pop();
  await readPage();
}

function announce(row: BoardRow | undefined, applicationId: number): void {
  board.announcement = row
    ? `Application ${row.id} (${row.companyName ?? 'no company name'}) is now ${row.status}.`
    : `Application ${applicationId} changed and no longer matches the filter.`;
  board.highlighted.add(applicationId);
  setTimeout(() => {
    board.highlighted.delete(applicationId);
    update();
  }, HIGHLIGHT_MS);
}

/**
 * One row again after its event, with the counts: a row on this page is replaced; a row not on it
 * (new, or moved into the filter) shows when this is the first page, by reading the page again.
 */
async function refreshRow(applicationId: number): Promise<void> {
  const data = await graphql<BoardRowQuery, BoardRowQueryVariables>(token(), BOARD_ROW, { filter: boardFilter({ applicationId }), counts: boardFilter() });
  const [row] = data.lenderApplicationBoard.nodes;
  const index = board.rows.findIndex((r) => r.id === applicationId);
  if (index >= 0 && row) board.rows[index] = row;
  else if (index >= 0) board.rows.splice(index, 1);
  else if (row && board.previous.length === 0) await readPage();
  board.total = data.counts.totalCount;
  board.counts = data.counts.statusCounts;
  announce(row, applicationId);
  if (board.history?.applicationId === applicationId) await openHistory(applicationId);
  update();
}

export function connectLive(): void {
  live = openLiveConnection(token(), {
    connected: (wasRetry) => {
      board.connection = 'live';
      update();
      // Whatever changed while the stream was down: the page and its counts read again.
      if (wasRetry) void attempt(readPage);
    },
    disconnected: () => {
      if (board.connection !== 'offline') {
        board.connection = 'reconnecting';
        board.stale = true;
      }
      update();
    },
    refused: () => {
      if (!app.session) return;
      endSession();
      app.problem = new Error('Your session has ended (it expired, or your access changed): sign in again.');
      update();
    },
    applicationChanged: (applicationId) => void refreshRow(applicationId).catch((err: Error) => attempt(() => Promise.reject(err))),
  });
}

/** At sign-out: the live connection closes and nothing of the board stays in memory. */
export function closeBoard(): void {
  board.connection = 'offline';
  void live?.dispose();
  live = null;
  board.rows = [];
  board.previous = [];
  board.after = undefined;
  board.counts = [];
  board.history = null;
  board.highlighted.clear();
}

async function openHistory(applicationId: number): Promise<void> {
  const data = await graphql<HistoryQuery, HistoryQueryVariables>(token(), HISTORY, { id: applicationId });
  board.history = { applicationId, entries: data.lenderApplicationHistory };
}

/** Every row of the current filter and order, page after page, as a CSV download. */
async function exportCsv(): Promise<void> {
  const rows: BoardRow[] = [];
  for (let after: string | undefined; ;) {
    const page = await boardPage(boardFilter(), after, 200);
    rows.push(...page.nodes);
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) break;
    after = page.pageInfo.endCursor;
  }
  const csv = csvOf(
    [
      'Application',
      'Company',
      'Company number',
      'Lender',
      'Lender reference',
      'Product',
      'Amount',
      'Status',
      'Acknowledged at',
      'In status since',
      'Offer reference',
      'Created',
      'Last change',
    ],
    rows.map((r) => [
      r.id,
      r.companyName,
      r.companyNumber,
      r.lenderName,
      r.reference,
      r.productType,
      r.amount,
      r.status,
      r.acknowledgedAt,
      r.statusChangedAt,
      r.offer?.reference ?? null,
      r.createdAt,
      r.updatedAt,
    ]),
  );
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
  link.download = `lender-applications-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

function offerTerms(offer: BoardOfferFieldsFragment): string {
  const parts = [enumLabel(offer.productType), money(offer.amount)];
  if (offer.termMonths !== null) parts.push(`${offer.termMonths} months`);
  if (offer.interestRate !== null) parts.push(`${offer.interestRate}% rate`);
  return parts.join(', ');
}

const SECONDS = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'Europe/London',
});
const toSecond = (iso: string) => SECONDS.format(new Date(iso));

function duration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h ${minutes % 60} min` : `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** Time in status, and against the service level when the application waits on someone. */
function ageing(row: BoardRow): TemplateResult {
  const ms = Date.now() - Date.parse(row.statusChangedAt);
  const limit = serviceLevelHours() * 3_600_000;
  const level = !WAITING.has(row.status) ? 'none' : ms > limit ? 'overdue' : ms > limit * 0.75 ? 'due' : 'ok';
  const marker = level === 'overdue' ? 'Overdue' : level === 'due' ? 'Due soon' : '';
  return html`<span class="age" data-age=${level}>${duration(ms)}${marker ? html` <strong class="age-marker">${marker}</strong>` : nothing}</span>`;
}

const COLUMNS: Array<{ label: string; sort?: SortField }> = [
  { label: 'Application' },
  { label: 'Company', sort: 'COMPANY' },
  { label: 'Lender' },
  { label: 'Product' },
  { label: 'Amount', sort: 'AMOUNT' },
  { label: 'Status', sort: 'STATUS' },
  { label: 'Time in status' },
  { label: 'Current offer' },
  { label: 'Created', sort: 'CREATED' },
  { label: 'Last change', sort: 'LAST_CHANGE' },
];

function sortBy(field: SortField): void {
  board.order =
    board.order.field === field
      ? { field, direction: board.order.direction === 'ASC' ? 'DESC' : 'ASC' }
      : { field, direction: field === 'COMPANY' || field === 'STATUS' ? 'ASC' : 'DESC' };
  void attempt(loadBoard);
}

function headerCell(column: { label: string; sort?: SortField }): TemplateResult {
  if (!column.sort) return html`<th scope="col">${column.label}</th>`;
  const active = board.order.field === column.sort;
  const ariaSort = active ? (board.order.direction === 'ASC' ? 'ascending' : 'descending') : 'none';
  return html`<th scope="col" aria-sort=${ariaSort}><button type="button" class="sort" data-sort=${column.sort} @click=${() => sortBy(column.sort!)}>${column.label}<span aria-hidden="true">${active ? (board.order.direction === 'ASC' ? ' ▲' : ' ▼') : ''}</span></button></th>`;
}

function statusBadge(status: string): TemplateResult {
  return html`<span class="badge" data-status=${status} data-testid="status">${status}</span>`;
}

export function boardView(): TemplateResult {
  const filterChanged = (event: Event) => {
    const el = event.target as HTMLSelectElement;
    board.filter = { ...board.filter, [el.name]: el.value };
    void attempt(loadBoard);
  };
  const searched = (event: Event) => {
    event.preventDefault();
    board.filter = { ...board.filter, search: String(new FormData(event.target as HTMLFormElement).get('search') ?? '') };
    void attempt(loadBoard);
  };
  const chip = (status: string) => {
    board.filter = { ...board.filter, status: board.filter.status === status ? '' : status };
    void attempt(loadBoard);
  };
  const serviceLevelChanged = (event: Event) => {
    const hours = Number((event.target as HTMLInputElement).value);
    if (Number.isFinite(hours) && hours > 0) localStorage.setItem(SERVICE_LEVEL_KEY, String(hours));
    update();
  };
  const lenderIds = [...new Set([...app.lenders.map((l) => l.id), ...board.rows.map((r) => r.lenderId)])];
  const allCount = board.counts.reduce((sum, c) => sum + c.count, 0);
  const firstRow = board.previous.length * BOARD_PAGE + 1;
  return html`<section aria-labelledby="board-title" class="board">
    <h2 id="board-title">Lender applications</h2>
    ${
      board.connection === 'reconnecting'
        ? html`<div class="banner" role="alert" data-testid="stale-banner">Live updates have stopped: reconnecting. Rows marked “stale” may be out of date.</div>`
        : nothing
    }
    <p class="sr-only" aria-live="polite" data-testid="announcement">${board.announcement}</p>
    <form class="filters" role="search" @submit=${searched}>
      <div><label for="board-search">Search</label>
        <input id="board-search" name="search" type="search" .value=${board.filter.search} placeholder="Company, company number, lender reference or id" size="36" /></div>
      <button type="submit">Search</button>
      <div><label for="filter-status">Status</label>
        <select id="filter-status" name="status" @change=${filterChanged}>
          <option value="">All statuses</option>
          ${APPLICATION_STATUSES.map((s) => html`<option value=${s} ?selected=${board.filter.status === s}>${s}</option>`)}
        </select></div>
      <div><label for="filter-lender">Lender</label>
        <select id="filter-lender" name="lenderId" @change=${filterChanged}>
          <option value="">All lenders</option>
          ${lenderIds.map((id) => html`<option value=${String(id)} ?selected=${board.filter.lenderId === String(id)}>${board.rows.find((r) => r.lenderId === id)?.lenderName ?? lenderName(id)}</option>`)}
        </select></div>
      <div><label for="service-level">Service level (hours)</label>
        <input id="service-level" type="number" min="1" step="1" .value=${String(serviceLevelHours())} @change=${serviceLevelChanged} /></div>
      <button type="button" ?disabled=${board.exporting} @click=${() => {
        board.exporting = true;
        void attempt(exportCsv).finally(() => {
          board.exporting = false;
          update();
        });
      }}>Export CSV</button>
    </form>
    <ul class="chips" aria-label="Filter by status" data-testid="status-chips">
      <li><button type="button" aria-pressed=${board.filter.status === '' ? 'true' : 'false'} @click=${() => chip('')}>All <span data-testid="count-all">${allCount}</span></button></li>
      ${board.counts.map((c) => html`<li><button type="button" class="chip" data-status=${c.status} aria-pressed=${board.filter.status === c.status ? 'true' : 'false'} @click=${() => chip(c.status)}>${c.status} <span data-testid="count-${c.status}">${c.count}</span></button></li>`)}
    </ul>
    <table data-testid="board" class="stacked">
      <caption class="sr-only">Lender applications, ordered by ${board.order.field.toLowerCase().replace('_', ' ')} ${board.order.direction === 'ASC' ? 'ascending' : 'descending'}</caption>
      <thead><tr>${COLUMNS.map(headerCell)}<th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>
        ${board.rows.length === 0 ? html`<tr><td colspan="11" class="muted">No lender applications.</td></tr>` : nothing}
        ${board.rows.map(
          (
            row,
          ) => html`<tr data-testid="row-${row.id}" data-status=${row.status} class=${board.highlighted.has(row.id) ? 'highlight' : ''} data-highlighted=${board.highlighted.has(row.id) ? 'true' : 'false'} data-stale=${board.stale ? 'true' : 'false'}>
            <td data-label="Application">${row.id}${board.stale ? html` <span class="stale-marker">stale</span>` : nothing}</td>
            <td data-label="Company">${row.companyName ?? '—'}${row.companyNumber ? html`<br /><span class="muted">${row.companyNumber}</span>` : nothing}</td>
            <td data-label="Lender">${row.lenderName}${row.reference ? html`<br /><span class="muted">ref ${row.reference}</span>` : nothing}</td>
            <td data-label="Product">${row.productType ? enumLabel(row.productType) : '—'}</td>
            <td data-label="Amount" class="amount">${money(row.amount)}</td>
            <td data-label="Status">${statusBadge(row.status)}${row.acknowledgedAt ? html` <span class="muted" data-testid="acknowledged" title=${`Acknowledged by the lender ${toSecond(row.acknowledgedAt)}`}>acknowledged</span>` : nothing}</td>
            <td data-label="Time in status">${ageing(row)}</td>
            <td data-label="Current offer" data-testid="offer">${row.offer ? html`${row.offer.status}${row.offer.decision ? html` (${row.offer.decision})` : nothing}: ${offerTerms(row.offer)} <span class="muted">ref ${row.offer.reference}</span>` : '—'}</td>
            <td data-label="Created"><time datetime=${row.createdAt}>${toSecond(row.createdAt)}</time></td>
            <td data-label="Last change"><time datetime=${row.updatedAt}>${toSecond(row.updatedAt)}</time></td>
            <td data-label="Actions"><button type="button" @click=${() => attempt(() => openHistory(row.id)).then(() => focusAfterRender('history-title'))} aria-label="History of application ${row.id}">History</button></td>
          </tr>`,
        )}
      </tbody>
    </table>
    <nav class="pager" aria-label="Pages of applications">
      <button type="button" ?disabled=${board.previous.length === 0} @click=${() => attempt(previousPage)}>Previous page</button>
      <span data-testid="page-range">${board.rows.length ? `${firstRow}–${firstRow + board.rows.length - 1}` : '0'} of <span data-testid="total">${board.total}</span></span>
      <button type="button" ?disabled=${!board.next} @click=${() => attempt(nextPage)}>Next page</button>
    </nav>
    ${board.history ? historyView(board.history.applicationId, board.history.entries) : nothing}
  </section>`;
}

function historyView(applicationId: number, entries: HistoryEntry[]): TemplateResult {
  const describe = (e: HistoryEntry) => {
    // A change that stays In Review is the lender's acknowledgement (spec 3: the status is unchanged).
    if (e.kind === 'STATUS' && e.fromStatus === 'In Review' && e.status === 'In Review')
      return `Acknowledged by the lender (${e.status})${e.comment ? `: ${e.comment}` : ''}`;
    if (e.kind === 'STATUS') return `${e.fromStatus ?? 'new'} → ${e.status}${e.reason ? ` (${e.reason})` : ''}${e.comment ? `: ${e.comment}` : ''}`;
    if (e.kind === 'OFFER')
      return `Offer ${e.offer?.reference} ${e.status}: ${e.offer ? offerTerms(e.offer) : ''}${e.replacedAt ? ` — replaced ${toSecond(e.replacedAt)}` : ''}`;
    return `Client ${e.status?.toLowerCase()} offer ${e.offer?.reference}`;
  };
  const close = () => {
    board.history = null;
    update();
  };
  return html`<aside class="side-panel" role="dialog" aria-modal="false" aria-labelledby="history-title" data-testid="history" @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && close()}>
    <h3 id="history-title" tabindex="-1">History of application ${applicationId}</h3>
    <ol>${entries.map((e) => html`<li data-sequence=${e.sequence}><time datetime=${e.at}>${toSecond(e.at)}</time>: ${describe(e)}</li>`)}</ol>
    <button type="button" @click=${close}>Close history</button>
  </aside>`;
}
