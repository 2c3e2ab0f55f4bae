/**
 * One look at a parsed JSON value before anything else walks it: its shape (how deep it nests, how
 * many members it has) and text PostgreSQL cannot store. Iterative, with the pointer of a member
 * built only when it is refused, so the cost is linear in the size of the value whatever its depth
 * (a recursive walk overflows the stack on a deep enough body, and rebuilding each pointer on the
 * way down made it quadratic).
 */
import { AppError, type FieldError } from './errors.js';
import { toJsonPointer } from './validation.js';

/** No request of any operation nests deeper than this; legitimate bodies stay under ten levels. */
export const MAX_JSON_DEPTH = 64;
/** Object properties and array elements in one value, counted together. */
export const MAX_JSON_MEMBERS = 20_000;
/** Text refusals reported at once: enough to name every bad field of a real request. */
const MAX_REPORTED = 20;

/**
 * Strings PostgreSQL cannot hold: U+0000 (text and jsonb refuse it) and a lone UTF-16 surrogate
 * (not a Unicode scalar value, so it has no UTF-8 form). With the u flag a surrogate pair is one
 * code point, so only a lone surrogate matches \p{Cs}.
 */
const UNSTORABLE_TEXT = /\u0000|\p{Cs}/u;

export function unstorableTextProblem(text: string): string | undefined {
  if (!UNSTORABLE_TEXT.test(text)) return undefined;
  return text.includes('\u0000') ? 'must not contain the NUL character (U+0000)' : 'must not contain a lone UTF-16 surrogate (not valid Unicode text)';
}

/** A path segment, linked to its parent: a pointer is built from these only for a member that is refused. */
interface PathLink {
  readonly key: string;
  readonly parent: PathLink | undefined;
}

function pointerOf(link: PathLink | undefined): string {
  const keys: string[] = [];
  for (let at = link; at; at = at.parent) keys.push(at.key);
  return toJsonPointer(keys.reverse());
}

export interface JsonInspection {
  /** Strings (values or property names) PostgreSQL cannot store, each located by a JSON pointer after `location`. */
  unstorableText: FieldError[];
}

/**
 * Refuses (400) a value that nests deeper than MAX_JSON_DEPTH or has more than MAX_JSON_MEMBERS
 * members, before anything else walks it; otherwise reports where it holds unstorable text, for the
 * caller to refuse once it has decided who is asking. `location` prefixes every pointer
 * (e.g. `query:name` or `/variables`), `what` names the value in the refusal.
 */
export function inspectJson(value: unknown, location = '', what = 'The request body'): JsonInspection {
  const unstorableText: FieldError[] = [];
  const note = (link: PathLink | undefined, message: string) => {
    if (unstorableText.length < MAX_REPORTED) unstorableText.push({ pointer: location + pointerOf(link), message });
  };
  let members = 0;
  const pending: Array<{ value: unknown; depth: number; link: PathLink | undefined }> = [{ value, depth: 0, link: undefined }];
  while (pending.length > 0) {
    const { value: current, depth, link } = pending.pop()!;
    if (typeof current === 'string') {
      const problem = unstorableTextProblem(current);
      if (problem) note(link, problem);
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= MAX_JSON_DEPTH) throw shapeRefusal(location, `${what} nests deeper than ${MAX_JSON_DEPTH} levels`);
    const keys = Array.isArray(current) ? undefined : Object.keys(current);
    members += keys ? keys.length : (current as unknown[]).length;
    if (members > MAX_JSON_MEMBERS) throw shapeRefusal(location, `${what} has more than ${MAX_JSON_MEMBERS} members (properties and array elements)`);
    if (!keys) {
      (current as unknown[]).forEach((child, index) => pending.push({ value: child, depth: depth + 1, link: { key: String(index), parent: link } }));
      continue;
    }
    for (const key of keys) {
      const childLink = { key, parent: link };
      const problem = unstorableTextProblem(key);
      if (problem) note(childLink, `property name ${problem}`);
      pending.push({ value: (current as Record<string, unknown>)[key], depth: depth + 1, link: childLink });
    }
  }
  return { unstorableText };
}

/** A refusal of unstorable text found by inspectJson (or in any other input), naming each place. */
export function unstorableTextRefusal(fields: FieldError[]): AppError {
  return AppError.badRequest('Text must be valid Unicode without the NUL character (U+0000)', fields);
}

function shapeRefusal(location: string, message: string): AppError {
  return AppError.badRequest(message, [
    { pointer: location, message: `must nest at most ${MAX_JSON_DEPTH} levels and hold at most ${MAX_JSON_MEMBERS} members` },
  ]);
}
