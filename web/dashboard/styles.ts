/**
 * The dashboard's stylesheet (served as /app/dashboard/dashboard.css): WCAG AA contrast, visible
 * focus, usable from 390 px (phones) to wide screens with no sideways scroll.
 *
 * Conventions every view follows (so views share one look and stay usable on a phone):
 * - Tables are `<table class="stacked">` with a `data-label` on every `<td>`: under 640 px each row
 *   becomes a block of labelled lines (the label comes from `td[data-label]::before`).
 * - Statuses are `<span class="badge" data-status="…">Text</span>`: the colour helps, the text says it
 *   (colour is never the only signal). Each colour pair below has a contrast ratio of at least 7:1.
 * - Forms are `<form class="grid">`: as many columns as fit, one column on a phone.
 * - A view's own rules go in a block starting with a comment naming the view, at the end of the file.
 */
export const DASHBOARD_STYLES = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4a535d; --line: #d0d7de; --accent: #0b5cad; --bad: #a40e26; --ok: #116329; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: var(--ink); background: #f6f7f9; overflow-wrap: break-word; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 8px 24px; background: #fff; border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.2rem; margin: 0; }
header .who { margin: 0; font-size: .9rem; color: var(--muted); }
header .who strong { color: var(--ink); font-weight: 600; }
nav ul { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; margin: 0; padding: 0; }
nav button[aria-current="page"] { background: var(--accent); color: #fff; }
main { max-width: 1400px; margin: 0 auto; padding: 16px 24px; }
button { font: inherit; padding: 4px 12px; border: 1px solid var(--accent); border-radius: 4px; background: #fff; color: var(--accent); cursor: pointer; }
button:hover { background: #e8f0fa; }
nav button[aria-current="page"]:hover { background: #084a8c; }
button[disabled] { opacity: .6; cursor: default; }
:focus-visible { outline: 3px solid #f0b400; outline-offset: 2px; }
dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 16px; }
dt { color: var(--muted); }
dd { margin: 0; min-width: 0; }
label { display: block; font-weight: 600; margin-bottom: 2px; }
input, select, textarea { font: inherit; padding: 4px 6px; border: 1px solid #6e7781; border-radius: 4px; background: #fff; color: var(--ink); max-width: 100%; }
form.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 13rem), 1fr)); gap: 12px; align-items: end; background: #fff; padding: 12px; border: 1px solid var(--line); border-radius: 6px; }
form.grid > * { min-width: 0; }
form.grid input:not([type="checkbox"]):not([type="radio"]), form.grid select, form.grid textarea { width: 100%; }
.filters { display: flex; flex-wrap: wrap; gap: 12px 16px; align-items: end; margin-bottom: 12px; }
table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid var(--line); }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef1f4; font-weight: 600; }
.status { font-weight: 600; }
.muted { color: var(--muted); }
.error { color: var(--bad); }
.ok { color: var(--ok); }
.connection { margin-left: auto; font-size: .9rem; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px; margin-top: 12px; }
/* URLs carry <wbr> after their separators (see urlWithBreaks in app.ts); a longer segment still wraps rather than overflow. */
code { overflow-wrap: break-word; }
td code { overflow-wrap: anywhere; }
.attempts { margin: 0; padding-left: 1.2em; font-size: .9rem; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }

/* Status badges: text always present; each pair (text on background) is at least 7:1. */
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; border: 1px solid currentColor; font-size: .85rem; font-weight: 600; white-space: nowrap; background: #eef1f4; color: #2f363d; }
.badge[data-status="In Review"] { background: #e7eefb; color: #0a3a70; }
.badge[data-status="Offered"] { background: #fff3d1; color: #5c3d00; }
.badge[data-status="Failed"] { background: #fde8ea; color: #82091d; border-style: dashed; }
.badge[data-status="Rejected"] { background: #eceff1; color: #2f363d; }
.badge[data-status="Client Accepted"] { background: #dcf3e3; color: #0b4a1f; }
.badge[data-status="Client Declined"] { background: #f7e6f0; color: #6a1a4c; }
.badge[data-status="PENDING"] { background: #eef1f4; color: #2f363d; }
.badge[data-status="FAILED"] { background: #fff0d9; color: #6b3800; border-style: dashed; }
.badge[data-status="DEAD"] { background: #fde8ea; color: #82091d; }
.badge[data-status="DELIVERED"] { background: #dcf3e3; color: #0b4a1f; }

/* Narrow screens: stacked tables, one-column forms, tighter padding; nothing scrolls sideways. */
@media (max-width: 640px) {
  header { padding: 8px 12px; }
  header .connection { margin-left: 0; }
  main { padding: 12px; }
  form.grid { grid-template-columns: minmax(0, 1fr); }
  dl { grid-template-columns: minmax(0, 1fr); }
  dt { margin-top: 4px; }
  table.stacked, table.stacked caption:not(.sr-only), table.stacked tbody, table.stacked tr, table.stacked td, table.stacked tbody th { display: block; width: 100%; }
  table.stacked thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  /* The hidden header's cells stacked inside its 1 px box too: laid out as a row they would reach past the screen's edge. */
  table.stacked thead tr, table.stacked thead th { display: block; width: 1px; }
  table.stacked { border: 0; background: transparent; }
  table.stacked caption:not(.sr-only) { text-align: left; margin-bottom: 4px; }
  table.stacked tr { background: #fff; border: 1px solid var(--line); border-radius: 6px; margin-bottom: 8px; padding: 4px 0; }
  /* The label sits in the cell's left padding, so a cell of several elements still reads as one value. */
  table.stacked td, table.stacked tbody th { border: 0; background: transparent; font-weight: normal; position: relative; padding: 3px 10px 3px calc(38% + 10px); min-height: 1.9em; }
  table.stacked td[data-label]::before, table.stacked tbody th[data-label]::before { content: attr(data-label); position: absolute; left: 10px; top: 3px; width: calc(38% - 10px); font-weight: 600; color: var(--muted); overflow-wrap: break-word; }
  table.stacked td:not([data-label]), table.stacked td[data-label=""], table.stacked tbody th:not([data-label]) { padding-left: 10px; }
  table.stacked td[data-label=""]::before { content: none; }
}

/* ---- catalogue ---- */
.products { margin: 0; padding-left: 1.1em; }
.products li { margin-bottom: 4px; }
.products button { margin-left: 4px; padding: 0 8px; font-size: .9rem; }

/* ---- insights ---- */
.insights-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 520px), 1fr)); gap: 16px; }
.insight { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px; min-width: 0; }
.insight h3 { margin: 0 0 4px; font-size: 1.05rem; }
.insight figcaption p { margin: 0 0 8px; }
.chart-box { position: relative; height: 280px; width: 100%; }
.insight details { margin-top: 8px; max-width: 100%; overflow-x: auto; }
.insight summary { cursor: pointer; color: var(--accent); }
.insight table { margin-top: 8px; font-size: .9rem; }

/* ---- board ---- (badges and stacked rows come from the base rules above) */
.board .filters { flex-wrap: wrap; }
.chips { display: flex; flex-wrap: wrap; gap: 6px; list-style: none; padding: 0; margin: 0 0 12px; }
.chips button[aria-pressed="true"] { background: var(--accent); color: #fff; }
th button.sort { border: 0; background: none; padding: 0; font-weight: 600; color: var(--ink); }
tr.highlight td { background: #fff4c2; transition: background .3s; }
.banner { position: sticky; top: 0; z-index: 2; background: #fde8eb; color: var(--bad); border: 2px solid var(--bad); border-radius: 6px; padding: 8px 12px; margin-bottom: 12px; font-weight: 600; }
tr[data-stale="true"] td { color: var(--muted); }
.stale-marker { font-size: .75rem; border: 1px dashed var(--muted); border-radius: 4px; padding: 0 4px; }
.age[data-age="due"] .age-marker { color: #6a3d00; }
.age[data-age="overdue"] .age-marker { color: var(--bad); }
.pager { display: flex; gap: 12px; align-items: center; margin-top: 8px; }
.side-panel { position: fixed; top: 0; right: 0; bottom: 0; width: min(440px, 100vw); overflow-y: auto; background: #fff; border-left: 1px solid var(--line); box-shadow: -4px 0 12px rgba(0,0,0,.12); padding: 16px; z-index: 3; }
.board table { table-layout: auto; font-size: .88rem; }
.board th, .board td { padding: 5px 5px; overflow-wrap: break-word; }
/* Words stay whole (a header broken as "Appli-catio-n" reads badly); only a single word longer than its
   column, such as a long lender reference, breaks. Buttons and amounts never wrap. */
.board td button, .board td.amount { white-space: nowrap; }
.board td code { overflow-wrap: anywhere; }
@media (max-width: 640px) { .board .filters { flex-direction: column; align-items: stretch; } .board input[size] { width: 100%; } }
/* ---- reviews ---- */
.review-group { margin: 16px 0; }
.review-group h3 { margin: 0 0 6px; font-size: 1.05rem; overflow-wrap: anywhere; }
.review-group h3 .muted { font-weight: 400; font-size: .9rem; display: inline-block; }
.reviews td.actions button { margin: 2px 4px 2px 0; }
.review-actions { display: grid; gap: 12px; margin: 12px 0; max-width: 40rem; }
.review-actions form, .panel form { display: grid; gap: 4px; }
textarea { font: inherit; padding: 4px 6px; border: 1px solid #6e7781; border-radius: 4px; width: 100%; box-sizing: border-box; }
.panel dd, .panel li { overflow-wrap: anywhere; }
.reviews .badge[data-status="REJECTED"] { color: var(--bad); }
.reviews .badge[data-status="SUBMITTED"] { color: var(--ok); }
@media (max-width: 640px) { .panel dl { grid-template-columns: 1fr; } }
/* ---- integrator console (API keys, tenants, request log) ---- */
.console fieldset.scopes { border: 1px solid var(--line); border-radius: 4px; padding: 6px 10px; grid-column: 1 / -1; display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 13rem), 1fr)); gap: 4px 12px; min-width: 0; }
.console fieldset.scopes label { display: inline; font-weight: normal; margin-left: 4px; }
.console pre.problem { white-space: pre-wrap; overflow-wrap: anywhere; font-size: .85rem; background: #f6f7f9; padding: 6px; margin: 4px 0 0; max-width: 100%; }
.console td code { overflow-wrap: anywhere; }
.console h4 { margin: 12px 0 4px; }
`;
