/**
 * Questionnaires and answers (spec 2.3 Questionnaire, 2.4, 4.1 questionnaire rows): the
 * definitions, their JSON Schemas (plain and pre-filled from a profile), and the answers of a
 * profile, validated by that schema and carried into the profile in the same transaction.
 */
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../context.js';
import { AppError } from '../errors.js';
import { requireAccess } from '../identity/access-policy.js';
import { getProfile } from '../profiles/profile-service.js';
import { parseInput } from '../validation.js';
import { answerSchema, type JsonSchema } from './answer-schema.js';
import { validateAnswers } from './answer-validation.js';
import { applyAnswerChange, profileDefaults, type ProfileDocuments } from './profile-answers.js';
import { questionnaireDefinitions, type Question, type QuestionnaireDefinition } from './questionnaire-definitions.js';

export interface QuestionDto {
  label: string;
  help: string;
  type: string;
  options: Array<string | number> | null;
  required: boolean;
  requiredWhen: unknown;
  askedWhen: unknown;
  default: unknown;
}

export interface QuestionnaireDto {
  id: string;
  version: number;
  title: string;
  description: string;
  /** Keyed by answer field (spec 2.3: "object of question keys"), in form order. */
  questions: Record<string, QuestionDto>;
}

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
  return { id: d.id, version: d.version, title: d.title, description: d.description, questions: Object.fromEntries(d.questions.map((q) => [q.key, question(q)])) };
}

function definitionOf(id: unknown): QuestionnaireDefinition {
  const definition = typeof id === 'string' ? questionnaireDefinitions().get(id) : undefined;
  if (!definition) throw AppError.notFound('Questionnaire');
  return definition;
}

export function listQuestionnaires(ctx: ServiceContext): QuestionnaireDto[] {
  requireAccess(ctx, 'questionnaires.read');
  return [...questionnaireDefinitions().values()].map(toQuestionnaireDto);
}

export function getQuestionnaire(ctx: ServiceContext, id: unknown): QuestionnaireDto {
  requireAccess(ctx, 'questionnaires.read');
  return toQuestionnaireDto(definitionOf(id));
}

/** GET /questionnaires/{id}/json-schema: the answer body's JSON Schema (draft 2020-12). */
export function getAnswerSchema(ctx: ServiceContext, id: unknown): JsonSchema {
  requireAccess(ctx, 'questionnaires.read');
  return answerSchema(definitionOf(id));
}

/** GET /questionnaires/{id}/profiles/{profileId}/json-schema: the same, pre-filled from the profile. */
export async function getProfileAnswerSchema(ctx: ServiceContext, id: unknown, profileId: unknown): Promise<JsonSchema> {
  requireAccess(ctx, 'questionnaires.read');
  const definition = definitionOf(id);
  const profile = await getProfile(ctx, profileId);
  const stored = await storedAnswers(ctx, profile.uuid, definition.id);
  const defaults = { ...profileDefaults(definition, await documentsOf(ctx, profile.uuid)), ...stored };
  return answerSchema(definition, { defaults, profileId: profile.uuid });
}

/** GET .../answers: the stored answers ({} before any). */
export async function getAnswers(ctx: ServiceContext, id: unknown, profileId: unknown): Promise<Record<string, unknown>> {
  requireAccess(ctx, 'questionnaires.read');
  const definition = definitionOf(id);
  const profile = await getProfile(ctx, profileId);
  return storedAnswers(ctx, profile.uuid, definition.id);
}

/** PUT .../answers: the whole answer set; every answer the questionnaire requires must be sent. */
export async function putAnswers(ctx: ServiceContext, id: unknown, profileId: unknown, body: unknown): Promise<void> {
  requireAccess(ctx, 'answers.write');
  const definition = definitionOf(id);
  const answers = validateAnswers(answerSchema(definition), body ?? {});
  await writeAnswers(ctx, definition, profileId, () => answers);
}

/** PATCH .../answers: some answers, merged into the stored ones; the merged set must hold. */
export async function patchAnswers(ctx: ServiceContext, id: unknown, profileId: unknown, body: unknown): Promise<void> {
  requireAccess(ctx, 'answers.write');
  const definition = definitionOf(id);
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length === 0) {
    throw AppError.badRequest('The answers are invalid', [{ pointer: '', message: 'must be an object with at least one answer' }]);
  }
  const partial = answerSchema(definition, { partial: true });
  validateAnswers(partial, body);
  await writeAnswers(ctx, definition, profileId, (stored) => validateAnswers(partial, { ...stored, ...body }));
}

const AnswerKeys = z.array(z.string().min(1), { message: 'must name at least one answerKey' }).min(1, 'must name at least one answerKey');

/** DELETE .../answers?answerKey=a&answerKey=b: removes those answers and what they put in the profile. */
export async function deleteAnswers(ctx: ServiceContext, id: unknown, profileId: unknown, answerKey: unknown): Promise<void> {
  requireAccess(ctx, 'answers.write');
  const definition = definitionOf(id);
  const keys = parseInput(AnswerKeys, answerKey === undefined ? [] : Array.isArray(answerKey) ? answerKey : [answerKey], 'answerKey');
  const known = new Set(definition.questions.map((q) => q.key));
  const unknown = keys.filter((k) => !known.has(k));
  if (unknown.length) {
    throw AppError.badRequest('Unknown answerKey', unknown.map((k) => ({ pointer: `query:answerKey`, message: `${k} is not a question of ${definition.id}` })));
  }
  await writeAnswers(ctx, definition, profileId, (stored) => Object.fromEntries(Object.entries(stored).filter(([k]) => !keys.includes(k))));
}

async function writeAnswers(
  ctx: ServiceContext,
  definition: QuestionnaireDefinition,
  profileId: unknown,
  next: (stored: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  const profile = await getProfile(ctx, profileId); // the caller must see the profile
  await recordAnswers(ctx, definition, profile.uuid, next);
}

export function questionnaireDefinition(id: unknown): QuestionnaireDefinition {
  return definitionOf(id);
}

/**
 * Stores the next answers and carries the change into the profile, in one transaction. For callers
 * that have already checked access to the profile (and validated the answers).
 */
export async function recordAnswers(
  ctx: ServiceContext,
  definition: QuestionnaireDefinition,
  profileId: string,
  next: (stored: Record<string, unknown>) => Record<string, unknown>,
  tx?: Prisma.TransactionClient,
): Promise<void> {
  const profile = { uuid: profileId };
  const run = async (tx: Prisma.TransactionClient) => {
    await tx.$queryRaw`SELECT id FROM profile WHERE id = ${profile.uuid}::uuid FOR UPDATE`;
    const row = await tx.profile.findUniqueOrThrow({ where: { id: profile.uuid } });
    const set = await tx.questionnaireAnswerSet.findUnique({ where: { profileId_questionnaireId: { profileId: profile.uuid, questionnaireId: definition.id } } });
    const before = (set?.answers ?? {}) as Record<string, unknown>;
    const after = next(before);
    const documents = applyAnswerChange(definition, before, after, documentsOfRow(row));
    await tx.questionnaireAnswerSet.upsert({
      where: { profileId_questionnaireId: { profileId: profile.uuid, questionnaireId: definition.id } },
      create: { profileId: profile.uuid, questionnaireId: definition.id, answers: after as Prisma.InputJsonValue },
      update: { answers: after as Prisma.InputJsonValue },
    });
    const info = documents.companyInformation as { registrationNumber?: string; type?: string; sector?: string };
    await tx.profile.update({
      where: { id: profile.uuid },
      data: {
        companyInformation: documents.companyInformation as Prisma.InputJsonValue,
        financials: documents.financials as Prisma.InputJsonValue,
        eligibilityRequest: documents.eligibilityRequest as Prisma.InputJsonValue,
        ...(row.tenantId ? {} : { registrationNumber: info.registrationNumber ?? null }),
        companyType: (info.type ?? null) as never,
        sector: (info.sector ?? null) as never,
        updatedAt: ctx.clock.now(),
      },
    });
  };
  if (tx) await run(tx);
  else await ctx.db.$transaction(run);
}

async function storedAnswers(ctx: ServiceContext, profileId: string, questionnaireId: string): Promise<Record<string, unknown>> {
  const set = await ctx.db.questionnaireAnswerSet.findUnique({ where: { profileId_questionnaireId: { profileId, questionnaireId } } });
  return (set?.answers ?? {}) as Record<string, unknown>;
}

async function documentsOf(ctx: ServiceContext, profileId: string): Promise<ProfileDocuments> {
  return documentsOfRow(await ctx.db.profile.findUniqueOrThrow({ where: { id: profileId } }));
}

function documentsOfRow(row: { companyInformation: unknown; financials: unknown; eligibilityRequest: unknown }): ProfileDocuments {
  const doc = (v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  return { companyInformation: doc(row.companyInformation), financials: doc(row.financials), eligibilityRequest: doc(row.eligibilityRequest) };
}
