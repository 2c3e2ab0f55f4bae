/**
 * The lender API's events (GET /events): a lender's deliveries are the record of its events, each
 * the body its webhook carries, so a lender can catch up after an outage, or work without webhooks.
 * Deliveries are never deleted but with their application, so events are kept as long as it is.
 *
 * Order and cursor: by the id of the transaction that wrote the delivery, then application and
 * sequence number. A page lists only deliveries whose transaction id is below the oldest transaction
 * still running (`pg_snapshot_xmin`): every such transaction has ended, so no delivery can later
 * commit behind a cursor already handed out, and paging from any cursor returns each event exactly
 * once. An event appears once every transaction that began before it has ended (milliseconds, unless
 * a long transaction is running).
 */
import { sql } from 'kysely';
import { z } from 'zod';
import { readsOf } from '../../infra/database.js';
import { requireAccess } from '../../kernel/access-policy.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { applicationAuthorizationToken, withAuthorizationToken } from './authorization-token.js';
import type { LenderEvent, LenderEventPage, LenderEventQuery } from './lender-event-schemas.js';
import { deliveryScopeOf, deliverySqlScope, type LenderDeliveryEvent } from './webhook-delivery-visibility.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-headers.js';

/** An event's place in the order: its transaction id (as text: a 64-bit number), application id and sequence number. */
const EventPosition = z.tuple([z.string().regex(/^[0-9]{1,20}$/), z.number().int().positive(), z.number().int().positive()]);
type EventPosition = z.infer<typeof EventPosition>;

const encodePosition = (position: EventPosition) => Buffer.from(JSON.stringify(position)).toString('base64url');

function decodePosition(cursor: string): EventPosition {
  let content: unknown;
  try {
    content = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    content = undefined;
  }
  const parsed = EventPosition.safeParse(content);
  if (!parsed.success)
    throw AppError.badRequest('The cursor is not one this list issued', [{ pointer: 'after', message: "must be a page's endCursor, unchanged" }]);
  return parsed.data;
}

/** The calling lender's events after the cursor, oldest first. */
export async function listLenderEvents(ctx: ServiceContext, query: LenderEventQuery): Promise<LenderEventPage> {
  const actor = requireAccess(ctx, 'lenderEvents.read');
  const position = query.after === undefined ? undefined : decodePosition(query.after);
  const reads = readsOf(ctx.db);
  let statement = reads
    .selectFrom('webhook_delivery as d')
    .select([
      sql<string>`d.id::text`.as('id'),
      sql<string>`d."transactionId"::text`.as('transactionId'),
      'd.event',
      'd.lenderApplicationId',
      'd.sequence',
      'd.payload',
      sql<string>`to_char(d."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('createdAt'),
    ])
    .where(deliverySqlScope(deliveryScopeOf(ctx, actor)))
    .where(sql<boolean>`d."transactionId" < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`);
  if (position) {
    statement = statement.where(
      sql<boolean>`(d."transactionId", d."lenderApplicationId", d.sequence) > (${position[0]}::bigint, ${position[1]}::int, ${position[2]}::int)`,
    );
  }
  const rows = await statement
    .orderBy('d.transactionId')
    .orderBy('d.lenderApplicationId')
    .orderBy('d.sequence')
    .limit(query.first + 1)
    .execute();
  const lender = await reads.selectFrom('lender').select('authorizationTokenKey').where('id', '=', actor.lenderId).executeTakeFirst();
  const nodes = rows.slice(0, query.first).map((row): LenderEvent => ({
    id: row.id,
    // The lender's scope holds its own deliveries only (webhook-delivery-visibility.ts): a lender's events.
    type: WEBHOOK_EVENT_TYPES[row.event as LenderDeliveryEvent],
    applicationId: row.lenderApplicationId,
    sequence: row.sequence,
    createdAt: row.createdAt,
    // As the webhook sends it: the application's token of the moment added (authorization-token.ts).
    data: withAuthorizationToken(
      row.payload as Record<string, unknown>,
      applicationAuthorizationToken(lender?.authorizationTokenKey ?? null, row.lenderApplicationId),
    ),
  }));
  const last = rows[Math.min(rows.length, query.first) - 1];
  return {
    nodes,
    pageInfo: {
      endCursor: last ? encodePosition([last.transactionId, last.lenderApplicationId, last.sequence]) : null,
      hasNextPage: rows.length > query.first,
    },
  };
}
