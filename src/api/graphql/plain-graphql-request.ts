/**
 * The plain GraphQL request both fast paths serve (plain-post-fast-path.ts in front of Yoga in the
 * single process, subgraph-fast-path.ts in front of Apollo in each subgraph): one rule for what
 * counts as plain, so neither takes a request the other would hand on.
 */

export interface PlainParams {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/**
 * `{ query, variables?, operationName? }` and nothing else: anything more (extensions, batches) is
 * for the full server behind the fast path.
 */
export function plainParams(body: unknown): PlainParams | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { query, variables, operationName, ...rest } = body as Record<string, unknown>;
  for (const _ in rest) return undefined;
  if (typeof query !== 'string' || query === '') return undefined;
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  return body as PlainParams;
}
