/**
 * The widget's own styles, applied inside its shadow root only. `:host` declarations are !important
 * because a host page's rules on the host element (`* { all: unset }`) beat normal :host rules, while
 * important ones from inside the shadow tree win; `all` leaves custom properties alone, so the
 * theme's variables (widget-theme.ts) still inherit from the page. Layout follows the widget's own
 * width (container queries), not the page's: small below 740 px, medium from 740, large from 1024.
 */
import { themed } from './widget-theme.js';

export const WIDGET_CSS = `
:host { all: initial !important; display: block !important; container-type: inline-size !important; contain: content !important;
  font-family: ${themed('--svc-font-family')} !important; font-size: ${themed('--svc-font-size')} !important; line-height: 1.45 !important;
  color: ${themed('--svc-text-color')} !important; }
*, *::before, *::after { box-sizing: border-box; }
.card { background: ${themed('--svc-background')}; border: 1px solid ${themed('--svc-border-color')}; border-radius: ${themed('--svc-radius')};
  padding: 16px; max-width: 100%; overflow-wrap: anywhere; }
.head { margin: 0 0 12px; }
h2 { font-size: 1.2em; margin: 0 0 4px; line-height: 1.25; }
.sub { margin: 0; color: ${themed('--svc-muted-color')}; font-size: .9em; }
.summary { display: grid; grid-template-columns: 1fr; gap: 12px; margin-bottom: 12px; }
.grade { display: flex; align-items: center; gap: 12px; padding: 12px; border-radius: ${themed('--svc-radius')};
  background: ${themed('--svc-panel-background')}; border-left: 6px solid var(--band); }
.letter { flex: none; width: 56px; height: 56px; border-radius: 50%; display: grid; place-items: center; font-size: 1.9em; font-weight: 700;
  background: ${themed('--svc-background')}; border: 3px solid var(--band); color: ${themed('--svc-text-color')}; }
.grade p { margin: 0; }
.grade .label { font-weight: 600; }
.gauge { padding: 12px; border-radius: ${themed('--svc-radius')}; background: ${themed('--svc-panel-background')}; display: flex; align-items: center; gap: 12px; }
.gauge svg { flex: none; width: 120px; height: 66px; }
.gauge .track { stroke: ${themed('--svc-track-color')}; }
.gauge .fill { stroke: ${themed('--svc-accent-color')}; }
.gauge .value { font-size: 1.6em; font-weight: 700; }
.gauge p { margin: 0; }
dl { display: grid; grid-template-columns: 1fr; gap: 2px 16px; margin: 0; }
.fact { padding: 8px 0; border-top: 1px solid ${themed('--svc-divider-color')}; min-width: 0; }
dt { color: ${themed('--svc-muted-color')}; font-size: .85em; }
dd { margin: 0; font-weight: 600; }
.loading { color: ${themed('--svc-muted-color')}; margin: 0; }
@container (min-width: 740px) {
  .summary { grid-template-columns: 1fr 1fr; }
  dl { grid-template-columns: 1fr 1fr; }
}
@container (min-width: 1024px) {
  .card { padding: 24px; }
  dl { grid-template-columns: 1fr 1fr 1fr; }
}
`;

/** Band colours supplement the grade letter and its words; they are never the only signal. */
export const BAND_COLOURS: Record<string, string> = {
  A: '#1a7f37',
  B: '#2da44e',
  C: '#9a6700',
  D: '#bc4c00',
  E: '#cf222e',
  F: '#a40e26',
  G: '#57606a',
};

/** The `::part` names a host page can style the script embed by (documented in docs/integrators.md). */
const WIDGET_PARTS = [
  'card',
  'header',
  'title',
  'subtitle',
  'grade',
  'grade-letter',
  'gauge',
  'score',
  'facts',
  'fact',
  'fact-label',
  'fact-value',
  'loading',
  'no-credit-data',
] as const;
export type WidgetPart = (typeof WIDGET_PARTS)[number];
