/**
 * The dashboard's CSV export neutralises formulas as the OWASP "CSV Injection" page says, wherever
 * a formula character could start a cell: at the cell's start, or after a separator (comma, the
 * semicolon of locales that list with it, a tab), a line break or a quote.
 */
import { describe, expect, it } from 'vitest';
import { csvCell, csvOf } from '../web/dashboard/board-csv.js';

describe('board CSV export', () => {
  it.each([
    ['=1+2', `"'=1+2"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['+44 20 7946 0000x', `"'+44 20 7946 0000x"`],
    ['\t=1', `"'\t=1"`],
    ['\r=1', `"'\r=1"`],
    // A formula after a separator of another locale, a tab, a line break or a quote.
    ['NLC;=HYPERLINK("http://x.test","y")', `"'NLC;=HYPERLINK(""http://x.test"",""y"")"`],
    ['NLC\t=HYPERLINK(u)', `"'NLC\t=HYPERLINK(u)"`],
    ['NLC,=1', `"'NLC,=1"`],
    ['NLC\n@cmd', `"'NLC\n@cmd"`],
    ['NLC\r\n-1+cmd', `"'NLC\r\n-1+cmd"`],
    ['say "=1"', `"'say ""=1"""`],
    ["it'+1", `"'it'+1"`],
  ])('neutralises %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it.each([
    ['-1200.50', '-1200.50'],
    ['+44', '+44'],
    [1234, '1234'],
    ['Northern Ltd', 'Northern Ltd'],
    ['a-b', 'a-b'],
    ['x=y', 'x=y'],
    ["it's +1", "it's +1"],
    ['one; two', '"one; two"'],
    ['a, b', '"a, b"'],
    ["'quoted", `"'quoted"`],
    [null, ''],
  ])('leaves %j as the text or number it is (%j)', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('writes rows with CRLF, one cell per value', () => {
    expect(
      csvOf(
        ['name', 'amount'],
        [
          ['A;=1', -5],
          ['B', null],
        ],
      ),
    ).toBe(`name,amount\r\n"'A;=1",-5\r\nB,\r\n`);
  });
});
