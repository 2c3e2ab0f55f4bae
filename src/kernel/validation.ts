/** Input validation: zod schemas declared once per operation; failures become AppError with JSON pointers. */
import type { z } from 'zod';
import { AppError, type FieldError } from './errors.js';

/** A JSON Schema document (draft 2020-12), as served and as validated with. */
export type JsonSchema = Record<string, unknown>;

/** RFC 6901: '~' and '/' inside a segment are escaped. */
export function toJsonPointer(path: ReadonlyArray<PropertyKey>): string {
  return path.map((seg) => '/' + String(seg).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export function zodFieldErrors(error: z.ZodError, base = ''): FieldError[] {
  return error.issues.flatMap((issue) => {
    // Unknown keys are reported one pointer per key, so the client sees exactly which property to drop.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        pointer: base + toJsonPointer([...issue.path, key]),
        message: 'is not an allowed property',
      }));
    }
    return [{ pointer: base + toJsonPointer(issue.path), message: issue.message }];
  });
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'Request body'): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw AppError.badRequest(`${what} is invalid`, zodFieldErrors(result.error));
  }
  return result.data;
}

/**
 * Ownership before validation. The edge (the REST router, a GraphQL resolver) parses an operation's
 * input with the operation's schema, but a failure is raised only when the operation reads that
 * input, which it does after deciding access (403) and finding its target (404): a malformed request
 * to another caller's object is still that object's 404, so a 400 never tells a caller an object
 * exists. What the operation receives in place of the value raises the failure on any read.
 */
export interface EdgeParse<T> {
  value: T;
  failure?: AppError;
}

export function parseAtEdge<S extends z.ZodType>(schema: S, input: unknown, what = 'Request body'): EdgeParse<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { value: result.data };
  const failure = AppError.badRequest(`${what} is invalid`, zodFieldErrors(result.error));
  return { value: unreadable(failure) as z.output<S>, failure };
}

/**
 * Runs the operation on the input parsed with `schema`; input that failed it is answered 400 once
 * the operation has decided access and found its target. An operation that returns without reading
 * its input still answers the failure: a malformed request never succeeds.
 */
export async function withParsedInput<S extends z.ZodType, R>(schema: S, input: unknown, operation: (parsed: z.output<S>) => Promise<R>, what = 'Request body'): Promise<R> {
  const { value, failure } = parseAtEdge(schema, input, what);
  const result = await operation(value);
  if (failure) throw failure;
  return result;
}

/** A stand-in for input that failed its schema: every read of it (a property, its keys, a spread, an iteration) throws the failure. */
function unreadable(failure: AppError): object {
  const refuse = (): never => {
    throw failure;
  };
  return new Proxy(Object.create(null) as object, { get: refuse, has: refuse, ownKeys: refuse, getOwnPropertyDescriptor: refuse, set: refuse, deleteProperty: refuse, defineProperty: refuse, getPrototypeOf: refuse });
}
