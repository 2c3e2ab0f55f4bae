/**
 * The integrator console's tenants: search the account's tenants (reference, company name or number,
 * or id), page through them, and open one: its profile, credit report, Business V1 applications and
 * the review selections its client sent.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { formatMoment } from '../shared/format.js';
import type { ConsoleTenantQuery, ConsoleTenantQueryVariables, ConsoleTenantsQuery, ConsoleTenantsQueryVariables } from './generated/graphql.js';
import { graphql } from './graphql-api.js';
import { CONSOLE_TENANT, CONSOLE_TENANTS } from './console-queries.js';
import { attempt, enumLabel, focusAfterRender, token } from './app.js';

type Page = ConsoleTenantsQuery['consoleTenants'];
type Detail = ConsoleTenantQuery['consoleTenant'];

const TENANT_PAGE = 20;

const tenants = {
  search: '',
  offset: 0,
  page: null as Page | null,
  open: null as Detail | null,
};

export async function loadTenants(): Promise<void> {
  const variables: ConsoleTenantsQueryVariables = { offset: tenants.offset, limit: TENANT_PAGE, ...(tenants.search ? { search: tenants.search } : {}) };
  tenants.page = (await graphql<ConsoleTenantsQuery, ConsoleTenantsQueryVariables>(token(), CONSOLE_TENANTS, variables)).consoleTenants;
}

export function closeTenants(): void {
  tenants.page = null;
  tenants.open = null;
  tenants.offset = 0;
  tenants.search = '';
}

async function openTenant(id: string): Promise<void> {
  tenants.open = (await graphql<ConsoleTenantQuery, ConsoleTenantQueryVariables>(token(), CONSOLE_TENANT, { id })).consoleTenant;
  focusAfterRender('tenant-title');
}

const tenantName = (t: { companyName?: string | null; referenceId?: string | null; id: string }) =>
  t.companyName ?? t.referenceId ?? 'Tenant without a profile';

function detailView(d: Detail): TemplateResult {
  const report = d.creditReport;
  return html`<section class="panel" data-testid="tenant-detail" aria-labelledby="tenant-title">
    <h3 id="tenant-title" tabindex="-1">${tenantName(d.tenant)}</h3>
    <dl>
      <dt>Tenant id</dt><dd><code>${d.tenant.id}</code></dd>
      <dt>Reference</dt><dd>${d.tenant.referenceId ?? '—'}</dd>
      <dt>Company number</dt><dd>${d.tenant.registrationNumber ?? '—'}</dd>
      <dt>Company type</dt><dd>${d.companyType ? enumLabel(d.companyType) : '—'}</dd>
      <dt>Sector</dt><dd>${d.sector ? enumLabel(d.sector) : '—'}</dd>
      <dt>Created</dt><dd>${formatMoment(d.tenant.createdAt)}</dd>
    </dl>
    <h4>Credit report</h4>
    ${
      report.available
        ? html`<dl data-testid="credit-report">
          <dt>Grade</dt><dd>${report.grade ?? '—'}${report.industryAverageGrade ? html` <span class="muted">(industry ${report.industryAverageGrade})</span>` : nothing}</dd>
          <dt>Credit limit</dt><dd>${report.creditLimit ?? '—'}</dd>
          <dt>Legal notices (12 months)</dt><dd>${report.legalNotices ?? '—'}</dd>
          <dt>Source</dt><dd>${report.source ?? '—'}</dd>
        </dl>`
        : html`<p class="muted" data-testid="credit-report">${report.reason ?? 'No credit report.'}</p>`
    }
    <h4>Applications</h4>
    ${d.applications.length === 0 ? html`<p class="muted">No applications.</p>` : html`<ul>${d.applications.map((a) => html`<li><code>${a.id}</code>: ${a.questionnaireId}, ${formatMoment(a.createdAt)}</li>`)}</ul>`}
    <h4>Review selections</h4>
    ${
      d.selections.length === 0
        ? html`<p class="muted">No selections sent to review.</p>`
        : html`<ul data-testid="selections">${d.selections.map((s) => html`<li><span class="badge">${enumLabel(s.state)}</span> ${s.lenders} ${s.lenders === 1 ? 'lender' : 'lenders'}, ${formatMoment(s.createdAt)}${s.decisionReason ? html`: ${s.decisionReason}` : nothing}</li>`)}</ul>`
    }
    <button type="button" @click=${() =>
      attempt(async () => {
        tenants.open = null;
      })}>Close</button>
  </section>`;
}

export function tenantsView(): TemplateResult {
  const search = (event: SubmitEvent) => {
    event.preventDefault();
    tenants.search = String(new FormData(event.target as HTMLFormElement).get('search') ?? '').trim();
    tenants.offset = 0;
    tenants.open = null;
    void attempt(loadTenants);
  };
  const page = tenants.page;
  const turn = (offset: number) => {
    tenants.offset = offset;
    void attempt(loadTenants);
  };
  return html`<section aria-labelledby="tenants-title" class="console">
    <h2 id="tenants-title">Tenants</h2>
    <form class="filters" role="search" aria-label="Search tenants" @submit=${search}>
      <div><label for="tenant-search">Reference, company name or number, or tenant id</label><input id="tenant-search" name="search" .value=${tenants.search} maxlength="200"></div>
      <div><button type="submit">Search</button></div>
    </form>
    ${tenants.open ? detailView(tenants.open) : nothing}
    ${
      !page
        ? nothing
        : page.items.length === 0
          ? html`<p class="muted">No tenants${tenants.search ? ' match' : ''}.</p>`
          : html`<table class="stacked" data-testid="tenants">
      <caption>${page.total} ${page.total === 1 ? 'tenant' : 'tenants'}${tenants.search ? ` matching “${tenants.search}”` : ''}, newest first</caption>
      <thead><tr><th scope="col">Company</th><th scope="col">Reference</th><th scope="col">Company number</th><th scope="col">Created</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>${page.items.map(
        (t) => html`<tr data-testid="tenant-${t.id}">
          <td data-label="Company">${t.companyName ?? html`<span class="muted">no profile yet</span>`}</td>
          <td data-label="Reference">${t.referenceId ?? '—'}</td>
          <td data-label="Company number">${t.registrationNumber ?? '—'}</td>
          <td data-label="Created">${formatMoment(t.createdAt)}</td>
          <td data-label=""><button type="button" @click=${() => attempt(() => openTenant(t.id))} aria-label="Open ${tenantName(t)}">Open</button></td>
        </tr>`,
      )}</tbody>
    </table>
    <div class="pager">
      <button type="button" ?disabled=${page.offset === 0} @click=${() => turn(Math.max(0, page.offset - page.limit))}>Previous</button>
      <span>${page.offset + 1}–${page.offset + page.items.length} of ${page.total}</span>
      <button type="button" ?disabled=${page.offset + page.items.length >= page.total} @click=${() => turn(page.offset + page.limit)}>Next</button>
    </div>`
    }
  </section>`;
}
