/**
 * Results of the questionnaire operations, declared once (zod): the service types, the REST bodies
 * and (with the questions listed rather than keyed) the GraphQL Questionnaire.
 */
import { z } from 'zod';
import { ConditionSchema, QUESTION_TYPES } from './questionnaire-definitions.js';

export const QuestionDto = z
  .strictObject({
    label: z.string(),
    help: z.string(),
    type: z.enum(QUESTION_TYPES),
    options: z
      .array(z.union([z.string(), z.number()]))
      .nullable()
      .describe('The allowed values: strings for an enum, or numbers for a fixed set'),
    required: z.boolean(),
    requiredWhen: ConditionSchema.nullable().describe('The condition under which it is required'),
    askedWhen: ConditionSchema.nullable().describe('The condition under which it is asked'),
    default: z.unknown().nullable().describe("The default answer, of the question's own type (string, number, boolean or Currency)"),
  })
  .meta({ id: 'Question', description: 'One question of a questionnaire' });
export type QuestionDto = z.infer<typeof QuestionDto>;

export const QuestionnaireDto = z
  .strictObject({
    id: z.string(),
    version: z.number().int(),
    title: z.string(),
    description: z.string(),
    questions: z.record(z.string(), QuestionDto).describe('Keyed by answer field (spec 2.3: "object of question keys"), in form order'),
  })
  .meta({ id: 'Questionnaire', description: 'A questionnaire and its questions' });
export type QuestionnaireDto = z.infer<typeof QuestionnaireDto>;

/** A profile's answers to one questionnaire: each questionnaire has its own fields, described by its JSON Schema. */
export const Answers = z
  .record(z.string(), z.unknown())
  .describe("The answers, keyed by answer key; the questionnaire's JSON Schema (…/questionnaires/{questionnaireId}/json-schema) describes them");
export type Answers = z.infer<typeof Answers>;

/** The answer body's JSON Schema (draft 2020-12): a document whose shape is JSON Schema's own. */
export const AnswerJsonSchema = z.record(z.string(), z.unknown()).describe('A JSON Schema (draft 2020-12) of the answer body');
