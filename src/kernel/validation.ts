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
