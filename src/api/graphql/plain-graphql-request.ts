/**
 * What both GraphQL fast paths share (plain-post-fast-path.ts in front of Yoga in the single process,
 * subgraph-fast-path.ts in front of Apollo in each subgraph): one rule for what counts as a plain
 * request, so neither takes a request the other would hand on, and one way to hand a request on to
 * the full server with the context already being built, so its credential is verified once.
 */
import type { ServiceContext } from '../../kernel/context.js';
import { inspectJson } from '../../kernel/json-inspection.js';

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
  // Variables the full server would refuse (src/api/graphql/variables-inspection.ts) go to it, which says why.
  if (variables && !passesInspection(variables)) return undefined;
  return body as PlainParams;
}

function passesInspection(variables: object): boolean {
  try {
    return inspectJson(variables).unstorableText.length === 0;
  } catch {
    return false;
  }
}

/** Contexts being built for requests a fast path began and handed on to the server behind it, which takes them over. */
const handedOn = new WeakMap<object, Promise<ServiceContext>>();

/** A fast path hands `req` on with the context it started building for it. */
export function handOnWithContext(req: object, building: Promise<ServiceContext>): void {
  handedOn.set(req, building);
}

/** The context a fast path already started for this request, if it handed the request on. */
export function contextHandedOn(req: object | undefined): Promise<ServiceContext> | undefined {
  return req ? handedOn.get(req) : undefined;
}
