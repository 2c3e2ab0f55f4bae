/**
 * The operations dashboard's shell: sign-in, the header with its views, and the session's start and
 * end. Funding specialists follow lender applications live, work the review queue, redeliver
 * webhooks and manage the lender catalogue; integrator users see their account's applications.
 * Each view lives in its own module with its own state; every change re-renders with lit-html (only
 * the parts of the DOM that changed are touched).
 */
import { html, nothing, render, type TemplateResult } from 'lit';
import { ApiError } from './graphql-api.js';
import { fetchSignedInUser, ROLE_LABELS, signIn, signOut } from './session.js';
import { app, attempt, formValues, loadLenders, mountShell, update, type Tab } from './app.js';
import { boardView, closeBoard, connectionState, connectLive, loadBoard } from './board-view.js';
import { closeReviews, loadReviews, reviewsView } from './review-view.js';
import { closeDeliveries, deliveriesView, loadDeliveries } from './deliveries-view.js';
import { catalogueView, closeCatalogue, loadCatalogue } from './catalogue-view.js';
import { closeInsights, insightsView, loadInsights } from './insights-view.js';

const root = document.getElementById('dashboard')!;
// The shell's loading text is static HTML: lit renders into an emptied container.
root.replaceChildren();

async function openTab(tab: Tab): Promise<void> {
  app.tab = tab;
  app.notice = '';
  await attempt(async () => {
    if (tab === 'board') await loadBoard();
    if (tab === 'insights') await loadInsights();
    if (tab === 'reviews') await Promise.all([loadReviews(), loadLenders()]);
    if (tab === 'deliveries') await Promise.all([loadDeliveries(), loadLenders()]);
    if (tab === 'catalogue') await loadCatalogue();
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

const VIEWS: Record<Tab, () => TemplateResult> = { board: boardView, insights: insightsView, reviews: reviewsView, deliveries: deliveriesView, catalogue: catalogueView };

function view(): TemplateResult {
  const session = app.session;
  if (!session) return signInView();
  const tabs: Array<[Tab, string]> = [['board', 'Applications'], ['insights', 'Insights'], ...(session.staff ? ([['reviews', 'Review queue'], ['deliveries', 'Deliveries']] as Array<[Tab, string]>) : []), ...(session.admin ? ([['catalogue', 'Lender catalogue']] as Array<[Tab, string]>) : [])];
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
      ${VIEWS[app.tab]()}
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
  closeBoard();
  closeReviews();
  closeDeliveries();
  closeCatalogue();
  closeInsights();
  app.session = null;
  app.user = null;
  update();
}

mountShell(() => render(view(), root), endSession);
update();
if (app.session) void attempt(startSession);
