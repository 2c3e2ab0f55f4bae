/**
 * Submitting a reviewed selection to its lenders (staff, after the funding specialist's review):
 * one lender application per selected lender, each with the funding application document of
 * spec 2.7, checked against the lender's required fields, and its APPLICATION_CREATED delivery
 * queued in the same transaction. If any lender's required fields are missing nothing is
 * submitted, and the 422 names every missing field per lender.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import { registryGrade } from '../companies/company-information.js';
import type { ServiceContext } from '../../kernel/context.js';
import type { CheckedLater } from '../../kernel/validation.js';
import { AppError, type FieldError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { recordApplicationMoves, type CommittedMove } from '../../infra/metrics.js';
import { answerOnceAsIs } from '../../infra/idempotent-answers.js';
import { queueDeliveries, type NewDelivery } from '../webhooks/webhook-delivery.js';
import { applicationDocument, lenderMatches, loadProfileForDocuments } from './application-documents.js';
import { missingRequiredFields, type RequiredFieldRule } from './required-fields.js';
import { findVisibleApplication } from '../business-applications/application-visibility.js';
import type { SelectedLender } from '../matching/selection-schemas.js';
import { matchProfileById, recordFundingSearch, recordMatchesOfLenders, SEARCH_WITHOUT_MATCHES, type RecordedSearchRow } from '../matching/funding-search.js';
import { reviewSelectionScope } from '../matching/review-selection-visibility.js';
import { transitionFrom } from '../matching/review-selection-states.js';
import { isAnonymousProfile } from '../profiles/profile-visibility.js';
import type { ApplicationSubmission, SelectionSubmission } from './submission-schemas.js';
import { publishApplicationsSubmitted } from './lender-application-service.js';
import { IN_REVIEW } from './application-status.js';

export type SubmissionResult = SelectionSubmission;

export async function submitReviewedSelection(ctx: ServiceContext, selectionId: string): Promise<SubmissionResult> {
  const actor = requireAccess(ctx, 'reviews.submit');
  // The registry grade is read before the transaction, so the row lock is held no longer than needed.
  const selected = await ctx.db.reviewSelection.findFirst({ where: { AND: [{ id: selectionId }, reviewSelectionScope(ctx)] }, select: { profile: true } });
  // Only their profile's owner may see and decide on lender applications: an anonymous profile's
  // would be nobody's (or, addressed by sequential id, anybody's). Its selection waits for a claim.
  if (selected && isAnonymousProfile(selected.profile)) {
    throw AppError.conflict("The selection's profile is anonymous: its owner must claim it (set-ownership) before it is submitted to lenders");
  }
  const grade = selected ? await registryGrade(ctx, selected.profile) : null;
  const { results: created, moves } = await ctx.db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM review_selection WHERE id = ${selectionId}::uuid FOR UPDATE`;
    const selection = locked.length
      ? await tx.reviewSelection.findFirst({
          where: { AND: [{ id: selectionId }, reviewSelectionScope(ctx)] },
          include: { fundingSearch: { omit: SEARCH_WITHOUT_MATCHES } },
        })
      : null;
    if (!selection) throw AppError.notFound('Review selection');
    const submitted = transitionFrom(selection.state, 'submit');
    const results = await createLenderApplications(ctx, tx, {
      profileId: selection.profileId,
      fundingSearch: selection.fundingSearch,
      selection: selection.selection as unknown as SelectedLender[],
      grade,
    });
    await tx.reviewSelection.update({ where: { id: selection.id }, data: { state: submitted } });
    await tx.reviewAction.create({
      data: {
        selectionId: selection.id,
        kind: 'SUBMITTED',
        actorId: actor.userId,
        text: `Sent to ${results.results.length} lender(s)`,
        createdAt: ctx.clock.now(),
      },
    });
    return results;
  });
  recordApplicationMoves(moves);
  ctx.logger.info({ selectionId, applications: created.length }, 'selection submitted to lenders');
  await publishApplicationsSubmitted(
    ctx,
    created.map((a) => a.applicationId),
  );
  return { selectionId, applications: created };
}

/**
 * One lender application per selected lender, inside the caller's transaction: the spec 2.7
 * document, the lender's required fields (a 422 naming every missing one, across all lenders,
 * rolls everything back), history, and the APPLICATION_CREATED delivery.
 */
async function createLenderApplications(
  ctx: ServiceContext,
  tx: Prisma.TransactionClient,
  input: { profileId: string; fundingSearch: RecordedSearchRow; selection: SelectedLender[]; grade: string | null; businessApplicationId?: string },
): Promise<{ results: SubmissionResult['applications']; moves: CommittedMove[] }> {
  const loaded = await loadProfileForDocuments(tx, input.profileId);
  const missing: Array<{ index: number; error: FieldError }> = [];
  const results: SubmissionResult['applications'] = [];
  const deliveries: NewDelivery[] = [];
  // The chosen lenders' matches as rows (already so for a queued selection), which the applications refer to.
  await recordMatchesOfLenders(
    tx,
    input.fundingSearch.id,
    input.selection.map((item) => item.lenderId),
  );
  /** Counted by the caller once its transaction commits. */
  const moves: CommittedMove[] = [];
  // In lender order: each application's insert takes its lender's board counters (migration
  // 20261208070000_board_counters), and writers that take them in one order never deadlock.
  const byLender = [...input.selection.entries()].sort(([, a], [, b]) => a.lenderId - b.lenderId);
  const made = new Map<number, SubmissionResult['applications'][number]>();
  for (const [index, item] of byLender) {
    const matches = await lenderMatches(tx, input.fundingSearch.id, item.lenderId, item.products);
    const [first] = matches;
    if (!first)
      throw AppError.unprocessable(`Lender ${item.lenderId} does not match this profile now`, [{ pointer: `/${index}`, message: 'no current match' }]);
    const application = await tx.lenderApplication.create({
      data: {
        lenderId: item.lenderId,
        profileId: input.profileId,
        fundingMatchId: first.id,
        businessApplicationId: input.businessApplicationId ?? null,
        status: IN_REVIEW,
      },
    });
    const document = applicationDocument(ctx, {
      ...loaded,
      applicationId: application.id,
      grade: input.grade,
      fundingSearch: input.fundingSearch,
      matches: [first, ...matches.slice(1)],
    });
    for (const rule of missingRequiredFields(document, first.lender.requiredFields as unknown as RequiredFieldRule[])) {
      missing.push({
        index,
        error: { pointer: `lender:${item.lenderId}:${rule.field}`, message: rule.message ?? `${first.lender.name} requires ${rule.field}` },
      });
    }
    await tx.lenderApplication.update({ where: { id: application.id }, data: { payload: document as Prisma.InputJsonValue } });
    await tx.applicationStatusChange.create({
      data: { lenderApplicationId: application.id, fromStatus: null, toStatus: IN_REVIEW, createdAt: ctx.clock.now() },
    });
    deliveries.push({
      lenderApplicationId: application.id,
      lenderId: item.lenderId,
      event: 'APPLICATION_CREATED',
      url: first.lender.applicationUrl,
      payload: document,
    });
    made.set(index, { lenderId: item.lenderId, applicationId: application.id });
    moves.push({ lender: first.lender.slug, move: 'submitted' });
  }
  if (missing.length)
    throw AppError.unprocessable(
      'Some lenders require fields the profile does not have: nothing was submitted',
      missing.sort((a, b) => a.index - b.index).map((m) => m.error),
    );
  // Answered in the order the lenders were selected.
  results.push(...input.selection.map((_, index) => made.get(index)!));
  // Every lender's APPLICATION_CREATED delivery by one insert (and one NOTIFY, sent at commit).
  await queueDeliveries(ctx, tx, deliveries);
  return { results, moves };
}

/**
 * POST {business_v1_base}/applications/{applicationId}/submit {lenderId, products}: the integrator
 * sends its Business V1 application to one of its matched lenders (201 { applications }).
 */
export async function submitBusinessApplication(
  ctx: ServiceContext,
  applicationId: unknown,
  input: CheckedLater<SelectedLender>,
  idempotencyKey?: unknown,
): Promise<ApplicationSubmission> {
  const actor = requireAccess(ctx, 'businessApplications.create');
  const application = await findVisibleApplication(ctx, actor, applicationId);
  // Checked before the search is recorded, so that a malformed selection records nothing.
  const selection: SelectedLender[] = [input()];
  const request = { owner: { accountId: actor.accountId }, operation: 'businessApplications.submit', target: application.id, body: selection };
  return answerOnceAsIs(ctx, idempotencyKey, request, () => submitToLender(ctx, application, selection));
}

/** The submission itself, once the caller's application was found and its selection checked. */
async function submitToLender(
  ctx: ServiceContext,
  application: { id: string; profileId: string },
  selection: SelectedLender[],
): Promise<ApplicationSubmission> {
  const recorded = await recordFundingSearch(ctx, await matchProfileById(ctx, application.profileId, { reasons: true }));
  const search = await ctx.db.fundingSearch.findUniqueOrThrow({ where: { id: recorded.id }, omit: SEARCH_WITHOUT_MATCHES });
  const grade = await registryGrade(ctx, await ctx.db.profile.findUniqueOrThrow({ where: { id: application.profileId } }));
  const { results: applications, moves } = await ctx.db.$transaction((tx) =>
    createLenderApplications(ctx, tx, { profileId: application.profileId, fundingSearch: search, selection, grade, businessApplicationId: application.id }),
  );
  recordApplicationMoves(moves);
  await publishApplicationsSubmitted(
    ctx,
    applications.map((a) => a.applicationId),
  );
  return { applications };
}
