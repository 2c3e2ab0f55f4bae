/**
 * The board's total and counts per status, read from the counters the statement triggers of
 * migration 20261208070000_board_counters keep in the same statement as every write of an
 * application: per lender (staff's scope, summed over the environment's lenders) and per profile and
 * lender (a platform user's scope, summed over the profiles their account owns). A read sums a few
 * counter rows by their primary key, however many applications there are. Only the filters the
 * counters are kept by can be read here (the scope, a lender, a status); a search, a last change or
 * one application is counted on the rows (application-board.ts).
 */
import { sql } from 'kysely';
import type { SqlReads } from '../../infra/sql-reads.js';
import type { ApplicationListScope } from './lender-application-visibility.js';

/** Applications per status under the caller's scope (and a lender when given); statuses without any are absent. */
export async function countedByStatus(reads: SqlReads, scope: ApplicationListScope, lenderId: number | undefined): Promise<Map<string, number>> {
  const owned = scope.ownedProfileIds;
  const rows = owned
    ? // Profile by profile (a LATERAL the planner cannot turn into a hash join over every profile's counters).
      await reads
        .selectFrom(owned.as('owned'))
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('application_count_by_profile as c')
              .select(['c.status', 'c.count'])
              .whereRef('c.profileId', '=', 'owned.id')
              .where('c.environment', '=', scope.environment)
              .$if(lenderId !== undefined, (q) => q.where('c.lenderId', '=', lenderId!))
              // OFFSET 0 keeps the subquery apart: pulled up into the join, the planner hashes every counter.
              .offset(0)
              .as('c'),
          (join) => join.onTrue(),
        )
        .select(['c.status', sql<string>`sum(c.count)`.as('count')])
        .groupBy('c.status')
        .execute()
    : await reads
        .selectFrom('application_count_by_lender as c')
        .select(['c.status', sql<string>`sum(c.count)`.as('count')])
        .where('c.environment', '=', scope.environment)
        .$if(scope.lenderId !== undefined, (q) => q.where('c.lenderId', '=', scope.lenderId!))
        .$if(lenderId !== undefined, (q) => q.where('c.lenderId', '=', lenderId!))
        .groupBy('c.status')
        .execute();
  return new Map(rows.map((row) => [row.status, Number(row.count)]));
}
