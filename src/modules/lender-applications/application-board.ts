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
import { pageOf, parsePageArgs } from '../../kernel/keyset-pages.js';
import { readsOf } from '../../infra/database.js';
import { afterInNewestFirst, isoInstant, utcTimestamp } from '../../infra/keyset-sql.js';
import { BoardFilter, type BoardOffer, type BoardPage, type BoardRow, type HistoryEntry } from './application-board-schemas.js';
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
const ROW_COLUMNS = ['la.id', 'la.lenderId', 'la.fundingMatchId', 'la.sentCompanyName', 'la.sentAmount', 'la.status', 'la.createdAt', 'la.updatedAt'] as const;

/**
 * The board: a page of the rows the caller sees, most recently changed first, filtered by status,
 * lender, one application or last change. One statement per page: the page of rows is found first
 * (the company name and amount as sent are columns generated from the payload, which is never
 * read), then joined to its lender's name, its match's product type and its current offer. Staff's
 * page is an index range of their environment (by status or lender too); a member's is read
 * profile by profile of its account's few profiles, each an index range, then merged
 * (prisma/schema.prisma, test/query-plans.test.ts).
 */
export async function listBoardApplications(ctx: ServiceContext, filter: unknown, page: unknown = {}): Promise<BoardPage> {
  const actor = requireAccess(ctx, 'applicationBoard.read');
  const { status, lenderId, applicationId, updatedSince } = parseInput(BoardFilter, filter ?? {}, 'Filter');
  const { first, position } = parsePageArgs<number>(page, 'number');
  const reads = readsOf(ctx.db);
  const scope = lenderApplicationListScope(ctx, actor, reads);
  const conditions = (eb: ApplicationRows) =>
    eb.and([
      lenderApplicationSqlScope({ ...scope, ownedProfileIds: undefined })(eb),
      ...(status ? [eb('la.status', '=', status)] : []),
      ...(lenderId ? [eb('la.lenderId', '=', lenderId)] : []),
      ...(applicationId ? [eb('la.id', '=', applicationId)] : []),
      ...(updatedSince ? [eb('la.updatedAt', '>=', utcTimestamp(updatedSince))] : []),
      ...(position ? [afterInNewestFirst('la.updatedAt', 'la.id', position)] : []),
    ]);
  const ownedProfileIds = scope.ownedProfileIds;
  const pageRows = ownedProfileIds
    ? reads
        .selectFrom(ownedProfileIds.as('owned'))
        .innerJoinLateral(
          (eb) => eb.selectFrom('lender_application as la').select(ROW_COLUMNS).whereRef('la.profileId', '=', 'owned.id').where(conditions).orderBy('la.updatedAt', 'desc').orderBy('la.id', 'desc').limit(first + 1).as('la'),
          (join) => join.onTrue(),
        )
        .selectAll('la')
        .orderBy('la.updatedAt', 'desc')
        .orderBy('la.id', 'desc')
        .limit(first + 1)
    : reads.selectFrom('lender_application as la').select(ROW_COLUMNS).where(conditions).orderBy('la.updatedAt', 'desc').orderBy('la.id', 'desc').limit(first + 1);
  const rows = await reads
    .selectFrom(pageRows.as('la'))
    .innerJoin('lender as l', 'l.id', 'la.lenderId')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('offer')
          .select(['offer.id', 'offer.reference', 'offer.status', 'offer.decision', 'offer.productType', 'offer.product', isoInstant('offer.createdAt').as('createdAt')])
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
      'la.lenderId',
      'l.name as lenderName',
      // A subquery per row of the page (by primary key): a join would let the planner hash every match.
      eb.selectFrom('funding_match as fm').select('fm.productType').whereRef('fm.id', '=', 'la.fundingMatchId').as('matchProductType'),
      'la.sentAmount',
      'la.status',
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
    .orderBy('la.updatedAt', 'desc')
    .orderBy('la.id', 'desc')
    .execute();
  const board = rows.map(
    (row): BoardRow => ({
      id: row.id,
      companyName: row.sentCompanyName,
      lenderId: row.lenderId,
      lenderName: row.lenderName,
      productType: row.matchProductType ?? row.offerProductType ?? null,
      amount: row.sentAmount,
      status: row.status,
      offer:
        row.offerId !== null && row.offerReference !== null && row.offerStatus !== null && row.offerProductType !== null && row.offerCreatedAt !== null
          ? toBoardOffer({ id: row.offerId, reference: row.offerReference, status: row.offerStatus, decision: row.offerDecision, productType: row.offerProductType, product: row.offerProduct as OfferRow['product'], createdAt: row.offerCreatedAt })
          : null,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }),
  );
  return pageOf(board, first, (row) => ({ at: row.updatedAt, id: row.id }));
}

/** A row's history, oldest first: status moves, every offer (replaced ones with when) and the client's decisions. */
export async function getApplicationHistory(ctx: ServiceContext, id: unknown): Promise<HistoryEntry[]> {
  const actor = requireAccess(ctx, 'applicationBoard.read');
  const application = await findVisibleLenderApplication(ctx, actor, id);
  const moves = await ctx.db.applicationStatusChange.findMany({ where: { lenderApplicationId: application.id }, orderBy: { createdAt: 'asc' } });
  const entries: HistoryEntry[] = [
    ...moves.map((m) => ({ at: m.createdAt.toISOString(), kind: 'STATUS' as const, status: m.toStatus, fromStatus: m.fromStatus, reason: m.reason, comment: m.comment, offer: null, replacedAt: null })),
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
      .map((o) => ({ at: o.decidedAt!.toISOString(), kind: 'DECISION' as const, status: o.decision, fromStatus: null, reason: null, comment: null, offer: toBoardOffer({ ...o, createdAt: o.createdAt.toISOString() }), replacedAt: null })),
  ];
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}
