/**
 * Business V1 applications (spec 2.6, 4.4; paths of the live platform): create an application for
 * the tenant (its answers fill the tenant's profile like questionnaire answers), a signed continue
 * URL for the client, its matches from the matching engine, and pre-selected instant offers.
 */
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../context.js';
import { AppError } from '../errors.js';
import { requireAccess } from '../identity/access-policy.js';
import { resolveTenantId } from '../identity/tenant-scope.js';
import { matchProfile } from '../matching/matching-service.js';
import { productCatalogue } from '../matching/product-catalogue.js';
import { preselectedOffer, type PreselectedOffer } from '../offers/preselected-offers.js';
import { visibleTo } from '../profiles/profile-service.js';
import { answerSchema } from '../questionnaires/answer-schema.js';
import { validateAnswers } from '../questionnaires/answer-validation.js';
import { questionnaireDefinition, recordAnswers } from '../questionnaires/questionnaire-service.js';
import { parseInput } from '../validation.js';

export const DEFAULT_APPLICATION_TYPE = 'business-all-funding-products';
export const CONTINUE_URL_TTL_SECONDS = 7 * 24 * 3600;

export interface BusinessApplicationSummary {
  id: string;
  type: string;
  createdAt: string;
}

/** Spec 2.6 response: the request's fields but governmentBackedLoansExist, plus id, tradingAddress, type. */
export type ApplicationResponse = Record<string, unknown> & { id: string; type: string; tradingAddress: string | null };

/** A new application as stored (its questionnaire, its creation time) and as the REST response shows it. */
export interface CreatedApplication {
  stored: BusinessApplicationSummary;
  response: ApplicationResponse;
}

const toSummary = (row: { id: string; type: string; createdAt: Date }): BusinessApplicationSummary => ({
  id: row.id,
  type: row.type,
  createdAt: row.createdAt.toISOString(),
});

const ApplicationId = z.uuid({ message: 'must be a uuid' });

function toResponse(row: { id: string; answers: unknown }): ApplicationResponse {
  const { governmentBackedLoansExist: _omitted, ...answers } = (row.answers ?? {}) as Record<string, unknown>;
  return {
    ...answers,
    id: row.id,
    tradingAddress: typeof answers.tradingAddress === 'string' ? answers.tradingAddress : null,
    // The live platform answers every application as this variant (spec 2.6).
    type: 'introducer-all-funding-products',
  };
}

/**
 * POST /applications: body of the answer variant named by `type` (default
 * business-all-funding-products), validated by that questionnaire's JSON Schema without its outright
 * requirements (spec 2.6 marks none), non-empty. The tenant's profile is created if it has none.
 */
export async function createApplication(ctx: ServiceContext, input: unknown): Promise<CreatedApplication> {
  const actor = requireAccess(ctx, 'businessApplications.create');
  const tenantId = await resolveTenantId(ctx, actor);
  if (typeof input !== 'object' || input === null || Array.isArray(input) || Object.keys(input).length === 0) {
    throw AppError.badRequest('The application is invalid', [{ pointer: '', message: 'must be a non-empty object' }]);
  }
  const { type = DEFAULT_APPLICATION_TYPE, ...body } = input as Record<string, unknown>;
  let definition;
  try {
    definition = questionnaireDefinition(type);
  } catch {
    throw AppError.badRequest('The application is invalid', [{ pointer: '/type', message: 'must be a questionnaire id (the answer variant)' }]);
  }
  const answers = validateAnswers(answerSchema(definition, { partial: true }), body);
  const row = await ctx.db.$transaction(async (tx) => {
    const profile =
      (await tx.profile.findFirst({ where: { tenantId, environment: ctx.environment } })) ??
      (await tx.profile.create({ data: { tenantId, environment: ctx.environment } }));
    await recordAnswers(ctx, definition, profile.id, (stored) => ({ ...stored, ...answers }), tx);
    return tx.businessApplication.create({
      data: { tenantId, accountId: actor.accountId, environment: ctx.environment, profileId: profile.id, type: definition.id, answers: answers as Prisma.InputJsonValue },
    });
  });
  ctx.logger.info({ applicationId: row.id, tenantId }, 'business application created');
  return { stored: toSummary(row), response: toResponse(row) };
}

/** The caller's tenant's application, for writes (submitting it to a lender). */
export function findTenantApplication(ctx: ServiceContext, id: unknown) {
  return findApplication(ctx, 'businessApplications.create', id);
}

/** The tenant's application, or 404 (another tenant's or account's included). */
async function findApplication(ctx: ServiceContext, operation: 'businessApplications.read' | 'businessApplications.create', id: unknown) {
  const actor = requireAccess(ctx, operation);
  const tenantId = await resolveTenantId(ctx, actor);
  const applicationId = parseInput(ApplicationId, id, 'applicationId');
  const row = await ctx.db.businessApplication.findFirst({ where: { id: applicationId, tenantId, environment: ctx.environment } });
  if (!row) throw AppError.notFound('Application');
  return row;
}

const ContinueBody = z.strictObject({ clickId: z.string().trim().min(1).max(255).optional() });

const continueSubject = (id: string) => `application:${id}`;
export const continuePagePath = (id: string) => `/app/applications/${id}/continue`;

/** POST /applications/{applicationId}/continue-url {clickId?} → 201 { continueUrl } (signed, expiring). */
export async function generateContinueUrl(ctx: ServiceContext, id: unknown, input: unknown): Promise<{ continueUrl: string }> {
  const row = await findApplication(ctx, 'businessApplications.create', id);
  const { clickId } = parseInput(ContinueBody, input ?? {});
  if (clickId !== undefined) await ctx.db.businessApplication.update({ where: { id: row.id }, data: { clickId } });
  const token = await ctx.auth.tokens.signLink(continueSubject(row.id), CONTINUE_URL_TTL_SECONDS);
  return { continueUrl: `${ctx.auth.tokens.issuer}${continuePagePath(row.id)}?token=${encodeURIComponent(token)}` };
}

/** GET /applications/validate-continue-url?continueUrl= → 200 { valid, applicationId } or 403/400. */
export async function validateContinueUrl(ctx: ServiceContext, query: unknown): Promise<{ valid: true; applicationId: string }> {
  requireAccess(ctx, 'businessApplications.read');
  const { continueUrl } = parseInput(z.object({ continueUrl: z.url({ message: 'must be a URL' }) }), query ?? {}, 'Query');
  const url = new URL(continueUrl);
  const match = /^\/app\/applications\/([0-9a-f-]{36})\/continue$/.exec(url.pathname);
  if (!match?.[1] || `${url.protocol}//${url.host}` !== ctx.auth.tokens.issuer) {
    throw AppError.badRequest('Not a continue URL of this service', [{ pointer: 'query:continueUrl', message: 'is not one of our continue URLs' }]);
  }
  await ctx.auth.tokens.verifyLink(url.searchParams.get('token') ?? '', continueSubject(match[1]));
  return { valid: true, applicationId: match[1] };
}

/** For the continue page: the application behind a verified link. */
export async function openContinuePage(ctx: ServiceContext, id: unknown, token: unknown): Promise<ApplicationResponse & { createdAt: string }> {
  const applicationId = parseInput(ApplicationId, id, 'applicationId');
  await ctx.auth.tokens.verifyLink(typeof token === 'string' ? token : '', continueSubject(applicationId));
  const row = await ctx.db.businessApplication.findFirst({ where: { id: applicationId, environment: ctx.environment } });
  if (!row) throw AppError.notFound('Application');
  return { ...toResponse(row), createdAt: row.createdAt.toISOString() };
}

export interface ApplicationMatchList {
  numberOfMatches: number;
  matches: Array<{
    lender: { id: number; name: string; logo: string | null; description: string | null; average: string; responseTime: number; documents: string[] };
    product: string;
    fees: { arrangementFees: number; earlyRepaymentFees: number; exitFees: number };
    likelihood: { value: number };
    instantOffer: boolean;
  }>;
}

/** GET /applications/{applicationId}/matches → the match list of spec 2.6, from the matching engine. */
export async function getApplicationMatches(ctx: ServiceContext, id: unknown): Promise<ApplicationMatchList> {
  const row = await findApplication(ctx, 'businessApplications.read', id);
  const { outcome } = await matchProfile(ctx, row.profileId, {}, { checked: true });
  const catalogue = await productCatalogue(ctx.db, ctx.environment);
  const matches = outcome.matches.map((m) => {
    const lender = catalogue.lenders.get(m.lenderId)!;
    const product = catalogue.productById.get(m.productId)!;
    return {
      lender: {
        id: lender.id, name: lender.name, logo: lender.logo, description: lender.description,
        average: lender.priceBand, responseTime: lender.responseTimeHours, documents: lender.requiredDocuments,
      },
      product: m.productType,
      fees: { arrangementFees: product.arrangementFeePct, earlyRepaymentFees: product.earlyRepaymentFeePct, exitFees: product.exitFeePct },
      likelihood: { value: m.likelihood },
      instantOffer: product.instantOffer,
    };
  });
  return { numberOfMatches: matches.length, matches };
}

/** GET /applications/{applicationId}/pre-selected → indicative instant offers of the matched instant-offer products. */
export async function getPreselectedOffers(ctx: ServiceContext, id: unknown): Promise<PreselectedOffer[]> {
  const row = await findApplication(ctx, 'businessApplications.read', id);
  const { outcome } = await matchProfile(ctx, row.profileId, {}, { checked: true });
  const catalogue = await productCatalogue(ctx.db, ctx.environment);
  const answers = row.answers as { fundingAmount?: { value?: number }; fundingPeriod?: number };
  const amount = answers.fundingAmount?.value;
  if (amount === undefined) return [];
  const now = ctx.clock.now();
  return outcome.matches
    .filter((m) => catalogue.productById.get(m.productId)?.instantOffer)
    .map((m) =>
      preselectedOffer(catalogue.productById.get(m.productId)!, m, { amount, periodMonths: answers.fundingPeriod }, {
        applicationId: row.id,
        profileUuid: row.profileId,
        applicationUrl: null,
        now,
      }),
    );
}

/** A profile's Business V1 applications (GraphQL Profile.applications). */
export async function listProfileApplications(ctx: ServiceContext, profileUuid: string): Promise<BusinessApplicationSummary[]> {
  const actor = requireAccess(ctx, 'businessApplications.read');
  const rows = await ctx.db.businessApplication.findMany({
    where: { profileId: profileUuid, profile: { AND: [{ environment: ctx.environment }, visibleTo(actor)] } },
    orderBy: { createdAt: 'asc' },
    select: { id: true, type: true, createdAt: true },
  });
  return rows.map(toSummary);
}
