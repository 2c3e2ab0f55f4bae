/**
 * The operations dashboard's view of lender applications: one row per application (company,
 * lender, product, amount, status, current offer, last change) and a row's history. Staff see every
 * application; other platform users their account's, by the same rule as the lender API
 * (lender-application-visibility.ts). The board is read in keyset pages (`first`, `after`: at most
 * 200 rows a page), whatever the number of applications. `updatedSince` lets a client that lost its
 * event stream catch up on every row changed since the last change it saw, page after page.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { parseInput } from '../../kernel/validation.js';
import { PageArgs } from '../../kernel/keyset-pages.js';
import { AppError } from '../../kernel/errors.js';
import { z } from 'zod';
import { sql, type RawBuilder } from 'kysely';
import { APPLICATION_STATUSES } from './application-status.js';
import { readsOf } from '../../infra/database.js';
import { isoInstant, utcTimestamp } from '../../infra/keyset-sql.js';
import {
  BOARD_SORT_FIELDS,
  BoardFilter,
  BoardOrder,
  type BoardOffer,
  type BoardPage,
  type BoardRow,
  type BoardStatusCount,
  type HistoryEntry,
} from './application-board-schemas.js';
import { countedByStatus } from './board-counts-store.js';
import { findVisibleLenderApplication, lenderApplicationListScope, lenderApplicationSqlScope, type ApplicationRows } from './lender-application-visibility.js';

type OfferRow = Prisma.OfferGetPayload<object>;
type OfferTerms = Pick<OfferRow, 'id' | 'reference' | 'status' | 'decision' | 'productType' | 'product'> & { createdAt: string };

/** Money in an offer is a plain number or a `{code, value}` Currency object (offer-schemas.ts). */
function moneyValue(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'number') return (value as { value: number }).value;
  return null;
}

function toBoardOffer(offer: OfferTerms): BoardOffer {
  const product = (offer.product ?? {}) as Record<string, unknown>;
  return {
    id: offer.id,
    reference: offer.reference,
    status: offer.status,
    decision: offer.decision,
    productType: offer.productType,
    amount: moneyValue(product.maximumAmount ?? product.maximumCreditLine ?? product.advanceAmount ?? product.amount),
    termMonths: typeof product.term === 'number' ? product.term : null,
    interestRate: typeof product.interestRate === 'number' ? product.interestRate : null,
    createdAt: offer.createdAt,
  };
}

/** The row columns the board shows (never the payload). */
const ROW_COLUMNS = [
  'la.id',
  'la.lenderId',
  'la.fundingMatchId',
  'la.sentCompanyName',
  'la.sentCompanyNumber',
  'la.reference',
  'la.sentAmount',
  'la.status',
  'la.acknowledgedAt',
  'la.createdAt',
  'la.updatedAt',
] as const;

type SortField = (typeof BOARD_SORT_FIELDS)[number];
type SortValue = string | number;

/**
 * Each order's key as SQL, exactly as the indexes of migration 20261126180100_board_search_and_sort
 * state it (a missing company name sorts as '', a missing amount as -1, so no key is NULL), and
 * the key's value as a cursor carries it.
 */
export const SORT_KEYS: Record<SortField, { key: (table: string) => RawBuilder<unknown>; cursor: (value: SortValue) => RawBuilder<unknown> }> = {
  LAST_CHANGE: { key: (t) => sql`${sql.ref(`${t}.updatedAt`)}`, cursor: (v) => sql`${String(v)}::timestamp(3)` },
  CREATED: { key: (t) => sql`${sql.ref(`${t}.createdAt`)}`, cursor: (v) => sql`${String(v)}::timestamp(3)` },
  AMOUNT: { key: (t) => sql`COALESCE(${sql.ref(`${t}.sentAmount`)}, -1)`, cursor: (v) => sql`${Number(v)}::double precision` },
  COMPANY: { key: (t) => sql`(lower(COALESCE(${sql.ref(`${t}.sentCompanyName`)}, '')) COLLATE "C")`, cursor: (v) => sql`(${String(v)}::text COLLATE "C")` },
  STATUS: { key: (t) => sql`${sql.ref(`${t}.status`)}`, cursor: (v) => sql`${String(v)}::text` },
};

/** The key of a row in an order, as its cursor carries it. */
function sortValueOf(
  field: SortField,
  row: { createdAt: string; updatedAt: string; amount: number | null; companyName: string | null; status: string },
): SortValue {
  switch (field) {
    case 'LAST_CHANGE':
      return row.updatedAt;
    case 'CREATED':
      return row.createdAt;
    case 'AMOUNT':
      return row.amount ?? -1;
    case 'COMPANY':
      return (row.companyName ?? '').toLowerCase();
    case 'STATUS':
      return row.status;
  }
}

/**
 * A board cursor: the order it was issued for and its last row's key and id (base64url of JSON,
 * opaque to clients). A cursor of another order (or none this server issued) is a 400 naming `after`.
 */
const BoardCursor = z.tuple([z.enum(BOARD_SORT_FIELDS), z.enum(['ASC', 'DESC']), z.union([z.string().max(400), z.number()]), z.number().int().positive()]);
type BoardCursor = z.infer<typeof BoardCursor>;

function decodeBoardCursor(after: string, field: SortField, direction: 'ASC' | 'DESC'): BoardCursor {
  let content: unknown;
  try {
    content = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    content = undefined;
  }
  const parsed = BoardCursor.safeParse(content);
  if (!parsed.success)
    throw AppError.badRequest('The cursor is not one this list issued', [{ pointer: 'after', message: "must be a page's endCursor, unchanged" }]);
  if (parsed.data[0] !== field || parsed.data[1] !== direction)
    throw AppError.badRequest('The cursor was issued for another order', [
      { pointer: 'after', message: `must come from a page ordered by ${field} ${direction}` },
    ]);
  if ((field === 'LAST_CHANGE' || field === 'CREATED') && !z.iso.datetime().safeParse(parsed.data[2]).success)
    throw AppError.badRequest('The cursor is not one this list issued', [{ pointer: 'after', message: "must be a page's endCursor, unchanged" }]);
  if (field === 'AMOUNT' && typeof parsed.data[2] !== 'number')
    throw AppError.badRequest('The cursor is not one this list issued', [{ pointer: 'after', message: "must be a page's endCursor, unchanged" }]);
  return parsed.data;
}

const PageRequest = z.strictObject({ first: PageArgs.shape.first, after: PageArgs.shape.after, orderBy: BoardOrder.optional() });

/** The search as one condition: a company name prefix, a registration number, a lender reference or an application id. */
export function searchCondition(search: string) {
  const prefix = `${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const id = /^\d{1,9}$/.test(search) ? Number(search) : null;
  return (eb: ApplicationRows) =>
    eb.or([
      eb(SORT_KEYS.COMPANY.key('la') as never, 'like', sql`(${prefix}::text COLLATE "C")` as never),
      eb('la.sentCompanyNumber', '=', search.toUpperCase()),
      eb('la.reference', '=', search),
      ...(id !== null ? [eb('la.id', '=', id)] : []),
    ]);
}

/** What the board's total and status counts read: the rows of the caller's filter (no cursor). */
interface BoardCounting {
  total(): Promise<number>;
  byStatus(): Promise<BoardStatusCount[]>;
}

/** A board page, with its counts read only when asked (once per page, however many rows). */
export type CountedBoardPage = BoardPage & { counts: BoardCounting };

/** Runs `read` at most once, on first call. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= read());
}

/**
 * The board: a page of the rows the caller sees, in the order asked (last changed first unless
 * given), filtered by status, lender, one application, last change or a search. One statement per
 * page: the page of rows is found first (the company name, number and amount as sent are columns
 * generated from the payload, which is never read), then joined to its lender's name, its match's
 * product type, its current offer and when it entered its status. Staff's page is an index range of
 * their environment (by status too); a member's is read profile by profile of its account's few
 * profiles, each an index range, then merged (prisma/schema.prisma, test/query-plans.test.ts); one
 * application (`applicationId`, the row read again after its live event) by its key. The total and
 * the counts per status (the filter without its status, for filter chips) are one statement, run
 * only when the page's `counts` are asked for: a read of the counters each write keeps
 * (board-counts-store.ts), unless a search, a last change or one application narrows the rows.
 */
export async function listBoardApplications(ctx: ServiceContext, filter: unknown, page: unknown = {}): Promise<CountedBoardPage> {
  const actor = requireAccess(ctx, 'applicationBoard.read');
  const { status, lenderId, applicationId, updatedSince, search } = parseInput(BoardFilter, filter ?? {}, 'Filter');
  const { first, after, orderBy } = parseInput(PageRequest, page ?? {}, 'Page');
  const { field, direction } = BoardOrder.parse(orderBy ?? {});
  const position = after === undefined ? undefined : decodeBoardCursor(after, field, direction);
  const reads = readsOf(ctx.db);
  const scope = lenderApplicationListScope(ctx, actor, reads);
  const sortKey = SORT_KEYS[field];
  const order = direction === 'ASC' ? 'asc' : 'desc';
  const comparison = direction === 'ASC' ? sql`>` : sql`<`;
  // The caller's rows under every filter but status (the counts per status) and with it.
  const filtered = (withStatus: boolean) => (eb: ApplicationRows) =>
    eb.and([
      lenderApplicationSqlScope(scope)(eb),
      ...(withStatus && status ? [eb('la.status', '=', status)] : []),
      ...(lenderId ? [eb('la.lenderId', '=', lenderId)] : []),
      ...(applicationId ? [eb('la.id', '=', applicationId)] : []),
      ...(updatedSince ? [eb('la.updatedAt', '>=', utcTimestamp(updatedSince))] : []),
      ...(search ? [searchCondition(search)(eb)] : []),
    ]);
  const conditions = (eb: ApplicationRows) =>
    eb.and([
      lenderApplicationSqlScope({ ...scope, ownedProfileIds: undefined })(eb),
      ...(status ? [eb('la.status', '=', status)] : []),
      ...(lenderId ? [eb('la.lenderId', '=', lenderId)] : []),
      ...(applicationId ? [eb('la.id', '=', applicationId)] : []),
      ...(updatedSince ? [eb('la.updatedAt', '>=', utcTimestamp(updatedSince))] : []),
      ...(search ? [searchCondition(search)(eb)] : []),
      ...(position ? [sql<boolean>`(${sortKey.key('la')}, ${sql.ref('la.id')}) ${comparison} (${sortKey.cursor(position[2])}, ${position[3]}::int)`] : []),
    ]);
  const ownedProfileIds = scope.ownedProfileIds;
  // One application (a row again after its live event): looked up by its key, whatever the order,
  // rather than walking the order's index until it turns up.
  const pageRows = applicationId
    ? reads.selectFrom('lender_application as la').select(ROW_COLUMNS).where(filtered(true)).where(conditions)
    : ownedProfileIds
      ? reads
          .selectFrom(ownedProfileIds.as('owned'))
          .innerJoinLateral(
            (eb) =>
              eb
                .selectFrom('lender_application as la')
                .select(ROW_COLUMNS)
                .whereRef('la.profileId', '=', 'owned.id')
                .where(conditions)
                .orderBy(sortKey.key('la'), order)
                .orderBy('la.id', order)
                .limit(first + 1)
                .as('la'),
            (join) => join.onTrue(),
          )
          .selectAll('la')
          .orderBy(sortKey.key('la'), order)
          .orderBy('la.id', order)
          .limit(first + 1)
      : reads
          .selectFrom('lender_application as la')
          .select(ROW_COLUMNS)
          .where(conditions)
          .orderBy(sortKey.key('la'), order)
          .orderBy('la.id', order)
          .limit(first + 1);
  const rows = await reads
    .selectFrom(pageRows.as('la'))
    .innerJoin('lender as l', 'l.id', 'la.lenderId')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('offer')
          .select([
            'offer.id',
            'offer.reference',
            'offer.status',
            'offer.decision',
            'offer.productType',
            'offer.product',
            isoInstant('offer.createdAt').as('createdAt'),
          ])
          .whereRef('offer.lenderApplicationId', '=', 'la.id')
          .where('offer.supersededAt', 'is', null)
          .orderBy('offer.createdAt', 'desc')
          .limit(1)
          .as('o'),
      (join) => join.onTrue(),
    )
    .select((eb) => [
      'la.id',
      'la.sentCompanyName',
      'la.sentCompanyNumber',
      'la.reference',
      'la.lenderId',
      'l.name as lenderName',
      // A subquery per row of the page (by primary key): a join would let the planner hash every match.
      eb.selectFrom('funding_match as fm').select('fm.productType').whereRef('fm.id', '=', 'la.fundingMatchId').as('matchProductType'),
      // When the row entered its status: its latest move into another status (by the application's
      // index; an acknowledgement or a replacing offer stays in it), else its creation.
      sql<string>`to_char(COALESCE((SELECT max(sc."createdAt") FROM application_status_change sc WHERE sc."lenderApplicationId" = "la"."id" AND sc."fromStatus" IS DISTINCT FROM sc."toStatus"), "la"."createdAt"), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(
        'statusChangedAt',
      ),
      'la.sentAmount',
      'la.status',
      isoInstant('la.acknowledgedAt').as('acknowledgedAt'),
      isoInstant('la.createdAt').as('createdAt'),
      isoInstant('la.updatedAt').as('updatedAt'),
      'o.id as offerId',
      'o.reference as offerReference',
      'o.status as offerStatus',
      'o.decision as offerDecision',
      'o.productType as offerProductType',
      'o.product as offerProduct',
      'o.createdAt as offerCreatedAt',
    ])
    .orderBy(sortKey.key('la'), order)
    .orderBy('la.id', order)
    .execute();
  const board = rows.map((row): BoardRow => ({
    id: row.id,
    companyName: row.sentCompanyName,
    companyNumber: row.sentCompanyNumber,
    reference: row.reference,
    lenderId: row.lenderId,
    lenderName: row.lenderName,
    productType: row.matchProductType ?? row.offerProductType ?? null,
    amount: row.sentAmount,
    status: row.status,
    acknowledgedAt: row.acknowledgedAt,
    offer:
      row.offerId !== null && row.offerReference !== null && row.offerStatus !== null && row.offerProductType !== null && row.offerCreatedAt !== null
        ? toBoardOffer({
            id: row.offerId,
            reference: row.offerReference,
            status: row.offerStatus,
            decision: row.offerDecision,
            productType: row.offerProductType,
            product: row.offerProduct as OfferRow['product'],
            createdAt: row.offerCreatedAt,
          })
        : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    statusChangedAt: row.statusChangedAt,
  }));
  const nodes = board.slice(0, first);
  const last = nodes.at(-1);
  const endCursor = last
    ? Buffer.from(JSON.stringify([field, direction, sortValueOf(field, last), last.id] satisfies BoardCursor)).toString('base64url')
    : null;
  // Under the filters the counters are kept by (scope, lender, status), the counters are read
  // (board-counts-store.ts). Otherwise counted status by status (each an index range of that
  // status), so no count reads the whole table. The total is their sum (or the filtered status's
  // count): one statement for both.
  const countable = !search && !updatedSince && !applicationId;
  const byStatus = once(async () => {
    if (countable) {
      const counted = await countedByStatus(reads, scope, lenderId);
      return APPLICATION_STATUSES.map((each) => ({ status: each, count: counted.get(each) ?? 0 }));
    }
    const row = await reads
      .selectNoFrom((eb) =>
        APPLICATION_STATUSES.map((each, index) =>
          eb
            .selectFrom('lender_application as la')
            .select((inner) => inner.fn.countAll<string>().as('count'))
            .where('la.status', '=', each)
            .where(filtered(false))
            .as(`status${index}`),
        ),
      )
      .executeTakeFirstOrThrow();
    const counted = row as Record<string, string | number | null>;
    return APPLICATION_STATUSES.map((each, index) => ({ status: each, count: Number(counted[`status${index}`] ?? 0) }));
  });
  const counts: BoardCounting = {
    total: async () => (await byStatus()).reduce((sum, g) => sum + (status && g.status !== status ? 0 : g.count), 0),
    byStatus,
  };
  return { nodes, pageInfo: { endCursor, hasNextPage: board.length > first }, counts };
}

/** Within a transaction the offer or decision is written a moment before the status move it comes with. */
const SAME_CHANGE_MS = 2_000;
const KIND_RANK: Record<HistoryEntry['kind'], number> = { STATUS: 0, OFFER: 1, DECISION: 2 };

/**
 * A row's history in causal order: status moves, every offer (replaced ones with when) and the
 * client's decisions. An offer or decision is written in the same transaction as the status move
 * it comes with, a few milliseconds before it: it is placed right after that move (the status line
 * first, then the offer line it caused), and entries of one instant keep the order they were
 * recorded in. `sequence` numbers the result, so ties read unambiguously.
 */
export async function getApplicationHistory(ctx: ServiceContext, id: unknown): Promise<HistoryEntry[]> {
  const actor = requireAccess(ctx, 'applicationBoard.read');
  const application = await findVisibleLenderApplication(ctx, actor, id);
  const moves = await ctx.db.applicationStatusChange.findMany({ where: { lenderApplicationId: application.id }, orderBy: { createdAt: 'asc' } });
  const entries: Array<Omit<HistoryEntry, 'sequence'>> = [
    ...moves.map((m) => ({
      at: m.createdAt.toISOString(),
      kind: 'STATUS' as const,
      status: m.toStatus,
      fromStatus: m.fromStatus,
      reason: m.reason,
      comment: m.comment,
      offer: null,
      replacedAt: null,
    })),
    ...application.offers.map((o) => ({
      at: o.createdAt.toISOString(),
      kind: 'OFFER' as const,
      status: o.status,
      fromStatus: null,
      reason: null,
      comment: o.comment,
      offer: toBoardOffer({ ...o, createdAt: o.createdAt.toISOString() }),
      replacedAt: o.supersededAt?.toISOString() ?? null,
    })),
    ...application.offers
      .filter((o) => o.decision !== null && o.decidedAt !== null)
      .map((o) => ({
        at: o.decidedAt!.toISOString(),
        kind: 'DECISION' as const,
        status: o.decision,
        fromStatus: null,
        reason: null,
        comment: null,
        offer: toBoardOffer({ ...o, createdAt: o.createdAt.toISOString() }),
        replacedAt: null,
      })),
  ];
  const moveTimes = moves.map((m) => m.createdAt.getTime());
  // An offer or decision sorts at the status move it came with (the first one at or just after it).
  const causalTime = (entry: Omit<HistoryEntry, 'sequence'>) => {
    const at = Date.parse(entry.at);
    if (entry.kind === 'STATUS') return at;
    const move = moveTimes.find((t) => t >= at && t - at <= SAME_CHANGE_MS);
    return move ?? at;
  };
  return entries
    .map((entry, recorded) => ({ entry, recorded, time: causalTime(entry) }))
    .sort((a, b) => a.time - b.time || KIND_RANK[a.entry.kind] - KIND_RANK[b.entry.kind] || a.recorded - b.recorded)
    .map(({ entry }, index) => ({ ...entry, sequence: index + 1 }));
}
