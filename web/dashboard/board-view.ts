/**
 * The board: lender applications, most recently changed first, followed live over graphql-ws (a
 * changed application's row is read again), with each application's history.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Client } from 'graphql-ws';
import { formatMoment } from '../shared/format.js';
import type { BoardOfferFieldsFragment, BoardQuery, BoardQueryVariables, HistoryQuery, HistoryQueryVariables, LenderApplicationFilter } from './generated/graphql.js';
import { graphql, openLiveConnection } from './graphql-api.js';
import { APPLICATION_STATUSES, BOARD, HISTORY } from './board-queries.js';
import { app, attempt, endSession, enumLabel, focusAfterRender, lenderName, LIST_PAGE, money, token, update } from './app.js';

type BoardPage = BoardQuery['lenderApplicationBoard'];
type BoardRow = BoardPage['nodes'][number];
type HistoryEntry = HistoryQuery['lenderApplicationHistory'][number];

const board = {
  rows: new Map<number, BoardRow>(),
  filter: { status: '', lenderId: '' },
  /** The latest `updatedAt` seen: a reconnect asks for every row changed since. */
  lastChange: null as string | null,
  connection: 'offline' as 'offline' | 'live' | 'reconnecting',
  history: null as { applicationId: number; entries: HistoryEntry[] } | null,
};
let live: Client | null = null;

export const connectionState = () => board.connection;

function boardFilter(extra: LenderApplicationFilter = {}): LenderApplicationFilter {
  return {
    ...(board.filter.status ? { status: board.filter.status } : {}),
    ...(board.filter.lenderId ? { lenderId: Number(board.filter.lenderId) } : {}),
    ...extra,
  };
}

function remember(rows: BoardRow[]): void {
  for (const row of rows) {
    board.rows.set(row.id, row);
    if (!board.lastChange || row.updatedAt > board.lastChange) board.lastChange = row.updatedAt;
  }
}

async function boardPage(filter: LenderApplicationFilter, after?: string): Promise<BoardPage> {
  return (await graphql<BoardQuery, BoardQueryVariables>(token(), BOARD, { filter, first: LIST_PAGE, ...(after ? { after } : {}) })).lenderApplicationBoard;
}

/** The board: the most recently changed rows, one page. */
export async function loadBoard(): Promise<void> {
  const page = await boardPage(boardFilter());
  board.rows.clear();
  remember(page.nodes);
}

/** One row again after its event; a row that no longer passes the filters leaves the board. */
async function refreshRow(applicationId: number): Promise<void> {
  const page = await boardPage(boardFilter({ applicationId }));
  if (page.nodes.length === 0) board.rows.delete(applicationId);
  remember(page.nodes);
  if (board.history?.applicationId === applicationId) await openHistory(applicationId);
  update();
}

/** After a dropped connection: every row changed since the last change seen (or the whole board). */
async function catchUp(): Promise<void> {
  if (!board.lastChange) return loadBoard();
  const filter = boardFilter({ updatedSince: board.lastChange });
  // Every changed row, however many: page after page until the last.
  for (let after: string | undefined; ; ) {
    const page = await boardPage(filter, after);
    remember(page.nodes);
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return;
    after = page.pageInfo.endCursor;
  }
}

export function connectLive(): void {
  live = openLiveConnection(token(), {
    connected: (wasRetry) => {
      board.connection = 'live';
      update();
      if (wasRetry) void attempt(catchUp);
    },
    disconnected: () => {
      if (board.connection !== 'offline') board.connection = 'reconnecting';
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
  board.rows.clear();
  board.lastChange = null;
  board.history = null;
}

async function openHistory(applicationId: number): Promise<void> {
  const data = await graphql<HistoryQuery, HistoryQueryVariables>(token(), HISTORY, { id: applicationId });
  board.history = { applicationId, entries: data.lenderApplicationHistory };
}

export function offerTerms(offer: BoardOfferFieldsFragment): string {
  const parts = [enumLabel(offer.productType), money(offer.amount)];
  if (offer.termMonths !== null) parts.push(`${offer.termMonths} months`);
  if (offer.interestRate !== null) parts.push(`${offer.interestRate}% rate`);
  return parts.join(', ');
}

export function boardView(): TemplateResult {
  const rows = [...board.rows.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
  const filterChanged = (event: Event) => {
    const el = event.target as HTMLSelectElement;
    board.filter = { ...board.filter, [el.name]: el.value };
    void attempt(loadBoard);
  };
  const lenderIds = [...new Set([...app.lenders.map((l) => l.id), ...rows.map((r) => r.lenderId)])];
  return html`<section aria-labelledby="board-title">
    <h2 id="board-title">Lender applications</h2>
    <div class="filters">
      <div><label for="filter-status">Status</label>
        <select id="filter-status" name="status" @change=${filterChanged}>
          <option value="">All statuses</option>
          ${APPLICATION_STATUSES.map((s) => html`<option value=${s} ?selected=${board.filter.status === s}>${s}</option>`)}
        </select></div>
      <div><label for="filter-lender">Lender</label>
        <select id="filter-lender" name="lenderId" @change=${filterChanged}>
          <option value="">All lenders</option>
          ${lenderIds.map((id) => html`<option value=${String(id)} ?selected=${board.filter.lenderId === String(id)}>${rows.find((r) => r.lenderId === id)?.lenderName ?? lenderName(id)}</option>`)}
        </select></div>
    </div>
    <table class="stacked" data-testid="board">
      <caption class="sr-only">Lender applications, last changed first</caption>
      <thead><tr><th scope="col">Application</th><th scope="col">Company</th><th scope="col">Lender</th><th scope="col">Product</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Current offer</th><th scope="col">Last change</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>
        ${rows.length === 0 ? html`<tr><td colspan="9" class="muted">No lender applications.</td></tr>` : nothing}
        ${rows.map(
          (row) => html`<tr data-testid="row-${row.id}" data-status=${row.status}>
            <td data-label="Application">${row.id}</td>
            <td data-label="Company">${row.companyName ?? '—'}</td>
            <td data-label="Lender">${row.lenderName}</td>
            <td data-label="Product">${row.productType ? enumLabel(row.productType) : '—'}</td>
            <td data-label="Amount">${money(row.amount)}</td>
            <td class="status" data-label="Status" data-testid="status">${row.status}</td>
            <td data-label="Current offer" data-testid="offer">${row.offer ? html`${row.offer.status}${row.offer.decision ? html` (${row.offer.decision})` : nothing}: ${offerTerms(row.offer)} <span class="muted">ref ${row.offer.reference}</span>` : '—'}</td>
            <td data-label="Last change">${formatMoment(row.updatedAt)}</td>
            <td data-label=""><button type="button" @click=${() => attempt(() => openHistory(row.id)).then(() => focusAfterRender('history-title'))} aria-label="History of application ${row.id}">History</button></td>
          </tr>`,
        )}
      </tbody>
    </table>
    ${board.history ? historyView(board.history.applicationId, board.history.entries) : nothing}
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
    <button type="button" @click=${() => { board.history = null; update(); }}>Close history</button>
  </section>`;
}
