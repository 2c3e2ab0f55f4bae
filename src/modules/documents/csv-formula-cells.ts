/**
 * CSV formula injection, refused at upload: a CSV document may not hold a cell that a spreadsheet
 * would run as a formula when a lender opens the file (a value starting with =, +, -, @, a tab or a
 * carriage return; OWASP "CSV Injection"). Refused rather than rewritten on download so that the
 * stored bytes stay the ones the integrator sent, and the SHA-256 it was given (and the Digest
 * lenders check) still describes what lenders receive. Plain numbers (-1200.50, +44, 1.5e3) and
 * cells of dashes only are not formulas and pass, so bank statements with debits are accepted.
 *
 * Cells are delimited by comma, semicolon or tab (whichever the file uses: a cell of any of them is
 * checked) and rows by CR and/or LF; RFC 4180 quoting is understood, and a quoted cell is judged
 * by its content (spreadsheets run `"=1+2"` too).
 */
import { createReadStream } from 'node:fs';
import { AppError } from '../../kernel/errors.js';
import type { UploadContent } from './document-store.js';

const FORMULA_LEADS = new Set(['=', '+', '-', '@', '\t', '\r']);
const DELIMITERS = new Set([',', ';', '\t']);
/** Numbers are short: a cell is judged by at most this many of its first characters. */
const KEPT_CHARS = 64;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:[.,]\d+)*|[.,]\d+)(?:[eE][+-]?\d+)?$/;
/** Enough to fix a file without listing thousands of cells. */
const REPORTED_CELLS = 5;

export async function refuseFormulaCells(content: UploadContent): Promise<void> {
  const found = await formulaCells(Buffer.isBuffer(content) ? [content] : createReadStream(content.path));
  if (found.length === 0) return;
  throw AppError.unprocessable(
    'The CSV file has cells a spreadsheet would run as formulas',
    found.map(({ row, column, lead }) => ({
      pointer: 'file',
      message: `row ${row}, column ${column} starts with ${describe(lead)}: send it as text (prefix it with ') or leave it out`,
    })),
  );
}

/** The first cells (1-based row and column) whose value starts like a formula. */
async function formulaCells(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<{ row: number; column: number; lead: string }[]> {
  const found: { row: number; column: number; lead: string }[] = [];
  const decoder = new TextDecoder('utf-8');
  let row = 1;
  let column = 1;
  let cell = '';
  let cellLength = 0;
  let quoted = false;
  let quoteMaybeClosing = false;
  let afterCR = false;
  let first = true;

  const endCell = () => {
    if (cellLength > 0 && FORMULA_LEADS.has(cell[0]!) && !PLAIN_NUMBER.test(cell) && !/^-+$/.test(cell)) found.push({ row, column, lead: cell[0]! });
    cell = '';
    cellLength = 0;
  };
  const keep = (char: string) => {
    if (cellLength++ < KEPT_CHARS) cell += char;
  };

  const scan = (text: string): boolean => {
    for (const char of text) {
      if (first) {
        first = false;
        if (char === '\uFEFF') continue; // byte order mark
      }
      if (quoted) {
        if (quoteMaybeClosing) {
          quoteMaybeClosing = false;
          if (char === '"') {
            keep('"');
            continue;
          }
          quoted = false; // the quote closed the quoted part: this character is outside it
        } else if (char === '"') {
          quoteMaybeClosing = true;
          continue;
        } else {
          keep(char);
          continue;
        }
      }
      if (char === '"' && cellLength === 0) {
        quoted = true;
      } else if (DELIMITERS.has(char)) {
        endCell();
        column++;
      } else if (char === '\n' || char === '\r') {
        const sameBreak = char === '\n' && afterCR;
        if (!sameBreak) {
          endCell();
          row++;
          column = 1;
        }
      } else {
        keep(char);
      }
      afterCR = char === '\r';
      if (found.length >= REPORTED_CELLS) return false;
    }
    return true;
  };

  for await (const chunk of chunks) {
    if (!scan(decoder.decode(chunk, { stream: true }))) return found;
  }
  scan(decoder.decode());
  if (found.length < REPORTED_CELLS) endCell();
  return found;
}

function describe(lead: string): string {
  if (lead === '\t') return 'a tab';
  if (lead === '\r') return 'a carriage return';
  return `"${lead}"`;
}
