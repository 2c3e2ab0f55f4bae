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
import { matchedLender, matchProfileById, type MatchedLender } from '../matching/funding-search.js';
import { preselectedOffer, type PreselectedOffer } from '../offers/preselected-offers.js';
import { recordAnswers } from '../questionnaires/answer-records.js';
import { questionnaireDefinition } from '../questionnaires/questionnaire-definitions.js';
import { resolveTenantId } from '../tenants/tenant-visibility.js';
import { parseInput } from '../validation.js';
import { applicationScope, findVisibleApplication } from './application-visibility.js';
import { answersOf, validateApplicationBody } from './application-variants.js';

export const DEFAULT_APPLICATION_TYPE = 'business-all-funding-products';
export const CONTINUE_URL_TTL_SECONDS = 7 * 24 * 3600;

/** A Business V1 application as stored: the answer variant it was made with, and its answers. */
export interface BusinessApplicationRecord {
  id: string;
  /** The questionnaire id of the answer variant. */
  type: string;
  answers: Record<string, unknown>;
  createdAt: string;
}

function toRecord(row: { id: string; type: string; answers: unknown; createdAt: Date }): BusinessApplicationRecord {
  return { id: row.id, type: row.type, answers: (row.answers ?? {}) as Record<string, unknown>, createdAt: row.createdAt.toISOString() };
}

/** Spec 2.6 response: the request's fields but governmentBackedLoansExist, plus id and type (tradingAddress when given). */
export type ApplicationResponse = Record<string, unknown> & { id: string; type: string; tradingAddress?: string };

const ApplicationId = z.uuid({ message: 'must be a uuid' });

export function toResponse(row: { id: string; answers: unknown }): ApplicationResponse {
  const { governmentBackedLoansExist: _omitted, ...answers } = (row.answers ?? {}) as Record<string, unknown>;
  return {
    ...answers,
    id: row.id,
    // The live platform answers every application as this variant (spec 2.6).
    type: 'introducer-all-funding-products',
  };
}

/**
 * POST /applications: the body of the variant named by `type` (default
 * business-all-funding-products; application-variants.ts), every field optional, at least one.
 * The fields its questionnaire asks fill the tenant's profile like answers (the profile is created
 * if the tenant has none); the whole body is kept as the application.
 */
export async function createApplication(ctx: ServiceContext, input: unknown): Promise<BusinessApplicationRecord> {
  const actor = requireAccess(ctx, 'businessApplications.create');
  const tenantId = await resolveTenantId(ctx, actor);
  if (typeof input !== 'object' || input === null || Array.isArray(input) || Object.keys(input).length === 0) {
    throw AppError.badRequest('The application is invalid', [{ pointer: '', message: 'must be a non-empty object' }]);
  }
  const { type = DEFAULT_APPLICATION_TYPE, ...body } = input as Record<string, unknown>;
  const answers = validateApplicationBody(String(type), body);
  const definition = questionnaireDefinition(type);
  const row = await ctx.db.$transaction(async (tx) => {
    const profile =
      (await tx.profile.findFirst({ where: { tenantId, environment: ctx.environment } })) ??
      (await tx.profile.create({ data: { tenantId, environment: ctx.environment } }));
    await recordAnswers(ctx, definition, profile.id, (stored) => ({ ...stored, ...answersOf(definition, answers) }), tx);
    return tx.businessApplication.create({
      data: { tenantId, accountId: actor.accountId, environment: ctx.environment, profileId: profile.id, type: definition.id, answers: answers as Prisma.InputJsonValue },
    });
  });
  ctx.logger.info({ applicationId: row.id, tenantId }, 'business application created');
  return toRecord(row);
}

export const ContinueBody = z.strictObject({ clickId: z.string().trim().min(1).max(255).optional() });

const continueSubject = (id: string) => `application:${id}`;
export const continuePagePath = (id: string) => `/app/applications/${id}/continue`;

/** POST /applications/{applicationId}/continue-url {clickId?} → 201 { continueUrl } (signed, expiring). */
export async function generateContinueUrl(ctx: ServiceContext, id: unknown, input: unknown): Promise<{ continueUrl: string }> {
  const actor = requireAccess(ctx, 'businessApplications.create');
  const row = await findVisibleApplication(ctx, actor, id);
  const { clickId } = parseInput(ContinueBody, input ?? {});
  if (clickId !== undefined) await ctx.db.businessApplication.update({ where: { id: row.id }, data: { clickId } });
  const token = await ctx.auth.tokens.signLink(continueSubject(row.id), CONTINUE_URL_TTL_SECONDS);
  return { continueUrl: `${ctx.auth.tokens.issuer}${continuePagePath(row.id)}?token=${encodeURIComponent(token)}` };
}

/**
 * GET /applications/validate-continue-url?continueUrl= → 200 { valid, applicationId } or 403/400;
 * a link to an application the caller does not see is a 404, like a missing one.
 */
export async function validateContinueUrl(ctx: ServiceContext, query: unknown): Promise<{ valid: true; applicationId: string }> {
  const actor = requireAccess(ctx, 'businessApplications.read');
  const { continueUrl } = parseInput(z.object({ continueUrl: z.url({ message: 'must be a URL' }) }), query ?? {}, 'Query');
  const url = new URL(continueUrl);
  const match = /^\/app\/applications\/([0-9a-f-]{36})\/continue$/.exec(url.pathname);
  if (!match?.[1] || `${url.protocol}//${url.host}` !== ctx.auth.tokens.issuer) {
    throw AppError.badRequest('Not a continue URL of this service', [{ pointer: 'query:continueUrl', message: 'is not one of our continue URLs' }]);
  }
  await ctx.auth.tokens.verifyLink(url.searchParams.get('token') ?? '', continueSubject(match[1]));
  const row = await findVisibleApplication(ctx, actor, match[1]);
  return { valid: true, applicationId: row.id };
}

/** For the continue page: the application behind a verified link. */
export async function openContinuePage(ctx: ServiceContext, id: unknown, token: unknown): Promise<ApplicationResponse & { createdAt: string }> {
  const applicationId = parseInput(ApplicationId, id, 'applicationId');
  await ctx.auth.tokens.verifyLink(typeof token === 'string' ? token : '', continueSubject(applicationId));
  const row = await ctx.db.businessApplication.findFirst({ where: { id: applicationId, environment: ctx.environment }, include: { profile: { select: { companyInformation: true } } } });
  if (!row) throw AppError.notFound('Application');
  // Applications carry no company fields: the page names the company from the tenant's profile.
  const { name } = (row.profile.companyInformation ?? {}) as { name?: unknown };
  return { ...toResponse(row), ...(typeof name === 'string' ? { companyName: name } : {}), createdAt: row.createdAt.toISOString() };
}

export interface ApplicationMatchList {
  numberOfMatches: number;
  matches: Array<{
    lender: MatchedLender;
    product: string;
    fees: { arrangementFees: number; earlyRepaymentFees: number; exitFees: number };
    likelihood: { value: number };
    instantOffer: boolean;
  }>;
}

/** GET /applications/{applicationId}/matches → the match list of spec 2.6, from the matching engine. */
export async function getApplicationMatches(ctx: ServiceContext, id: unknown): Promise<ApplicationMatchList> {
  const actor = requireAccess(ctx, 'businessApplications.read');
  const row = await findVisibleApplication(ctx, actor, id);
  const { outcome, catalogue } = await matchProfileById(ctx, row.profileId, {});
  const matches = outcome.matches.map((m) => {
    const product = catalogue.productById.get(m.productId)!;
    return {
      lender: matchedLender(catalogue.lenders.get(m.lenderId)!),
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
  const actor = requireAccess(ctx, 'businessApplications.read');
  const row = await findVisibleApplication(ctx, actor, id);
  const { outcome, catalogue } = await matchProfileById(ctx, row.profileId, {});
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

/** One of the tenant's applications (GraphQL application). */
export async function getApplication(ctx: ServiceContext, id: unknown): Promise<BusinessApplicationRecord> {
  const actor = requireAccess(ctx, 'businessApplications.read');
  return toRecord(await findVisibleApplication(ctx, actor, id));
}

/** A profile's Business V1 applications (GraphQL Profile.applications). */
export async function listProfileApplications(ctx: ServiceContext, profileUuid: string): Promise<BusinessApplicationRecord[]> {
  const actor = requireAccess(ctx, 'businessApplications.read');
  const rows = await ctx.db.businessApplication.findMany({
    where: { AND: [{ profileId: profileUuid }, applicationScope(ctx, actor)] },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map(toRecord);
}
