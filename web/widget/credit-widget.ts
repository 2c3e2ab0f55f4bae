/**
 * The credit widget itself: a custom element with a shadow root, so the host page's CSS does not
 * reach in and ours does not leak out. It shows the tenant's credit report, or nothing at all and
 * reports why (only limited companies with a registration number have one, spec 1).
 */
import { formatDate, formatMoney } from '../shared/format.js';
import { fetchCreditReport, type CreditReportView } from './credit-report-client.js';
import { BAND_COLOURS, WIDGET_CSS } from './widget-styles.js';
import { gradeMeaning } from './grade-bands.js';
import type { WidgetError } from './widget-errors.js';

export const WIDGET_TAG = 'svc-credit-widget';

export interface MountOptions {
  accessToken: string;
  /** Where the API lives: the origin widget.js was loaded from. */
  apiOrigin: string;
  onError: (error: WidgetError) => void;
}

const COMPANY_TYPES: Record<string, string> = {
  LIMITED_COMPANY: 'Limited company',
  LIMITED_LIABILITY_PARTNERSHIP: 'Limited liability partnership',
  SOLE_TRADER: 'Sole trader',
  STARTUP: 'Start-up',
};

type Child = Node | string | null | undefined;

function h(tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined) element.append(child);
  return element;
}

/** Renders the widget inside `target`, replacing a widget mounted there before. */
export async function mountCreditWidget(target: Element, options: MountOptions): Promise<void> {
  target.querySelector(`:scope > ${WIDGET_TAG}`)?.remove();
  const host = document.createElement(WIDGET_TAG);
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root);
  root.append(h('p', { class: 'loading', role: 'status' }, 'Loading credit report…'));
  target.append(host);
  const outcome = await fetchCreditReport(options.apiOrigin, options.accessToken);
  if (!outcome.ok) {
    host.remove();
    options.onError(outcome.error);
    return;
  }
  root.replaceChildren(renderReport(outcome.report));
}

/** Constructed style sheets need no 'unsafe-inline' in the host page's Content-Security-Policy. */
function adoptStyles(root: ShadowRoot): void {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(WIDGET_CSS);
    root.adoptedStyleSheets = [sheet];
  } else {
    (root as ShadowRoot).append(h('style', {}, WIDGET_CSS));
  }
}

function renderReport(report: CreditReportView): HTMLElement {
  const name = report.name ?? 'Your company';
  const score = report.score ?? {};
  const grade = score.grade ?? '?';
  const subtitle = [report.registrationNumber ? `Company number ${report.registrationNumber}` : null, report.type ? (COMPANY_TYPES[report.type] ?? report.type) : null]
    .filter(Boolean)
    .join(' · ');
  const card = h(
    'section',
    { class: 'card', 'aria-label': `Credit report for ${name}` },
    h('div', { class: 'head' }, h('h2', { 'data-field': 'name' }, name), h('p', { class: 'sub', 'data-field': 'company' }, subtitle)),
    h('div', { class: 'summary' }, gradeBlock(grade), score.value !== undefined ? gauge(score.value) : null),
    h(
      'dl',
      {},
      fact('industryAverageGrade', 'Industry average grade', score.industryAverageGrade ? `${score.industryAverageGrade}: ${gradeMeaning(score.industryAverageGrade)}` : 'Not known'),
      fact('previousGrade', 'Previous grade', previousGrade(score)),
      fact('lastAssessedAt', 'Last assessed', score.lastAssessedAt ? formatDate(score.lastAssessedAt) : 'Not known'),
      fact('creditLimit', 'Credit limit', report.creditLimit ? money(report.creditLimit) : 'Not known'),
      fact('companyNotices', 'Legal notices against the company (last 12 months)', notices(report.legalNotices?.company)),
      fact('directorNotices', 'Legal notices against directors (last 12 months)', notices(report.legalNotices?.directors)),
    ),
  );
  return card;
}

function gradeBlock(grade: string): HTMLElement {
  const block = h(
    'div',
    { class: 'grade', 'data-field': 'grade' },
    h('span', { class: 'letter', 'aria-hidden': 'true' }, grade),
    h('div', {}, h('p', { class: 'label' }, `Credit grade ${grade}`), h('p', { 'data-field': 'gradeMeaning' }, gradeMeaning(grade))),
  );
  block.style.setProperty('--band', BAND_COLOURS[grade] ?? '#57606a');
  return block;
}

/** A half-circle gauge of the 0-100 score; its number and label carry the value, not the drawing. */
function gauge(value: number): HTMLElement {
  const clamped = Math.max(0, Math.min(100, value));
  const svgNs = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(svgNs, 'svg');
  svg.setAttribute('viewBox', '0 0 120 66');
  svg.setAttribute('aria-hidden', 'true');
  const arc = (colour: string, fraction: number) => {
    const path = document.createElementNS(svgNs, 'path');
    path.setAttribute('d', 'M10 60 A50 50 0 0 1 110 60');
    path.setAttribute('fill', 'none');
    path.setAttribute('stroke', colour);
    path.setAttribute('stroke-width', '12');
    path.setAttribute('pathLength', '100');
    path.setAttribute('stroke-dasharray', `${fraction} 100`);
    return path;
  };
  svg.append(arc('#d0d7de', 100), arc('#0969da', clamped));
  return h(
    'div',
    { class: 'gauge', role: 'meter', 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(clamped), 'aria-label': 'Credit score' },
    svg,
    h('div', {}, h('p', { class: 'value', 'data-field': 'score' }, `${value} / 100`), h('p', {}, 'Credit score')),
  );
}

function fact(field: string, label: string, value: string): HTMLElement {
  return h('div', { class: 'fact' }, h('dt', {}, label), h('dd', { 'data-field': field }, value));
}

function previousGrade(score: NonNullable<CreditReportView['score']>): string {
  if (!score.previous?.grade) return 'None recorded';
  return score.changedAt ? `${score.previous.grade}, changed ${formatDate(score.changedAt)}` : score.previous.grade;
}

function money(amount: { code: string; value: number }): string {
  return amount.code === 'GBP' ? formatMoney(amount.value) : new Intl.NumberFormat('en-GB', { style: 'currency', currency: amount.code }).format(amount.value);
}

function notices(n: { last12MonthsCount?: number; last12MonthsValue?: { code: string; value: number } } | undefined): string {
  if (!n || n.last12MonthsCount === undefined) return 'Not known';
  const count = `${n.last12MonthsCount} ${n.last12MonthsCount === 1 ? 'notice' : 'notices'}`;
  return n.last12MonthsValue ? `${count}, ${money(n.last12MonthsValue)}` : count;
}
