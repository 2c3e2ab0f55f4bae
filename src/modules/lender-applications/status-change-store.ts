/**
 * The reads and writes of one lender application status change, as typed SQL inside a PostgreSQL
 * transaction on the pg pool (Kysely, src/infra/sql-reads.ts).
 *
 * Why not Prisma, which otherwise keeps the write path: every acknowledgement, offer and rejection
 * runs this, and it is what feeds end-to-end webhook delivery (issue 28). Through Prisma's
 * interactive transaction it was 21 statements and ~26 ms of node CPU a call (bench/status-change.ts),
 * most of it Prisma's per-statement work (each statement serialised and compiled in WebAssembly):
 * the application with its offers and lender read twice, each write a statement of its own, the
 * changed row read back to build the delivery, and the event's audience read after commit. Here it is
 * one locked read and one statement of writes; the delivery's document is built from what was read.
 *
 * The semantics are the ones the Prisma transaction had: READ COMMITTED, the application row locked
 * (FOR UPDATE) before its status is read, so two changes of one application are serialised and the
 * second sees the first's status (the status machine stays race-free); the delivery row commits with the
 * change or not at all.
 */
import { sql, type Compilable, type InferResult } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { SqlTransaction } from '../../infra/sql-reads.js';
import { readsOf } from '../../infra/database.js';
import type { ServiceContext } from '../../kernel/context.js';
import type { ProductType } from '../../generated/kysely/database.js';
import { StatementTemplates, type PlaceholderOf, type StatementPart } from '../../infra/statement-templates.js';
import { lenderApplicationScopeTemplate, lenderApplicationSqlScope, type ApplicationAudience, type ApplicationListScope, type ApplicationViewer } from './lender-application-visibility.js';

/** The application as a status change reads it (locked): what the document, the delivery and the event need. */
export interface LockedApplication {
  id: number;
  lenderId: number;
  reference: string | null;
  status: string;
  responseReason: string | null;
  comment: string | null;
  acceptedAt: Date | null;
  invalidatedAt: Date | null;
  payload: unknown;
  createdAt: Date;
  lender: { slug: string; applicationUrl: string; updateUrl: string | null; authorizationTokenKey: string | null };
  /** Whether the application was acknowledged, or offered, before this change (its history): a first answer's time is counted on /metrics. */
  answeredBefore: { acknowledged: boolean; offered: boolean };
  /** The current offer (not superseded), if any. */
  currentOffer: CurrentOffer | null;
  /** Who hears of the change (lender-application-visibility.ts `eventChannelsOf`). */
  audience: ApplicationAudience;
}

export interface CurrentOffer {
  id: string;
  reference: string;
  status: string;
  expiryDate: Date | null;
  comment: string | null;
  decision: string | null;
  productType: string;
  product: unknown;
}

/** An offer made by the change, replacing the current one. */
export interface NewOffer {
  reference: string;
  status: 'INDICATIVE' | 'FINAL';
  productType: ProductType;
  product: Record<string, unknown>;
  expiryDate: Date | null;
  comment: string | null;
}

/** What a status change writes besides the status: decided by each use case, written here. */
export interface StatusChangeWrites {
  /** Columns of the application set with its status. */
  application?: { reference?: string; comment?: string | null; responseReason?: string | null; acceptedAt?: Date; payload?: Record<string, unknown> };
  offer?: NewOffer;
  /** The client's decision on the current offer. */
  decision?: 'ACCEPTED' | 'DECLINED';
  /** What the application's history records with the move. */
  note: { reason?: string; comment: string | null };
}

/** The lock's statement: built once per shape of the caller's scope (lockStatements), never per call. */
function lockQuery(trx: SqlTransaction, applicationId: number, scope: ApplicationListScope) {
  return trx
    .selectFrom('lender_application as la')
    .innerJoin('lender as l', 'l.id', 'la.lenderId')
    .innerJoin('profile as p', 'p.id', 'la.profileId')
    .leftJoin('tenant as t', 't.id', 'p.tenantId')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('offer')
          .select(['offer.id', 'offer.reference', 'offer.status', 'offer.expiryDate', 'offer.comment', 'offer.decision', 'offer.productType', 'offer.product'])
          .whereRef('offer.lenderApplicationId', '=', 'la.id')
          .where('offer.supersededAt', 'is', null)
          .orderBy('offer.createdAt', 'asc')
          .limit(1)
          .as('o'),
      (join) => join.onTrue(),
    )
    .select([
      'la.id',
      'la.lenderId',
      'la.reference',
      'la.status',
      'la.responseReason',
      'la.comment',
      'la.acceptedAt',
      'la.invalidatedAt',
      'la.payload',
      'la.environment',
      'la.createdAt',
      'l.slug as lenderSlug',
      'l.applicationUrl',
      'l.updateUrl',
      'l.authorizationTokenKey',
      'p.ownerAccountId',
      'p.tenantId',
      't.accountId as tenantAccountId',
      'o.id as offerId',
      'o.reference as offerReference',
      'o.status as offerStatus',
      'o.expiryDate as offerExpiryDate',
      'o.comment as offerComment',
      'o.decision as offerDecision',
      'o.productType as offerProductType',
      'o.product as offerProduct',
      (eb) => eb.exists(eb.selectFrom('application_status_change as h').select('h.id').whereRef('h.lenderApplicationId', '=', 'la.id').where('h.toStatus', '=', 'Acknowledged')).as('acknowledgedBefore'),
      (eb) => eb.exists(eb.selectFrom('application_status_change as h').select('h.id').whereRef('h.lenderApplicationId', '=', 'la.id').where('h.toStatus', '=', 'Offered')).as('offeredBefore'),
    ])
    .where('la.id', '=', applicationId)
    .where(lenderApplicationSqlScope(scope))
    .forUpdate('la');
}

const lockStatements = new StatementTemplates<InferResult<ReturnType<typeof lockQuery>>[number]>();

/**
 * The application the caller sees (its visibility rule as typed SQL, the same as the lists'), locked
 * FOR UPDATE until the transaction ends; undefined when the caller does not see it. Only the
 * application's row is locked (`OF la`): its lender's, profile's and tenant's are read, not locked,
 * so that changes of one lender's applications do not queue behind each other.
 */
export async function lockVisibleApplication(trx: SqlTransaction, ctx: ServiceContext, actor: ApplicationViewer, applicationId: number): Promise<LockedApplication | undefined> {
  const visible = lenderApplicationScopeTemplate(ctx, actor);
  const statement = lockStatements.bind(visible.shape, (value) => lockQuery(trx, value('applicationId'), visible.scope(value, trx)), { ...visible.values, applicationId });
  const [row] = (await trx.executeQuery(statement)).rows;
  if (!row) return undefined;
  return {
    id: row.id,
    lenderId: row.lenderId,
    reference: row.reference,
    status: row.status,
    responseReason: row.responseReason,
    comment: row.comment,
    acceptedAt: row.acceptedAt,
    invalidatedAt: row.invalidatedAt,
    payload: row.payload,
    createdAt: row.createdAt,
    lender: { slug: row.lenderSlug, applicationUrl: row.applicationUrl, updateUrl: row.updateUrl, authorizationTokenKey: row.authorizationTokenKey },
    answeredBefore: { acknowledged: Boolean(row.acknowledgedBefore), offered: Boolean(row.offeredBefore) },
    currentOffer:
      row.offerId === null
        ? null
        : {
            id: row.offerId,
            reference: row.offerReference!,
            status: row.offerStatus!,
            expiryDate: row.offerExpiryDate,
            comment: row.offerComment,
            decision: row.offerDecision,
            productType: row.offerProductType!,
            product: row.offerProduct,
          },
    audience: audienceOf(row),
  };
}

interface AudienceColumns {
  id: number;
  lenderId: number;
  environment: ApplicationAudience['lender']['environment'];
  ownerAccountId: string | null;
  tenantId: string | null;
  tenantAccountId: string | null;
}

function audienceOf(row: AudienceColumns): ApplicationAudience {
  return {
    id: row.id,
    lenderId: row.lenderId,
    // The application's environment is its lender's (copied by a trigger when it is made).
    lender: { environment: row.environment },
    profile: { ownerAccountId: row.ownerAccountId, tenantId: row.tenantId, tenant: row.tenantId === null ? null : { accountId: row.tenantAccountId } },
  };
}

/**
 * Who hears of these applications' events, in one read (after a submission committed them).
 * @access internal: the caller's use case made or may see these applications
 */
export async function audiencesOf(ctx: ServiceContext, applicationIds: readonly number[]): Promise<ApplicationAudience[]> {
  if (applicationIds.length === 0) return [];
  const rows = await readsOf(ctx.db)
    .selectFrom('lender_application as la')
    .innerJoin('profile as p', 'p.id', 'la.profileId')
    .leftJoin('tenant as t', 't.id', 'p.tenantId')
    .select(['la.id', 'la.lenderId', 'la.environment', 'p.ownerAccountId', 'p.tenantId', 't.accountId as tenantAccountId'])
    .where('la.id', 'in', [...applicationIds])
    .orderBy('la.id')
    .execute();
  return rows.map(audienceOf);
}

/**
 * Instants are written as UTC ISO text: the columns are `timestamp(3)` holding UTC (as Prisma writes
 * them), and PostgreSQL drops the zone of the text, where pg would send a Date in the local zone.
 */
const utc = (date: Date) => date.toISOString();

/**
 * The change's writes, as statements to run together (data-modifying CTEs of one statement, see
 * webhook-delivery.ts `queueDeliveriesWith`), compiled once per shape (which columns it sets, whether
 * it makes or decides an offer): the application's status and columns, its history, and the offer
 * made (the current one superseded) or decided. `now` is the operation's clock; updatedAt of offers is
 * the wall clock, as Prisma's @updatedAt sets it. Returns the new offer's id.
 */
export function statusChangeWrites(trx: SqlTransaction, row: LockedApplication, to: string, change: StatusChangeWrites, now: Date): { writes: StatementPart; offerId: string | null } {
  const { payload, acceptedAt, ...given } = change.application ?? {};
  // Kysely's set() leaves out undefined columns: so does the shape.
  const columns = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  const offer = change.offer;
  const offerId = offer ? randomUUID() : null;
  const decided = change.decision && row.currentOffer ? row.currentOffer : null;
  const wallClock = utc(new Date());
  const values: Record<string, unknown> = {
    ...Object.fromEntries(Object.entries(columns).map(([name, v]) => [`column_${name}`, v])),
    applicationId: row.id,
    to,
    now: utc(now),
    wallClock,
    historyId: randomUUID(),
    from: row.status,
    reason: change.note.reason ?? null,
    note: change.note.comment,
  };
  if (payload !== undefined) values.payload = JSON.stringify(payload);
  if (acceptedAt !== undefined) values.acceptedAt = utc(acceptedAt);
  if (offer) {
    Object.assign(values, {
      offerId,
      lenderId: row.lenderId,
      offerReference: offer.reference,
      offerStatus: offer.status,
      productType: offer.productType,
      product: JSON.stringify(offer.product),
      expiryDate: offer.expiryDate ? utc(offer.expiryDate) : null,
      offerComment: offer.comment,
    });
  }
  if (decided) Object.assign(values, { decision: change.decision, decidedOfferId: decided.id });
  const names = Object.keys(columns).sort();
  const shape = `status-change:${names.join(',')}:${payload !== undefined}:${acceptedAt !== undefined}:${Boolean(offer)}:${Boolean(decided)}`;
  const build = (value: PlaceholderOf): Compilable[] => {
    const writes: Compilable[] = [
      trx
        .updateTable('lender_application')
        .set({
          ...Object.fromEntries(names.map((name) => [name, value(`column_${name}`)])),
          ...(payload !== undefined ? { payload: value('payload') } : {}),
          ...(acceptedAt !== undefined ? { acceptedAt: value('acceptedAt') } : {}),
          status: value('to'),
          updatedAt: value('now'),
        })
        .where('id', '=', value<number>('applicationId')),
      trx.insertInto('application_status_change').values({
        id: value('historyId'),
        lenderApplicationId: value('applicationId'),
        fromStatus: value('from'),
        toStatus: value('to'),
        reason: value('reason'),
        comment: value('note'),
        createdAt: value('now'),
      }),
    ];
    if (offer) {
      // Both see the rows as they were before the statement: the new offer is not superseded itself.
      writes.push(
        trx
          .updateTable('offer')
          .set({ supersededAt: value('now'), updatedAt: value('wallClock') })
          .where('lenderApplicationId', '=', value<number>('applicationId'))
          .where('supersededAt', 'is', null),
        trx.insertInto('offer').values({
          id: value('offerId'),
          lenderApplicationId: value('applicationId'),
          lenderId: value('lenderId'),
          reference: value('offerReference'),
          status: value('offerStatus'),
          type: 'MANUAL_OFFER',
          productType: value('productType'),
          product: value('product'),
          expiryDate: value('expiryDate'),
          comment: value('offerComment'),
          securityRequired: sql<string[]>`NULL`,
          createdAt: value('now'),
          updatedAt: value('wallClock'),
        }),
      );
    }
    if (decided) {
      writes.push(trx.updateTable('offer').set({ decision: value('decision'), decidedAt: value('now'), updatedAt: value('wallClock') }).where('id', '=', value<string>('decidedOfferId')));
    }
    return writes;
  };
  return { writes: { shape, values, build }, offerId };
}
