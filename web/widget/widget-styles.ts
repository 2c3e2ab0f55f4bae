/**
 * The widget's own styles, applied inside its shadow root only. `:host` declarations are !important
 * because a host page's rules on the host element (`* { all: unset }`) beat normal :host rules, while
 * important ones from inside the shadow tree win. Layout follows the widget's own width (container
 * queries), not the page's: small below 740 px, medium from 740, large from 1024.
 */
export const WIDGET_CSS = `
:host { all: initial !important; display: block !important; container-type: inline-size !important; contain: content !important;
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif !important; color: #1b1f24 !important; }
*, *::before, *::after { box-sizing: border-box; }
.card { background: #fff; border: 1px solid #d0d7de; border-radius: 10px; padding: 16px; max-width: 100%; overflow-wrap: anywhere; }
.head { margin: 0 0 12px; }
h2 { font-size: 1.2em; margin: 0 0 4px; line-height: 1.25; }
.sub { margin: 0; color: #4f5862; font-size: .9em; }
.summary { display: grid; grid-template-columns: 1fr; gap: 12px; margin-bottom: 12px; }
.grade { display: flex; align-items: center; gap: 12px; padding: 12px; border-radius: 8px; background: #f6f8fa; border-left: 6px solid var(--band); }
.letter { flex: none; width: 56px; height: 56px; border-radius: 50%; display: grid; place-items: center; font-size: 1.9em; font-weight: 700;
  background: #fff; border: 3px solid var(--band); color: #1b1f24; }
.grade p { margin: 0; }
.grade .label { font-weight: 600; }
.gauge { padding: 12px; border-radius: 8px; background: #f6f8fa; display: flex; align-items: center; gap: 12px; }
.gauge svg { flex: none; width: 120px; height: 66px; }
.gauge .value { font-size: 1.6em; font-weight: 700; }
.gauge p { margin: 0; }
dl { display: grid; grid-template-columns: 1fr; gap: 2px 16px; margin: 0; }
.fact { padding: 8px 0; border-top: 1px solid #eaeef2; min-width: 0; }
dt { color: #4f5862; font-size: .85em; }
dd { margin: 0; font-weight: 600; }
.loading { color: #4f5862; margin: 0; }
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
  A: '#1a7f37', B: '#2da44e', C: '#9a6700', D: '#bc4c00', E: '#cf222e', F: '#a40e26', G: '#57606a',
};
