/**
 * Questionnaire definitions are data: one versioned JSON file per questionnaire in ./definitions.
 * Adding a questionnaire is adding a file. Each file is checked against this format when loaded
 * (a malformed definition stops the process with the file and field named).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../../kernel/errors.js';
import { repositoryPath } from '../../kernel/repository-root.js';

export const QUESTION_TYPES = ['string', 'email', 'phone', 'enum', 'boolean', 'number', 'currency', 'date'] as const;

export type Condition = { field: string; equals: unknown } | { field: string; in: unknown[] } | { all: Condition[] };

export const ConditionSchema: z.ZodType<Condition> = z
  .lazy(() =>
    z.union([
      z.strictObject({ field: z.string(), equals: z.unknown() }),
      z.strictObject({ field: z.string(), in: z.array(z.unknown()).min(1) }),
      z.strictObject({ all: z.array(ConditionSchema).min(1) }),
    ]),
  )
  .meta({ id: 'QuestionCondition', description: '{ field, equals } | { field, in: [...] } | { all: [conditions] } over the answers' }) as z.ZodType<Condition>;

const QuestionSchema = z
  .strictObject({
    key: z.string().regex(/^[a-zA-Z][a-zA-Z0-9]*$/),
    label: z.string().min(1),
    help: z.string().min(1),
    type: z.enum(QUESTION_TYPES),
    options: z
      .array(z.union([z.string(), z.number()]))
      .min(1)
      .optional(),
    required: z.boolean(),
    requiredWhen: ConditionSchema.optional(),
    askedWhen: ConditionSchema.optional(),
    default: z.unknown().optional(),
    nonEmpty: z.boolean().optional(),
    minimum: z.number().optional(),
    profilePath: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
    transform: z.literal('date-time').optional(),
  })
  .refine((q) => q.type !== 'enum' || q.options !== undefined, { message: 'an enum question needs options', path: ['options'] })
  .refine((q) => !(q.required && q.requiredWhen), { message: 'required and requiredWhen exclude each other', path: ['requiredWhen'] });

const DefinitionSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  version: z.number().int().min(1),
  title: z.string().min(1),
  description: z.string().min(1),
  questions: z.array(QuestionSchema).min(1),
});

export type Question = z.infer<typeof QuestionSchema>;
export type QuestionnaireDefinition = z.infer<typeof DefinitionSchema>;

const DEFINITIONS_DIR = repositoryPath('src', 'modules', 'questionnaires', 'definitions');

function conditionFields(condition: Condition): string[] {
  return 'all' in condition ? condition.all.flatMap(conditionFields) : [condition.field];
}

function load(): Map<string, QuestionnaireDefinition> {
  const definitions = new Map<string, QuestionnaireDefinition>();
  for (const file of readdirSync(DEFINITIONS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const parsed = DefinitionSchema.safeParse(JSON.parse(readFileSync(path.join(DEFINITIONS_DIR, file), 'utf8')));
    if (!parsed.success) {
      throw new Error(`questionnaire definition ${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    }
    const definition = parsed.data;
    if (`${definition.id}.json` !== file) throw new Error(`questionnaire definition ${file}: id ${definition.id} does not match its file name`);
    const keys = new Set(definition.questions.map((q) => q.key));
    if (keys.size !== definition.questions.length) throw new Error(`questionnaire definition ${file}: duplicate question keys`);
    for (const q of definition.questions) {
      const referenced = [q.requiredWhen, q.askedWhen].filter((c): c is Condition => c !== undefined).flatMap(conditionFields);
      const unknown = referenced.filter((f) => !keys.has(f));
      if (unknown.length) throw new Error(`questionnaire definition ${file}: ${q.key} depends on unknown ${unknown.join(', ')}`);
    }
    definitions.set(definition.id, definition);
  }
  return definitions;
}

let cache: Map<string, QuestionnaireDefinition> | undefined;

export function questionnaireDefinitions(): Map<string, QuestionnaireDefinition> {
  cache ??= load();
  return cache;
}

/** A questionnaire by id, or 404. */
export function questionnaireDefinition(id: unknown): QuestionnaireDefinition {
  const definition = typeof id === 'string' ? questionnaireDefinitions().get(id) : undefined;
  if (!definition) throw AppError.notFound('Questionnaire');
  return definition;
}
