/**
 * Helpers of the batched look-ups that answer one GraphQL field for many parents at once (one SQL
 * statement per field and request, however long the list of parents).
 */

/** The rows of each key, in the order of `keys` (a key without rows gets an empty list). */
export function groupedBy<R>(keys: readonly string[], rows: readonly R[], keyOf: (row: R) => string | null): R[][] {
  const groups = new Map<string, R[]>(keys.map((key) => [key, []]));
  for (const row of rows) {
    const key = keyOf(row);
    if (key !== null) groups.get(key)?.push(row);
  }
  return keys.map((key) => groups.get(key)!);
}

/** The row of each key, or null, in the order of `keys`. */
export function indexedBy<R>(keys: readonly string[], rows: readonly R[], keyOf: (row: R) => string | null): Array<R | null> {
  const byKey = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.map((key) => byKey.get(key) ?? null);
}
