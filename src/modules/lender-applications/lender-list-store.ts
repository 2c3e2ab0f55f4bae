/**
 * The SQL of the lender API's application list that is its own: where a page continues. Kept apart
 * from the list's statement (lender-application-service.ts `listLenderApplications`) so that the
 * statement's filters and orders can change without touching how a page seeks its start.
 */
import { sql, type RawBuilder } from 'kysely';

/**
 * The rows after application `after` in the list's order (`key`, then id; descending when asked),
 * among one lender's. The position of `after` is read in the same statement, among that lender's
 * applications only (another's would tell when it was made): any other id continues nowhere, an empty
 * page. The lender is a value, not the outer row's column, so the subquery is run once and the list's
 * index on (lenderId, createdAt, id) is entered at that position, however deep the page.
 */
export function afterApplication(lenderId: number, after: number, key: (table: string) => RawBuilder<unknown>, descending: boolean) {
  return sql<boolean>`(${key('la')}, ${sql.ref('la.id')}) ${sql.raw(descending ? '<' : '>')} (SELECT ${key('previous')}, previous.id FROM lender_application previous WHERE previous.id = ${after} AND previous."lenderId" = ${lenderId})`;
}
