/**
 * Pages opened by signed links. The funding-search page a profile's signed link opens (GET /app/funding-search/{uuid}?token=):
 * server-rendered HTML, responsive, no script. It shows the business and its funding search; the
 * matches appear here once the matching service lands.
 */
import type { FundingSearchPage } from '../domain/profiles/profile-links.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 0; color: #1b1f24; background: #f6f7f9; }
  main { max-width: 960px; margin: 0 auto; padding: 24px 16px; }
  h1 { font-size: 1.5rem; margin: 0 0 8px; }
  .card { background: #fff; border-radius: 8px; padding: 16px; box-shadow: 0 1px 3px rgba(0,0,0,.08); margin-bottom: 16px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
  dt { color: #59636e; }
  @media (max-width: 480px) { dl { grid-template-columns: 1fr; } }
`;

export function renderFundingSearchPage(page: FundingSearchPage): string {
  const { profile } = page;
  const name = profile.companyName ?? 'Your business';
  const rows: Array<[string, string | null]> = [
    ['Company number', profile.registrationNumber],
    ['Country', profile.countryCode],
    ['Profile', profile.uuid],
    ['Last updated', profile.updatedAt],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Funding search: ${escapeHtml(name)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
  <h1 data-testid="company-name">${escapeHtml(name)}</h1>
  <p>Your funding search</p>
  <section class="card" aria-label="Business">
    <dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v ?? '—')}</dd>`).join('')}</dl>
  </section>
  <section class="card" aria-label="Matches" data-testid="matches">
    <h2>Matches</h2>
    <p>Lender matches for this business are shown here once its funding search has run.</p>
  </section>
  <p><small>This page was shared through a personal link that expires; ask for a new one if it stops working.</small></p>
</main>
</body>
</html>`;
}

/** The page a Business V1 continue URL opens: the client sees the application and carries on. */
export function renderContinuePage(application: { id: string; createdAt: string } & Record<string, unknown>): string {
  const name = typeof application.companyName === 'string' ? application.companyName : 'Your business';
  const amount = application.fundingAmount as { code?: string; value?: number } | undefined;
  const rows: Array<[string, string | null]> = [
    ['Application', application.id],
    ['Funding requested', amount?.value !== undefined ? `${amount.code ?? ''} ${amount.value.toLocaleString('en-GB')}` : null],
    ['Funding period', typeof application.fundingPeriod === 'number' ? `${application.fundingPeriod} months` : null],
    ['Started', application.createdAt],
  ];
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>Continue your application: ${escapeHtml(name)}</title><style>${STYLE}</style></head>
<body><main>
  <h1 data-testid="company-name">${escapeHtml(name)}</h1>
  <p>Continue your funding application</p>
  <section class="card" aria-label="Application"><dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v ?? '—')}</dd>`).join('')}</dl></section>
  <p><small>This page was shared through a personal link that expires; ask for a new one if it stops working.</small></p>
</main></body></html>`;
}

export function renderLinkProblemPage(status: number, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Link not valid</title><style>${STYLE}</style></head>
<body><main><h1>This link cannot be opened</h1><p data-testid="problem">${escapeHtml(message)}</p><p><small>Status ${status}</small></p></main></body></html>`;
}
