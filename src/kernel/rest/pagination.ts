/** Offset/limit pages as the platform API answers them: data, meta and self/prev/next links. */
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
