/**
 * Business V1 applications (spec 2.6, 4.4; paths of the live platform): create an application for
 * the tenant (its answers fill the tenant's profile like questionnaire answers), a signed continue
 * URL for the client, its matches from the matching engine, and pre-selected instant offers.
 */
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { matchProfileById, matchProfilesByIds, recordFundingSearch, toFundingSearchResult } from '../matching/funding-search.js';
import type { ApplicationMatchList, MatchedLender } from '../matching/funding-search-schemas.js';
import { normaliseSelection, queueReviewSelection, SelectedLenders } from '../matching/review-selection.js';
import { clientMayChoose } from '../matching/review-selection-states.js';
import type { ReviewState } from '../matching/funding-search-schemas.js';
import { preselectedOffer, type PreselectedOffer } from '../offers/preselected-offers.js';
import { visibleProfiles } from '../profiles/profile-visibility.js';
import { recordAnswers } from '../questionnaires/answer-records.js';
import { questionnaireDefinition } from '../questionnaires/questionnaire-definitions.js';
import { resolveTenantId } from '../tenants/tenant-visibility.js';
import { parseInput, type CheckedLater } from '../../kernel/validation.js';
import { groupedBy, indexedBy } from '../../kernel/batched-lookups.js';
import { ApplicationId, applicationScope, findVisibleApplication, linkedApplication } from './application-visibility.js';
import { answersOf, validateApplicationBody } from './application-variants.js';
import { APPLICATION_RESPONSE_TYPE, type BusinessApplicationRecord, type ContinueUrl, type ContinueUrlCheck } from './business-application-schemas.js';
import type { LinkClaims } from '../identity/token-authority.js';
import { assertLinkKeyStands } from '../identity/link-standing.js';
import { answerOnce, answerOnceAsIs } from '../../infra/idempotent-answers.js';
import { productTypeOf } from '../lenders/product-types.js';

export type { BusinessApplicationRecord };

const DEFAULT_APPLICATION_TYPE = 'business-all-funding-products';
const CONTINUE_URL_TTL_SECONDS = 7 * 24 * 3600;

function toRecord(row: { id: string; type: string; answers: unknown; createdAt: Date }): BusinessApplicationRecord {
  return {
    id: row.id,
    type: APPLICATION_RESPONSE_TYPE,
    questionnaireId: row.type,
    answers: (row.answers ?? {}) as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The answers an application shows back: all but governmentBackedLoansExist, which spec 2.6's response leaves out (REST body and continue page alike). */
export function answersShown(record: BusinessApplicationRecord): Record<string, unknown> {
  const { governmentBackedLoansExist: _omitted, ...answers } = record.answers;
  return answers;
}

/**
 * POST /applications: the body of the variant named by `type` (default
 * business-all-funding-products; application-variants.ts), every field optional, at least one.
 * The fields its questionnaire asks fill the tenant's profile like answers (the profile is created
 * if the tenant has none); the whole body is kept as the application.
 */
export async function createApplication(ctx: ServiceContext, input: unknown, idempotencyKey?: unknown): Promise<BusinessApplicationRecord> {
  const actor = requireAccess(ctx, 'businessApplications.create');
  const tenantId = await resolveTenantId(ctx, actor);
  if (typeof input !== 'object' || input === null || Array.isArray(input) || Object.keys(input).length === 0) {
    throw AppError.badRequest('The application is invalid', [{ pointer: '', message: 'must be a non-empty object' }]);
  }
  const { type = DEFAULT_APPLICATION_TYPE, ...body } = input as Record<string, unknown>;
  const answers = validateApplicationBody(String(type), body);
  const definition = questionnaireDefinition(type);
  const store = async (): Promise<BusinessApplicationRecord> => {
    const row = await ctx.db.$transaction(async (tx) => {
      const profile =
        (await tx.profile.findFirst({ where: { AND: [{ tenantId }, visibleProfiles(ctx, actor)] } })) ??
        (await tx.profile.create({ data: { tenantId, environment: ctx.environment } }));
      await recordAnswers(ctx, definition, profile.id, (stored) => ({ ...stored, ...answersOf(definition, answers) }), tx);
      return tx.businessApplication.create({
        data: {
          tenantId,
          accountId: actor.accountId,
          environment: ctx.environment,
          profileId: profile.id,
          type: definition.id,
          answers: answers as Prisma.InputJsonValue,
        },
      });
    });
    ctx.logger.info({ applicationId: row.id, tenantId }, 'business application created');
    return toRecord(row);
  };
  // A retry after a timeout, with the key of the first try, answers the application made then and stores nothing.
  const request = { owner: { accountId: actor.accountId }, operation: 'businessApplications.create', target: tenantId, body: { type: definition.id, answers } };
  return answerOnce(
    ctx,
    idempotencyKey,
    request,
    async () => {
      const record = await store();
      return { answer: record, kept: record as unknown as Prisma.InputJsonObject };
    },
    (kept: Prisma.InputJsonObject) => kept as unknown as BusinessApplicationRecord,
  );
}

export const ContinueBody = z.strictObject({ clickId: z.string().trim().min(1).max(255).optional() });

const continueSubject = (id: string) => `application:${id}`;
const continuePagePath = (id: string) => `/app/applications/${id}/continue`;

/**
 * POST /applications/{applicationId}/continue-url {clickId?} → 201 { continueUrl } (signed, expiring).
 * The link names the API key behind the caller's token and the application's link generation: it
 * ends when that key is revoked or expires, or when the integrator revokes the application's links.
 */
export async function generateContinueUrl(
  ctx: ServiceContext,
  id: unknown,
  body: CheckedLater<z.output<typeof ContinueBody>>,
  idempotencyKey?: unknown,
): Promise<ContinueUrl> {
  const actor = requireAccess(ctx, 'businessApplications.create');
  const row = await findVisibleApplication(ctx, actor, id);
  const { clickId } = body();
  const request = { owner: { accountId: actor.accountId }, operation: 'businessApplications.continueUrl', target: row.id, body: { clickId } };
  return answerOnceAsIs(ctx, idempotencyKey, request, async () => {
    if (clickId !== undefined) await ctx.db.businessApplication.update({ where: { id: row.id }, data: { clickId } });
    const token = await ctx.auth.tokens.signLink(continueSubject(row.id), CONTINUE_URL_TTL_SECONDS, { key: actor.apiKeyId, lep: row.continueLinkEpoch });
    return { continueUrl: `${ctx.auth.tokens.issuer}${continuePagePath(row.id)}?token=${encodeURIComponent(token)}` };
  });
}

/**
 * DELETE /applications/{applicationId}/continue-url → 204: every continue link of the application
 * made until now stops working (a new one can be made at once).
 */
export async function revokeContinueUrls(ctx: ServiceContext, id: unknown): Promise<void> {
  const actor = requireAccess(ctx, 'continueLinks.revoke');
  const row = await findVisibleApplication(ctx, actor, id);
  await ctx.db.businessApplication.update({ where: { id: row.id }, data: { continueLinkEpoch: { increment: 1 } } });
  ctx.logger.info({ applicationId: row.id }, 'continue links revoked');
}

/**
 * Whether a verified continue link still stands: the API key that made it is neither revoked nor
 * expired (link-standing.ts), and the application's links were not revoked since it was made.
 * 403 either way, as for a tampered link.
 */
async function assertContinueLinkStands(ctx: ServiceContext, claims: LinkClaims, application: { continueLinkEpoch: number }): Promise<void> {
  await assertLinkKeyStands(ctx, claims);
  if (claims.lep !== application.continueLinkEpoch) throw new AppError('FORBIDDEN', 'This link is not valid: the links of this application have been revoked');
}

/**
 * GET /applications/validate-continue-url?continueUrl= → 200 { valid, applicationId } or 403/400;
 * a link to an application the caller does not see is a 404, like a missing one.
 */
export const ContinueUrlQuery = z.object({
  continueUrl: z.url({ message: 'must be a URL' }).describe('The continue URL to check (as POST …/continue-url made it)'),
});

export async function validateContinueUrl(ctx: ServiceContext, query: z.output<typeof ContinueUrlQuery>): Promise<ContinueUrlCheck> {
  const actor = requireAccess(ctx, 'businessApplications.read');
  const { continueUrl } = query;
  const url = new URL(continueUrl);
  const match = /^\/app\/applications\/([0-9a-f-]{36})\/continue$/.exec(url.pathname);
  if (!match?.[1] || `${url.protocol}//${url.host}` !== ctx.auth.tokens.issuer) {
    throw AppError.badRequest('Not a continue URL of this service', [{ pointer: 'query:continueUrl', message: 'is not one of our continue URLs' }]);
  }
  const claims = await ctx.auth.tokens.verifyLink(url.searchParams.get('token') ?? '', continueSubject(match[1]));
  const row = await findVisibleApplication(ctx, actor, match[1]);
  await assertContinueLinkStands(ctx, claims, row);
  return { valid: true, applicationId: row.id };
}

/** GET /applications/{applicationId}/matches → the match list of spec 2.6, from the matching engine. */
export async function getApplicationMatches(ctx: ServiceContext, id: unknown): Promise<ApplicationMatchList> {
  const actor = requireAccess(ctx, 'businessApplications.read');
  const row = await findVisibleApplication(ctx, actor, id);
  const matches = matchListOf(await matchProfileById(ctx, row.profileId, {})).map(({ productId: _id, ...match }) => match);
  return { numberOfMatches: matches.length, matches };
}

/** GET /applications/{applicationId}/pre-selected → indicative instant offers of the matched instant-offer products. */
export async function getPreselectedOffers(ctx: ServiceContext, id: unknown): Promise<PreselectedOffer[]> {
  const actor = requireAccess(ctx, 'businessApplications.read');
  const row = await findVisibleApplication(ctx, actor, id);
  return preselectedOffersOf(ctx, row, await matchProfileById(ctx, row.profileId, {})).map(({ offer }) => offer);
}

type ApplicationRow = { id: string; profileId: string; answers: unknown };
type ProfileMatching = Awaited<ReturnType<typeof matchProfileById>>;
type ApplicationMatch = ApplicationMatchList['matches'][number] & { lender: MatchedLender; productId: number };

/** The matches of an application's profile in the spec 2.6 shape (plus the product id, for joining offers). */
function matchListOf({ outcome, catalogue }: ProfileMatching): ApplicationMatch[] {
  return outcome.matches.map((m) => {
    const product = catalogue.productById.get(m.productId)!;
    return {
      lender: catalogue.matchedLenders.get(m.lenderId)!,
      product: productTypeOf(m.productType),
      fees: { arrangementFees: product.arrangementFeePct, earlyRepaymentFees: product.earlyRepaymentFeePct, exitFees: product.exitFeePct },
      likelihood: m.likelihood,
      instantOffer: product.instantOffer,
      productId: m.productId,
    };
  });
}

/** Indicative instant offers of the matched instant-offer products, each with the product it prices. */
function preselectedOffersOf(
  ctx: ServiceContext,
  row: ApplicationRow,
  { outcome, catalogue }: ProfileMatching,
): Array<{ productId: number; offer: PreselectedOffer }> {
  const answers = row.answers as { fundingAmount?: { value?: number }; fundingPeriod?: number };
  const amount = answers.fundingAmount?.value;
  if (amount === undefined) return [];
  const now = ctx.clock.now();
  return outcome.matches
    .filter((m) => catalogue.productById.get(m.productId)?.instantOffer)
    .map((m) => ({
      productId: m.productId,
      offer: preselectedOffer(
        catalogue.productById.get(m.productId)!,
        m,
        { amount, periodMonths: answers.fundingPeriod },
        {
          applicationId: row.id,
          profileUuid: row.profileId,
          applicationUrl: null,
          now,
        },
      ),
    }));
}

/** What the continue page shows: the application to review, its matches and pre-selected offers, and the choice made. */
export interface ContinuePage {
  application: BusinessApplicationRecord & { companyName?: string };
  matches: Array<ApplicationMatch & { offer: PreselectedOffer | null }>;
  /** The client's latest choice sent for review, if any, with the reason of a rejection or return. */
  choice: { state: ReviewState; lenders: Array<{ lenderId: number; products: string[] }>; createdAt: string; reason: string | null } | null;
  /** Whether the client may choose now (no choice yet, or one waiting for review or returned). */
  mayChoose: boolean;
}

const continueLink = async (ctx: ServiceContext, id: unknown, token: unknown) => {
  const applicationId = parseInput(ApplicationId, id, 'applicationId');
  // The verified link is the credential: it was issued to a caller who could see the application.
  const claims = await ctx.auth.tokens.verifyLink(typeof token === 'string' ? token : '', continueSubject(applicationId));
  const row = await ctx.db.businessApplication.findFirst({
    where: linkedApplication(ctx, applicationId),
    include: { profile: { select: { companyInformation: true } } },
  });
  if (!row) throw AppError.notFound('Application');
  await assertContinueLinkStands(ctx, claims, row);
  return row;
};

/**
 * GET /app/applications/{id}/continue?token= (the page a continue URL opens). Reads only.
 * @access signed-link: the verified continue link is the credential (issued to a caller who saw the application)
 */
export async function openContinuePage(ctx: ServiceContext, id: unknown, token: unknown): Promise<ContinuePage> {
  const row = await continueLink(ctx, id, token);
  const matching = await matchProfileById(ctx, row.profileId, {});
  const offers = new Map(preselectedOffersOf(ctx, row, matching).map((o) => [o.productId, o.offer]));
  const latest = await ctx.db.reviewSelection.findFirst({
    where: { profileId: row.profileId, state: { not: 'CLOSED' } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  // Applications carry no company fields: the page names the company from the tenant's profile.
  const { name } = (row.profile.companyInformation ?? {}) as { name?: unknown };
  return {
    application: { ...toRecord(row), ...(typeof name === 'string' ? { companyName: name } : {}) },
    matches: matchListOf(matching).map((m) => ({ ...m, offer: offers.get(m.productId) ?? null })),
    choice: latest
      ? {
          state: latest.state,
          lenders: latest.selection as Array<{ lenderId: number; products: string[] }>,
          createdAt: latest.createdAt.toISOString(),
          reason: latest.decisionReason,
        }
      : null,
    mayChoose: clientMayChoose(latest?.state ?? null),
  };
}

/** The continue page's form: `choice` repeated, each "lenderId:PRODUCT_TYPE" of a match; `replace=yes` once the client confirmed replacing its choice. */
const ChoiceForm = z.object({
  choice: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.string().regex(/^\d+:[A-Z_]+$/, 'must be lenderId:PRODUCT_TYPE'))),
  replace: z.literal('yes').optional(),
});

/**
 * POST /app/applications/{id}/continue?token=: the client proceeds with the matches chosen (1 to 4
 * lenders), which go to the funding specialists' review queue exactly as a Marketplace V1 apply does.
 * @access signed-link: the verified continue link is the credential (issued to a caller who saw the application)
 */
export async function continueWithChoice(ctx: ServiceContext, id: unknown, token: unknown, form: unknown): Promise<void> {
  const row = await continueLink(ctx, id, token);
  const { choice, replace } = parseInput(ChoiceForm, form ?? {}, 'Form');
  const byLender = new Map<number, string[]>();
  for (const item of choice) {
    const [lenderId, product] = item.split(':') as [string, string];
    byLender.set(Number(lenderId), [...(byLender.get(Number(lenderId)) ?? []), product]);
  }
  const requested = parseInput(
    SelectedLenders,
    [...byLender].map(([lenderId, products]) => ({ lenderId, products })),
    'Choice',
  );
  const matching = await matchProfileById(ctx, row.profileId, { reasons: true });
  const search = { ...toFundingSearchResult(matching, false), ...(await recordFundingSearch(ctx, matching)) };
  await queueReviewSelection(ctx, row.profileId, search, normaliseSelection(requested), requested, { client: { replaceConfirmed: replace === 'yes' } });
  ctx.logger.info({ applicationId: row.id }, 'client chose matches to proceed with');
}

/** One of the tenant's applications (GraphQL application). */
export async function getApplication(ctx: ServiceContext, id: unknown): Promise<BusinessApplicationRecord> {
  const actor = requireAccess(ctx, 'businessApplications.read');
  return toRecord(await findVisibleApplication(ctx, actor, id));
}

/** GraphQL Profile.applications: the Business V1 applications of profiles the caller already sees, one list per profile id. */
export async function applicationsOfProfiles(ctx: ServiceContext, profileIds: readonly string[]): Promise<BusinessApplicationRecord[][]> {
  requireAccess(ctx, 'Profile.applications');
  return profileApplications(ctx, profileIds);
}

/**
 * Each profile's applications, oldest first, in one statement.
 * @access internal: the profile ids come from a look-up that established their visibility
 */
export async function profileApplications(ctx: ServiceContext, profileIds: readonly string[]): Promise<BusinessApplicationRecord[][]> {
  const rows = await ctx.db.businessApplication.findMany({
    where: { profileId: { in: [...profileIds] }, environment: ctx.environment },
    orderBy: { createdAt: 'asc' },
  });
  return groupedBy(profileIds, rows, (row) => row.profileId).map((applications) => applications.map(toRecord));
}

/** GraphQL Application.matches: the match list of applications the caller already sees, one per application id. */
export async function matchesOfApplications(ctx: ServiceContext, applicationIds: readonly string[]): Promise<ApplicationMatchList[]> {
  requireAccess(ctx, 'Application.matches');
  return applicationMatchLists(ctx, applicationIds);
}

/**
 * The match list of each application (the applications, then their profiles' matching inputs, each
 * read in one statement).
 * @access internal: the application ids come from a look-up that established their visibility
 */
async function applicationMatchLists(ctx: ServiceContext, applicationIds: readonly string[]): Promise<ApplicationMatchList[]> {
  const rows = await applicationRows(ctx, applicationIds);
  const matchings = await matchProfilesByIds(
    ctx,
    rows.map((row) => row.profileId),
    {},
  );
  return matchings.map((matching) => {
    const matches = matchListOf(matching).map(({ productId: _id, ...match }) => match);
    return { numberOfMatches: matches.length, matches };
  });
}

/** GraphQL Application.preselectedOffers: the pre-selected offers of applications the caller already sees, one list per application id. */
export async function preselectedOffersOfApplications(ctx: ServiceContext, applicationIds: readonly string[]): Promise<PreselectedOffer[][]> {
  requireAccess(ctx, 'Application.preselectedOffers');
  return applicationPreselectedOffers(ctx, applicationIds);
}

/**
 * The pre-selected offers of each application (the applications, then their profiles' matching
 * inputs, each read in one statement).
 * @access internal: the application ids come from a look-up that established their visibility
 */
async function applicationPreselectedOffers(ctx: ServiceContext, applicationIds: readonly string[]): Promise<PreselectedOffer[][]> {
  const rows = await applicationRows(ctx, applicationIds);
  const matchings = await matchProfilesByIds(
    ctx,
    rows.map((row) => row.profileId),
    {},
  );
  return rows.map((row, i) => preselectedOffersOf(ctx, row, matchings[i]!).map(({ offer }) => offer));
}

/** The rows of applications known to exist and be visible, in the order asked (404 if one vanished meanwhile). */
async function applicationRows(ctx: ServiceContext, applicationIds: readonly string[]): Promise<ApplicationRow[]> {
  const rows = await ctx.db.businessApplication.findMany({ where: { id: { in: [...applicationIds] } }, select: { id: true, profileId: true, answers: true } });
  return indexedBy(applicationIds, rows, (row) => row.id).map((row) => {
    if (!row) throw AppError.notFound('Application');
    return row;
  });
}

/**
 * Which of these applications the caller sees (one statement): an application entering a subgraph
 * as an entity reference is answered only if it is one, as if it had come through a read. No scope
 * is asked: the field then requested decides its own row.
 * @access visibility: an entity reference entering a subgraph; the fields asked of it decide access
 */
export async function applicationsVisibleAmong(ctx: ServiceContext, ids: readonly string[]): Promise<boolean[]> {
  const { actor } = ctx;
  const wellFormed = ids.filter((id) => ApplicationId.safeParse(id).success);
  if ((actor.kind !== 'platform' && actor.kind !== 'tenant') || wellFormed.length === 0) return ids.map(() => false);
  const rows = await ctx.db.businessApplication.findMany({ where: { AND: [{ id: { in: wellFormed } }, applicationScope(ctx, actor)] }, select: { id: true } });
  const visible = new Set(rows.map((row) => row.id));
  return ids.map((id) => visible.has(id));
}
