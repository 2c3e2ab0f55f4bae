/**
 * An integrator account's event log (GET /api/platform/v1/events): every event of its clients'
 * applications (status changes, offers, the clients' decisions), each the body its webhooks carry,
 * whether or not an endpoint subscribes to it, kept EVENT_RETENTION_DAYS days: a backend catches up
 * after an outage, or works without webhooks. Written in the transaction of the change that caused
 * it (webhook-delivery.ts `queueDeliveriesWith`).
 *
 * Order and cursor as the lender's events (lender-events.ts): by the id of the transaction that wrote
 * the event, then its position in it, listing only events whose transaction is below the oldest one still running,
 * so none can later commit behind a cursor already handed out.
 */
import { sql } from 'kysely';
import { z } from 'zod';
import { readsOf } from '../../infra/database.js';
import { requireAccess } from '../../kernel/access-policy.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { EVENT_RETENTION_DAYS, type AccountEvent, type AccountEventPage, type AccountEventQuery } from './integrator-webhook-schemas.js';

const DAY_MS = 86_400_000;

/** An event's place in the order: its transaction id and its position in it (as text: 64-bit numbers). */
const EventPosition = z.tuple([z.string().regex(/^[0-9]{1,20}$/), z.string().regex(/^[0-9]{1,20}$/)]);
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

/** The calling account's events after the cursor, oldest first, of the last EVENT_RETENTION_DAYS days. */
export async function listAccountEvents(ctx: ServiceContext, query: AccountEventQuery): Promise<AccountEventPage> {
  const actor = requireAccess(ctx, 'integratorEvents.read');
  const position = query.after === undefined ? undefined : decodePosition(query.after);
  const keptSince = new Date(ctx.clock.now().getTime() - EVENT_RETENTION_DAYS * DAY_MS).toISOString();
  let statement = readsOf(ctx.db)
    .selectFrom('integrator_event as e')
    .select([
      sql<string>`e.id::text`.as('id'),
      sql<string>`e."transactionId"::text`.as('transactionId'),
      sql<string>`e.position::text`.as('position'),
      'e.lenderApplicationId',
      'e.payload',
    ])
    .where('e.accountId', '=', actor.accountId)
    .where(sql<boolean>`e."createdAt" >= ${keptSince}::timestamp(3)`)
    .where(sql<boolean>`e."transactionId" < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`);
  if (position) statement = statement.where(sql<boolean>`(e."transactionId", e.position) > (${position[0]}::bigint, ${position[1]}::bigint)`);
  const rows = await statement
    .orderBy('e.transactionId')
    .orderBy('e.position')
    .limit(query.first + 1)
    .execute();
  const nodes = rows.slice(0, query.first).map((row): AccountEvent => {
    const body = row.payload as { type: AccountEvent['type']; timestamp: string; data: Record<string, unknown> };
    return { id: row.id, type: body.type, timestamp: body.timestamp, applicationId: row.lenderApplicationId, data: body.data };
  });
  const last = rows[Math.min(rows.length, query.first) - 1];
  return {
    nodes,
    pageInfo: { endCursor: last ? encodePosition([last.transactionId, last.position]) : (query.after ?? null), hasNextPage: rows.length > query.first },
  };
}

/**
 * Deletes the events older than EVENT_RETENTION_DAYS days (the list no longer shows them); answers how many.
 * @access worker: the delivery worker's upkeep, acting for no caller
 */
export async function purgeExpiredAccountEvents(ctx: ServiceContext): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - EVENT_RETENTION_DAYS * DAY_MS);
  const { count } = await ctx.db.integratorEvent.deleteMany({ where: { createdAt: { lt: before } } });
  return count;
}
