/** The board's documents (see ./queries.ts): the applications list, one application's history and the live events. */
const BOARD_OFFER_FIELDS = /* GraphQL */ `fragment BoardOfferFields on BoardOffer { id reference status decision productType amount termMonths interestRate createdAt }`;

export const BOARD = /* GraphQL */ `query Board($filter: LenderApplicationFilter, $first: Int, $after: String, $orderBy: LenderApplicationOrder) {
  lenderApplicationBoard(filter: $filter, first: $first, after: $after, orderBy: $orderBy) {
    nodes { id companyName companyNumber reference lenderId lenderName productType amount status acknowledgedAt createdAt updatedAt statusChangedAt offer { ...BoardOfferFields } }
    pageInfo { endCursor hasNextPage } totalCount statusCounts { status count } } }
${BOARD_OFFER_FIELDS}`;
/** One row again (after its live event) and the counts it may have changed. */
export const BOARD_ROW = /* GraphQL */ `query BoardRow($filter: LenderApplicationFilter, $counts: LenderApplicationFilter) {
  lenderApplicationBoard(filter: $filter, first: 1) {
    nodes { id companyName companyNumber reference lenderId lenderName productType amount status acknowledgedAt createdAt updatedAt statusChangedAt offer { ...BoardOfferFields } } }
  counts: lenderApplicationBoard(filter: $counts, first: 1) { totalCount statusCounts { status count } } }
${BOARD_OFFER_FIELDS}`;
export const HISTORY = /* GraphQL */ `query History($id: Int!) {
  lenderApplicationHistory(applicationId: $id) { at sequence kind status fromStatus reason comment replacedAt offer { ...BoardOfferFields } } }
${BOARD_OFFER_FIELDS}`;
export const APPLICATION_STATUS_CHANGED = /* GraphQL */ 'subscription ApplicationStatusChanged { applicationStatusChanged { applicationId } }';
export const OFFER_STATUS_CHANGED = /* GraphQL */ 'subscription OfferStatusChanged { offerStatusChanged { applicationId } }';

export const APPLICATION_STATUSES = ['In Review', 'Offered', 'Failed', 'Rejected', 'Client Accepted', 'Client Declined'] as const;
