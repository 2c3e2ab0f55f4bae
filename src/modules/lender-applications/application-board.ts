/**
 * The operations dashboard's view of lender applications: one row per application (company,
 * lender, product, amount, status, current offer, last change) and a row's history. Staff see every
 * application; other platform users their account's, by the same rule as the lender API
 * (lender-application-visibility.ts). `updatedSince` lets a client that lost its event stream catch
 * up on every row changed since the last change it saw.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { parseInput } from '../../kernel/validation.js';
import { BoardFilter, type BoardOffer, type BoardRow, type HistoryEntry } from './application-board-schemas.js';
import { findVisibleLenderApplication, lenderApplicationScope } from './lender-application-visibility.js';

const BOARD_LIMIT = 200;

const ROW_INCLUDE = {
  lender: { select: { name: true } },
  profile: { select: { companyInformation: true } },
  fundingMatch: { select: { productType: true } },
  offers: { where: { supersededAt: null }, take: 1, orderBy: { createdAt: 'desc' as const } },
} as const;
type Row = Prisma.LenderApplicationGetPayload<{ include: typeof ROW_INCLUDE }>;
type OfferRow = Prisma.OfferGetPayload<object>;

/** Money in an offer is a plain number or a `{code, value}` Currency object (offer-schemas.ts). */
function moneyValue(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'number') return (value as { value: number }).value;
  return null;
}

function toBoardOffer(offer: OfferRow): BoardOffer {
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
    createdAt: offer.createdAt.toISOString(),
  };
}

function toBoardRow(row: Row): BoardRow {
  const payload = (row.payload ?? {}) as { application?: { fundingSearch?: { amount?: unknown }; profile?: { basicCompanyDetails?: { companyName?: unknown } } } };
  const info = (row.profile.companyInformation ?? {}) as { name?: unknown };
  const sentName = payload.application?.profile?.basicCompanyDetails?.companyName;
  const amount = Number(payload.application?.fundingSearch?.amount);
  const offer = row.offers[0];
  return {
    id: row.id,
    companyName: typeof info.name === 'string' ? info.name : typeof sentName === 'string' ? sentName : null,
    lenderId: row.lenderId,
    lenderName: row.lender.name,
    productType: row.fundingMatch?.productType ?? offer?.productType ?? null,
    amount: Number.isFinite(amount) ? amount : null,
    status: row.status,
    offer: offer ? toBoardOffer(offer) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The board: rows the caller sees, most recently changed first, filtered by status, lender, one application or last change. */
export async function listBoardApplications(ctx: ServiceContext, filter: unknown): Promise<BoardRow[]> {
  const actor = requireAccess(ctx, 'applicationBoard.read');
  const { status, lenderId, applicationId, updatedSince } = parseInput(BoardFilter, filter ?? {}, 'Filter');
  const rows = await ctx.db.lenderApplication.findMany({
    where: {
      AND: [
        lenderApplicationScope(ctx, actor),
        status ? { status } : {},
        lenderId ? { lenderId } : {},
        applicationId ? { id: applicationId } : {},
        updatedSince ? { updatedAt: { gte: new Date(updatedSince) } } : {},
      ],
    },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take: BOARD_LIMIT,
    include: ROW_INCLUDE,
  });
  return rows.map(toBoardRow);
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
      offer: toBoardOffer(o),
      replacedAt: o.supersededAt?.toISOString() ?? null,
    })),
    ...application.offers
      .filter((o) => o.decision !== null && o.decidedAt !== null)
      .map((o) => ({ at: o.decidedAt!.toISOString(), kind: 'DECISION' as const, status: o.decision, fromStatus: null, reason: null, comment: null, offer: toBoardOffer(o), replacedAt: null })),
  ];
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}
