/**
 * The board's CSV export, built in the browser from the GraphQL connection (every page of the
 * current filter and order). Cells a spreadsheet would run as a formula (leading =, +, -, @, tab or
 * carriage return; OWASP "CSV Injection", as src/modules/documents/csv-formula-cells.ts refuses on
 * upload) are prefixed with ' so they open as text; plain numbers stay numbers.
 */
const FORMULA_LEADS = new Set(['=', '+', '-', '@', '\t', '\r']);
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:[.,]\d+)*|[.,]\d+)(?:[eE][+-]?\d+)?$/;

export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (text !== '' && FORMULA_LEADS.has(text[0]!) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text.startsWith("'") ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvOf(header: string[], rows: Array<Array<string | number | null>>): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
