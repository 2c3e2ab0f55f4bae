/**
 * Matching a profile and recording the result as a funding search (internal operations: the caller
 * has already decided access and established that the profile is visible). A search is identified by
 * its inputs (what the profile asks for, the applicant facts, the product types and the version of
 * the catalogue's criteria): a repeat over the same snapshot takes its outcome from the snapshot instead of the engine,
 * a repeat of the profile's latest search writes nothing, and the match rows that review selections
 * and lender applications refer to are never replaced.
 */
import { productTypeOf, type ProductType } from '../lenders/product-types.js';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { registryGrade, registryGrades } from '../companies/company-information.js';
import type { Grade } from '../companies/credit-grade.js';
import { indexedBy } from '../../kernel/batched-lookups.js';
import type { ServiceContext } from '../../kernel/context.js';
import { poolOf, readsOf, type Db } from '../../infra/database.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { AppError } from '../../kernel/errors.js';
import { applicantFacts, type ProfileForMatching } from './applicant-facts.js';
import type { FundingSearchResult, MatchedLender } from './funding-search-schemas.js';
import { matchProducts, matchReasons, type MatchOutcome, type MatchOptions, type ProductMatch } from './matching-engine.js';
import {
  CATALOGUE_REVISION_COLUMN,
  catalogueAtRevision,
  productCatalogue,
  rememberedOutcome,
  rememberOutcome,
  type LenderSummaryForMatch,
  type ProductCatalogue,
} from './product-catalogue.js';

/** Callers outside matching (the profile's funding-search page) read the result type from here, with the operations that make it. */
export type { FundingSearchResult };

export interface ProfileMatching {
  profileId: string;
  /** Shared with every search of the same inputs over the same snapshot: read only. */
  outcome: MatchOutcome;
  catalogue: ProductCatalogue;
  /** What the search is about, from the profile's answers (spec 2.3 FundingSearch). */
  request: { amount: number; currency: string; periodMonths: number | null; useOfFunds: string | null; urgency: string | null };
  /** The hash of the search's inputs: the key its recorded row is found by. */
  inputHash: string;
  /** The profile's last recorded search and that search's input hash. */
  latestSearchId: number | null;
  latestSearchInputHash: string | null;
  /** Why a match matched, worked out when first asked for (only what is returned or stored is ever formatted). */
  reasonsOf: (match: ProductMatch) => string[];
}

/**
 * Runs the engine for a profile over the in-memory catalogue (match reasons are always available,
 * on demand, whatever `options.reasons` says).
 * @access internal: for a profile the calling operation has already decided on.
 */
export async function matchProfileById(ctx: ServiceContext, profileId: string, options: MatchOptions): Promise<ProfileMatching> {
  const [row, inHand] = await Promise.all([readMatchingInput(ctx, profileId), productCatalogue(ctx)]);
  const [grade, catalogue] = await Promise.all([registryGrade(ctx, row), catalogueAtRevision(ctx, inHand, Number(row.catalogueRevision))]);
  return matchingOf(ctx, profileId, row, grade ?? undefined, catalogue, options);
}

/**
 * `matchProfileById` for several profiles (a list's nested matches): their inputs and their
 * companies' grades are each read in one statement, whatever the number of profiles.
 * @access internal: for profiles the calling operation has already decided on.
 */
export async function matchProfilesByIds(ctx: ServiceContext, profileIds: readonly string[], options: MatchOptions): Promise<ProfileMatching[]> {
  const [rows, inHand] = await Promise.all([readMatchingInputs(ctx, profileIds), productCatalogue(ctx)]);
  // One statement read every row, so they carry one revision.
  const revision = rows.length > 0 ? Number(rows[0]!.catalogueRevision) : 0;
  const [grades, catalogue] = await Promise.all([registryGrades(ctx, rows), catalogueAtRevision(ctx, inHand, revision)]);
  return rows.map((row, i) => matchingOf(ctx, profileIds[i]!, row, grades[i] ?? undefined, catalogue, options));
}

function matchingOf(
  ctx: ServiceContext,
  profileId: string,
  row: MatchingInput,
  grade: Grade | undefined,
  catalogue: ProductCatalogue,
  options: MatchOptions,
): ProfileMatching {
  const answers = Object.assign({}, ...row.answerSets);
  const facts = applicantFacts(row, answers, grade, ctx.clock.now());
  const request = searchRequest(row.eligibilityRequest);
  const productTypes = [...new Set(options.productTypes ?? [])].sort();
  const inputs = JSON.stringify({ facts, productTypes });
  // explain changes what the outcome holds (rejections), not its matches: it is part of the snapshot's key only.
  const outcomeKey = `${options.explain ? 'explain' : 'match'} ${inputs}`;
  let outcome = rememberedOutcome(catalogue, outcomeKey);
  if (!outcome) {
    outcome = matchProducts(facts, catalogue.index, { productTypes, explain: options.explain });
    rememberOutcome(catalogue, outcomeKey, outcome);
  }
  const reasonsFor = lazyReasons(() => matchReasons(facts, catalogue.index));
  return {
    profileId,
    outcome,
    catalogue,
    request,
    inputHash: createHash('sha256')
      .update(JSON.stringify({ catalogue: catalogue.criteriaVersion, request, inputs }))
      .digest('hex'),
    latestSearchId: row.legacyFundingSearchId,
    latestSearchInputHash: row.latestSearchInputHash,
    reasonsOf: (match) => (match.reasons.length ? match.reasons : (match.reasons = reasonsFor()(match))),
  };
}

/** The reasons function, made (with the applicant's halves of the texts) on first need. */
function lazyReasons(make: () => (match: ProductMatch) => string[]): () => (match: ProductMatch) => string[] {
  let made: ((match: ProductMatch) => string[]) | undefined;
  return () => (made ??= make());
}

type MatchingInput = ProfileForMatching & {
  registrationNumber: string | null;
  legacyFundingSearchId: number | null;
  latestSearchInputHash: string | null;
  answerSets: Array<Record<string, unknown>>;
  /** The catalogue's revision as this statement saw it: the search matches over a snapshot holding it. */
  catalogueRevision: string;
};

/**
 * The profile columns matching reads, its answers (oldest first, so later answers win) and its latest
 * search's input hash, as one typed SQL statement (a prepared statement on the pg pool): every
 * search runs it.
 */
async function readMatchingInput(ctx: ServiceContext, profileId: string): Promise<MatchingInput> {
  const { rows } = await sql<MatchingInput>`
    SELECT p."countryCode", p."registrationNumber", p."legacyFundingSearchId", p."companyInformation", p.financials, p."eligibilityRequest",
      (SELECT s."inputHash" FROM funding_search s WHERE s.id = p."legacyFundingSearchId") AS "latestSearchInputHash",
      COALESCE((SELECT json_agg(a.answers ORDER BY a."updatedAt") FROM questionnaire_answer_set a WHERE a."profileId" = p.id), '[]'::json) AS "answerSets",
      ${CATALOGUE_REVISION_COLUMN} AS "catalogueRevision"
    FROM profile p WHERE p.id = ${profileId}::uuid`.execute(readsOf(ctx.db));
  if (!rows[0]) throw AppError.notFound('Profile');
  return rows[0];
}

/** `readMatchingInput` of several profiles in one statement, in the order asked (404 if one is gone). */
async function readMatchingInputs(ctx: ServiceContext, profileIds: readonly string[]): Promise<MatchingInput[]> {
  const { rows } = await sql<MatchingInput & { id: string }>`
    SELECT p.id::text AS id, p."countryCode", p."registrationNumber", p."legacyFundingSearchId", p."companyInformation", p.financials, p."eligibilityRequest",
      (SELECT s."inputHash" FROM funding_search s WHERE s.id = p."legacyFundingSearchId") AS "latestSearchInputHash",
      COALESCE((SELECT json_agg(a.answers ORDER BY a."updatedAt") FROM questionnaire_answer_set a WHERE a."profileId" = p.id), '[]'::json) AS "answerSets",
      ${CATALOGUE_REVISION_COLUMN} AS "catalogueRevision"
    FROM profile p WHERE p.id = ANY(${[...profileIds]}::uuid[])`.execute(readsOf(ctx.db));
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

/**
 * The recorded search with these inputs, if any (reads only).
 * @access internal: for a matching the calling operation made for a profile it decided on.
 */
export async function findRecordedSearch(ctx: ServiceContext, matching: ProfileMatching): Promise<{ id: number } | null> {
  if (matching.latestSearchId !== null && matching.latestSearchInputHash === matching.inputHash) return { id: matching.latestSearchId };
  return findSearchByHash(ctx, matching.profileId, matching.inputHash);
}

/**
 * `findRecordedSearch` of several matchings in one statement, in their order.
 * @access internal: for matchings the calling operation made for profiles it decided on.
 */
export async function findRecordedSearches(ctx: ServiceContext, matchings: readonly ProfileMatching[]): Promise<Array<{ id: number } | null>> {
  const latest = matchings.map((m) => (m.latestSearchId !== null && m.latestSearchInputHash === m.inputHash ? { id: m.latestSearchId } : null));
  const others = matchings.filter((_, i) => !latest[i]);
  if (others.length === 0) return latest;
  const keys = others.map((matching) => ({ profileId: matching.profileId, inputHash: matching.inputHash }));
  const rows = await ctx.db.fundingSearch.findMany({ where: { OR: keys }, select: { id: true, profileId: true, inputHash: true } });
  const byKey = new Map(rows.map((row) => [`${row.profileId} ${row.inputHash}`, { id: row.id }]));
  return matchings.map((m, i) => latest[i] ?? byKey.get(`${m.profileId} ${m.inputHash}`) ?? null);
}

async function findSearchByHash(ctx: ServiceContext, profileId: string, inputHash: string): Promise<{ id: number } | null> {
  const row = await readsOf(ctx.db)
    .selectFrom('funding_search')
    .select('id')
    .where('profileId', '=', profileId)
    .where('inputHash', '=', inputHash)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * The search with its matches, one row (so they appear together or not at all, and recording a search
 * of thousands of matches costs one row, not thousands each with three foreign-key checks): nothing
 * when a search with these inputs is already recorded for the profile, including by a concurrent
 * request. The matches' columns come as arrays in rank order and their reasons as one JSON array,
 * paired by position; `recordMatchesOfLenders` turns a chosen lender's into funding_match rows.
 */
const INSERT_SEARCH_WITH_MATCHES = `
  WITH search AS (
    INSERT INTO funding_search ("profileId", "inputHash", amount, currency, "periodMonths", "useOfFunds", urgency, "updatedAt",
      "matchLenderIds", "matchProductIds", "matchProductTypes", "matchLikelihoods", "matchReasons")
    VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, now(), $8::int[], $9::int[], $10::"ProductType"[], $11::numeric[], $12::json)
    ON CONFLICT ("profileId", "inputHash") DO NOTHING
    RETURNING id
  ), latest AS (
    UPDATE profile p SET "legacyFundingSearchId" = search.id, "updatedAt" = now() FROM search WHERE p.id = $1::uuid
  )
  SELECT id FROM search`;

/** The profile's latest search is this one (nothing written if it already is). */
const POINT_PROFILE_AT_SEARCH = `
  UPDATE profile SET "legacyFundingSearchId" = $2, "updatedAt" = now()
  WHERE id = $1::uuid AND "legacyFundingSearchId" IS DISTINCT FROM $2`;

/**
 * An array parameter as PostgreSQL's array literal, for numbers and enum names (neither needs
 * quoting): one join, where pg's own conversion escapes element by element (4-50 ms for a search's
 * four arrays of 5,000 against 0.3 ms).
 */
function arrayLiteral(values: ReadonlyArray<number | string>): string {
  return `{${values.join(',')}}`;
}

/**
 * The funding_match rows of these lenders' matches in a recorded search, written from the search's
 * own match columns: the rows that review selections and lender applications refer to exist for
 * every lender chosen (apply, a Business V1 submission) and for no other. Writes nothing for a
 * match already a row, nor for searches recorded before the match columns (all theirs are rows).
 * @access internal: the search is one the caller recorded or found for a profile it may act on
 */
const INSERT_MATCHES_OF_LENDERS = `
  INSERT INTO funding_match ("fundingSearchId", "lenderId", "productId", "productType", "productTypes", likelihood, reasons, "updatedAt")
  SELECT s.id, m."lenderId", m."productId", m."productType", ARRAY[m."productType"], m.likelihood, s."matchReasons" -> (m.position::int - 1), now()
  FROM funding_search s,
    unnest(s."matchLenderIds", s."matchProductIds", s."matchProductTypes", s."matchLikelihoods") WITH ORDINALITY AS m("lenderId", "productId", "productType", likelihood, position)
  WHERE s.id = $1 AND m."lenderId" = ANY($2::int[])
  ON CONFLICT ("fundingSearchId", "productId") DO NOTHING`;

/** `db` may be the caller's transaction, whose application rows then refer to these matches. */
export async function recordMatchesOfLenders(db: Db | Prisma.TransactionClient, fundingSearchId: number, lenderIds: readonly number[]): Promise<void> {
  await db.$executeRawUnsafe(INSERT_MATCHES_OF_LENDERS, fundingSearchId, [...lenderIds]);
}

/**
 * A recorded search's own columns, without its match columns (one search of 10,000 products holds
 * several thousand matches): what reads that include a search (documents, reviews) select.
 */
export const SEARCH_WITHOUT_MATCHES = {
  matchLenderIds: true,
  matchProductIds: true,
  matchProductTypes: true,
  matchLikelihoods: true,
  matchReasons: true,
} as const satisfies Prisma.FundingSearchOmit;

export type RecordedSearchRow = Prisma.FundingSearchGetPayload<{ omit: typeof SEARCH_WITHOUT_MATCHES }>;

/**
 * The search for these inputs, recorded on first sight; the profile's latest search points at it. The
 * same search as the profile's latest writes nothing at all (GET .../funding/matches/results runs this
 * on every call, and declares that it records: route-table.ts `records`).
 * @access internal: for a matching the calling operation made for a profile it decided on.
 */
export async function recordFundingSearch(ctx: ServiceContext, matching: ProfileMatching): Promise<{ id: number }> {
  const { profileId, outcome, request, inputHash } = matching;
  if (matching.latestSearchId !== null && matching.latestSearchInputHash === inputHash) return { id: matching.latestSearchId };
  const found = await findSearchByHash(ctx, profileId, inputHash);
  if (found) {
    await pointProfileAt(found);
    return found;
  }
  const m = outcome.matches;
  const { rows } = await poolOf(ctx.db).query<{ id: number }>({
    name: 'fg_record_funding_search',
    text: INSERT_SEARCH_WITH_MATCHES,
    values: [
      profileId,
      inputHash,
      request.amount,
      request.currency,
      request.periodMonths,
      request.useOfFunds,
      request.urgency,
      arrayLiteral(m.map((x) => x.lenderId)),
      arrayLiteral(m.map((x) => x.productId)),
      arrayLiteral(m.map((x) => x.productType)),
      arrayLiteral(m.map((x) => x.likelihood)),
      // One JSON document of every match's reasons, in the matches' order: one stringify, no
      // array-literal quoting of thousands of JSON texts, one parse in PostgreSQL.
      JSON.stringify(m.map((x) => matching.reasonsOf(x))),
    ],
  });
  if (rows[0]) return rows[0];
  // Recorded meanwhile by a concurrent request for the same inputs: that one is the search.
  const recorded = (await findSearchByHash(ctx, profileId, inputHash))!;
  await pointProfileAt(recorded);
  return recorded;

  async function pointProfileAt(search: { id: number }): Promise<void> {
    await poolOf(ctx.db).query({ name: 'fg_point_profile_at_search', text: POINT_PROFILE_AT_SEARCH, values: [profileId, search.id] });
  }
}

type SearchMatch = FundingSearchResult['matches'][number];

/** A match as a search returns it; its reasons are formatted only if read (GraphQL asks for them by field, REST with explain). */
class MatchOfSearch implements SearchMatch {
  readonly #match: ProductMatch;
  readonly #reasonsOf: (match: ProductMatch) => string[];
  readonly product: ProductType;
  readonly productId: number;
  readonly productName: string;
  readonly likelihood: number;
  readonly instantOffer: boolean;

  constructor(
    readonly lender: MatchedLender,
    match: ProductMatch,
    product: { name: string; instantOffer: boolean } | undefined,
    reasonsOf: (match: ProductMatch) => string[],
  ) {
    this.#match = match;
    this.#reasonsOf = reasonsOf;
    this.product = productTypeOf(match.productType);
    this.productId = match.productId;
    this.productName = product?.name ?? match.productType;
    this.likelihood = match.likelihood;
    this.instantOffer = product?.instantOffer ?? false;
  }

  get reasons(): string[] {
    return this.#reasonsOf(this.#match);
  }

  toJSON(): SearchMatch {
    const { lender, product, productId, productName, likelihood, instantOffer, reasons } = this;
    return { lender, product, productId, productName, likelihood, instantOffer, reasons };
  }
}

/** The matches of an outcome as searches return them, shaped once per remembered outcome. */
const shapedMatches = new WeakMap<MatchOutcome, readonly SearchMatch[]>();

/** A funding search (spec 2.3), each match with its lender; with explain, why every other product did not match. */
export function toFundingSearchResult({ outcome, catalogue, request, reasonsOf }: ProfileMatching, explain: boolean): FundingSearchResult {
  let matches = shapedMatches.get(outcome);
  if (!matches) {
    matches = outcome.matches.map((m) => new MatchOfSearch(catalogue.matchedLenders.get(m.lenderId)!, m, catalogue.productById.get(m.productId), reasonsOf));
    shapedMatches.set(outcome, matches);
  }
  return {
    amount: request.amount,
    // Shared by the searches of one outcome: callers filter into new arrays, never change it.
    matches: matches as SearchMatch[],
    explanation: explain
      ? {
          missing: outcome.missing,
          rejections: outcome.rejections.map((r) => ({
            lender: { id: r.lenderId },
            product: productTypeOf(r.productType),
            productId: r.productId,
            reasons: r.reasons,
          })),
        }
      : null,
  };
}
