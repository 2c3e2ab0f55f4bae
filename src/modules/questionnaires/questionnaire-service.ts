/**
 * Questionnaires and answers (spec 2.3 Questionnaire, 2.4, 4.1 questionnaire rows): the
 * definitions, their JSON Schemas (plain and pre-filled from a profile), and the answers of a
 * profile, validated by that schema and carried into the profile in the same transaction.
 */
import { z } from 'zod';
import type { ServiceContext } from '../../kernel/context.js';
import type { CheckedLater } from '../../kernel/validation.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { findVisibleProfileId } from '../profiles/profile-visibility.js';
import { answerSchema, type JsonSchema } from './answer-schema.js';
import { validateAnswers } from './answer-validation.js';
import { documentsOf, recordAnswers, storedAnswers } from './answer-records.js';
import { profileDefaults } from './profile-answers.js';
import type { Answers, QuestionDto, QuestionnaireDto } from './questionnaire-schemas.js';
import { questionnaireDefinition, questionnaireDefinitions, type Question, type QuestionnaireDefinition } from './questionnaire-definitions.js';

export type { QuestionnaireDto };

function toQuestionnaireDto(d: QuestionnaireDefinition): QuestionnaireDto {
  const question = (q: Question): QuestionDto => ({
    label: q.label,
    help: q.help,
    type: q.type,
    options: q.options ?? null,
    required: q.required,
    requiredWhen: q.requiredWhen ?? null,
    askedWhen: q.askedWhen ?? null,
    default: q.default ?? null,
  });
  return {
    id: d.id,
    version: d.version,
    title: d.title,
    description: d.description,
    questions: Object.fromEntries(d.questions.map((q) => [q.key, question(q)])),
  };
}

export function listQuestionnaires(ctx: ServiceContext): QuestionnaireDto[] {
  requireAccess(ctx, 'questionnaires.read');
  return [...questionnaireDefinitions().values()].map(toQuestionnaireDto);
}

export function getQuestionnaire(ctx: ServiceContext, id: unknown): QuestionnaireDto {
  requireAccess(ctx, 'questionnaires.read');
  return toQuestionnaireDto(questionnaireDefinition(id));
}

/** GET /questionnaires/{id}/json-schema: the answer body's JSON Schema (draft 2020-12). */
export function getAnswerSchema(ctx: ServiceContext, id: unknown): JsonSchema {
  requireAccess(ctx, 'questionnaires.read');
  return answerSchema(questionnaireDefinition(id));
}

/** GET /questionnaires/{id}/profiles/{profileId}/json-schema: the same, pre-filled from the profile. */
export async function getProfileAnswerSchema(ctx: ServiceContext, id: unknown, profileUuid: unknown): Promise<JsonSchema> {
  const actor = requireAccess(ctx, 'questionnaires.read');
  const profileId = await findVisibleProfileId(ctx, actor, profileUuid);
  const definition = questionnaireDefinition(id);
  const stored = await storedAnswers(ctx, profileId, definition.id);
  const defaults = { ...profileDefaults(definition, await documentsOf(ctx, profileId)), ...stored };
  return answerSchema(definition, { defaults, profileId });
}

/** GET .../answers: the stored answers ({} before any). */
export async function getAnswers(ctx: ServiceContext, id: unknown, profileUuid: unknown): Promise<Answers> {
  const actor = requireAccess(ctx, 'questionnaires.read');
  const profileId = await findVisibleProfileId(ctx, actor, profileUuid);
  return storedAnswers(ctx, profileId, questionnaireDefinition(id).id);
}

/** PUT .../answers: the whole answer set; every answer the questionnaire requires must be sent. */
export async function putAnswers(ctx: ServiceContext, id: unknown, profileUuid: unknown, body: unknown): Promise<Record<string, unknown>> {
  const actor = requireAccess(ctx, 'answers.write');
  const profileId = await findVisibleProfileId(ctx, actor, profileUuid);
  const definition = questionnaireDefinition(id);
  const answers = validateAnswers(answerSchema(definition), body ?? {});
  return recordAnswers(ctx, definition, profileId, () => answers);
}

/** PATCH .../answers: some answers, merged into the stored ones; the merged set must hold. */
export async function patchAnswers(ctx: ServiceContext, id: unknown, profileUuid: unknown, body: unknown): Promise<Record<string, unknown>> {
  const actor = requireAccess(ctx, 'answers.write');
  const profileId = await findVisibleProfileId(ctx, actor, profileUuid);
  const definition = questionnaireDefinition(id);
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length === 0) {
    throw AppError.badRequest('The answers are invalid', [{ pointer: '', message: 'must be an object with at least one answer' }]);
  }
  const partial = answerSchema(definition, { partial: true });
  validateAnswers(partial, body);
  return recordAnswers(ctx, definition, profileId, (stored) => validateAnswers(partial, { ...stored, ...body }));
}

export const AnswerKeys = z.array(z.string().min(1), { message: 'must name at least one answerKey' }).min(1, 'must name at least one answerKey');
/** The query as the OpenAPI document describes it: answerKey once, or repeated (deleteAnswers reads it as AnswerKeys). */
export const DeleteAnswersQuery = z.object({
  answerKey: z
    .union([z.string().min(1), AnswerKeys])
    .describe('The answer to remove; repeat it for several')
    .transform((key) => (Array.isArray(key) ? key : [key])),
});

/** DELETE .../answers?answerKey=a&answerKey=b: removes those answers and what they put in the profile. */
export async function deleteAnswers(
  ctx: ServiceContext,
  id: unknown,
  profileUuid: unknown,
  answerKeys: CheckedLater<z.output<typeof AnswerKeys>>,
): Promise<Answers> {
  const actor = requireAccess(ctx, 'answers.write');
  const profileId = await findVisibleProfileId(ctx, actor, profileUuid);
  const keys = answerKeys();
  const definition = questionnaireDefinition(id);
  const known = new Set(definition.questions.map((q) => q.key));
  const unknown = keys.filter((k) => !known.has(k));
  if (unknown.length) {
    throw AppError.badRequest(
      'Unknown answerKey',
      unknown.map((k) => ({ pointer: `query:answerKey`, message: `${k} is not a question of ${definition.id}` })),
    );
  }
  return recordAnswers(ctx, definition, profileId, (stored) => Object.fromEntries(Object.entries(stored).filter(([k]) => !keys.includes(k))));
}
