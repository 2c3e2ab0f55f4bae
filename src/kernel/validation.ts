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
 * An input the operation checks when it asks for it (`input()`), after it has found, among what the
 * caller may see, the object it acts on: a request about an object the caller may not see is a 404
 * whatever its body, so no body tells whether an id exists. The schema is the REST row's or the
 * GraphQL resolver's, one object either way; the operation never names it.
 */
export type CheckedLater<T> = () => T;

export function checkLater<S extends z.ZodType>(schema: S, input: unknown, what = 'Request body'): CheckedLater<z.output<S>> {
  let parsed: { value: z.output<S> } | undefined;
  return () => (parsed ??= { value: parseInput(schema, input, what) }).value;
}
