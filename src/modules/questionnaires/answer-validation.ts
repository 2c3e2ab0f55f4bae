/**
 * Validates answers with the questionnaire's own JSON Schema (ajv, draft 2020-12, with formats):
 * every failing field, as a JSON pointer and a reason.
 */
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import type * as AjvFormatsModule from 'ajv-formats';
import { loadOnFirstUse } from '../../kernel/load-on-first-use.js';
import { AppError, type FieldError } from '../../kernel/errors.js';
import type { JsonSchema } from './answer-schema.js';

const ajv = loadOnFirstUse(() => {
  const requireHere = createRequire(import.meta.url);
  const { Ajv2020 } = requireHere('ajv/dist/2020.js') as typeof Ajv2020Module;
  const addFormats = (requireHere('ajv-formats') as typeof AjvFormatsModule).default as unknown as (a: Ajv2020Module.Ajv2020) => void;
  const instance = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, useDefaults: false });
  addFormats(instance);
  return instance;
});
const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: JsonSchema): ValidateFunction {
  const id = schema.$id as string;
  let validate = compiled.get(id);
  if (!validate) {
    validate = ajv().compile(schema);
    compiled.set(id, validate);
  }
  return validate;
}

function fieldError(error: ErrorObject): FieldError | null {
  const at = error.instancePath;
  switch (error.keyword) {
    case 'if':
      return null; // the failing `then` is reported as the missing field itself
    case 'required':
      return { pointer: `${at}/${(error.params as { missingProperty: string }).missingProperty}`, message: 'is required' };
    case 'additionalProperties':
      return { pointer: `${at}/${(error.params as { additionalProperty: string }).additionalProperty}`, message: 'is not an allowed property' };
    case 'enum':
      return { pointer: at, message: `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` };
    case 'format':
      return { pointer: at, message: `must be a valid ${(error.params as { format: string }).format}` };
    case 'pattern':
      return { pointer: at, message: at.endsWith('Number') ? 'must be 11 to 30 digits or spaces, with an optional leading +' : 'must not be empty' };
    default:
      return { pointer: at, message: error.message ?? 'is not valid' };
  }
}

/** Throws a 400 naming every failing field; returns the answers when valid. */
export function validateAnswers(schema: JsonSchema, answers: unknown): Record<string, unknown> {
  const validate = validatorFor(schema);
  if (validate(answers)) return answers as Record<string, unknown>;
  const seen = new Set<string>();
  const fields = (validate.errors ?? [])
    .map(fieldError)
    .filter((f): f is FieldError => f !== null)
    .filter((f) => (seen.has(`${f.pointer} ${f.message}`) ? false : (seen.add(`${f.pointer} ${f.message}`), true)));
  throw AppError.badRequest('The answers are invalid', fields);
}
