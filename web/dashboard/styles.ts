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
/* ---- board ---- */
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-weight: 600; font-size: .85rem; border: 1px solid currentColor; background: #fff; }
.badge[data-status="Submitted"] { color: #1b1f24; background: #eef1f4; }
.badge[data-status="Acknowledged"] { color: #0b4f8a; background: #e3eefa; }
.badge[data-status="Offered"] { color: #6a3d00; background: #fff4d6; }
.badge[data-status="Failed"] { color: #8a0b1f; background: #fde8eb; border-style: dashed; }
.badge[data-status="Rejected"] { color: #5c1a1a; background: #f3e1e1; }
.badge[data-status="Client Accepted"] { color: #0f5323; background: #e2f4e7; }
.badge[data-status="Client Declined"] { color: #4a535d; background: #f1f1f1; }
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
.board th, .board td { padding: 5px 5px; overflow-wrap: anywhere; }
@media (max-width: 640px) { header { flex-wrap: wrap; } nav ul { flex-wrap: wrap; } table.stacked thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); } table.stacked tr, table.stacked td { display: block; } table.stacked td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; } table.stacked { border: 0; } table.stacked tr { border: 1px solid var(--line); margin-bottom: 8px; background: #fff; } main { padding: 8px; } .board .filters { flex-direction: column; align-items: stretch; } .board input[size] { width: 100%; } }
`;
