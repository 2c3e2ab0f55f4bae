/**
 * The lender console's shell: sign-in with the lender's username and password, the header with its
 * views, the session's end (sign-out, its token's expiry, or a token the API refuses), and live
 * updates: the lender's own credential subscribes over graphql-ws to its applications' status and
 * offer changes, and the open lists are read again when one arrives.
 */
import { html, nothing, render, type TemplateResult } from 'lit';
import type { Client } from 'graphql-ws';
import { openLiveConnection } from '../dashboard/graphql-api.js';
import { formValues } from '../shared/page-helpers.js';
import { ApiProblem } from './lender-api.js';
import { signIn, signOut } from './session.js';
import { attempt, consoleState, mountShell, update, type Tab } from './console.js';
import { applicationChanged, applicationsView, closeApplications, loadApplications } from './applications-view.js';
import { closeDeliveries, deliveriesView, loadDeliveries } from './deliveries-view.js';
import { closeEndpoints, endpointsView, loadEndpoints } from './endpoints-view.js';

const root = document.getElementById('lender-console')!;
// The shell's loading text is static HTML: lit renders into an emptied container.
root.replaceChildren();

const TABS: Array<[Tab, string]> = [
  ['applications', 'Applications'],
  ['deliveries', 'Deliveries'],
  ['endpoints', 'Endpoints'],
];
const LOADERS: Record<Tab, () => Promise<void>> = { applications: loadApplications, deliveries: loadDeliveries, endpoints: loadEndpoints };
const VIEWS: Record<Tab, () => TemplateResult> = { applications: applicationsView, deliveries: deliveriesView, endpoints: endpointsView };

const EXPIRED = 'Your session has expired: sign in again.';

let live: Client | null = null;
let connection: 'offline' | 'live' | 'reconnecting' = 'offline';
let expiry: ReturnType<typeof setTimeout> | undefined;
let reloading: ReturnType<typeof setTimeout> | undefined;

function openTab(tab: Tab): Promise<void> {
  consoleState.tab = tab;
  consoleState.notice = '';
  return attempt(LOADERS[tab]);
}

function problemView(): TemplateResult | typeof nothing {
  const problem = consoleState.problem;
  if (!problem) return nothing;
  const fields = problem instanceof ApiProblem ? problem.fields : [];
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
      consoleState.session = await signIn(v.username ?? '', v.password ?? '');
      consoleState.ended = '';
      await startSession();
    });
  };
  return html`<main>
    <h1>Lender console</h1>
    <p>Sign in with the username and password of your lender credentials.</p>
    ${consoleState.ended ? html`<p class="panel" role="status" data-testid="session-ended">${consoleState.ended}</p>` : nothing}
    <form class="grid" @submit=${submit} aria-label="Sign in">
      <div><label for="username">Username</label><input id="username" name="username" autocomplete="username" required></div>
      <div><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
      <div><button type="submit">Sign in</button></div>
    </form>
    ${problemView()}
  </main>`;
}

function view(): TemplateResult {
  const session = consoleState.session;
  if (!session) return signInView();
  const connectionText = { live: 'Live', reconnecting: 'Reconnecting…', offline: 'Offline' }[connection];
  return html`<header>
      <h1>Lender console</h1>
      <nav aria-label="Views"><ul>${TABS.map(([tab, label]) => html`<li><button type="button" aria-current=${consoleState.tab === tab ? 'page' : 'false'} @click=${() => openTab(tab)}>${label}</button></li>`)}</ul></nav>
      <span class="connection" role="status" data-testid="connection" data-state=${connection}>${connectionText}</span>
      <p class="who" data-testid="signed-in-lender">Signed in as <strong>${session.lenderName ?? `lender ${session.lenderId}`}</strong></p>
      <button type="button" @click=${() => endSession('You signed out.')}>Sign out</button>
    </header>
    <main>
      <p role="status" class="ok" data-testid="notice">${consoleState.notice}</p>
      ${problemView()}
      ${VIEWS[consoleState.tab]()}
    </main>`;
}

/** Live events are bursts (a status move and its offer): one read of the open view follows them. */
function reloadSoon(applicationId: number): void {
  clearTimeout(reloading);
  reloading = setTimeout(
    () => void attempt(() => (consoleState.tab === 'applications' ? applicationChanged(applicationId) : LOADERS[consoleState.tab]())),
    250,
  );
}

function connectLive(token: string): void {
  live = openLiveConnection(token, {
    connected: (wasRetry) => {
      connection = 'live';
      if (wasRetry) void attempt(LOADERS[consoleState.tab]);
      update();
    },
    disconnected: () => {
      connection = consoleState.session ? 'reconnecting' : 'offline';
      update();
    },
    refused: () => endSession('Your session has ended: sign in again.'),
    applicationChanged: reloadSoon,
  });
}

async function startSession(): Promise<void> {
  const session = consoleState.session!;
  clearTimeout(expiry);
  expiry = setTimeout(() => endSession(EXPIRED), Math.max(0, session.expiresAt - Date.now()));
  await LOADERS[consoleState.tab]();
  connectLive(session.token);
}

function endSession(why: string): void {
  // Ended already (the socket's close follows the session's end): the first reason stands.
  if (!consoleState.session) return;
  // The socket or the API may notice an expired token a moment before the timer does (clocks and whole-second expiries differ).
  const expired = consoleState.session !== null && consoleState.session.expiresAt <= Date.now() + 5000;
  signOut();
  clearTimeout(expiry);
  clearTimeout(reloading);
  void live?.dispose();
  live = null;
  connection = 'offline';
  closeApplications();
  closeDeliveries();
  closeEndpoints();
  consoleState.session = null;
  consoleState.tab = 'applications';
  consoleState.notice = '';
  consoleState.problem = null;
  consoleState.ended = expired ? EXPIRED : why;
  update();
}

mountShell(() => render(view(), root), endSession);
update();
if (consoleState.session) void attempt(startSession);
