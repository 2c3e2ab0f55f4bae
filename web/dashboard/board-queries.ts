/** The board's documents (see ./queries.ts): the applications list, one application's history and the live events. */
const BOARD_OFFER_FIELDS = /* GraphQL */ `fragment BoardOfferFields on BoardOffer { id reference status decision productType amount termMonths interestRate createdAt }`;

export const BOARD = /* GraphQL */ `query Board($filter: LenderApplicationFilter, $first: Int, $after: String) {
  lenderApplicationBoard(filter: $filter, first: $first, after: $after) {
    nodes { id companyName lenderId lenderName productType amount status updatedAt offer { ...BoardOfferFields } }
    pageInfo { endCursor hasNextPage } } }
${BOARD_OFFER_FIELDS}`;
export const HISTORY = /* GraphQL */ `query History($id: Int!) {
  lenderApplicationHistory(applicationId: $id) { at kind status fromStatus reason comment replacedAt offer { ...BoardOfferFields } } }
${BOARD_OFFER_FIELDS}`;
export const APPLICATION_STATUS_CHANGED = /* GraphQL */ 'subscription ApplicationStatusChanged { applicationStatusChanged { applicationId } }';
export const OFFER_STATUS_CHANGED = /* GraphQL */ 'subscription OfferStatusChanged { offerStatusChanged { applicationId } }';

export const APPLICATION_STATUSES = ['Submitted', 'Acknowledged', 'Offered', 'Failed', 'Rejected', 'Client Accepted', 'Client Declined'] as const;
