/**
 * The Lender Application API (spec 4.5): a lender reads only its own applications, each as the
 * funding application document of spec 2.7 with its current status, and acknowledges, offers or
 * rejects them. Every status change goes through the status machine, is recorded in the
 * application's history, queues the updated document for the lender's update webhook (outbox, in
 * the same transaction), and is published as an event after commit. The lender's view carries
 * apiProvider with the application's own authorization token; the integrator's (accept, decline,
 * resubmit) is a separate schema without apiProvider; stored and queued documents carry no token.
 */
import { z } from 'zod';
import { sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { readsOf } from '../../infra/database.js';
import type { SqlReads } from '../../infra/sql-reads.js';
import { isoInstant } from '../../infra/keyset-sql.js';
import { recordApplicationMoves, type CommittedMove } from '../../infra/metrics.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../kernel/keyset-pages.js';
import type { ApplicationStatusChanged, OfferStatusChanged } from './application-event-schemas.js';
import { parseInput, type CheckedLater } from '../../kernel/validation.js';
import { queueDeliveriesWith, wakeDeliveryWorkers, type NewIntegratorEvent } from '../webhooks/webhook-delivery.js';
import { integratorEventsOf, type IntegratorEventData } from './integrator-event-schemas.js';
import type { ProductType } from '../../generated/kysely/database.js';
import { audiencesOf, readVisibleApplication, statusChangeWrites, type ApplicationBeforeChange, type StatusChangeWrites } from './status-change-store.js';
import { registryGrade } from '../companies/company-information.js';
import { applicationDocument, lenderMatches, loadProfileForDocuments } from './application-documents.js';
import {
  ApplicationId,
  applicationChannel,
  eventChannelOf,
  eventChannelsOf,
  findVisibleLenderApplication,
  lenderApplicationListScope,
  lenderApplicationSqlScope,
  type ApplicationAudience,
  type ApplicationRows,
  type ApplicationViewer,
} from './lender-application-visibility.js';
import {
  APPLICATION_MOVE_OF,
  APPLICATION_STATUSES,
  FAILURE_REASON,
  IN_REVIEW,
  nextStatus,
  type ApplicationEvent,
  type ApplicationStatus,
} from './application-status.js';
import { PRODUCT_OBJECT_NAMES, PRODUCT_TYPE_OF, withComputedFees, type OfferBody, type ProductObjectName } from './offer-schemas.js';
import type { FundingApplicationDocument, IntegratorApplicationDocument, LenderOffer, StoredApplicationDocument } from './funding-application-schemas.js';
import { applicationAuthorizationToken, withAuthorizationToken, withoutAuthorizationToken } from '../webhooks/authorization-token.js';
import { SEARCH_WITHOUT_MATCHES } from '../matching/funding-search.js';
import { answerOnce, answerOnceAsIs } from '../../infra/idempotent-answers.js';
import { afterApplication } from './lender-list-store.js';
import { SORT_KEYS, searchCondition } from './application-board.js';

type OfferRow = Prisma.OfferGetPayload<object>;
/** What a document is built from: an application's row and its offers (a Prisma row with its offers, or a typed SQL page's row). */
type DocumentSource = Pick<
  Prisma.LenderApplicationGetPayload<object>,
  'id' | 'reference' | 'status' | 'responseReason' | 'comment' | 'acceptedAt' | 'invalidatedAt' | 'payload'
> & {
  offers: Array<Pick<OfferRow, 'id' | 'reference' | 'status' | 'expiryDate' | 'comment' | 'decision' | 'productType' | 'product' | 'supersededAt'>>;
};
/** The lender's view also needs the lender's key for the application's authorization token. */
type LenderDocumentSource = DocumentSource & { lender: { authorizationTokenKey: string | null } };

export type { FundingApplicationDocument, IntegratorApplicationDocument };

const epochSeconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);

/** The document as last built, with the application's current status fields and offer; as stored (no token). */
function toStoredDocument(row: DocumentSource): StoredApplicationDocument {
  const payload = withoutAuthorizationToken((row.payload ?? {}) as Partial<StoredApplicationDocument>);
  const current = row.offers.find((o) => o.supersededAt === null);
  const objectName = current ? PRODUCT_OBJECT_NAMES.find((n) => PRODUCT_TYPE_OF[n] === current.productType) : undefined;
  const sent: Partial<StoredApplicationDocument['application']> = payload.application ?? {};
  return {
    ...(payload.apiProvider !== undefined ? { apiProvider: payload.apiProvider } : {}),
    application: {
      ...sent,
      // The match the application was sent for names its current offer (spec 2.7 fundingMatch.offerId).
      ...(sent.fundingMatch ? { fundingMatch: { ...sent.fundingMatch, offerId: current?.id ?? null } } : {}),
      id: row.id,
      reference: row.reference,
      status: row.status,
      responseReason: row.responseReason,
      comment: row.comment,
      acceptedAt: epochSeconds(row.acceptedAt),
      invalidatedAt: epochSeconds(row.invalidatedAt),
      offer: current
        ? ({
            id: current.id,
            reference: current.reference,
            status: current.status,
            expiryDate: current.expiryDate?.toISOString() ?? null,
            comment: current.comment,
            decision: current.decision,
            ...(objectName ? { [objectName]: withComputedFees(objectName, current.product as Record<string, unknown>) } : {}),
          } as LenderOffer)
        : null,
    },
  };
}

/** The lender's view (spec 2.7): apiProvider carries this application's own authorization token. */
function toDocument(row: LenderDocumentSource): FundingApplicationDocument {
  return withAuthorizationToken(toStoredDocument(row), applicationAuthorizationToken(row.lender.authorizationTokenKey, row.id)) as FundingApplicationDocument;
}

/** The integrator's view: the application only, never the lender's apiProvider. */
function toIntegratorDocument(row: DocumentSource): IntegratorApplicationDocument {
  return { application: toStoredDocument(row).application };
}

/** The lender's list filters (its applications only, whatever they say): also what the totals count. */
export const ListFilter = z.object({
  reference: z.string().trim().min(1, 'must not be empty').max(255).optional().describe('Only the applications you acknowledged with this reference'),
  q: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters')
    .optional()
    .describe('Applications whose company name starts with it (any case), whose company registration number or your reference is it, or whose id it is'),
  status: z
    .enum(APPLICATION_STATUSES, { message: `must be one of ${APPLICATION_STATUSES.join(', ')}` })
    .optional()
    .describe('Only applications in this status'),
  receivedBefore: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
    .optional()
    .describe('Only applications sent to you before this instant (e.g. now less 3 days: waiting longer than 3 days)'),
  receivedAfter: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
    .optional()
    .describe('Only applications sent to you at or after this instant'),
});

/** The list's orders: a field, newest/largest first with a leading `-`. */
const LIST_SORT_FIELDS = { received: 'CREATED', updated: 'LAST_CHANGE', company: 'COMPANY', amount: 'AMOUNT', status: 'STATUS' } as const;
const LIST_SORTS = Object.keys(LIST_SORT_FIELDS).flatMap((field) => [field, `-${field}`]) as [string, ...string[]];

export const ListQuery = ListFilter.extend({
  sort: z
    .enum(LIST_SORTS, { message: `must be one of ${LIST_SORTS.join(', ')}` })
    .default('received')
    .describe(
      'The order: `received` (oldest first, unless given), `updated` (last change), `company`, `amount` or `status`; a leading `-` reverses it. Ties go by id in the same direction.',
    ),
  limit: z.coerce
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE)
    .describe(
      `Applications in the answer, in the order asked for: ${DEFAULT_PAGE_SIZE} unless given, at most ${MAX_PAGE_SIZE}. An answer of fewer is the last page.`,
    ),
  after: z.coerce
    .number({ message: 'must be an application id (number)' })
    .int('must be an application id (number)')
    .positive('must be an application id (number)')
    .optional()
    .describe('The id of the last application of the previous answer (with the same filters and sort): the answer continues after it.'),
});

export const ApplicationTotals = z
  .strictObject({
    total: z.number().int().describe('Your applications matching every filter given'),
    byStatus: z
      .array(z.strictObject({ status: z.string(), count: z.number().int() }))
      .describe('Of those matching the filters other than `status`: how many are in each status (statuses with none left out)'),
  })
  .meta({ id: 'LenderApplicationTotals', description: 'How many of your applications a filter matches' });
export type ApplicationTotals = z.infer<typeof ApplicationTotals>;

/** The filter as conditions on `la` (the caller's scope is added by the caller). */
function listConditions(filter: z.output<typeof ListFilter>, withStatus: boolean) {
  return (eb: ApplicationRows) =>
    eb.and([
      ...(filter.reference ? [eb('la.reference', '=', filter.reference)] : []),
      ...(filter.q ? [searchCondition(filter.q)(eb)] : []),
      ...(withStatus && filter.status ? [eb('la.status', '=', filter.status)] : []),
      ...(filter.receivedBefore ? [eb('la.createdAt', '<', new Date(filter.receivedBefore))] : []),
      ...(filter.receivedAfter ? [eb('la.createdAt', '>=', new Date(filter.receivedAfter))] : []),
    ]);
}

const isoDate = (text: string | null) => (text === null ? null : new Date(text));

/**
 * GET {lender_api_base}/applications[?q=][&status=][&receivedBefore=][&receivedAfter=][&reference=][&sort=][&limit=][&after=]:
 * a page of the calling lender's applications, oldest first unless `sort` says otherwise, each as its
 * funding application document (spec 2.7). The answer stays the spec's array; the next page is asked
 * for with `after` = the last id received, whose position in the order is read in the same
 * statement. One statement per page: the rows, each one's current offer and the lender's token key
 * (the default order reads the index on (lenderId, createdAt, id): test/query-plans.test.ts).
 */
export async function listLenderApplications(
  ctx: ServiceContext,
  query: Omit<z.output<typeof ListQuery>, 'sort'> & { sort?: string },
): Promise<FundingApplicationDocument[]> {
  const actor = requireAccess(ctx, 'lenderApplications.list');
  const { limit, after, sort = 'received' } = query;
  const descending = sort.startsWith('-');
  const sortKey = SORT_KEYS[LIST_SORT_FIELDS[sort.replace(/^-/, '') as keyof typeof LIST_SORT_FIELDS]];
  const reads = readsOf(ctx.db);
  let page = reads
    .selectFrom('lender_application as la')
    .innerJoin('lender as l', 'l.id', 'la.lenderId')
    .select((eb) => [
      'la.id',
      'la.reference',
      'la.status',
      'la.responseReason',
      'la.comment',
      'la.payload',
      isoInstant('la.acceptedAt').as('acceptedAt'),
      isoInstant('la.invalidatedAt').as('invalidatedAt'),
      'l.authorizationTokenKey',
      jsonArrayFrom(
        eb
          .selectFrom('offer as o')
          .select(['o.id', 'o.reference', 'o.status', 'o.comment', 'o.decision', 'o.productType', 'o.product', isoInstant('o.expiryDate').as('expiryDate')])
          .whereRef('o.lenderApplicationId', '=', 'la.id')
          .where('o.supersededAt', 'is', null),
      ).as('currentOffers'),
    ])
    .where(lenderApplicationSqlScope(lenderApplicationListScope(ctx, actor, reads)))
    .where(listConditions(query, true));
  if (after !== undefined) page = page.where(afterApplication(actor.lenderId, after, sortKey.key, descending));
  const direction = descending ? 'desc' : 'asc';
  const rows = await page.orderBy(sortKey.key('la'), direction).orderBy('la.id', direction).limit(limit).execute();
  return rows.map((row) =>
    toDocument({
      ...row,
      acceptedAt: isoDate(row.acceptedAt),
      invalidatedAt: isoDate(row.invalidatedAt),
      payload: row.payload as Prisma.JsonValue,
      lender: { authorizationTokenKey: row.authorizationTokenKey },
      offers: row.currentOffers.map((offer) => ({
        ...offer,
        product: offer.product as Prisma.JsonValue,
        expiryDate: isoDate(offer.expiryDate),
        supersededAt: null,
      })),
    }),
  );
}

/** GET {lender_api_base}/applications/totals: how many of the calling lender's applications the filter matches, by status. */
export async function countLenderApplications(ctx: ServiceContext, filter: z.output<typeof ListFilter>): Promise<ApplicationTotals> {
  const actor = requireAccess(ctx, 'lenderApplications.list');
  const reads = readsOf(ctx.db);
  const rows = await reads
    .selectFrom('lender_application as la')
    .select(['la.status', (eb) => eb.fn.countAll<string>().as('count')])
    .where(lenderApplicationSqlScope(lenderApplicationListScope(ctx, actor, reads)))
    .where(listConditions(filter, false))
    .groupBy('la.status')
    .orderBy('la.status')
    .execute();
  const byStatus = rows.map((row) => ({ status: row.status, count: Number(row.count) }));
  const total = byStatus.filter((row) => !filter.status || row.status === filter.status).reduce((sum, row) => sum + row.count, 0);
  return { total, byStatus };
}

/** GET {lender_api_base}/applications/{id}: another lender's application is a 404. */
export async function getLenderApplication(ctx: ServiceContext, id: unknown): Promise<FundingApplicationDocument> {
  const actor = requireAccess(ctx, 'lenderApplications.list');
  return toDocument(await findVisibleLenderApplication(ctx, actor, id));
}

export const Acknowledgement = z
  .strictObject({
    reference: z.string().trim().min(1, 'must not be empty').max(255).optional(),
    comment: z.string().trim().min(1, 'must not be empty').max(4000).optional(),
  })
  .refine((b) => b.reference !== undefined || b.comment !== undefined, { message: 'must carry a reference, a comment, or both', path: [] });

export const Rejection = z.strictObject({
  reason: z.string({ message: 'is required' }).trim().min(1, 'must not be empty').max(100),
  comment: z.string().trim().max(4000).optional(),
  reference: z.string().trim().min(1).max(255).optional(),
});

/**
 * POST .../applications/{id}/acknowledgement {reference?, comment?}: 200 the updated application.
 * The body is checked once the application is found and before the status machine decides: another
 * lender's application is a 404, a malformed acknowledgement a 400 whatever the status.
 */
export async function acknowledge(
  ctx: ServiceContext,
  id: unknown,
  input: CheckedLater<z.output<typeof Acknowledgement>>,
  idempotencyKey?: unknown,
): Promise<FundingApplicationDocument> {
  const actor = requireAccess(ctx, 'lenderApplications.respond');
  return respondOnce(ctx, actor, 'acknowledge', id, input, idempotencyKey, () =>
    changeStatus(ctx, actor, id, (row) => {
      const body = input();
      return {
        event: 'acknowledge',
        application: {
          ...(body.reference !== undefined ? { reference: body.reference } : {}),
          ...(body.comment !== undefined ? { comment: body.comment } : {}),
          ...(row.acknowledgedAt === null ? { acknowledgedAt: ctx.clock.now() } : {}),
        },
        note: { comment: body.comment ?? null },
      };
    }),
  );
}

/**
 * POST .../applications/{id}/offer: an offer, replacing the current one whatever its reference
 * (spec 4.5 note 2; earlier ones stay in the history): 200 the updated application.
 */
export async function makeOffer(
  ctx: ServiceContext,
  id: unknown,
  input: CheckedLater<OfferBody>,
  idempotencyKey?: unknown,
): Promise<FundingApplicationDocument> {
  const actor = requireAccess(ctx, 'lenderApplications.respond');
  return respondOnce(ctx, actor, 'offer', id, input, idempotencyKey, () =>
    changeStatus(ctx, actor, id, () => {
      const body = input();
      const objectName = PRODUCT_OBJECT_NAMES.find((n) => body[n] !== undefined) as ProductObjectName;
      return {
        event: 'offer',
        offer: {
          reference: body.reference,
          status: body.status,
          productType: PRODUCT_TYPE_OF[objectName] as ProductType,
          product: body[objectName] as Record<string, unknown>,
          expiryDate: body.expiryDate ? new Date(body.expiryDate) : null,
          comment: body.comment ?? null,
        },
        note: { comment: body.comment ?? null },
      };
    }),
  );
}

/**
 * POST .../applications/{id}/rejection {reason, comment?, reference?}: reason "Failed" (a data,
 * format or processing error) lets the client fix and resubmit; any other reason (e.g. "Ineligible")
 * is a terminal rejection. 200 the updated application.
 */
export async function reject(
  ctx: ServiceContext,
  id: unknown,
  input: CheckedLater<z.output<typeof Rejection>>,
  idempotencyKey?: unknown,
): Promise<FundingApplicationDocument> {
  const actor = requireAccess(ctx, 'lenderApplications.respond');
  return respondOnce(ctx, actor, 'rejection', id, input, idempotencyKey, () =>
    changeStatus(ctx, actor, id, () => {
      const body = input();
      return {
        event: body.reason === FAILURE_REASON ? 'fail' : 'reject',
        application: {
          responseReason: body.reason,
          ...(body.comment !== undefined ? { comment: body.comment } : {}),
          ...(body.reference !== undefined ? { reference: body.reference } : {}),
        },
        note: { reason: body.reason, comment: body.comment ?? null },
      };
    }),
  );
}

/**
 * A lender's answer, once per Idempotency-Key when one is given (src/infra/idempotent-answers.ts): the key is
 * looked at only once the application is found among the lender's (another lender's is a 404) and
 * the body checked (400), so that the key binds exactly this request. The answer is kept without
 * its authorization token, which a replay derives again.
 */
async function respondOnce(
  ctx: ServiceContext,
  actor: Extract<ApplicationViewer, { kind: 'lender' }>,
  operation: string,
  id: unknown,
  input: CheckedLater<unknown>,
  idempotencyKey: unknown,
  respond: () => Promise<LenderDocumentSource>,
): Promise<FundingApplicationDocument> {
  if (idempotencyKey === undefined) return toDocument(await respond());
  const application = await findVisibleLenderApplication(ctx, actor, id);
  const request = { owner: { lenderId: actor.lenderId }, operation, target: application.id, body: input() };
  const token = applicationAuthorizationToken(application.lender.authorizationTokenKey, application.id);
  return answerOnce(
    ctx,
    idempotencyKey,
    request,
    async () => {
      const answer = toDocument(await respond());
      return { answer, kept: withoutAuthorizationToken(answer) as unknown as Prisma.InputJsonObject };
    },
    (kept) => withAuthorizationToken(kept as unknown as FundingApplicationDocument, token),
  );
}

/** A status change as a use case decides it, once it sees the application: the move and what it writes. */
type StatusChange = StatusChangeWrites & { event: ApplicationEvent };

/**
 * One status change: read the application the caller sees (404 when it does not), let the use case
 * decide the change (its body checked: 400), move through the status machine (409 on an illegal
 * move), and write the change, its history and the update webhook (the stored document: no token) in
 * one statement, if the application is still as read; then wake the delivery workers and publish the
 * event. Everything the document, the delivery and the event need is read once; what the change makes
 * of it is built here, not read back (status-change-store.ts says why this is typed SQL, and how the
 * compare-and-set keeps the status machine race-free). When another change came in between, the
 * change is decided again, this time under the row's lock. Returns what each caller's view is built from.
 */
async function changeStatus(
  ctx: ServiceContext,
  actor: ApplicationViewer,
  id: unknown,
  decide: (row: ApplicationBeforeChange) => StatusChange,
): Promise<LenderDocumentSource> {
  const applicationId = parseInput(ApplicationId, id, 'Application id');
  const typedSql = readsOf(ctx.db);
  const outcome =
    (await changeIfUnchanged(ctx, typedSql, actor, applicationId, decide, { lock: false })) ??
    (await typedSql.transaction().execute((trx) => changeIfUnchanged(ctx, trx, actor, applicationId, decide, { lock: true })));
  // Under the row's lock nothing can change it between the read and the writes.
  if (!outcome) throw new Error(`status change of application ${applicationId}: its row changed under its lock`);
  const { changed, audience, event, move } = outcome;
  wakeDeliveryWorkers(ctx);
  if (move) recordApplicationMoves([move]);
  const offer = changed.offers[0] ?? null;
  const offerEvent = event === 'offer' || event === 'accept' || event === 'decline' ? offer : null;
  await publishStatusChange(ctx, audience, changed.status, offerEvent);
  return changed;
}

/** One attempt of a status change (changeStatus): what it committed, or undefined when the application changed since it was read. */
async function changeIfUnchanged(
  ctx: ServiceContext,
  typedSql: SqlReads,
  actor: ApplicationViewer,
  applicationId: number,
  decide: (row: ApplicationBeforeChange) => StatusChange,
  { lock }: { lock: boolean },
) {
  const row = await readVisibleApplication(typedSql, ctx, actor, applicationId, { lock });
  if (!row) throw AppError.notFound('Application');
  const change = decide(row);
  const to = nextStatus(row.status, change.event);
  const now = ctx.clock.now();
  const move = committedMoveOf(row, change.event, to, now);
  const { writes, offerId } = statusChangeWrites(typedSql, row, to, change, now);
  const changed = afterChange(row, to, change, offerId, now);
  // A resubmission is a new application to the lender; every other change is an update.
  const created = change.event === 'resubmit';
  const { written } = await queueDeliveriesWith(
    ctx,
    typedSql,
    [
      {
        lenderApplicationId: row.id,
        lenderId: row.lenderId,
        event: created ? 'APPLICATION_CREATED' : 'APPLICATION_UPDATED',
        url: created ? row.lender.applicationUrl : (row.lender.updateUrl ?? row.lender.applicationUrl),
        payload: toStoredDocument(changed),
      },
    ],
    writes,
    integratorEventsOfChange(row, change.event, to, changed),
  );
  return written ? { changed, audience: row.audience, event: change.event, move } : undefined;
}

/**
 * The events the change gives the integrator account whose client applied (none for a profile of no
 * account), each with the application as the change left it: written with the change, into the
 * account's event log and the outbox of its subscribed endpoints.
 */
function integratorEventsOfChange(row: ApplicationBeforeChange, event: ApplicationEvent, to: string, changed: LenderDocumentSource): NewIntegratorEvent[] {
  const { profile } = row.audience;
  const accountId = profile.ownerAccountId ?? profile.tenant?.accountId ?? null;
  if (accountId === null) return [];
  const data: IntegratorEventData = {
    applicationId: row.id,
    lenderId: row.lenderId,
    tenantId: profile.tenantId,
    previousStatus: row.status,
    status: to,
    application: toIntegratorDocument(changed).application,
  };
  return integratorEventsOf(event, row.status, to).map((type) => ({ accountId, lenderApplicationId: row.id, lenderId: row.lenderId, event: type, data }));
}

/** The application as the change leaves it (what the delivery and the answer show), from the row read and the change. */
function afterChange(row: ApplicationBeforeChange, to: string, change: StatusChangeWrites, offerId: string | null, now: Date): LenderDocumentSource {
  const { application = {} } = change;
  const current = row.currentOffer;
  const offer =
    change.offer && offerId
      ? {
          id: offerId,
          reference: change.offer.reference,
          status: change.offer.status,
          expiryDate: change.offer.expiryDate,
          comment: change.offer.comment,
          decision: null,
          productType: change.offer.productType,
          product: change.offer.product,
        }
      : current && change.decision
        ? { ...current, decision: change.decision }
        : current;
  return {
    id: row.id,
    reference: application.reference ?? row.reference,
    status: to,
    responseReason: application.responseReason !== undefined ? application.responseReason : row.responseReason,
    comment: application.comment !== undefined ? application.comment : row.comment,
    acceptedAt: application.acceptedAt ?? row.acceptedAt,
    invalidatedAt: row.invalidatedAt,
    payload: (application.payload ?? row.payload) as Prisma.JsonValue,
    lender: { authorizationTokenKey: row.lender.authorizationTokenKey },
    offers: offer ? [{ ...offer, product: offer.product as Prisma.JsonValue, supersededAt: null } as DocumentSource['offers'][number]] : [],
  };
}

/**
 * What a status change counts as on /metrics once it commits: a move into another status (a replacing
 * offer is none), or the lender's first acknowledgement (which leaves the status as it is); for the
 * first acknowledgement or first offer, the seconds since its submission (as the insights' response
 * times read them: pipeline-insights.ts). Decided from the read, before the change is written.
 */
function committedMoveOf(row: ApplicationBeforeChange, event: ApplicationEvent, to: string, now: Date): CommittedMove | null {
  const sinceSubmission = (now.getTime() - row.createdAt.getTime()) / 1000;
  if (event === 'acknowledge')
    return row.acknowledgedAt === null ? { lender: row.lender.slug, move: 'acknowledged', firstAnswerSeconds: sinceSubmission } : null;
  if (row.status === to) return null;
  const status = to as ApplicationStatus;
  const move: CommittedMove = { lender: row.lender.slug, move: APPLICATION_MOVE_OF[status] };
  if (status !== 'Offered' || row.answeredBefore.offered) return move;
  return { ...move, firstAnswerSeconds: sinceSubmission };
}

/**
 * After a failure (reason Failed), the client fixes its data and resubmits: the document is built
 * again from the profile as it now is and sent to the lender's application URL as a new delivery.
 * The integrator gets its own view of the application (no apiProvider).
 */
export async function resubmit(ctx: ServiceContext, id: unknown, idempotencyKey?: unknown): Promise<IntegratorApplicationDocument> {
  const actor = requireAccess(ctx, 'lenderApplications.decide');
  const application = await findVisibleLenderApplication(ctx, actor, id);
  return decideOnce(ctx, actor, 'resubmit', application.id, idempotencyKey, async () => {
    const rebuilt = await rebuildDocument(ctx, application.id);
    const updated = await changeStatus(ctx, actor, id, () => ({
      event: 'resubmit',
      application: { payload: withoutAuthorizationToken(rebuilt), responseReason: null, comment: null },
      note: { comment: 'resubmitted by the client' },
    }));
    return toIntegratorDocument(updated);
  });
}

/**
 * The client's decision once per Idempotency-Key (src/infra/idempotent-answers.ts), kept per
 * integrator account: looked at only once the application was found among the caller's (else 404).
 */
function decideOnce(
  ctx: ServiceContext,
  actor: { accountId: string },
  operation: string,
  applicationId: number,
  idempotencyKey: unknown,
  decide: () => Promise<IntegratorApplicationDocument>,
): Promise<IntegratorApplicationDocument> {
  return answerOnceAsIs(
    ctx,
    idempotencyKey,
    { owner: { accountId: actor.accountId }, operation: `lenderApplications.${operation}`, target: applicationId, body: null },
    decide,
  );
}

/** The spec 2.7 document of an application rebuilt from current data (read before any transaction). */
async function rebuildDocument(ctx: ServiceContext, applicationId: number): Promise<Record<string, unknown>> {
  const row = await ctx.db.lenderApplication.findUniqueOrThrow({
    where: { id: applicationId },
    include: { fundingMatch: { include: { fundingSearch: { omit: SEARCH_WITHOUT_MATCHES } } }, profile: true },
  });
  if (!row.fundingMatch) return (row.payload ?? {}) as Record<string, unknown>;
  // The same products as sent the first time (the payload records what the lender was sent).
  const sent = ((row.payload ?? {}) as { application?: { fundingMatch?: { productNames?: string[] } } }).application?.fundingMatch?.productNames;
  const matches = await lenderMatches(ctx.db, row.fundingMatch.fundingSearchId, row.lenderId, sent ?? [row.fundingMatch.productType]);
  const [first] = matches;
  if (!first) return (row.payload ?? {}) as Record<string, unknown>;
  return applicationDocument(ctx, {
    ...(await loadProfileForDocuments(ctx.db, row.profileId)),
    applicationId: row.id,
    grade: await registryGrade(ctx, row.profile),
    fundingSearch: row.fundingMatch.fundingSearch,
    matches: [first, ...matches.slice(1)],
  });
}

/**
 * The client's decision on the current offer (through its integrator): Client Accepted (acceptedAt
 * set) or Client Declined. The lender's update webhook receives the updated application; the
 * integrator gets its own view of it (no apiProvider).
 */
export async function decideOnOffer(
  ctx: ServiceContext,
  id: unknown,
  decision: 'accept' | 'decline',
  idempotencyKey?: unknown,
): Promise<IntegratorApplicationDocument> {
  const actor = requireAccess(ctx, 'lenderApplications.decide');
  const decide = async () => {
    const updated = await changeStatus(ctx, actor, id, () => ({
      event: decision,
      decision: decision === 'accept' ? 'ACCEPTED' : 'DECLINED',
      ...(decision === 'accept' ? { application: { acceptedAt: ctx.clock.now() } } : {}),
      note: { comment: null },
    }));
    return toIntegratorDocument(updated);
  };
  if (idempotencyKey === undefined) return decide();
  return decideOnce(ctx, actor, decision, (await findVisibleLenderApplication(ctx, actor, id)).id, idempotencyKey, decide);
}

/**
 * New applications announced as their first status, In Review, after the submission committed, on
 * the same channels as every later change (lender-application-visibility.ts `eventChannelsOf`), so a
 * board shows them live to exactly those who may read them.
 * @access internal: the caller's submission made these applications, after its own access decision
 */
export async function publishApplicationsSubmitted(ctx: ServiceContext, applicationIds: number[]): Promise<void> {
  for (const audience of await audiencesOf(ctx, applicationIds)) await publishStatusChange(ctx, audience, IN_REVIEW, null);
}

/** A status change (and the offer it concerns) on every channel of the application's audience. */
async function publishStatusChange(
  ctx: ServiceContext,
  audience: ApplicationAudience,
  status: string,
  offer: { id: string; reference: string; status: string; decision: string | null } | null,
): Promise<void> {
  const applicationId = audience.id;
  const channels = eventChannelsOf(audience);
  const event = { applicationId, status, lenderId: audience.lenderId };
  await Promise.all(channels.map((channel) => ctx.events.publish('applicationStatusChanged', channel, event)));
  if (offer) {
    const offerEvent = {
      applicationId,
      lenderId: audience.lenderId,
      offerId: offer.id,
      reference: offer.reference,
      status: offer.status,
      decision: offer.decision,
    };
    await Promise.all(channels.map((channel) => ctx.events.publish('offerStatusChanged', channel, offerEvent)));
  }
}

/**
 * The status changes the caller sees: of every application it sees, or of one (a 404 when the
 * caller does not see it).
 */
export async function subscribeApplicationStatus(ctx: ServiceContext, applicationId?: number): Promise<AsyncIterable<ApplicationStatusChanged>> {
  const actor = requireAccess(ctx, 'applicationEvents.subscribe');
  return ctx.events.subscribe('applicationStatusChanged', await subscriberChannel(ctx, actor, applicationId));
}

/** Offers made, replaced, accepted or declined on the applications the caller sees (or on one). */
export async function subscribeOfferStatus(ctx: ServiceContext, applicationId?: number): Promise<AsyncIterable<OfferStatusChanged>> {
  const actor = requireAccess(ctx, 'applicationEvents.subscribe');
  return ctx.events.subscribe('offerStatusChanged', await subscriberChannel(ctx, actor, applicationId));
}

async function subscriberChannel(ctx: ServiceContext, actor: ApplicationViewer, applicationId?: number): Promise<string> {
  if (applicationId === undefined) return eventChannelOf(ctx, actor);
  return applicationChannel((await findVisibleLenderApplication(ctx, actor, applicationId)).id);
}
