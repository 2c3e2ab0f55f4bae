/**
 * The credit widget itself: a custom element with a shadow root, so the host page's CSS does not
 * reach in and ours does not leak out (theming goes through the documented custom properties and
 * `::part` names only). It shows the tenant's credit report, or nothing at all and reports why
 * (only limited companies with a registration number have one, spec 1). Both embeds use it: the
 * script embed on the host page, the frame embed inside embed.html.
 */
import { fetchCreditReport, type CreditReportView } from './credit-report-client.js';
import { gradeMeaning } from './grade-bands.js';
import type { Catalogue, ResolvedLocale } from './messages.js';
import { formatterFor, type Formatter } from './widget-format.js';
import type { ReportedError } from './widget-errors.js';
import { BAND_COLOURS, WIDGET_CSS, type WidgetPart } from './widget-styles.js';
import { applyTheme, type Theme } from './widget-theme.js';

const WIDGET_TAG = 'svc-credit-widget';

export interface WidgetSettings {
  accessToken: string;
  /** Where the API lives: the origin widget.js (or embed.html) was loaded from. */
  apiOrigin: string;
  locale: ResolvedLocale;
  theme: Theme;
  /** Every failed load: the widget has removed itself from the page (it renders nothing). */
  onError: (error: ReportedError) => void;
  /** Every successful load, once the report is in the page. */
  onShown: () => void;
}

type Child = Node | string | null | undefined;

function h(tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined) element.append(child);
  return element;
}

const part = (name: WidgetPart) => ({ part: name });

/** One widget in one element: loads the report with its token, again with each new token, until destroyed. */
export class CreditWidget {
  private readonly host: HTMLElement;
  private readonly root: ShadowRoot;
  private token: string;
  private pending: AbortController | undefined;
  private destroyed = false;

  constructor(
    private readonly target: Element,
    private readonly settings: WidgetSettings,
  ) {
    this.token = settings.accessToken;
    this.host = document.createElement(WIDGET_TAG);
    this.host.setAttribute('lang', settings.locale.language);
    applyTheme(this.host, settings.theme);
    this.root = this.host.attachShadow({ mode: 'open' });
    adoptStyles(this.root);
    this.root.append(h('p', { class: 'loading', role: 'status', ...part('loading') }, settings.locale.text.loading));
    target.append(this.host);
    void this.load();
  }

  /** Loads the report again with `token`; the report shown stays until the new answer replaces it. */
  setToken(token: string): void {
    if (this.destroyed) return;
    this.token = token;
    void this.load();
  }

  /** Removes the widget; a load in flight is abandoned and reports nothing. */
  destroy(): void {
    this.destroyed = true;
    this.pending?.abort();
    this.pending = undefined;
    this.host.remove();
  }

  private async load(): Promise<void> {
    this.pending?.abort();
    const pending = new AbortController();
    this.pending = pending;
    const outcome = await fetchCreditReport(this.settings.apiOrigin, this.token, pending.signal);
    // A newer token, or destroy, has superseded this load.
    if (pending.signal.aborted || this.destroyed) return;
    this.pending = undefined;
    const { text } = this.settings.locale;
    if (!outcome.ok) {
      this.host.remove();
      this.settings.onError({ ...outcome.error, userMessage: text.errors[outcome.error.code] });
      return;
    }
    this.root.replaceChildren(renderReport(outcome.report, text, formatterFor(this.settings.locale.formatting)));
    if (!this.host.isConnected) this.target.append(this.host);
    this.settings.onShown();
  }
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

function renderReport(report: CreditReportView, text: Catalogue, format: Formatter): HTMLElement {
  const name = report.name ?? text.unnamedCompany;
  // No score: no credit-data source has scored the company; the card says so rather than show a grade.
  const subtitle = subtitleOf(report, text);
  if (!report.score) return renderWithoutCreditData(name, subtitle, text);
  const score = report.score;
  const grade = score.grade ?? '?';
  const notKnown = text.notKnown;
  return h(
    'section',
    { class: 'card', 'aria-label': text.reportFor(name), ...part('card') },
    h(
      'div',
      { class: 'head', ...part('header') },
      h('h2', { 'data-field': 'name', ...part('title') }, name),
      h('p', { class: 'sub', 'data-field': 'company', ...part('subtitle') }, subtitle),
    ),
    h('div', { class: 'summary' }, gradeBlock(grade, text), score.value !== undefined ? gauge(score.value, text, format) : null),
    h(
      'dl',
      part('facts'),
      fact(
        'industryAverageGrade',
        text.facts.industryAverageGrade,
        score.industryAverageGrade ? text.gradeAndMeaning(score.industryAverageGrade, gradeMeaning(score.industryAverageGrade, text)) : notKnown,
      ),
      fact('previousGrade', text.facts.previousGrade, previousGrade(score, text, format)),
      fact('lastAssessedAt', text.facts.lastAssessed, score.lastAssessedAt ? format.date(score.lastAssessedAt) : notKnown),
      fact('creditLimit', text.facts.creditLimit, report.creditLimit ? format.money(report.creditLimit) : notKnown),
      fact('companyNotices', text.facts.companyNotices, notices(report.legalNotices?.company, text, format)),
      fact('directorNotices', text.facts.directorNotices, notices(report.legalNotices?.directors, text, format)),
    ),
  );
}

function subtitleOf(report: CreditReportView, text: Catalogue): string {
  return [
    report.registrationNumber ? text.companyNumber(report.registrationNumber) : null,
    report.type ? (text.companyTypes[report.type] ?? report.type) : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

function renderWithoutCreditData(name: string, subtitle: string, text: Catalogue): HTMLElement {
  return h(
    'section',
    { class: 'card', 'aria-label': text.reportFor(name), ...part('card') },
    h(
      'div',
      { class: 'head', ...part('header') },
      h('h2', { 'data-field': 'name', ...part('title') }, name),
      h('p', { class: 'sub', 'data-field': 'company', ...part('subtitle') }, subtitle),
    ),
    h(
      'div',
      { class: 'summary' },
      h(
        'div',
        { 'data-field': 'noCreditData', ...part('no-credit-data') },
        h('p', { class: 'label' }, text.noCreditData),
        h('p', {}, text.noCreditDataExplained),
      ),
    ),
  );
}

function gradeBlock(grade: string, text: Catalogue): HTMLElement {
  const block = h(
    'div',
    { class: 'grade', 'data-field': 'grade', ...part('grade') },
    h('span', { class: 'letter', 'aria-hidden': 'true', ...part('grade-letter') }, grade),
    h('div', {}, h('p', { class: 'label' }, text.creditGrade(grade)), h('p', { 'data-field': 'gradeMeaning' }, gradeMeaning(grade, text))),
  );
  block.style.setProperty('--band', BAND_COLOURS[grade] ?? '#57606a');
  return block;
}

/** A half-circle gauge of the 0-100 score; its number and label carry the value, not the drawing. */
function gauge(value: number, text: Catalogue, format: Formatter): HTMLElement {
  const clamped = Math.max(0, Math.min(100, value));
  const svgNs = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(svgNs, 'svg');
  svg.setAttribute('viewBox', '0 0 120 66');
  svg.setAttribute('aria-hidden', 'true');
  const arc = (className: string, fraction: number) => {
    const path = document.createElementNS(svgNs, 'path');
    path.setAttribute('class', className);
    path.setAttribute('d', 'M10 60 A50 50 0 0 1 110 60');
    path.setAttribute('fill', 'none');
    path.setAttribute('stroke-width', '12');
    path.setAttribute('pathLength', '100');
    path.setAttribute('stroke-dasharray', `${fraction} 100`);
    return path;
  };
  svg.append(arc('track', 100), arc('fill', clamped));
  return h(
    'div',
    {
      class: 'gauge',
      role: 'meter',
      'aria-valuemin': '0',
      'aria-valuemax': '100',
      'aria-valuenow': String(clamped),
      'aria-label': text.creditScore,
      ...part('gauge'),
    },
    svg,
    h('div', {}, h('p', { class: 'value', 'data-field': 'score', ...part('score') }, text.scoreOutOf100(format.number(value))), h('p', {}, text.creditScore)),
  );
}

function fact(field: string, label: string, value: string): HTMLElement {
  return h('div', { class: 'fact', ...part('fact') }, h('dt', part('fact-label'), label), h('dd', { 'data-field': field, ...part('fact-value') }, value));
}

function previousGrade(score: NonNullable<CreditReportView['score']>, text: Catalogue, format: Formatter): string {
  if (!score.previous?.grade) return text.noneRecorded;
  return score.changedAt ? text.previousGradeChanged(score.previous.grade, format.date(score.changedAt)) : score.previous.grade;
}

function notices(
  n: { last12MonthsCount?: number; last12MonthsValue?: { code: string; value: number } } | undefined,
  text: Catalogue,
  format: Formatter,
): string {
  if (!n || n.last12MonthsCount === undefined) return text.notKnown;
  const count = text.notices(format.number(n.last12MonthsCount), format.plural(n.last12MonthsCount));
  return n.last12MonthsValue ? text.noticesWithValue(count, format.money(n.last12MonthsValue)) : count;
}
