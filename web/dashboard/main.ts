/**
 * The operations dashboard's shell: sign-in, the header with its views, and the session's start and
 * end. Funding specialists follow lender applications live, work the review queue, redeliver
 * webhooks and manage the lender catalogue; integrator users (account admins and members) see their
 * account's applications and run their integration in the console: API keys, tenants, request log.
 * Each view lives in its own module with its own state; every change re-renders with lit-html (only
 * the parts of the DOM that changed are touched).
 */
import { html, nothing, render, type TemplateResult } from 'lit';
import { ApiError } from './graphql-api.js';
import { fetchSignedInUser, ROLE_LABELS, signIn, signOut, type Session } from './session.js';
import { app, attempt, formValues, loadLenders, mountShell, update, type Tab } from './app.js';
import { boardView, closeBoard, connectionState, connectLive, loadBoard } from './board-view.js';
import { closeReviews, loadReviews, reviewsView } from './review-view.js';
import { closeDeliveries, deliveriesView, loadDeliveries } from './deliveries-view.js';
import { catalogueView, closeCatalogue, loadCatalogue } from './catalogue-view.js';
import { closeInsights, insightsView, loadInsights } from './insights-view.js';
import { apiKeysView, closeApiKeys, loadApiKeys } from './api-keys-view.js';
import { closeTenants, loadTenants, tenantsView } from './tenants-view.js';
import { closeRequestLog, loadRequestLog, requestLogView } from './request-log-view.js';

const root = document.getElementById('dashboard')!;
// The shell's loading text is static HTML: lit renders into an emptied container.
root.replaceChildren();

interface TabRow {
  tab: Tab;
  label: string;
  /** Whether the signed-in user is offered the view: its operations' scopes (the API still decides each call). */
  shown(session: Session): boolean;
  load(): Promise<unknown>;
  view(): TemplateResult;
  close(): void;
}

/** An integrator's user (account ADMIN or MEMBER), not the platform's staff. */
const integrator = (s: Session) => !s.staff;

/**
 * Every view, in the header's order, with who sees it: staff work the platform (reviews, deliveries,
 * catalogue); integrator users run their integration (API keys, tenants; admins the request log).
 */
const TABS: TabRow[] = [
  { tab: 'board', label: 'Applications', shown: () => true, load: loadBoard, view: boardView, close: closeBoard },
  { tab: 'insights', label: 'Insights', shown: () => true, load: loadInsights, view: insightsView, close: closeInsights },
  {
    tab: 'reviews',
    label: 'Review queue',
    shown: (s) => s.staff,
    load: () => Promise.all([loadReviews(), loadLenders()]),
    view: reviewsView,
    close: closeReviews,
  },
  {
    tab: 'deliveries',
    label: 'Deliveries',
    shown: (s) => s.staff,
    load: () => Promise.all([loadDeliveries(), loadLenders()]),
    view: deliveriesView,
    close: closeDeliveries,
  },
  { tab: 'catalogue', label: 'Lender catalogue', shown: (s) => s.admin, load: loadCatalogue, view: catalogueView, close: closeCatalogue },
  {
    tab: 'apiKeys',
    label: 'API keys',
    shown: (s) => integrator(s) && s.scopes.includes('api_keys:read'),
    load: loadApiKeys,
    view: apiKeysView,
    close: closeApiKeys,
  },
  {
    tab: 'tenants',
    label: 'Tenants',
    shown: (s) => integrator(s) && s.scopes.includes('tenants:read'),
    load: loadTenants,
    view: tenantsView,
    close: closeTenants,
  },
  {
    tab: 'requestLog',
    label: 'Request log',
    shown: (s) => integrator(s) && s.scopes.includes('request_log:read'),
    load: () => loadRequestLog(),
    view: requestLogView,
    close: closeRequestLog,
  },
];

const rowOf = (tab: Tab) => TABS.find((row) => row.tab === tab)!;

async function openTab(tab: Tab): Promise<void> {
  app.tab = tab;
  app.notice = '';
  await attempt(async () => {
    await rowOf(tab).load();
  });
}

function problemView(): TemplateResult | typeof nothing {
  const problem = app.problem;
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
      app.session = await signIn(v.email ?? '', v.password ?? '');
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

function view(): TemplateResult {
  const session = app.session;
  if (!session) return signInView();
  const tabs = TABS.filter((row) => row.shown(session)).map((row): [Tab, string] => [row.tab, row.label]);
  const connection = connectionState();
  const connectionText = { live: 'Live', reconnecting: 'Reconnecting…', offline: 'Offline' }[connection];
  return html`<header>
      <h1>Operations dashboard</h1>
      <nav aria-label="Views"><ul>${tabs.map(([tab, label]) => html`<li><button type="button" aria-current=${app.tab === tab ? 'page' : 'false'} @click=${() => openTab(tab)}>${label}</button></li>`)}</ul></nav>
      <span class="connection" role="status" data-testid="connection" data-state=${connection}>${connectionText}</span>
      <p class="who" data-testid="signed-in-user">Signed in as <strong>${app.user ? (app.user.name ? `${app.user.name} (${app.user.email})` : app.user.email) : 'you'}</strong>, <span data-testid="role">${ROLE_LABELS[session.role]}</span></p>
      <button type="button" @click=${endSession}>Sign out</button>
    </header>
    <main>
      <p role="status" class="ok" data-testid="notice">${app.notice}</p>
      ${problemView()}
      ${rowOf(app.tab).view()}
    </main>`;
}

async function startSession(): Promise<void> {
  // Who is signed in is shown when known; the views do not wait for it.
  const session = app.session!;
  void fetchSignedInUser(session)
    .then((user) => {
      if (app.session === session) app.user = user;
      update();
    })
    .catch(() => undefined);
  await loadBoard();
  if (app.session?.staff || app.session?.admin) await loadLenders().catch(() => undefined);
  connectLive();
}

function endSession(): void {
  signOut();
  for (const row of TABS) row.close();
  app.tab = 'board';
  app.session = null;
  app.user = null;
  update();
}

mountShell(() => render(view(), root), endSession);
update();
if (app.session) void attempt(startSession);
