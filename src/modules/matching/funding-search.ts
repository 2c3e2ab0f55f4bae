/**
 * Matching a profile and recording the result as a funding search (internal operations: the caller
 * has already decided access and established that the profile is visible). A search is recorded once
 * per distinct input and outcome and reused after, so repeating a search writes nothing and the
 * match rows that review selections and lender applications refer to are never replaced.
 */
import { createHash } from 'node:crypto';
import type { Prisma } from '../../generated/prisma/client.js';
import { registryGrade, registryGrades } from '../companies/company-information.js';
import type { Grade } from '../companies/credit-grade.js';
import { indexedBy } from '../../kernel/batched-lookups.js';
import type { ServiceContext } from '../../kernel/context.js';
import { isUniqueViolation } from '../../infra/prisma-errors.js';
import { AppError } from '../../kernel/errors.js';
import { applicantFacts, type ProfileForMatching } from './applicant-facts.js';
import type { FundingSearchResult, MatchedLender } from './funding-search-schemas.js';
import { matchProducts, type MatchOutcome, type MatchOptions } from './matching-engine.js';
import { productCatalogue, type LenderSummaryForMatch, type ProductCatalogue } from './product-catalogue.js';

/** Callers outside matching (the profile's funding-search page) read the result type from here, with the operations that make it. */
export type { FundingSearchResult };

export interface ProfileMatching {
  profileId: string;
  outcome: MatchOutcome;
  catalogue: ProductCatalogue;
  /** What the search is about, from the profile's answers (spec 2.3 FundingSearch). */
  request: { amount: number; currency: string; periodMonths: number | null; useOfFunds: string | null; urgency: string | null };
  /** The profile's last recorded search when matched: repeating that one writes nothing. */
  latestSearchId: number | null;
}

/** Runs the engine for a profile over the in-memory catalogue. */
export async function matchProfileById(ctx: ServiceContext, profileId: string, options: MatchOptions): Promise<ProfileMatching> {
  const [row, catalogue] = await Promise.all([readMatchingInput(ctx, profileId), productCatalogue(ctx.db, ctx.environment)]);
  return matchingOf(ctx, profileId, row, (await registryGrade(ctx, row)) ?? undefined, catalogue, options);
}

/**
 * `matchProfileById` for several profiles (a list's nested matches): their inputs and their
 * companies' grades are each read in one statement, whatever the number of profiles.
 */
export async function matchProfilesByIds(ctx: ServiceContext, profileIds: readonly string[], options: MatchOptions): Promise<ProfileMatching[]> {
  const [rows, catalogue] = await Promise.all([readMatchingInputs(ctx, profileIds), productCatalogue(ctx.db, ctx.environment)]);
  const grades = await registryGrades(ctx, rows);
  return rows.map((row, i) => matchingOf(ctx, profileIds[i]!, row, grades[i] ?? undefined, catalogue, options));
}

function matchingOf(ctx: ServiceContext, profileId: string, row: MatchingInput, grade: Grade | undefined, catalogue: ProductCatalogue, options: MatchOptions): ProfileMatching {
  const answers = Object.assign({}, ...row.answerSets);
  const facts = applicantFacts(row, answers, grade, ctx.clock.now());
  return { profileId, outcome: matchProducts(facts, catalogue.index, options), catalogue, request: searchRequest(row.eligibilityRequest), latestSearchId: row.legacyFundingSearchId };
}

type MatchingInput = ProfileForMatching & { registrationNumber: string | null; legacyFundingSearchId: number | null; answerSets: Array<Record<string, unknown>> };

/**
 * The profile columns matching reads and its answers (oldest first, so later answers win), as one
 * typed SQL statement: every search runs it, and two Prisma queries cost several times its CPU.
 */
async function readMatchingInput(ctx: ServiceContext, profileId: string): Promise<MatchingInput> {
  const rows = await ctx.db.$queryRaw<MatchingInput[]>`
    SELECT p."countryCode", p."registrationNumber", p."legacyFundingSearchId", p."companyInformation", p.financials, p."eligibilityRequest",
      COALESCE((SELECT json_agg(a.answers ORDER BY a."updatedAt") FROM questionnaire_answer_set a WHERE a."profileId" = p.id), '[]'::json) AS "answerSets"
    FROM profile p WHERE p.id = ${profileId}::uuid`;
  if (!rows[0]) throw AppError.notFound('Profile');
  return rows[0];
}

/** `readMatchingInput` of several profiles in one statement, in the order asked (404 if one is gone). */
async function readMatchingInputs(ctx: ServiceContext, profileIds: readonly string[]): Promise<MatchingInput[]> {
  const rows = await ctx.db.$queryRaw<Array<MatchingInput & { id: string }>>`
    SELECT p.id::text AS id, p."countryCode", p."registrationNumber", p."legacyFundingSearchId", p."companyInformation", p.financials, p."eligibilityRequest",
      COALESCE((SELECT json_agg(a.answers ORDER BY a."updatedAt") FROM questionnaire_answer_set a WHERE a."profileId" = p.id), '[]'::json) AS "answerSets"
    FROM profile p WHERE p.id = ANY(${[...profileIds]}::uuid[])`;
  return indexedBy(profileIds, rows, (row) => row.id).map((row) => {
    if (!row) throw AppError.notFound('Profile');
    return row;
  });
}

function searchRequest(eligibilityRequest: unknown): ProfileMatching['request'] {
  type Shared = { fundingAmount?: { value?: number; code?: string }; fundingPeriod?: number; useOfFunds?: string; fundingUrgency?: string };
  const shared = ((eligibilityRequest ?? {}) as { shared?: Shared }).shared ?? {};
  return {
    amount: shared.fundingAmount?.value ?? 0,
    currency: shared.fundingAmount?.code ?? 'GBP',
    periodMonths: shared.fundingPeriod ?? null,
    useOfFunds: shared.useOfFunds ?? null,
    urgency: shared.fundingUrgency ?? null,
  };
}

function searchHash(matching: ProfileMatching): string {
  const matches = matching.outcome.matches.map((m) => [m.lenderId, m.productId, m.productType, m.likelihood, m.reasons]);
  return createHash('sha256').update(JSON.stringify({ request: matching.request, matches })).digest('hex');
}

/** The recorded search with this input and outcome, if any (reads only). */
export function findRecordedSearch(ctx: ServiceContext, matching: ProfileMatching): Promise<{ id: number } | null> {
  return findSearchByHash(ctx, matching.profileId, searchHash(matching));
}

/** `findRecordedSearch` of several matchings in one statement, in their order. */
export async function findRecordedSearches(ctx: ServiceContext, matchings: readonly ProfileMatching[]): Promise<Array<{ id: number } | null>> {
  if (matchings.length === 0) return [];
  const keys = matchings.map((matching) => ({ profileId: matching.profileId, inputHash: searchHash(matching) }));
  const rows = await ctx.db.fundingSearch.findMany({ where: { OR: keys }, select: { id: true, profileId: true, inputHash: true } });
  const byKey = new Map(rows.map((row) => [`${row.profileId} ${row.inputHash}`, { id: row.id }]));
  return keys.map((key) => byKey.get(`${key.profileId} ${key.inputHash}`) ?? null);
}

function findSearchByHash(ctx: ServiceContext, profileId: string, inputHash: string): Promise<{ id: number } | null> {
  return ctx.db.fundingSearch.findUnique({ where: { profileId_inputHash: { profileId, inputHash } }, select: { id: true } });
}

/**
 * The search for this input and outcome, recorded on first sight; the profile's latest search points
 * at it. The same search as the profile's latest writes nothing at all (GET .../funding/matches/results
 * runs this on every call, and declares that it records: route-table.ts `records`).
 */
export async function recordFundingSearch(ctx: ServiceContext, matching: ProfileMatching): Promise<{ id: number }> {
  const { profileId, outcome, request } = matching;
  const inputHash = searchHash(matching);
  const recorded = await findSearchByHash(ctx, profileId, inputHash);
  if (recorded && recorded.id === matching.latestSearchId) return recorded;
  const search =
    recorded ??
    (await ctx.db
      .$transaction(async (tx) => {
        const created = await tx.fundingSearch.create({ data: { profileId, inputHash, ...request }, select: { id: true } });
        if (outcome.matches.length) {
          await tx.fundingMatch.createMany({
            data: outcome.matches.map((m) => ({
              fundingSearchId: created.id,
              lenderId: m.lenderId,
              productId: m.productId,
              productType: m.productType as Prisma.FundingMatchCreateManyInput['productType'],
              productTypes: [m.productType as Prisma.FundingMatchCreateManyInput['productType']],
              likelihood: m.likelihood,
              reasons: m.reasons,
            })),
          });
        }
        return created;
      })
      .catch(async (err) => {
        // The same search recorded concurrently by another request: use that one.
        if (!isUniqueViolation(err)) throw err;
        return (await findSearchByHash(ctx, profileId, inputHash))!;
      }));
  await ctx.db.profile.updateMany({
    where: { id: profileId, OR: [{ legacyFundingSearchId: null }, { legacyFundingSearchId: { not: search.id } }] },
    data: { legacyFundingSearchId: search.id },
  });
  return search;
}

/** The lender object of a match (spec 2.6). */
export function matchedLender(lender: LenderSummaryForMatch): MatchedLender {
  return {
    id: lender.id,
    name: lender.name,
    logo: lender.logo,
    description: lender.description,
    average: lender.priceBand,
    responseTime: lender.responseTimeHours,
    documents: lender.requiredDocuments,
  };
}

/** A funding search (spec 2.3), each match with its lender; with explain, why every other product did not match. */
export function toFundingSearchResult({ outcome, catalogue, request }: ProfileMatching, explain: boolean): FundingSearchResult {
  return {
    amount: request.amount,
    matches: outcome.matches.map((m) => ({
      lender: matchedLender(catalogue.lenders.get(m.lenderId)!),
      product: m.productType,
      productId: m.productId,
      productName: catalogue.productById.get(m.productId)?.name ?? m.productType,
      likelihood: m.likelihood,
      instantOffer: catalogue.productById.get(m.productId)?.instantOffer ?? false,
      reasons: m.reasons,
    })),
    explanation: explain
      ? { missing: outcome.missing, rejections: outcome.rejections.map((r) => ({ lender: { id: r.lenderId }, product: r.productType, productId: r.productId, reasons: r.reasons })) }
      : null,
  };
}
