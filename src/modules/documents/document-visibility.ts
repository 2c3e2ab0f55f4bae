/**
 * Which documents a caller sees, decided here only: an integrator those of the profiles it sees
 * (profile visibility); a lender those of the profiles of the applications it sees (lender-application
 * visibility), or attached to them.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import type { Actor } from '../../kernel/actor.js';
import { lenderApplicationScope } from '../lender-applications/lender-application-visibility.js';
import { visibleProfiles, type ProfileViewer } from '../profiles/profile-visibility.js';

type LenderActor = Extract<Actor, { kind: 'lender' }>;

export function documentScope(ctx: ServiceContext, actor: ProfileViewer): Prisma.DocumentWhereInput {
  return { profile: visibleProfiles(ctx, actor) };
}

/** A document of one of the lender's applications, or 404 (another lender's, or of no application of it). */
export async function findLenderDocument(ctx: ServiceContext, actor: LenderActor, applicationId: number, documentId: string) {
  const application = await ctx.db.lenderApplication.findFirst({
    where: { AND: [{ id: applicationId }, lenderApplicationScope(ctx, actor)] },
    select: { id: true, profileId: true },
  });
  if (!application) throw AppError.notFound('Application');
  const document = await ctx.db.document.findFirst({
    where: { id: documentId, OR: [{ profileId: application.profileId }, { lenderApplicationId: application.id }] },
  });
  if (!document) throw AppError.notFound('Document');
  return document;
}
