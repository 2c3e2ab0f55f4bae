/**
 * The funding specialists' review queue (staff): a keyset page of their environment's selections,
 * newest first, all or in one state, each with the company it is for (name and registration number,
 * from its profile), its assignee and the reason of a rejection or return. One statement per page,
 * read from the index on (environment, [state,] createdAt DESC, id DESC): the selection's environment
 * is its profile's, copied onto the row (the rule of review-selection-visibility.ts); the profile and
 * the assignee are joined by key.
 */
import { sql } from 'kysely';
import { z } from 'zod';
import type { ServiceContext } from '../../kernel/context.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { parseInput } from '../../kernel/validation.js';
import { pageOf, parsePageArgs, pageSchemaOf } from '../../kernel/keyset-pages.js';
import { readsOf } from '../../infra/database.js';
import { afterInNewestFirst, isoInstant } from '../../infra/keyset-sql.js';
import { REVIEW_STATES, ReviewSelection } from './funding-search-schemas.js';

export const ReviewQueuePage = pageSchemaOf(ReviewSelection, 'ReviewQueuePage', "A page of the funding specialists' review queue, newest first");
export type ReviewQueuePage = z.infer<typeof ReviewQueuePage>;

const ReviewQueueFilter = z.strictObject({ state: z.enum(REVIEW_STATES, { message: `must be one of ${REVIEW_STATES.join(', ')}` }).optional() });

export async function listReviewQueue(ctx: ServiceContext, filter: { state?: string }, page: unknown = {}): Promise<ReviewQueuePage> {
  requireAccess(ctx, 'reviews.read');
  const { state } = parseInput(ReviewQueueFilter, filter, 'Filter');
  const { first, position } = parsePageArgs<string>(page, 'string');
  let query = queueRows(ctx);
  if (state) query = query.where('s.state', '=', state);
  if (position) query = query.where(afterInNewestFirst('s.createdAt', 's.id', position));
  const rows = await query
    .orderBy('s.createdAt', 'desc')
    .orderBy('s.id', 'desc')
    .limit(first + 1)
    .execute();
  return pageOf(rows.map(toQueueItem), first, (row) => ({ at: row.createdAt, id: row.id }));
}

/**
 * One selection as the queue shows it, after an action changed it.
 * @access internal: the caller decided access; the selection is read in the caller's environment only
 */
export async function reviewQueueItem(ctx: ServiceContext, selectionId: string): Promise<ReviewSelection> {
  const row = await queueRows(ctx).where('s.id', '=', selectionId).executeTakeFirstOrThrow();
  return toQueueItem(row);
}

function queueRows(ctx: ServiceContext) {
  return readsOf(ctx.db)
    .selectFrom('review_selection as s')
    .innerJoin('profile as p', 'p.id', 's.profileId')
    .leftJoin('platform_user as u', 'u.id', 's.assigneeId')
    .select([
      's.id',
      's.profileId',
      's.fundingSearchId',
      's.state',
      's.selection',
      's.decisionReason',
      isoInstant('s.createdAt').as('createdAt'),
      sql<string | null>`p."companyInformation"->>'name'`.as('companyName'),
      sql<string | null>`COALESCE(p."companyInformation"->>'registrationNumber', p."registrationNumber")`.as('companyNumber'),
      sql<string | null>`COALESCE(p."companyInformation"->>'type', p."companyType"::text)`.as('companyType'),
      'u.id as assigneeId',
      'u.name as assigneeName',
      'u.email as assigneeEmail',
    ])
    .where('s.environment', '=', ctx.environment);
}

type QueueRow = Awaited<ReturnType<ReturnType<typeof queueRows>['execute']>>[number];

function toQueueItem(row: QueueRow): ReviewSelection {
  return {
    id: row.id,
    profileId: row.profileId,
    fundingSearchId: row.fundingSearchId,
    state: row.state,
    selection: row.selection as ReviewSelection['selection'],
    createdAt: row.createdAt,
    company: { profileId: row.profileId, name: row.companyName, number: row.companyNumber, type: row.companyType },
    assignee: row.assigneeId && row.assigneeEmail ? { userId: row.assigneeId, name: row.assigneeName, email: row.assigneeEmail } : null,
    reason: row.decisionReason,
  };
}
