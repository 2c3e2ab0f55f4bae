/**
 * Pages opened by signed links, server-rendered HTML, responsive, no script. The funding-search page
 * a profile's signed link opens (GET /app/funding-search/{uuid}?token=) shows the business, its
 * current funding search (matched lenders and products with likelihood and fees, and on request why
 * the other products did not match) and the applications sent to lenders.
 */
import { answersShown, type ContinuePage } from '../../modules/business-applications/business-application-service.js';
import type { FundingSearchPage, ProductFees } from '../../modules/matching/funding-search-links.js';

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
  dd { margin: 0; overflow-wrap: anywhere; }
  h2 { font-size: 1.2rem; margin: 0 0 12px; }
  h3 { font-size: 1rem; margin: 0 0 8px; }
  .items { list-style: none; margin: 0; padding: 0; }
  .items > li { border-top: 1px solid #e1e4e8; padding: 12px 0; }
  .muted { color: #59636e; margin: 8px 0 0; }
  summary { cursor: pointer; font-weight: 600; }
  fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
  legend { font-weight: 600; margin-bottom: 8px; }
  .items label { font-size: 1.05rem; }
  .offer { margin-top: 8px; padding: 8px 12px; background: #eef6ee; border-radius: 6px; }
  .offer p { margin: 0 0 6px; }
  .problem { border: 2px solid #cf222e; }
  button { font: inherit; padding: 10px 18px; border-radius: 6px; border: 0; background: #0b5cad; color: #fff; cursor: pointer; margin-top: 12px; }
  button:focus-visible, input:focus-visible, summary:focus-visible { outline: 3px solid #1b1f24; outline-offset: 2px; }
  @media (max-width: 480px) { dl { grid-template-columns: 1fr; } }
`;

export function renderFundingSearchPage(page: FundingSearchPage): string {
  const { profile, search } = page;
  const name = profile.companyName ?? 'Your business';
  const rows: Array<[string, string | null]> = [
    ['Company number', profile.registrationNumber],
    ['Country', profile.countryCode],
    ['Funding sought', search.amount > 0 ? formatPounds(search.amount) : null],
    ['Last updated', formatDay(profile.updatedAt)],
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
  <p>Your funding search${search.id !== undefined ? ` (search ${search.id})` : ''}</p>
  <section class="card" aria-label="Business">
    <dl>${definitionRows(rows)}</dl>
  </section>
  <section class="card" aria-labelledby="matches-title" data-testid="matches">
    <h2 id="matches-title">Matched lenders and products (${search.matches.length})</h2>
    ${search.matches.length === 0 ? `<p>No lender product matches this business yet.${missingAnswers(search)}</p>` : `<ul class="items">${search.matches.map((m) => matchItem(m, page.feesByProductId[m.productId])).join('')}</ul>`}
  </section>
  ${whyNot(page)}
  <section class="card" aria-labelledby="applications-title" data-testid="applications">
    <h2 id="applications-title">Applications sent to lenders</h2>
    ${
      page.applications.length === 0
        ? '<p>No application has been sent to a lender yet.</p>'
        : `<ul class="items">${page.applications
            .map(
              (a) =>
                `<li data-testid="application"><strong>${escapeHtml(a.lender)}</strong>${a.product ? `, ${escapeHtml(productLabel(a.product))}` : ''}: <span data-testid="application-status">${escapeHtml(a.status)}</span> <small>(updated ${escapeHtml(formatDay(a.updatedAt))})</small></li>`,
            )
            .join('')}</ul>`
    }
  </section>
  <p><small>This page was shared through a personal link that expires; ask for a new one if it stops working.</small></p>
</main>
</body>
</html>`;
}

type SearchMatch = FundingSearchPage['search']['matches'][number];

function matchItem(m: SearchMatch, fees: ProductFees | undefined): string {
  const rows: Array<[string, string | null]> = [
    ['Product', productLabel(m.product)],
    ['Likelihood', `${Math.round(m.likelihood * 100)}%`],
    ['Fees', fees ? `arrangement ${percent(fees.arrangementFees)}, early repayment ${percent(fees.earlyRepaymentFees)}, exit ${percent(fees.exitFees)}` : null],
    ['Instant offer', m.instantOffer ? 'Yes' : 'No'],
    ['Typical response', `${m.lender.responseTime} hours`],
  ];
  return `<li data-testid="match" data-lender-id="${m.lender.id}" data-product-id="${m.productId}">
    <h3>${escapeHtml(m.lender.name)}: ${escapeHtml(m.productName)}</h3>
    <dl>${definitionRows(rows)}</dl>
    ${m.reasons.length ? `<p class="muted">Why it matched: ${escapeHtml(m.reasons.join('; '))}</p>` : ''}
  </li>`;
}

/** The products that did not match, folded away until asked for (no script needed). */
function whyNot(page: FundingSearchPage): string {
  const explanation = page.search.explanation;
  if (!explanation || explanation.rejections.length === 0) return '';
  return `<section class="card" aria-label="Products that did not match">
    <details data-testid="why-not">
      <summary>Why ${explanation.rejections.length} other ${explanation.rejections.length === 1 ? 'product' : 'products'} did not match</summary>
      <ul class="items">${explanation.rejections
        .map(
          (r) =>
            `<li data-testid="rejection"><strong>${escapeHtml(page.lenderNames[r.lender.id] ?? `Lender ${r.lender.id}`)}</strong>, ${escapeHtml(productLabel(r.product))}: ${escapeHtml(r.reasons.join('; '))}</li>`,
        )
        .join('')}</ul>
    </details>
  </section>`;
}

function missingAnswers(search: FundingSearchPage['search']): string {
  const missing = search.explanation?.missing ?? [];
  return missing.length ? ` Answers still needed: ${escapeHtml(missing.join(', '))}.` : '';
}

function definitionRows(rows: Array<[string, string | null]>): string {
  return rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v ?? '—')}</dd>`).join('');
}

/** ASSET_BACKED_FINANCE → "Asset backed finance". */
function productLabel(type: string): string {
  const words = type.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const POUNDS = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 });
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' });
const formatPounds = (value: number) => POUNDS.format(value);
const formatDay = (iso: string) => DAY.format(new Date(iso));
const percent = (value: number) => `${Number(value.toFixed(2))}%`;

/** What the continue page shows besides the application: a refused choice, the ticks to keep, and whether to ask before replacing. */
export interface ContinuePageState {
  /** Where the form posts (the page's own URL with its token). */
  formAction: string;
  /** The page with the form opened to change a choice waiting for review. */
  changeUrl: string;
  problem?: string;
  /** The "lenderId:PRODUCT" ticks the client sent, kept across a refusal. */
  chosen?: readonly string[];
  /** The client asked to change its choice (or sent one while another waits): the form replaces it. */
  replacing?: boolean;
  /** A choice was sent while another waits for review: ask before replacing it. */
  askReplace?: boolean;
}

/** The most matches the client can tick (the server still refuses more than 4 lenders). */
const MAX_TICKS = 4;

/** The page a Business V1 continue URL opens: the client reviews the application, its matches and offers, and proceeds. */
export function renderContinuePage(page: ContinuePage, state: ContinuePageState): string {
  const { application, choice } = page;
  const name = application.companyName ?? 'Your business';
  const review: Array<[string, string | null]> = [
    ['Application', application.id],
    ['Started', formatDay(application.createdAt)],
    ...Object.entries(answersShown(application)).map(([key, value]) => [fieldLabel(key), answerText(key, value)] as [string, string | null]),
  ];
  const lenderNames = new Map(page.matches.map((m) => [m.lender.id, m.lender.name]));
  const waiting = choice !== null && (choice.state === 'PENDING_REVIEW' || choice.state === 'IN_REVIEW');
  // After a choice the page shows its status and no form, until the client asks to change it (or it was returned).
  const showForm = page.mayChoose && (!waiting || state.replacing === true || state.askReplace === true);
  const chosen = new Set(state.chosen ?? []);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>Continue your application: ${escapeHtml(name)}</title><style>${STYLE}</style>
<script defer src="/app/continue-page.js"></script></head>
<body><main>
  <h1 data-testid="company-name">${escapeHtml(name)}</h1>
  <p>Continue your funding application</p>
  ${state.problem && !state.askReplace ? `<p class="card problem" role="alert" data-testid="choice-problem">${escapeHtml(state.problem)}</p>` : ''}
  ${choice ? choiceSummary(choice, lenderNames, waiting && page.mayChoose && !showForm ? state.changeUrl : null) : ''}
  <section class="card" aria-labelledby="review-title" data-testid="review">
    <h2 id="review-title">Review your application</h2>
    <dl>${definitionRows(review)}</dl>
  </section>
  <section class="card" aria-labelledby="choose-title">
    <h2 id="choose-title">Your matches (${page.matches.length})</h2>
    ${
      page.matches.length === 0
        ? '<p>No lender product matches this application yet.</p>'
        : showForm
          ? `<form method="post" action="${escapeHtml(state.formAction)}" data-testid="choice-form" data-max-ticks="${MAX_TICKS}">
      ${waiting ? replaceQuestion(state) : ''}
      <fieldset>
        <legend>Choose up to ${MAX_TICKS} lenders to proceed with</legend>
        <p class="muted" id="tick-limit" data-testid="tick-limit" aria-live="polite"></p>
        <ul class="items">${page.matches.map((m) => continueMatchItem(m, chosen)).join('')}</ul>
      </fieldset>
      <button type="submit">${waiting ? 'Replace my choice' : 'Proceed with my choice'}</button>
    </form>`
          : `<ul class="items">${page.matches.map((m) => continueMatchItem(m, chosen, false)).join('')}</ul>`
    }
  </section>
  <p><small>This page was shared through a personal link that expires; ask for a new one if it stops working.</small></p>
</main></body></html>`;
}

/** Said before a new choice replaces the one waiting for review: the form carries replace=yes only from here. */
function replaceQuestion(state: ContinuePageState): string {
  return `<div class="card problem" role="${state.askReplace ? 'alert' : 'note'}" data-testid="replace-question">
    <p><strong>You already sent a choice that is waiting for review.</strong> Sending this one replaces it: our funding specialists will only see the new choice.</p>
    <input type="hidden" name="replace" value="yes">
    <p class="muted">Keep your earlier choice? <a href="${escapeHtml(state.changeUrl.replace(/&change=1$/, ''))}">Go back without changing it</a>.</p>
  </div>`;
}

function continueMatchItem(m: ContinuePage['matches'][number], chosen: ReadonlySet<string>, choosable = true): string {
  const value = `${m.lender.id}:${m.product}`;
  const inputId = `choice-${m.lender.id}-${m.productId}`;
  const rows: Array<[string, string | null]> = [
    ['Likelihood', `${Math.round(m.likelihood * 100)}%`],
    ['Fees', `arrangement ${percent(m.fees.arrangementFees)}, early repayment ${percent(m.fees.earlyRepaymentFees)}, exit ${percent(m.fees.exitFees)}`],
    ['Typical response', `${m.lender.responseTime} hours`],
  ];
  return `<li data-testid="continue-match" data-lender-id="${m.lender.id}" data-product="${escapeHtml(m.product)}">
    ${
      choosable
        ? `<input type="checkbox" name="choice" value="${escapeHtml(value)}" id="${inputId}"${chosen.has(value) ? ' checked' : ''}>
    <label for="${inputId}"><strong>${escapeHtml(m.lender.name)}</strong>: ${escapeHtml(productLabel(m.product))}</label>`
        : `<h3><strong>${escapeHtml(m.lender.name)}</strong>: ${escapeHtml(productLabel(m.product))}</h3>`
    }
    <dl>${definitionRows(rows)}</dl>
    ${m.offer ? offerSummary(m.offer) : ''}
  </li>`;
}

/** The headline figures of a pre-selected offer, whichever product object it carries. */
function offerSummary(offer: NonNullable<ContinuePage['matches'][number]['offer']>): string {
  const product = (Object.values(offer as Record<string, unknown>).find((v) => typeof v === 'object' && v !== null && !Array.isArray(v)) ?? {}) as Record<
    string,
    unknown
  >;
  const figure = (label: string, keys: string[], format: (n: number) => string): [string, string] | null => {
    const key = keys.find((k) => typeof product[k] === 'number');
    return key ? [label, format(product[key] as number)] : null;
  };
  const rows = [
    figure('Amount', ['maximumAmount', 'fundingAmount', 'advanceAmount', 'maximumCreditLine'], formatPounds),
    figure('Monthly repayment', ['monthlyRepayment'], formatPounds),
    figure('Interest rate (monthly)', ['interestRate'], percent),
    aprRow(offer),
    figure('Total repayable', ['totalRepayment', 'totalPrice'], formatPounds),
    figure('Term', ['term', 'mortgageTerm'], (n) => `${n} months`),
    ['Offer valid until', offer.expiryDate ? formatDay(offer.expiryDate) : null] as [string, string | null],
  ].filter((r): r is [string, string | null] => r !== null);
  return `<div class="offer" data-testid="preselected-offer"><p><strong>Pre-selected instant offer</strong> (${escapeHtml(offer.status.replace('_', ' ').toLowerCase())}): ${escapeHtml(offer.publicComment ?? '')}</p><dl>${definitionRows(rows)}</dl></div>`;
}

/**
 * The representative APR the pricing computed, as a percentage: a term loan's is a percentage, an
 * asset finance offer's a fraction (spec 2.6 tables), so both read alike to the client.
 */
function aprRow(offer: NonNullable<ContinuePage['matches'][number]['offer']>): [string, string] | null {
  if ('termLoan' in offer && offer.termLoan) return ['Representative APR', percent(offer.termLoan.representativeAPR)];
  if ('assetFinance' in offer && offer.assetFinance) return ['Representative APR', percent(offer.assetFinance.representativeAPR * 100)];
  return null;
}

/** The client's choice in words: where it stands, and what to do next. */
const CHOICE_STATUS: Record<NonNullable<ContinuePage['choice']>['state'], { title: string; text: string }> = {
  PENDING_REVIEW: { title: 'Waiting for review', text: 'Our funding specialists will review your choice and send it to the lenders.' },
  IN_REVIEW: { title: 'Being reviewed', text: 'A funding specialist is reviewing your choice.' },
  SUBMITTED: { title: 'Sent to lenders', text: 'Your application was sent to the lenders you chose. They will reply through us.' },
  REJECTED: { title: 'Not taken forward', text: 'Our funding specialists could not take your choice forward.' },
  RETURNED: { title: 'Returned to you', text: 'Our funding specialists returned your choice to you: please choose again below.' },
  CLOSED: { title: 'Replaced', text: 'This choice was replaced by a later one.' },
};

function choiceSummary(choice: NonNullable<ContinuePage['choice']>, lenderNames: Map<number, string>, changeUrl: string | null): string {
  const items = choice.lenders
    .map((l) => `<li>${escapeHtml(lenderNames.get(l.lenderId) ?? `Lender ${l.lenderId}`)}: ${escapeHtml(l.products.map(productLabel).join(', '))}</li>`)
    .join('');
  const status = CHOICE_STATUS[choice.state];
  return `<section class="card" aria-labelledby="choice-title" data-testid="choice" data-state="${escapeHtml(choice.state)}">
    <h2 id="choice-title">Your choice: <span data-testid="choice-status">${escapeHtml(status.title)}</span></h2>
    <p>${escapeHtml(status.text)}</p>
    ${choice.reason ? `<p data-testid="choice-reason"><strong>Reason given:</strong> ${escapeHtml(choice.reason)}</p>` : ''}
    <p>Sent on ${escapeHtml(formatDay(choice.createdAt))}:</p>
    <ul>${items}</ul>
    ${changeUrl ? `<p><a href="${escapeHtml(changeUrl)}" data-testid="change-choice">Change my choice</a> (your new choice replaces this one)</p>` : ''}
  </section>`;
}

/** fundingAmount → "Funding amount". */
function fieldLabel(key: string): string {
  const words = key.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function answerText(key: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object' && 'value' in value && typeof (value as { value: unknown }).value === 'number') {
    const money = value as { code?: string; value: number };
    return money.code && money.code !== 'GBP' ? `${money.code} ${money.value.toLocaleString('en-GB')}` : formatPounds(money.value);
  }
  if (key === 'fundingPeriod' && typeof value === 'number') return `${value} months`;
  if (typeof value === 'string' && /^[A-Z_]+$/.test(value)) return productLabel(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Why a personal link could not be opened, in the words of the business owner reading it (no talk of tokens or signatures). */
export type LinkProblem = 'expired' | 'invalid' | 'not-found' | 'unavailable';

const LINK_PROBLEMS: Record<LinkProblem, { title: string; text: string }> = {
  expired: { title: 'This link has expired', text: 'Links to your application only work for a limited time, to keep your details safe.' },
  invalid: { title: 'This link does not work', text: 'The link may have been copied incompletely, replaced by a newer one, or it belongs to another page.' },
  'not-found': { title: 'We could not find this application', text: 'The application this link points to is not available any more.' },
  unavailable: { title: 'This page is not available right now', text: 'Something went wrong on our side. Please try again in a few minutes.' },
};

/**
 * The page shown when a personal link cannot be opened: what happened, and the way back: the
 * service that sent the link gives a new one. It names nobody: naming the integrator behind an id
 * would tell anyone who tries an id whose application it is.
 */
export function renderLinkProblemPage(status: number, problem: LinkProblem): string {
  const { title, text } = LINK_PROBLEMS[problem];
  const back = 'Please go back to the service where you started your application and ask for a new link.';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>
<section class="card" data-testid="problem" data-problem="${problem}" data-status="${status}"><p>${escapeHtml(text)}</p><p data-testid="way-back">${back}</p></section>
</main></body></html>`;
}
