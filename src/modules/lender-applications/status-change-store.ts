/**
 * The reads and writes of one lender application status change, as typed SQL on the pg pool (Kysely,
 * src/infra/sql-reads.ts).
 *
 * Why not Prisma, which otherwise keeps the write path: every acknowledgement, offer and rejection
 * runs this, and it is what feeds end-to-end webhook delivery (issue 28). Through Prisma's
 * interactive transaction it was 21 statements and ~26 ms of node CPU a call (bench/status-change.ts),
 * most of it Prisma's per-statement work (each statement serialised and compiled in WebAssembly):
 * the application with its offers and lender read twice, each write a statement of its own, the
 * changed row read back to build the delivery, and the event's audience read after commit. Here it is
 * one read and one statement of writes; the delivery's document is built from what was read.
 *
 * How a change stays race-free without a transaction around the two: the read takes the application
 * row's version (its `xmin`, the transaction that wrote the row as read), and the writes are one
 * statement whose first part is a compare-and-set, `UPDATE … WHERE id = … AND xmin = <version>`,
 * which every other part reads: the history, the offers and the delivery are written only if the row
 * is still as read. A change that committed in between (every status change, offer and resubmission
 * updates the row; nothing else writes an application's offers or history) gives the row a new
 * version, so the second of two racing changes writes nothing and is decided again, once, under the
 * row's lock (`FOR UPDATE`, in a transaction, with the same statement of writes): so a busy
 * application's changes queue behind each other as they always did, never retrying without end.
 * Two statements a change rather than four (BEGIN, the locked read, the writes, COMMIT): the ack
 * path's CPU is mostly the pg driver's per-statement work (docs/benchmarks.md, deliveries).
 */
import { sql, type Compilable, type InferResult } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { SqlReads } from '../../infra/sql-reads.js';
import { readsOf } from '../../infra/database.js';
import type { ServiceContext } from '../../kernel/context.js';
import type { ProductType } from '../../generated/kysely/database.js';
import { StatementTemplates, type PlaceholderOf, type StatementPart } from '../../infra/statement-templates.js';
import {
  lenderApplicationScopeTemplate,
  lenderApplicationSqlScope,
  type ApplicationAudience,
  type ApplicationListScope,
  type ApplicationViewer,
} from './lender-application-visibility.js';

/** The application as a status change reads it: what the document, the delivery and the event need. */
export interface ApplicationBeforeChange {
  id: number;
  /** The row's `xmin` as text: the writes happen only if it is still this (the compare-and-set). */
  version: string;
  lenderId: number;
  reference: string | null;
  status: string;
  responseReason: string | null;
  comment: string | null;
  acceptedAt: Date | null;
  /** When the lender first acknowledged it (null before): a first answer's time is counted on /metrics. */
  acknowledgedAt: Date | null;
  invalidatedAt: Date | null;
  payload: unknown;
  createdAt: Date;
  lender: { slug: string; applicationUrl: string; updateUrl: string | null; authorizationTokenKey: string | null };
  /** Whether the application was offered before this change (its history): a first offer's time is counted on /metrics. */
  answeredBefore: { offered: boolean };
  /** The current offer (not superseded), if any. */
  currentOffer: CurrentOffer | null;
  /** Who hears of the change (lender-application-visibility.ts `eventChannelsOf`). */
  audience: ApplicationAudience;
}

interface CurrentOffer {
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
interface NewOffer {
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
  application?: {
    reference?: string;
    comment?: string | null;
    responseReason?: string | null;
    acceptedAt?: Date;
    acknowledgedAt?: Date;
    payload?: Record<string, unknown>;
  };
  offer?: NewOffer;
  /** The client's decision on the current offer. */
  decision?: 'ACCEPTED' | 'DECLINED';
  /** What the application's history records with the move. */
  note: { reason?: string; comment: string | null };
}

/**
 * The read's statement: built once per shape of the caller's scope and whether it locks
 * (readStatements), never per call.
 */
function readQuery(reads: SqlReads, applicationId: number, scope: ApplicationListScope, lock: boolean) {
  const query = reads
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
      sql<string>`la.xmin::text`.as('version'),
      'la.lenderId',
      'la.reference',
      'la.status',
      'la.responseReason',
      'la.comment',
      'la.acceptedAt',
      'la.acknowledgedAt',
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
      (eb) =>
        eb
          .exists(
            eb.selectFrom('application_status_change as h').select('h.id').whereRef('h.lenderApplicationId', '=', 'la.id').where('h.toStatus', '=', 'Offered'),
          )
          .as('offeredBefore'),
    ])
    .where('la.id', '=', applicationId)
    .where(lenderApplicationSqlScope(scope));
  return lock ? query.forUpdate('la') : query;
}

const readStatements = new StatementTemplates<InferResult<ReturnType<typeof readQuery>>[number]>();

/**
 * The application the caller sees (its visibility rule as typed SQL, the same as the lists'), with
 * its version; undefined when the caller does not see it. With `lock`, inside the caller's
 * transaction, the row is locked FOR UPDATE until it ends: only the application's row (`OF la`), its
 * lender's, profile's and tenant's are read, not locked, so that changes of one lender's applications
 * do not queue behind each other.
 */
export async function readVisibleApplication(
  reads: SqlReads,
  ctx: ServiceContext,
  actor: ApplicationViewer,
  applicationId: number,
  { lock }: { lock: boolean },
): Promise<ApplicationBeforeChange | undefined> {
  const visible = lenderApplicationScopeTemplate(ctx, actor);
  const statement = readStatements.bind(
    `${visible.shape}:${lock ? 'locked' : 'read'}`,
    (value) => readQuery(reads, value('applicationId'), visible.scope(value, reads), lock),
    { ...visible.values, applicationId },
  );
  const [row] = (await reads.executeQuery(statement)).rows;
  if (!row) return undefined;
  return {
    id: row.id,
    version: row.version,
    lenderId: row.lenderId,
    reference: row.reference,
    status: row.status,
    responseReason: row.responseReason,
    comment: row.comment,
    acceptedAt: row.acceptedAt,
    acknowledgedAt: row.acknowledgedAt,
    invalidatedAt: row.invalidatedAt,
    payload: row.payload,
    createdAt: row.createdAt,
    lender: { slug: row.lenderSlug, applicationUrl: row.applicationUrl, updateUrl: row.updateUrl, authorizationTokenKey: row.authorizationTokenKey },
    answeredBefore: { offered: Boolean(row.offeredBefore) },
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

/** The compare-and-set's name in the change's statement, which each of its other writes reads. */
const CHANGED = 'changed_application';

/**
 * The change's writes, as statements to run together (data-modifying CTEs of one statement, see
 * webhook-delivery.ts `queueDeliveriesWith`), compiled once per shape (which columns it sets, whether
 * it makes or decides an offer): the application's status and columns if its row is still the version
 * read (the guard), then, reading the guard, its history and the offer made (the current one
 * superseded) or decided. `now` is the operation's clock; updatedAt of offers is the wall clock, as
 * Prisma's @updatedAt sets it. Returns the new offer's id.
 */
export function statusChangeWrites(
  typedSql: SqlReads,
  row: ApplicationBeforeChange,
  to: string,
  change: StatusChangeWrites,
  now: Date,
): { writes: StatementPart; offerId: string | null } {
  const { payload, acceptedAt, acknowledgedAt, ...given } = change.application ?? {};
  // Kysely's set() leaves out undefined columns: so does the shape.
  const columns = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  const offer = change.offer;
  const offerId = offer ? randomUUID() : null;
  const decided = change.decision && row.currentOffer ? row.currentOffer : null;
  const wallClock = utc(new Date());
  const values: Record<string, unknown> = {
    ...Object.fromEntries(Object.entries(columns).map(([name, v]) => [`column_${name}`, v])),
    applicationId: row.id,
    version: row.version,
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
  if (acknowledgedAt !== undefined) values.acknowledgedAt = utc(acknowledgedAt);
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
  const shape = `status-change:${names.join(',')}:${payload !== undefined}:${acceptedAt !== undefined}:${acknowledgedAt !== undefined}:${Boolean(offer)}:${Boolean(decided)}`;
  const changedApplication = sql.table(CHANGED);
  const build = (value: PlaceholderOf): Compilable[] => {
    const writes: Compilable[] = [
      typedSql
        .updateTable('lender_application')
        .set({
          ...Object.fromEntries(names.map((name) => [name, value(`column_${name}`)])),
          ...(payload !== undefined ? { payload: value('payload') } : {}),
          ...(acceptedAt !== undefined ? { acceptedAt: value('acceptedAt') } : {}),
          ...(acknowledgedAt !== undefined ? { acknowledgedAt: value('acknowledgedAt') } : {}),
          status: value('to'),
          updatedAt: value('now'),
        })
        .where('id', '=', value<number>('applicationId'))
        .where(sql<boolean>`xmin = ${value('version')}::xid`)
        .returning('id'),
      // INSERT … SELECT from the guard: a row only when the application's was written. The values
      // take their columns' types (PostgreSQL leaves an INSERT's SELECT columns unresolved until then).
      typedSql
        .insertInto('application_status_change')
        .columns(['id', 'lenderApplicationId', 'fromStatus', 'toStatus', 'reason', 'comment', 'createdAt'])
        .expression(
          sql`SELECT ${value('historyId')}, id, ${value('from')}, ${value('to')}, ${value('reason')}, ${value('note')}, ${value('now')} FROM ${changedApplication}`,
        ),
    ];
    if (offer) {
      // Both see the rows as they were before the statement: the new offer is not superseded itself.
      writes.push(
        typedSql
          .updateTable('offer')
          .set({ supersededAt: value('now'), updatedAt: value('wallClock') })
          .where('lenderApplicationId', 'in', sql<number>`(SELECT id FROM ${changedApplication})`)
          .where('supersededAt', 'is', null),
        typedSql
          .insertInto('offer')
          .columns([
            'id',
            'lenderApplicationId',
            'lenderId',
            'reference',
            'status',
            'type',
            'productType',
            'product',
            'expiryDate',
            'comment',
            'securityRequired',
            'createdAt',
            'updatedAt',
          ])
          .expression(
            sql`SELECT ${value('offerId')}, id, ${value('lenderId')}, ${value('offerReference')}, ${value('offerStatus')}, 'MANUAL_OFFER', ${value('productType')}, ${value('product')},
              ${value('expiryDate')}, ${value('offerComment')}, NULL, ${value('now')}, ${value('wallClock')} FROM ${changedApplication}`,
          ),
      );
    }
    if (decided) {
      writes.push(
        typedSql
          .updateTable('offer')
          .set({ decision: value('decision'), decidedAt: value('now'), updatedAt: value('wallClock') })
          .where('id', '=', value<string>('decidedOfferId'))
          .where('lenderApplicationId', 'in', sql<number>`(SELECT id FROM ${changedApplication})`),
      );
    }
    return writes;
  };
  return { writes: { shape, values, build, guard: CHANGED }, offerId };
}
