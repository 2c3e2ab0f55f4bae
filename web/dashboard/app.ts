/**
 * What every view of the dashboard shares: the signed-in session, the open view, the last notice
 * or problem, the lenders (they name rows in several views), and the one way to run an action and
 * re-render. Each view keeps its own state in its own module; the shell (./main.ts) owns the page.
 */
export { enumLabel, focusAfterRender, formValues, urlWithBreaks } from '../shared/page-helpers.js';
import { formatMoney } from '../shared/format.js';
import type { LendersQuery } from './generated/graphql.js';
import { ApiError, graphql } from './graphql-api.js';
import { LENDERS } from './catalogue-queries.js';
import { restoreSession, type Session, type SignedInUser } from './session.js';

export type LenderSummary = LendersQuery['lenders'][number];

/** The views of the shell (./main.ts lists which user sees which). */
export type Tab = 'board' | 'insights' | 'reviews' | 'deliveries' | 'catalogue' | 'apiKeys' | 'tenants' | 'requestLog';

export const app = {
  session: restoreSession() as Session | null,
  /** The signed-in user's email and name for the header (null until the API answered). */
  user: null as SignedInUser | null,
  tab: 'board' as Tab,
  lenders: [] as LenderSummary[],
  notice: '' as string,
  problem: null as ApiError | Error | null,
};

let renderPage: () => void = () => {};
let endSessionNow: () => void = () => {};

/** The shell registers how the page is rendered and how a session ends (views call both). */
export function mountShell(render: () => void, endSession: () => void): void {
  renderPage = render;
  endSessionNow = endSession;
}

export function update(): void {
  renderPage();
}

export function endSession(): void {
  endSessionNow();
}

export function token(): string {
  return app.session!.token;
}

/** Runs an action, shows its problem (or the done notice) and re-renders. */
export async function attempt(action: () => Promise<void>, done?: string): Promise<void> {
  app.problem = null;
  try {
    await action();
    if (done) app.notice = done;
  } catch (err) {
    app.problem = err instanceof Error ? err : new Error(String(err));
    app.notice = '';
    // An expired or revoked login ends the session: the user signs in again.
    if (err instanceof ApiError && err.code === 'UNAUTHENTICATED') endSession();
  }
  update();
}

export const numberOrUndefined = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : Number(value));

export const money = (value: number | null) => (value === null ? '—' : formatMoney(value));

/** The most rows a list view shows, and the board's page: the largest page the API answers. */
export const LIST_PAGE = 200;

export async function loadLenders(): Promise<void> {
  app.lenders = (await graphql<LendersQuery>(token(), LENDERS)).lenders;
}

export const lenderName = (id: number) => app.lenders.find((l) => l.id === id)?.name ?? `Lender ${id}`;
