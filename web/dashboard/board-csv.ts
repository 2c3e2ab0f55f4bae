/**
 * The board's CSV export, built in the browser from the GraphQL connection (every page of the
 * current filter and order). Cells a spreadsheet could run as a formula are neutralised as the OWASP
 * "CSV Injection" page says: a cell that starts with =, +, -, @, a tab or a carriage return, or
 * where one of =, +, -, @ follows something that could start a new cell in some reader (a comma, a
 * semicolon (the list separator of many locales), a tab, a line break or a quote), is prefixed with
 * ' and wrapped in double quotes (inner quotes doubled), so it opens as one cell of text. Plain
 * numbers (-1200.50) stay numbers. Cells holding a separator of any locale are quoted, so a reader
 * splitting on ; instead of , still sees one cell. No CSV writer on npm applies the rule past a
 * cell's first character, hence this one.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const FORMULA_AFTER_CELL_BREAK = /[,;\t\r\n"'][=+\-@]/;
const NEEDS_QUOTES = /[",;\t\r\n]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:[.,]\d+)*|[.,]\d+)(?:[eE][+-]?\d+)?$/;

/** Whether a spreadsheet could read part of the cell as a formula. */
function couldRunAsFormula(text: string): boolean {
  if (PLAIN_NUMBER.test(text)) return false;
  return FORMULA_START.test(text) || FORMULA_AFTER_CELL_BREAK.test(text);
}

export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  if (couldRunAsFormula(text)) return `"'${text.replace(/"/g, '""')}"`;
  return NEEDS_QUOTES.test(text) || text.startsWith("'") ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvOf(header: string[], rows: Array<Array<string | number | null>>): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
