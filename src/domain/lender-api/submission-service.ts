/**
 * Submitting a reviewed selection to its lenders (staff, after the funding specialist's review):
 * one lender application per selected lender, each with the funding application document of
 * spec 2.7, checked against the lender's required fields, and its APPLICATION_CREATED delivery
 * queued in the same transaction. If any lender's required fields are missing nothing is
 * submitted, and the 422 names every missing field per lender.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import { gradeFor } from '../companies/credit-grade.js';
import type { ServiceContext } from '../context.js';
import { AppError, type FieldError } from '../errors.js';
import { requireAccess } from '../identity/access-policy.js';
import { queueDelivery } from '../webhooks/webhook-delivery.js';
import { LENDER_API_PATH } from '../identity/lender-oauth-service.js';
import { buildFundingApplication } from './funding-application-document.js';
import { missingRequiredFields, type RequiredFieldRule } from './required-fields.js';
import { z } from 'zod';
import { findTenantApplication } from '../applications/business-application-service.js';
import { PRODUCT_TYPES } from '../matching/matching-engine.js';
import { matchResults } from '../matching/matching-service.js';
import { parseInput } from '../validation.js';

export interface SubmissionResult {
  selectionId: string;
  applications: Array<{ lenderId: number; applicationId: number }>;
}

export async function submitReviewedSelection(ctx: ServiceContext, selectionId: string): Promise<SubmissionResult> {
  requireAccess(ctx, 'reviews.submit');
  // Read outside the transaction: the embedded database has one connection, which the transaction holds.
  const grade = await creditGradeOfSelection(ctx, selectionId);
  const created = await ctx.db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM review_selection WHERE id = ${selectionId}::uuid FOR UPDATE`;
    const selection = locked.length ? await tx.reviewSelection.findUnique({ where: { id: selectionId }, include: { fundingSearch: true } }) : null;
    if (!selection) throw AppError.notFound('Review selection');
    if (selection.state !== 'PENDING_REVIEW' && selection.state !== 'IN_REVIEW') throw AppError.conflict(`The selection is ${selection.state}: it can be submitted once`);
    const results = await createLenderApplications(ctx, tx, {
      profileId: selection.profileId,
      fundingSearch: selection.fundingSearch,
      selection: selection.selection as unknown as SelectedLender[],
      grade,
    });
    await tx.reviewSelection.update({ where: { id: selection.id }, data: { state: 'SUBMITTED' } });
    return results;
  });
  ctx.logger.info({ selectionId, applications: created.length }, 'selection submitted to lenders');
  return { selectionId, applications: created };
}

export interface SelectedLender {
  lenderId: number;
  products: string[];
}

type FundingSearchRow = Prisma.FundingSearchGetPayload<object>;

/**
 * One lender application per selected lender, inside the caller's transaction: the spec 2.7
 * document, the lender's required fields (a 422 naming every missing one, across all lenders,
 * rolls everything back), history, and the APPLICATION_CREATED delivery.
 */
async function createLenderApplications(
  ctx: ServiceContext,
  tx: Prisma.TransactionClient,
  input: { profileId: string; fundingSearch: FundingSearchRow; selection: SelectedLender[]; grade: string | null; businessApplicationId?: string },
): Promise<SubmissionResult['applications']> {
  const profile = await tx.profile.findUniqueOrThrow({
    where: { id: input.profileId },
    include: { persons: { orderBy: { position: 'asc' } }, assets: { orderBy: { position: 'asc' } }, assetsForSecurity: { orderBy: { position: 'asc' } }, merchantCashAdvance: { orderBy: { position: 'asc' } } },
  });
  const documents = await tx.document.findMany({ where: { profileId: profile.id }, orderBy: { createdAt: 'asc' }, omit: { content: true } });
  const missing: FieldError[] = [];
  const results: SubmissionResult['applications'] = [];
  for (const [index, item] of input.selection.entries()) {
    const matches = await tx.fundingMatch.findMany({
      where: { fundingSearchId: input.fundingSearch.id, lenderId: item.lenderId, productType: { in: item.products as never[] } },
      include: { product: true, lender: true },
      orderBy: { id: 'asc' },
    });
    const first = matches[0];
    if (!first) throw AppError.unprocessable(`Lender ${item.lenderId} does not match this profile now`, [{ pointer: `/${index}`, message: 'no current match' }]);
    const application = await tx.lenderApplication.create({
      data: { lenderId: item.lenderId, profileId: profile.id, fundingMatchId: first.id, businessApplicationId: input.businessApplicationId ?? null, status: 'Submitted' },
    });
    const document = buildFundingApplication({
      applicationId: application.id,
      status: 'Submitted',
      profile,
      creditGrade: input.grade,
      fundingSearch: input.fundingSearch,
      match: { id: first.id, productId: first.productId, productType: first.productType, status: first.status, instantOffer: first.product.instantOffer },
      lender: first.lender,
      apiBaseUrl: `${ctx.auth.tokens.issuer}${LENDER_API_PATH}`,
      now: ctx.clock.now(),
      documents,
    });
    document.application.fundingMatch.products = matches.map((m) => m.productId);
    document.application.fundingMatch.productNames = matches.map((m) => m.productType);
    for (const rule of missingRequiredFields(document, first.lender.requiredFields as unknown as RequiredFieldRule[])) {
      missing.push({ pointer: `lender:${item.lenderId}:${rule.field}`, message: rule.message ?? `${first.lender.name} requires ${rule.field}` });
    }
    await tx.lenderApplication.update({ where: { id: application.id }, data: { payload: document as Prisma.InputJsonValue } });
    await tx.applicationStatusChange.create({ data: { lenderApplicationId: application.id, fromStatus: null, toStatus: 'Submitted', createdAt: ctx.clock.now() } });
    await queueDelivery(ctx, tx, { lenderApplicationId: application.id, lenderId: item.lenderId, event: 'APPLICATION_CREATED', url: first.lender.applicationUrl, payload: document });
    results.push({ lenderId: item.lenderId, applicationId: application.id });
  }
  if (missing.length) throw AppError.unprocessable('Some lenders require fields the profile does not have: nothing was submitted', missing);
  return results;
}

const SubmitBody = z.strictObject({
  lenderId: z.number({ message: 'must be a lender id (number)' }).int().positive(),
  products: z.array(z.enum(PRODUCT_TYPES, { message: `must be one of ${PRODUCT_TYPES.join(', ')}` })).min(1, 'must name at least one product'),
});

/**
 * POST {business_v1_base}/applications/{applicationId}/submit {lenderId, products}: the integrator
 * sends its Business V1 application to one of its matched lenders (201 { applications }).
 */
export async function submitBusinessApplication(ctx: ServiceContext, applicationId: unknown, input: unknown): Promise<{ applications: SubmissionResult['applications'] }> {
  const application = await findTenantApplication(ctx, applicationId);
  const body = parseInput(SubmitBody, input);
  await matchResults(ctx, application.profileId, {}); // records the profile's current matches
  const search = await ctx.db.fundingSearch.findFirstOrThrow({ where: { profileId: application.profileId, status: 1 }, orderBy: { id: 'desc' } });
  const grade = await creditGradeOfProfile(ctx, application.profileId);
  const applications = await ctx.db.$transaction((tx) =>
    createLenderApplications(ctx, tx, { profileId: application.profileId, fundingSearch: search, selection: [body], grade, businessApplicationId: application.id }),
  );
  return { applications };
}

async function creditGradeOfProfile(ctx: ServiceContext, profileId: string): Promise<string | null> {
  const profile = await ctx.db.profile.findUnique({ where: { id: profileId }, select: { registrationNumber: true, countryCode: true } });
  const company = profile?.registrationNumber ? await ctx.companies.find(profile.registrationNumber, profile.countryCode) : null;
  return company ? gradeFor(company.scoreValue, company.status === 'DISSOLVED') : null;
}

async function creditGradeOfSelection(ctx: ServiceContext, selectionId: string): Promise<string | null> {
  const selection = await ctx.db.reviewSelection.findUnique({ where: { id: selectionId }, select: { profile: { select: { registrationNumber: true, countryCode: true } } } });
  const profile = selection?.profile;
  const company = profile?.registrationNumber ? await ctx.companies.find(profile.registrationNumber, profile.countryCode) : null;
  return company ? gradeFor(company.scoreValue, company.status === 'DISSOLVED') : null;
}
