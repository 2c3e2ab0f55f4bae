/**
 * Keyset (cursor) pages, declared once for every list that grows with the data (the board, webhook
 * deliveries, the review queue): a page is the rows after a cursor in the list's fixed order, found
 * through an index whatever the page's depth, where an offset would read and skip every row before
 * it. A cursor is the sort key of a page's last row (an instant and the row's id), opaque to
 * clients: base64url of JSON, checked like any other input.
 */
import { z } from 'zod';
import { AppError } from './errors.js';
import { parseInput } from './validation.js';

/** The largest page any list answers: the board's bound before it was paged. */
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 50;

export const PageInfo = z
  .strictObject({
    endCursor: z.string().nullable().describe("The last row's cursor: pass it as `after` for the next page (null on an empty page)."),
    hasNextPage: z.boolean(),
  })
  .meta({ id: 'PageInfo', description: 'Where a page of a list ends and whether more rows follow' });
export type PageInfo = z.infer<typeof PageInfo>;

export const PageArgs = z.strictObject({
  first: z.number().int().min(1, 'must be at least 1').max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`).default(DEFAULT_PAGE_SIZE),
  after: z.string().min(1, 'must not be empty').max(200).optional(),
});
export type PageArgs = z.input<typeof PageArgs>;

/** A position in a list ordered by an instant, ties broken by id. */
export interface KeysetPosition<Id extends number | string> {
  at: string;
  id: Id;
}

const CursorContent = z.tuple([z.iso.datetime(), z.union([z.number().int().positive(), z.uuid()])]);

function encodeCursor(position: KeysetPosition<number | string>): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

/** The position an `after` cursor names; a cursor this server did not issue is a 400 naming `after`. */
export function decodeCursor<Id extends number | string>(cursor: string, idKind: Id extends number ? 'number' : 'string'): KeysetPosition<Id> {
  let content: unknown;
  try {
    content = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    content = undefined;
  }
  const parsed = CursorContent.safeParse(content);
  if (!parsed.success || typeof parsed.data[1] !== idKind) {
    throw AppError.badRequest('The cursor is not one this list issued', [{ pointer: 'after', message: "must be a page's endCursor, unchanged" }]);
  }
  return { at: parsed.data[0], id: parsed.data[1] as Id };
}

/** A list's page arguments, checked, and the position its `after` cursor names (undefined: from the top). */
export function parsePageArgs<Id extends number | string>(
  page: unknown,
  idKind: Id extends number ? 'number' : 'string',
): { first: number; position: KeysetPosition<Id> | undefined } {
  const { first, after } = parseInput(PageArgs, page ?? {}, 'Page');
  return { first, position: after === undefined ? undefined : decodeCursor<Id>(after, idKind) };
}

/**
 * The page of `first` rows out of `rows`, read with one more than `first` so the extra row tells
 * whether another page follows (one statement per page, no count).
 */
export function pageOf<Row>(rows: Row[], first: number, positionOf: (row: Row) => KeysetPosition<number | string>): { nodes: Row[]; pageInfo: PageInfo } {
  const nodes = rows.slice(0, first);
  const last = nodes[nodes.length - 1];
  return { nodes, pageInfo: { endCursor: last ? encodeCursor(positionOf(last)) : null, hasNextPage: rows.length > first } };
}

/** A page's schema: its rows and where it ends. */
export function pageSchemaOf<Row extends z.ZodType>(row: Row, id: string, description: string) {
  return z.strictObject({ nodes: z.array(row), pageInfo: PageInfo }).meta({ id, description });
}
