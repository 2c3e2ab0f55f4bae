/**
 * Offset/limit pages as the platform API answers them: data, meta and self/prev/next links; and
 * keyset pages (`after` = the last item's id), whose meta carries no total: counting every row on
 * every page is what keyset paging spares, and an offset page gives the total when asked.
 */
import { z } from 'zod';

export interface Page<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
}

export interface LinkedPage<T> {
  data: T[];
  /** totalEntries is the live platform's name for total; both are given. */
  meta: { total: number; totalEntries: number; offset: number; limit: number };
  /** prev and next are left out at the ends. */
  links: { self: string; prev?: string; next?: string };
}

/** Links are relative to the host (path and query), keeping the request's other query parameters. */
export function pageWithLinks<T>(page: Page<T>, originalUrl: string): LinkedPage<T> {
  const link = (offset: number): string => {
    const url = new URL(originalUrl, 'http://host.invalid');
    url.searchParams.set('offset', String(offset));
    url.searchParams.set('limit', String(page.limit));
    return `${url.pathname}${url.search}`;
  };
  const hasPrev = page.offset > 0;
  const hasNext = page.offset + page.items.length < page.total;
  return {
    data: page.items,
    meta: { total: page.total, totalEntries: page.total, offset: page.offset, limit: page.limit },
    links: {
      self: link(page.offset),
      ...(hasPrev ? { prev: link(Math.max(0, page.offset - page.limit)) } : {}),
      ...(hasNext ? { next: link(page.offset + page.limit) } : {}),
    },
  };
}

/** The schema of a LinkedPage of `item`, for the OpenAPI document. */
export function linkedPageOf(item: z.ZodType) {
  return z.strictObject({
    data: z.array(item),
    meta: z.strictObject({ total: z.number().int(), totalEntries: z.number().int(), offset: z.number().int(), limit: z.number().int() }),
    links: z.strictObject({ self: z.string(), prev: z.string().optional(), next: z.string().optional() }),
  });
}

export interface CursorPage<T> {
  items: T[];
  limit: number;
  /** The cursor this page was asked after (null: from the first). */
  after: string | null;
  /** The cursor of the next page, null on the last. */
  nextAfter: string | null;
}

export interface LinkedCursorPage<T> {
  data: T[];
  meta: { limit: number; after: string | null };
  /** next is left out on the last page. */
  links: { self: string; next?: string };
}

/** A keyset page with its self and next links (relative to the host, keeping the request's other query parameters). */
export function cursorPageWithLinks<T>(page: CursorPage<T>, originalUrl: string): LinkedCursorPage<T> {
  const link = (after: string | null): string => {
    const url = new URL(originalUrl, 'http://host.invalid');
    url.searchParams.delete('offset');
    if (after === null) url.searchParams.delete('after');
    else url.searchParams.set('after', after);
    url.searchParams.set('limit', String(page.limit));
    return `${url.pathname}${url.search}`;
  };
  return {
    data: page.items,
    meta: { limit: page.limit, after: page.after },
    links: { self: link(page.after), ...(page.nextAfter === null ? {} : { next: link(page.nextAfter) }) },
  };
}

/** The schema of a LinkedCursorPage of `item`, for the OpenAPI document. */
export function linkedCursorPageOf(item: z.ZodType) {
  return z.strictObject({
    data: z.array(item),
    meta: z.strictObject({ limit: z.number().int(), after: z.string().nullable() }),
    links: z.strictObject({ self: z.string(), next: z.string().optional() }),
  });
}
