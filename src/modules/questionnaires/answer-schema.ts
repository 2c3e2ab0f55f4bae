/**
 * A questionnaire's answer body as a standard JSON Schema (draft 2020-12), compiled from its
 * definition: type hints (title, description, formats), every validation, and the conditional
 * requirements as if/then. This one schema is what the API serves and what answers are validated
 * with (answer-validation.ts): there is no second validator.
 */
import type { Condition, Question, QuestionnaireDefinition } from './questionnaire-definitions.js';

import type { JsonSchema } from '../../kernel/validation.js';

export type { JsonSchema } from '../../kernel/validation.js';

export const CLIENT_NUMBER_PATTERN = '^\\+?[0-9\\s]{11,30}$';

export const CURRENCY_SCHEMA: JsonSchema = {
  type: 'object',
  title: 'Currency amount',
  properties: {
    code: { type: 'string', enum: ['GBP', 'EUR', 'ZAR'] },
    value: { type: 'number' },
  },
  required: ['code', 'value'],
  additionalProperties: false,
};

function propertySchema(q: Question): JsonSchema {
  const hints = { title: q.label, description: q.help };
  switch (q.type) {
    case 'string':
      return { ...hints, type: 'string', ...(q.nonEmpty ? { minLength: 1, pattern: '\\S' } : {}) };
    case 'email':
      return { ...hints, type: 'string', format: 'email' };
    case 'phone':
      return { ...hints, type: 'string', pattern: CLIENT_NUMBER_PATTERN };
    case 'enum':
      return { ...hints, type: 'string', enum: q.options };
    case 'boolean':
      return { ...hints, type: 'boolean' };
    case 'number':
      return { ...hints, type: 'number', ...(q.options ? { enum: q.options } : {}), ...(q.minimum !== undefined ? { minimum: q.minimum } : {}) };
    case 'currency':
      // Inline rather than a $ref: the schema is self-contained, for form builders and for the API
      // reference, which shows it as an example answer (where a $ref would be resolved as the document's own).
      return { ...CURRENCY_SCHEMA, ...hints };
    case 'date':
      return { ...hints, type: 'string', format: 'date' };
  }
}

function conditionSchema(condition: Condition): JsonSchema {
  if ('all' in condition) return { allOf: condition.all.map(conditionSchema) };
  const value = 'equals' in condition ? { const: condition.equals } : { enum: condition.in };
  return { type: 'object', properties: { [condition.field]: value }, required: [condition.field] };
}

export interface SchemaOptions {
  /** Pre-filled values (the per-profile schema); they become each property's `default`. */
  defaults?: Record<string, unknown>;
  /** Whose values the defaults are (part of the schema's $id). */
  profileId?: string;
  /** For partial answers (PATCH): nothing is required outright; conditional requirements stay. */
  partial?: boolean;
}

export function answerSchema(definition: QuestionnaireDefinition, options: SchemaOptions = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const q of definition.questions) {
    const value = options.defaults && q.key in options.defaults ? options.defaults[q.key] : q.default;
    properties[q.key] = { ...propertySchema(q), ...(value !== undefined ? { default: value } : {}) };
  }
  const conditional = definition.questions
    .filter((q) => q.requiredWhen)
    .map((q) => ({ if: conditionSchema(q.requiredWhen as Condition), then: { required: [q.key] } }));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:funding-gateway:questionnaire:${definition.id}:v${definition.version}${options.partial ? ':partial' : ''}${options.profileId ? `:profile:${options.profileId}` : ''}`,
    title: definition.title,
    description: definition.description,
    type: 'object',
    properties,
    ...(options.partial ? {} : { required: definition.questions.filter((q) => q.required).map((q) => q.key) }),
    ...(conditional.length ? { allOf: conditional } : {}),
    additionalProperties: false,
  };
}
