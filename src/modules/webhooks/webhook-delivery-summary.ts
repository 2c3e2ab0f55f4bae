/**
 * Each lender's webhook delivery health (staff): deliveries of the window counted by status and the
 * success rate, failing lenders first (those with failing or dead deliveries, most first). Counted
 * in one SQL statement over the (environment, createdAt) index; the deliveries view and the
 * insights charts read it alike.
 */
import { sql } from 'kysely';
import type { ServiceContext } from '../../kernel/context.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { parseInput } from '../../kernel/validation.js';
import { readsOf } from '../../infra/database.js';
import { DeliverySummaryWindow, type LenderDeliverySummary } from './webhook-delivery-summary-schemas.js';

const HOUR_MS = 3_600_000;

/** Staff: the deliveries to their environment's lenders (the rule of webhook-delivery-visibility.ts) in the window, per lender. */
export async function summariseDeliveriesByLender(ctx: ServiceContext, window: { hours?: number }): Promise<LenderDeliverySummary[]> {
  requireAccess(ctx, 'deliverySummary.read');
  const { hours } = parseInput(DeliverySummaryWindow, window, 'Window');
  const since = new Date(ctx.clock.now().getTime() - hours * HOUR_MS).toISOString();
  const count = (...statuses: string[]) => sql<number>`(count(*) filter (where d.status::text in (${sql.join(statuses)})))::int`;
  return (
    readsOf(ctx.db)
      .selectFrom('webhook_delivery as d')
      .innerJoin('lender as l', 'l.id', 'd.lenderId')
      .select([
        'd.lenderId',
        'l.name as lenderName',
        count('DELIVERED').as('delivered'),
        count('FAILED').as('failing'),
        count('DEAD').as('dead'),
        count('PENDING').as('pending'),
        sql<number>`count(*)::int`.as('total'),
        sql<
          number | null
        >`(count(*) filter (where d.status::text = 'DELIVERED'))::float8 / nullif(count(*) filter (where d.status::text in ('DELIVERED', 'FAILED', 'DEAD')), 0)`.as(
          'successRate',
        ),
        sql<string | null>`to_char(max(d."updatedAt") filter (where d.status::text in ('FAILED', 'DEAD')), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(
          'lastFailureAt',
        ),
      ])
      .where('d.environment', '=', ctx.environment)
      .where('d.createdAt', '>=', sql<Date>`${since}::timestamp(3)`)
      .groupBy(['d.lenderId', 'l.name'])
      // Failing lenders first (most failing or dead deliveries first), then the lowest success rate.
      .orderBy(count('FAILED', 'DEAD'), 'desc')
      .orderBy(sql`"successRate" asc nulls last`)
      .orderBy('l.name')
      .orderBy('d.lenderId')
      .execute()
  );
}
