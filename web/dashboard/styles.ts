/** The dashboard's stylesheet (served as /app/dashboard/dashboard.css): WCAG AA contrast, visible focus, usable from 1024 px. */
export const DASHBOARD_STYLES = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4a535d; --line: #d0d7de; --accent: #0b5cad; --bad: #a40e26; --ok: #116329; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: var(--ink); background: #f6f7f9; }
header { display: flex; align-items: center; gap: 16px; padding: 8px 24px; background: #fff; border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.2rem; margin: 0; }
nav ul { display: flex; gap: 4px; list-style: none; margin: 0; padding: 0; }
nav button[aria-current="page"] { background: var(--accent); color: #fff; }
main { max-width: 1400px; margin: 0 auto; padding: 16px 24px; }
button { font: inherit; padding: 4px 12px; border: 1px solid var(--accent); border-radius: 4px; background: #fff; color: var(--accent); cursor: pointer; }
button:hover { background: #e8f0fa; }
button[disabled] { opacity: .6; cursor: default; }
:focus-visible { outline: 3px solid #f0b400; outline-offset: 2px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; }
dt { color: var(--muted); }
dd { margin: 0; }
label { display: block; font-weight: 600; margin-bottom: 2px; }
input, select { font: inherit; padding: 4px 6px; border: 1px solid #6e7781; border-radius: 4px; background: #fff; color: var(--ink); }
form.grid { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 12px; align-items: end; background: #fff; padding: 12px; border: 1px solid var(--line); border-radius: 6px; }
.filters { display: flex; gap: 16px; align-items: end; margin-bottom: 12px; }
table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid var(--line); }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef1f4; font-weight: 600; }
.status { font-weight: 600; }
.muted { color: var(--muted); }
.error { color: var(--bad); }
.ok { color: var(--ok); }
.connection { margin-left: auto; font-size: .9rem; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px; margin-top: 12px; }
td code { word-break: break-all; }
.attempts { margin: 0; padding-left: 1.2em; font-size: .9rem; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }

/* ---- reviews ---- */
.review-group { margin: 16px 0; }
.review-group h3 { margin: 0 0 6px; font-size: 1.05rem; overflow-wrap: anywhere; }
.review-group h3 .muted { font-weight: 400; font-size: .9rem; display: inline-block; }
.reviews td.actions button { margin: 2px 4px 2px 0; }
.review-actions { display: grid; gap: 12px; margin: 12px 0; max-width: 40rem; }
.review-actions form, .panel form { display: grid; gap: 4px; }
textarea { font: inherit; padding: 4px 6px; border: 1px solid #6e7781; border-radius: 4px; width: 100%; box-sizing: border-box; }
.panel dd, .panel li { overflow-wrap: anywhere; }
.reviews .badge { display: inline-block; padding: 1px 8px; border-radius: 10px; border: 1px solid currentColor; font-size: .85rem; font-weight: 600; }
.reviews .badge[data-status="REJECTED"] { color: var(--bad); }
.reviews .badge[data-status="SUBMITTED"] { color: var(--ok); }
@media (max-width: 640px) {
  .reviews table.stacked, .reviews table.stacked tbody, .reviews table.stacked tr, .reviews table.stacked td { display: block; width: 100%; box-sizing: border-box; }
  .reviews table.stacked thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .reviews table.stacked td::before { content: attr(data-label); display: block; font-weight: 600; color: var(--muted); font-size: .85rem; }
  .reviews table.stacked tr { border-bottom: 2px solid var(--line); }
  .panel dl { grid-template-columns: 1fr; }
}
`;
