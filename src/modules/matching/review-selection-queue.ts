/**
 * The funding specialists' review queue (staff): a keyset page of their environment's selections,
 * newest first, all or in one state. One statement per page, read from the index on
 * (environment, [state,] createdAt DESC, id DESC): the selection's environment is its profile's,
 * copied onto the row (the rule of review-selection-visibility.ts, without a join).
 */
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
  let query = readsOf(ctx.db)
    .selectFrom('review_selection as s')
    .select(['s.id', 's.profileId', 's.fundingSearchId', 's.state', 's.selection', isoInstant('s.createdAt').as('createdAt')])
    .where('s.environment', '=', ctx.environment);
  if (state) query = query.where('s.state', '=', state);
  if (position) query = query.where(afterInNewestFirst('s.createdAt', 's.id', position));
  const rows = await query.orderBy('s.createdAt', 'desc').orderBy('s.id', 'desc').limit(first + 1).execute();
  const selections = rows.map((row): ReviewSelection => ({ ...row, selection: row.selection as ReviewSelection['selection'] }));
  return pageOf(selections, first, (row) => ({ at: row.createdAt, id: row.id }));
}
