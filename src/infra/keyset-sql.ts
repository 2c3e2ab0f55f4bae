/**
 * The SQL side of keyset pages (src/kernel/keyset-pages.ts) for the typed reads: instants as the
 * ISO text clients and cursors carry, and "after this position" as one row comparison, which
 * PostgreSQL answers from an index on (…, instant DESC, id DESC) by starting inside it.
 */
import { sql, type RawBuilder } from 'kysely';
import type { KeysetPosition } from '../kernel/keyset-pages.js';

/**
 * A timestamp column as ISO 8601 UTC text with milliseconds. Prisma stores instants as UTC in
 * `timestamp(3)` (no zone); formatting in SQL keeps the value exact, never read as local time.
 */
export function isoInstant(column: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * Rows after `position` in the order (instant DESC, id DESC). The cursor's instant is UTC ISO text,
 * whose zone `::timestamp` drops, as the column holds UTC.
 */
export function afterInNewestFirst(instantColumn: string, idColumn: string, position: KeysetPosition<number | string>): RawBuilder<boolean> {
  const id = typeof position.id === 'number' ? sql`${position.id}::int` : sql`${position.id}::uuid`;
  return sql<boolean>`(${sql.ref(instantColumn)}, ${sql.ref(idColumn)}) < (${position.at}::timestamp(3), ${id})`;
}

/**
 * An instant from a client (ISO 8601, any offset) as a `timestamp(3)` parameter in UTC, the zone
 * stored instants are in (a Date parameter would be sent in the process's local zone).
 */
export function utcTimestamp(value: string): RawBuilder<Date> {
  return sql<Date>`${new Date(value).toISOString()}::timestamp(3)`;
}
