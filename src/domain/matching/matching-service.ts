/**
 * Lender matching for a profile (Marketplace V1 funding/matches, GraphQL Profile.matches): reads the
 * profile's facts, runs the engine over the in-memory catalogue, and records the result as the
 * profile's funding search (one open search per profile, its matches replaced on each run) so a
 * later apply can refer to it.
 */
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../context.js';
import { registryGrade } from '../companies/company-service.js';
import { requireAccess } from '../identity/access-policy.js';
import { getProfile } from '../profiles/profile-service.js';
import { parseInput } from '../validation.js';
import { applicantFacts } from './applicant-facts.js';
import { matchProducts, PRODUCT_TYPES, type MatchOutcome } from './matching-engine.js';
import { productCatalogue } from './product-catalogue.js';
import type { MatchExplanation } from './funding-search-schemas.js';

const asList = (value: unknown) => (value === undefined ? undefined : (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).filter(Boolean));

const MatchQuery = z.object({
  productTypes: z.preprocess(asList, z.array(z.enum(PRODUCT_TYPES, { message: `must be one of ${PRODUCT_TYPES.join(', ')}` })).optional()),
  explain: z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
});
export type MatchQuery = { productTypes?: string[]; explain?: boolean; reasons?: boolean };

export function parseMatchQuery(query: unknown): MatchQuery {
  const parsed = parseInput(MatchQuery, query ?? {}, 'Query');
  return { productTypes: parsed.productTypes, explain: parsed.explain === 'true' };
}

/**
 * Runs the engine for a profile the caller may see; `checked` when the caller has established that
 * already (e.g. a tenant's application).
 */
export async function matchProfile(
  ctx: ServiceContext,
  uuid: unknown,
  options: MatchQuery,
  access: { checked?: boolean } = {},
): Promise<{ profileId: string; outcome: MatchOutcome }> {
  const profile = access.checked ? { uuid: String(uuid) } : await getProfile(ctx, uuid);
  const [row, answerSets, catalogue] = await Promise.all([
    ctx.db.profile.findUniqueOrThrow({ where: { id: profile.uuid } }),
    ctx.db.questionnaireAnswerSet.findMany({ where: { profileId: profile.uuid }, orderBy: { updatedAt: 'asc' } }),
    productCatalogue(ctx.db, ctx.environment),
  ]);
  const answers = Object.assign({}, ...answerSets.map((s) => s.answers as Record<string, unknown>));
  const facts = applicantFacts(row, answers, (await registryGrade(ctx, row)) ?? undefined, ctx.clock.now());
  return { profileId: profile.uuid, outcome: matchProducts(facts, catalogue.products, options) };
}

/** GET /profiles/{uuid}/funding/matches/count → the number of matches. */
export async function countMatches(ctx: ServiceContext, uuid: unknown, query: unknown): Promise<number> {
  requireAccess(ctx, 'funding.read');
  const { outcome } = await matchProfile(ctx, uuid, parseMatchQuery(query));
  return outcome.matches.length;
}

export interface FundingSearchDto {
  amount: number;
  id: number;
  matches: Array<{
    lender: { id: number };
    product: string;
    productId: number;
    productName: string;
    likelihood: { value: number };
    instantOffer: boolean;
    reasons?: string[];
  }>;
  explanation?: MatchExplanation;
}

/** GET /profiles/{uuid}/funding/matches/results → the FundingSearch (spec 2.3), recorded. */
export async function matchResults(ctx: ServiceContext, uuid: unknown, query: unknown): Promise<FundingSearchDto> {
  requireAccess(ctx, 'funding.read');
  const options = parseMatchQuery(query);
  const { profileId, outcome } = await matchProfile(ctx, uuid, { ...options, reasons: true });
  const catalogue = await productCatalogue(ctx.db, ctx.environment);
  const search = await recordFundingSearch(ctx, profileId, outcome);
  const dto: FundingSearchDto = {
    amount: search.amount,
    id: search.id,
    matches: outcome.matches.map((m) => ({
      lender: { id: m.lenderId },
      product: m.productType,
      productId: m.productId,
      productName: catalogue.productById.get(m.productId)?.name ?? m.productType,
      likelihood: { value: m.likelihood },
      instantOffer: catalogue.productById.get(m.productId)?.instantOffer ?? false,
      ...(options.explain ? { reasons: m.reasons } : {}),
    })),
  };
  if (options.explain) {
    dto.explanation = {
      missing: outcome.missing,
      rejections: outcome.rejections.map((r) => ({ lender: { id: r.lenderId }, product: r.productType, productId: r.productId, reasons: r.reasons })),
    };
  }
  return dto;
}

/** The profile's open funding search, updated to this outcome (its matches replaced). */
async function recordFundingSearch(ctx: ServiceContext, profileId: string, outcome: MatchOutcome): Promise<{ id: number; amount: number }> {
  const row = await ctx.db.profile.findUniqueOrThrow({ where: { id: profileId }, select: { eligibilityRequest: true } });
  const shared = ((row.eligibilityRequest ?? {}) as { shared?: { fundingAmount?: { value?: number; code?: string }; fundingPeriod?: number; useOfFunds?: string; fundingUrgency?: string } }).shared ?? {};
  const amount = shared.fundingAmount?.value ?? 0;
  const data = {
    amount,
    currency: shared.fundingAmount?.code ?? 'GBP',
    periodMonths: shared.fundingPeriod ?? null,
    useOfFunds: shared.useOfFunds ?? null,
    urgency: shared.fundingUrgency ?? null,
  };
  return ctx.db.$transaction(async (tx) => {
    const open = await tx.fundingSearch.findFirst({ where: { profileId, status: 1 }, orderBy: { id: 'desc' } });
    const search = open ? await tx.fundingSearch.update({ where: { id: open.id }, data }) : await tx.fundingSearch.create({ data: { profileId, ...data } });
    await tx.fundingMatch.deleteMany({ where: { fundingSearchId: search.id, applications: { none: {} } } });
    if (outcome.matches.length) {
      await tx.fundingMatch.createMany({
        data: outcome.matches.map((m) => ({
          fundingSearchId: search.id,
          lenderId: m.lenderId,
          productId: m.productId,
          productType: m.productType as Prisma.FundingMatchCreateManyInput['productType'],
          productTypes: [m.productType as Prisma.FundingMatchCreateManyInput['productType']],
          likelihood: m.likelihood,
          reasons: m.reasons,
        })),
        skipDuplicates: true,
      });
    }
    await tx.profile.update({ where: { id: profileId }, data: { legacyFundingSearchId: search.id } });
    return { id: search.id, amount };
  });
}
