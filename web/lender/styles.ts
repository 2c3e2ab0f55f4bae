/**
 * The lender console's stylesheet (served as /app/lender/lender.css): the operators' dashboard's
 * design system (web/dashboard/styles.ts: colours, badges, stacked tables, one-column forms under
 * 640 px) and, after it, the console's own few rules.
 */
import { DASHBOARD_STYLES } from '../dashboard/styles.js';

export const LENDER_CONSOLE_STYLES = `${DASHBOARD_STYLES}
/* ---- lender console ---- */
button.link { border: 0; background: none; padding: 0; color: var(--accent); text-decoration: underline; text-align: left; }
.actions-row { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr)); gap: 12px; margin: 12px 0; }
.actions-row .panel { margin-top: 0; }
.actions-row form.grid { margin-top: 8px; }
pre.json, pre.excerpt { white-space: pre-wrap; overflow-wrap: anywhere; max-width: 100%; background: #f6f7f9; border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; font-size: .85rem; max-height: 24rem; overflow-y: auto; }
pre.excerpt { margin: 4px 0; max-height: 8rem; }
.documents li, .history li { margin-bottom: 4px; }
.status-counts { color: var(--muted); }
form.inline { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: end; margin-top: 6px; }
form.inline label { width: 100%; font-weight: 400; font-size: .9rem; }
form.inline input { flex: 1 1 12rem; min-width: 0; }
`;
