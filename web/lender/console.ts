/**
 * What every view of the lender console shares: the signed-in lender, the open view, the last
 * notice or problem, and the one way to run an action and re-render. Each view keeps its own state
 * in its own module; the shell (./main.ts) owns the page and the session's start and end.
 */
import { ApiProblem, SessionEnded } from './lender-api.js';
import { restoreSession, type LenderSession } from './session.js';

export type Tab = 'applications' | 'deliveries' | 'endpoints';

export const consoleState = {
  session: restoreSession() as LenderSession | null,
  tab: 'applications' as Tab,
  notice: '',
  problem: null as ApiProblem | Error | null,
  /** Why the last session ended, shown on the sign-in form. */
  ended: '',
};

let renderPage: () => void = () => {};
let endSessionNow: (why: string) => void = () => {};

export function mountShell(render: () => void, endSession: (why: string) => void): void {
  renderPage = render;
  endSessionNow = endSession;
}

export function update(): void {
  renderPage();
}

export function token(): string {
  return consoleState.session!.token;
}

/** Runs an action, shows its problem (or the done notice) and re-renders; a refused token ends the session. */
export async function attempt(action: () => Promise<void>, done?: string | (() => string)): Promise<void> {
  consoleState.problem = null;
  try {
    await action();
    if (done) consoleState.notice = typeof done === 'string' ? done : done();
  } catch (err) {
    if (err instanceof SessionEnded) {
      endSessionNow(err.message);
      return;
    }
    consoleState.problem = err instanceof Error ? err : new Error(String(err));
    consoleState.notice = '';
  }
  update();
}

/** Rows a page of a list shows. */
export const PAGE_SIZE = 25;
