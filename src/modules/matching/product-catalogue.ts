/**
 * The active lender products of an environment as matching criteria, held in memory: matching a
 * profile makes no per-product database round trip.
 *
 * A snapshot is never older than what a search may rely on: the database numbers the catalogue's
 * states (`lender_catalogue_revision`, bumped by triggers in every transaction that changes a product
 * or a lender's matched fields, whoever writes: a service, the admin CLI, SQL), each load reads the
 * revision before the products, and a search reads the revision in the same statement as its
 * profile (`readMatchingInput`). A search that finds a newer revision than its snapshot's waits for a
 * load begun after it (`catalogueAtRevision`): a product saved through one replica is matched by every
 * other on the caller's next search, by construction, with no timing involved
 * (test/replicas-catalogue.test.ts).
 *
 * The event bus only makes that wait rare: the lenders module publishes `lenderCatalogueChanged` once
 * a change is stored (in memory in one process, Redis pub/sub across processes), and every holder
 * starts a load on receipt, so the new snapshot is usually in before any search asks for it. A lost
 * or late event costs the next search a load, never a stale answer; nothing reloads on a timer. After
 * a Redis outage, when events may have been missed, every holder loads again (`afterReconnect`).
 * A server starts its environment's first load as soon as it listens (`warmProductCatalogue`), so
 * a search waits for a load only if it comes before that load ends.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { readsOf, type Db } from '../../infra/database.js';
import type { DeployEnvironment } from '../../kernel/context.js';
import type { EventBus } from '../../kernel/events.js';
import type { LenderSummary } from '../lenders/lender-catalogue.js';
import type { MatchedLender } from './funding-search-schemas.js';
import { indexingSteps, reasonTextSteps, type MatchOutcome, type ProductCriteria, type ProductIndex, type ProductRequirements } from './matching-engine.js';

/** Products converted and hashed between two yields to the event loop while a snapshot is built. */
const ROWS_PER_STEP = 250;

/** Searches whose outcome a snapshot keeps, counted in matches (a search of 10,000 products may hold several thousand). */
const REMEMBERED_MATCHES = 100_000;

/** A lender as the catalogue summarises it for matches (spec 2.6), without its product list (the criteria hold those) or its slug. */
export type LenderSummaryForMatch = Omit<LenderSummary, 'products' | 'slug'>;

export interface ProductCatalogue {
  /**
   * A hash of every product and lender field matching reads: the same in every process for the same
   * catalogue, so a recorded search keyed with it is found by all of them, and a search made over
   * another catalogue is a new one.
   */
  version: string;
  /**
   * A hash of the products' criteria alone: what a search's outcome depends on, so a recorded search
   * is keyed with it (a lender's new logo or name is a new snapshot, not a new search).
   */
  criteriaVersion: string;
  products: ProductCriteria[];
  /** The products prepared for matching, built with each snapshot. */
  index: ProductIndex;
  lenders: Map<number, LenderSummaryForMatch>;
  /** The lender object of a match (spec 2.6), built once per lender and shared by every match. */
  matchedLenders: Map<number, MatchedLender>;
  productById: Map<number, ProductCriteria & { name: string; instantOffer: boolean }>;
  /** Outcomes of searches over this snapshot by their inputs (`rememberOutcome`): a repeat skips the engine. */
  outcomes: Map<string, MatchOutcome>;
  rememberedMatches: number;
  /** Searches the engine ran over this snapshot (each handed to `rememberOutcome`): what a repeat does not add to. */
  computedOutcomes: number;
}

/** What a catalogue holder has done, for tests and operations: loads are never made by a request once the first is in. */
export interface CatalogueActivity {
  version: string | null;
  /** Snapshots read from the database (the first included). */
  loads: number;
  /** Loads whose products differed from the snapshot in hand (the first included). */
  changes: number;
}

interface CatalogueHolder {
  current: ProductCatalogue | null;
  /**
   * The catalogue revision read before the snapshot in hand was loaded: it holds every change up to
   * it (kept apart from the snapshot, which a load finding the same products keeps).
   */
  revision: number;
  /** The load in flight, if any; a change signalled meanwhile starts another once it ends. */
  loading: Promise<ProductCatalogue> | null;
  changedWhileLoading: boolean;
  activity: CatalogueActivity;
}

const holders = new WeakMap<Db, Map<DeployEnvironment, CatalogueHolder>>();

export interface CatalogueSource {
  db: Db;
  environment: DeployEnvironment;
  /** The bus change events arrive on (in memory in one process, over Redis across processes). */
  events: EventBus;
}

/**
 * The environment's current snapshot: the first call waits for the first load, later ones take the
 * snapshot in hand (a search checks it against the revision it read: `catalogueAtRevision`).
 */
export function productCatalogue(source: CatalogueSource): Promise<ProductCatalogue> {
  const holder = holderOf(source);
  if (holder.current) return Promise.resolve(holder.current);
  return holder.loading ?? refresh(source, holder);
}

/**
 * A snapshot holding every catalogue change up to `revision` (read by the caller from the database):
 * `catalogue` itself when it does, else the one a load begun after the revision brings (the load
 * under way when it began after it, or a new one). A failed load answers with the snapshot in hand:
 * a database hiccup costs freshness, not the search (the next search tries again).
 */
export async function catalogueAtRevision(source: CatalogueSource, catalogue: ProductCatalogue, revision: number): Promise<ProductCatalogue> {
  const holder = holderOf(source);
  if (holder.current === catalogue && holder.revision >= revision) return catalogue;
  while (holder.revision < revision) {
    try {
      await (holder.loading ?? refresh(source, holder));
    } catch {
      break;
    }
  }
  return holder.current ?? catalogue;
}

/**
 * Starts the environment's first load without waiting for it: a server calls it once it listens, so
 * that neither its start nor its first search waits for the catalogue (a failed load is retried by
 * the next search, which then waits for it as before).
 */
export function warmProductCatalogue(source: CatalogueSource): void {
  const holder = holderOf(source);
  if (!holder.current) refreshInBackground(source, holder, false);
}

/** The holder's counters and current version. */
export function catalogueActivity(source: CatalogueSource): CatalogueActivity {
  return { ...holderOf(source).activity };
}

/** Resolves once no load is in flight (tests wait for a signalled change to be taken in). */
export async function catalogueSettled(source: CatalogueSource): Promise<void> {
  const holder = holderOf(source);
  while (holder.loading) await holder.loading.catch(() => undefined);
}

/** The outcome of a search over this snapshot with these inputs, if it was kept. */
export function rememberedOutcome(catalogue: ProductCatalogue, inputs: string): MatchOutcome | undefined {
  const outcome = catalogue.outcomes.get(inputs);
  if (outcome) {
    // Most recently used last: eviction takes from the front.
    catalogue.outcomes.delete(inputs);
    catalogue.outcomes.set(inputs, outcome);
  }
  return outcome;
}

/** Keeps a search's outcome the engine just computed (the least recently used ones go beyond REMEMBERED_MATCHES). */
export function rememberOutcome(catalogue: ProductCatalogue, inputs: string, outcome: MatchOutcome): void {
  catalogue.computedOutcomes++;
  const size = (o: MatchOutcome) => 1 + o.matches.length + o.rejections.length;
  if (size(outcome) > REMEMBERED_MATCHES || catalogue.outcomes.has(inputs)) return;
  catalogue.outcomes.set(inputs, outcome);
  catalogue.rememberedMatches += size(outcome);
  for (const [key, oldest] of catalogue.outcomes) {
    if (catalogue.rememberedMatches <= REMEMBERED_MATCHES) break;
    catalogue.outcomes.delete(key);
    catalogue.rememberedMatches -= size(oldest);
  }
}

function holderOf({ db, environment, events }: CatalogueSource): CatalogueHolder {
  let perEnvironment = holders.get(db);
  if (!perEnvironment) holders.set(db, (perEnvironment = new Map()));
  let holder = perEnvironment.get(environment);
  if (!holder) {
    holder = { current: null, revision: 0, loading: null, changedWhileLoading: false, activity: { version: null, loads: 0, changes: 0 } };
    perEnvironment.set(environment, holder);
    // A bus that cannot subscribe (Redis gone) leaves searches to find changes by their revision.
    followChanges({ db, environment, events }, holder).catch(() => undefined);
    // Back from a Redis outage, whose change events went unheard: load again, as on an event.
    events.afterReconnect?.(() => refreshInBackground({ db, environment, events }, holder!, true));
  }
  return holder;
}

/** Every change event of the environment starts a background refresh, for as long as the bus lives. */
async function followChanges(source: CatalogueSource, holder: CatalogueHolder): Promise<void> {
  for await (const _ of source.events.subscribe('lenderCatalogueChanged', source.environment)) {
    refreshInBackground(source, holder, true);
  }
}

/** `changed`: a change was signalled, so a load already under way may have read the rows before it and another must follow. */
function refreshInBackground(source: CatalogueSource, holder: CatalogueHolder, changed: boolean): void {
  if (holder.loading) {
    if (changed) holder.changedWhileLoading = true;
    return;
  }
  // A failed refresh keeps the snapshot in hand; the next search finding a newer revision, or the next change event, tries again.
  refresh(source, holder).catch(() => undefined);
}

function refresh(source: CatalogueSource, holder: CatalogueHolder): Promise<ProductCatalogue> {
  holder.changedWhileLoading = false;
  const loading = load(source).then(({ catalogue: loaded, revision }) => {
    holder.activity.loads++;
    holder.revision = Math.max(holder.revision, revision);
    // The same products: keep the snapshot in hand, and with it the searches it remembers.
    if (holder.current?.version !== loaded.version) {
      holder.current = loaded;
      holder.activity.changes++;
      holder.activity.version = loaded.version;
    }
    return holder.current;
  });
  holder.loading = loading;
  const settle = () => {
    holder.loading = null;
    if (holder.changedWhileLoading) refreshInBackground(source, holder, true);
  };
  loading.then(settle, settle);
  return loading;
}

/** The catalogue's revision now (the migration makes its one row). */
async function currentCatalogueRevision(db: Db): Promise<number> {
  const row = await readsOf(db).selectFrom('lender_catalogue_revision').select('revision').executeTakeFirst();
  return Number(row?.revision ?? 0);
}

/** The revision column a search reads beside its profile, in the same statement (`catalogueAtRevision`). */
export const CATALOGUE_REVISION_COLUMN = sql<string>`(SELECT r.revision FROM lender_catalogue_revision r)`;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One statement, its array columns read as JSON (parsed by JSON.parse, where pg's parser of array
 * literals in JavaScript took most of a load's CPU: six arrays in each of 10,000 rows); a list
 * column left NULL, which Prisma reads as empty, is read as empty here too. The snapshot is then
 * built in steps (rows, index, the products' halves of match reasons) with the event loop handed
 * back between them: requests go on being answered from the current one.
 */
async function load({ db, environment }: CatalogueSource): Promise<{ catalogue: ProductCatalogue; revision: number }> {
  // The revision first, in a statement of its own: the products read next (READ COMMITTED, a newer
  // snapshot) hold at least every change it counts, so the snapshot never claims a change it lacks.
  const revision = await currentCatalogueRevision(db);
  const rows = await readsOf(db)
    .selectFrom('lender_product as p')
    .innerJoin('lender as l', 'l.id', 'p.lenderId')
    .where('p.active', '=', true)
    .where('l.active', '=', true)
    .where('l.environment', '=', environment)
    .select([
      'p.id',
      'p.lenderId',
      'p.productType',
      'p.name',
      'p.instantOffer',
      'p.minAmount',
      'p.maxAmount',
      'p.minTermMonths',
      'p.maxTermMonths',
      'p.minTradingMonths',
      'p.minAnnualRevenue',
      'p.minGrade',
      'p.requirements',
      'p.arrangementFeePct',
      'p.earlyRepaymentFeePct',
      'p.exitFeePct',
      'p.annualRateMin',
      'p.annualRateMax',
      'p.likelihoodBase',
      'l.name as lenderName',
      'l.logo',
      'l.description',
      'l.priceBand',
      'l.responseTimeHours',
      sql<string[] | null>`to_json(p.countries)`.as('countries'),
      sql<string[] | null>`to_json(p.currencies)`.as('currencies'),
      sql<string[] | null>`to_json(l."requiredDocuments")`.as('requiredDocuments'),
      sql<string[] | null>`to_json(p."excludedSectors")`.as('excludedSectors'),
      sql<string[] | null>`to_json(p."requiredSectors")`.as('requiredSectors'),
      sql<string[] | null>`to_json(p."companyTypes")`.as('companyTypes'),
    ])
    .orderBy('p.id', 'asc')
    .execute();
  const hash = createHash('sha256');
  const criteriaHash = createHash('sha256');
  const lenders = new Map<number, LenderSummaryForMatch>();
  const matchedLenders = new Map<number, MatchedLender>();
  const productById = new Map<number, ProductCriteria & { name: string; instantOffer: boolean }>();
  const products: ProductCriteria[] = new Array(rows.length);
  for (let start = 0; start < rows.length; start += ROWS_PER_STEP) {
    for (let i = start; i < Math.min(rows.length, start + ROWS_PER_STEP); i++) {
      const r = rows[i]!;
      if (!lenders.has(r.lenderId)) {
        const lender: LenderSummaryForMatch = {
          id: r.lenderId,
          name: r.lenderName,
          logo: r.logo,
          description: r.description,
          priceBand: r.priceBand,
          responseTimeHours: r.responseTimeHours,
          requiredDocuments: r.requiredDocuments ?? [],
        };
        lenders.set(r.lenderId, lender);
        matchedLenders.set(r.lenderId, matchedLender(lender));
      }
      const criteria: ProductCriteria = {
        productId: r.id,
        lenderId: r.lenderId,
        productType: r.productType,
        minAmount: Number(r.minAmount),
        maxAmount: Number(r.maxAmount),
        minTermMonths: r.minTermMonths,
        maxTermMonths: r.maxTermMonths,
        minTradingMonths: r.minTradingMonths,
        minAnnualRevenue: Number(r.minAnnualRevenue),
        minGrade: r.minGrade,
        excludedSectors: r.excludedSectors ?? [],
        requiredSectors: r.requiredSectors ?? [],
        companyTypes: r.companyTypes ?? [],
        countries: r.countries ?? [],
        currencies: r.currencies ?? [],
        requirements: (r.requirements ?? {}) as ProductRequirements,
        arrangementFeePct: Number(r.arrangementFeePct),
        earlyRepaymentFeePct: Number(r.earlyRepaymentFeePct),
        exitFeePct: Number(r.exitFeePct),
        annualRateMin: Number(r.annualRateMin),
        annualRateMax: Number(r.annualRateMax),
        likelihoodBase: Number(r.likelihoodBase),
      };
      const criteriaText = JSON.stringify(criteria);
      criteriaHash.update(criteriaText);
      // The snapshot's version: the criteria and every other field it holds (JSON texts delimit
      // themselves), without serialising the whole row a second time.
      hash.update(criteriaText);
      hash.update(JSON.stringify([r.name, r.instantOffer, r.lenderName, r.logo, r.description, r.priceBand, r.responseTimeHours, r.requiredDocuments]));
      productById.set(r.id, { ...criteria, name: r.name, instantOffer: r.instantOffer });
      products[i] = criteria;
    }
    await nextTurn();
  }
  const steps = indexingSteps(products);
  let step = steps.next();
  while (!step.done) {
    await nextTurn();
    step = steps.next();
  }
  const index = step.value;
  // The reasons' product halves too, so the first search over this snapshot does not format them.
  for (const _ of reasonTextSteps(index, ROWS_PER_STEP)) await nextTurn();
  const catalogue = {
    version: hash.digest('hex'),
    criteriaVersion: criteriaHash.digest('hex'),
    products,
    index,
    lenders,
    matchedLenders,
    productById,
    outcomes: new Map(),
    rememberedMatches: 0,
    computedOutcomes: 0,
  };
  return { catalogue, revision };
}

/** The lender object of a match (spec 2.6), made once per lender of a catalogue snapshot. */
function matchedLender(lender: LenderSummaryForMatch): MatchedLender {
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
