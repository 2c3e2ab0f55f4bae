/**
 * Input validation: zod schemas declared once per operation; failures become AppError with JSON
 * pointers. Text that is not Unicode (a lone surrogate) is refused here for every input, whatever
 * its schema says of the field.
 */
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

/**
 * Whether text holds no UTF-16 surrogate without its pair (no Unicode text holds one, and PostgreSQL
 * can store none): String.prototype.isWellFormed, native in every Node this runs on (ES2024, past
 * the compiler's library).
 */
const isUnicodeText = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();
const MAX_REPORTED_TEXT_FIELDS = 20;

/**
 * Where an input holds text that is not Unicode (a lone surrogate, as JSON's "\ud800" escape
 * makes): each string value or property name, by JSON pointer below `base`. Walked with a stack,
 * not recursion, and a pointer is built only for what is reported.
 */
export function malformedTextFields(input: unknown, base = ''): FieldError[] {
  interface Visit {
    key?: string | number;
    parent?: Visit;
  }
  const pointerOf = (visit: Visit, key?: string | number): string => {
    const path: Array<string | number> = key === undefined ? [] : [key];
    for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.push(at.key!);
    return base + toJsonPointer(path.reverse());
  };
  const found: FieldError[] = [];
  const report = (visit: Visit, key?: string | number) =>
    found.push({ pointer: pointerOf(visit, key), message: 'must be Unicode text: it holds a lone surrogate (an unpaired \\ud800-\\udfff escape)' });
  if (typeof input === 'string') {
    if (!isUnicodeText(input)) report({});
    return found;
  }
  // Only objects and arrays are queued; strings are tested where they are met.
  const pending: Array<{ value: object; visit: Visit }> = typeof input === 'object' && input !== null ? [{ value: input, visit: {} }] : [];
  while (pending.length > 0 && found.length < MAX_REPORTED_TEXT_FIELDS) {
    const { value, visit } = pending.pop()!;
    const check = (key: string | number, child: unknown) => {
      if (typeof child === 'string') {
        if (!isUnicodeText(child)) report(visit, key);
      } else if (typeof child === 'object' && child !== null) {
        pending.push({ value: child, visit: { key, parent: visit } });
      }
    };
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) check(i, value[i]);
      continue;
    }
    for (const key of Object.keys(value)) {
      if (!isUnicodeText(key)) found.push({ pointer: pointerOf(visit), message: 'must not have a property name holding a lone surrogate' });
      else check(key, (value as Record<string, unknown>)[key]);
    }
  }
  return found;
}

/** A 400 naming every field whose text is not Unicode, before anything parses or stores it. */
export function refuseMalformedText(input: unknown, what = 'Request body', base = ''): void {
  const fields = malformedTextFields(input, base);
  if (fields.length > 0) throw AppError.badRequest(`${what} holds text that is not Unicode`, fields);
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'Request body'): z.output<S> {
  refuseMalformedText(input, what);
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
