/**
 * A profile's stored answers, and the one way to change them: the answer set and the profile fields
 * it fills change together in one transaction under the profile's row lock (internal: callers have
 * decided access, established the profile is visible and validated the answers).
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { applyAnswerChange, type ProfileDocuments } from './profile-answers.js';
import type { QuestionnaireDefinition } from './questionnaire-definitions.js';

/** Stores the next answers and carries the change into the profile, in one transaction. */
export async function recordAnswers(
  ctx: ServiceContext,
  definition: QuestionnaireDefinition,
  profileId: string,
  next: (stored: Record<string, unknown>) => Record<string, unknown>,
  tx?: Prisma.TransactionClient,
): Promise<Record<string, unknown>> {
  const profile = { uuid: profileId };
  const run = async (tx: Prisma.TransactionClient) => {
    await tx.$queryRaw`SELECT id FROM profile WHERE id = ${profile.uuid}::uuid FOR UPDATE`;
    const row = await tx.profile.findUniqueOrThrow({ where: { id: profile.uuid } });
    const set = await tx.questionnaireAnswerSet.findUnique({
      where: { profileId_questionnaireId: { profileId: profile.uuid, questionnaireId: definition.id } },
    });
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
    return after;
  };
  return tx ? run(tx) : ctx.db.$transaction(run);
}

/** @access internal: for a profile the calling operation has already decided on. */
export async function storedAnswers(ctx: ServiceContext, profileId: string, questionnaireId: string): Promise<Record<string, unknown>> {
  const set = await ctx.db.questionnaireAnswerSet.findUnique({ where: { profileId_questionnaireId: { profileId, questionnaireId } } });
  return (set?.answers ?? {}) as Record<string, unknown>;
}

/** @access internal: for a profile the calling operation has already decided on. */
export async function documentsOf(ctx: ServiceContext, profileId: string): Promise<ProfileDocuments> {
  return documentsOfRow(await ctx.db.profile.findUniqueOrThrow({ where: { id: profileId } }));
}

function documentsOfRow(row: { companyInformation: unknown; financials: unknown; eligibilityRequest: unknown }): ProfileDocuments {
  const doc = (v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  return { companyInformation: doc(row.companyInformation), financials: doc(row.financials), eligibilityRequest: doc(row.eligibilityRequest) };
}
