/**
 * The GraphQL documents the dashboard sends: modest depth and size, well under the gateway's
 * operation limits. Every exported string is a document (`/* GraphQL *\/` marks them for editors
 * and tools): GraphQL Code Generator reads them, with the committed supergraph, to generate their
 * result and variable types into ./generated/graphql.ts (`npm run codegen:dashboard`).
 */
const BOARD_OFFER_FIELDS = /* GraphQL */ `fragment BoardOfferFields on BoardOffer { id reference status decision productType amount termMonths interestRate createdAt }`;

export const BOARD = /* GraphQL */ `query Board($filter: LenderApplicationFilter, $first: Int, $after: String) {
  lenderApplicationBoard(filter: $filter, first: $first, after: $after) {
    nodes { id companyName lenderId lenderName productType amount status updatedAt offer { ...BoardOfferFields } }
    pageInfo { endCursor hasNextPage } } }
${BOARD_OFFER_FIELDS}`;
export const HISTORY = /* GraphQL */ `query History($id: Int!) {
  lenderApplicationHistory(applicationId: $id) { at kind status fromStatus reason comment replacedAt offer { ...BoardOfferFields } } }
${BOARD_OFFER_FIELDS}`;
export const LENDERS = /* GraphQL */ 'query Lenders { lenders { id name priceBand responseTimeHours products { id productType name instantOffer } } }';
export const REVIEW_QUEUE = /* GraphQL */ 'query Reviews($first: Int) { reviewQueue(first: $first) { nodes { id profileId fundingSearchId state createdAt selection { lenderId products } } } }';
export const REVIEW_SELECTION = /* GraphQL */ `query Review($id: ID!) { reviewSelection(selectionId: $id) {
  selectionId state
  applicant { companyName companyNumber companyType sector creditGrade amount periodMonths useOfFunds urgency }
  lenders { lenderId lenderName matched products likelihood reasons missingFields { field message } } } }`;
export const SUBMIT_SELECTION = /* GraphQL */ 'mutation Submit($id: ID!) { submitReviewedSelection(selectionId: $id) { selectionId applications { lenderId applicationId } } }';
export const DELIVERIES = /* GraphQL */ 'query Deliveries($status: String, $first: Int) { webhookDeliveries(status: $status, first: $first) { nodes { id lenderApplicationId lenderId event url status attempts lastStatusCode lastError nextAttemptAt deliveredAt createdAt attemptLog { statusCode error latencyMs attemptedAt } } } }';
export const REDELIVER = /* GraphQL */ 'mutation Redeliver($id: ID!) { redeliverWebhook(deliveryId: $id) { id status attempts nextAttemptAt } }';
export const CREATE_LENDER = /* GraphQL */ 'mutation CreateLender($input: LenderInput!) { createLender(input: $input) { id name } }';
export const UPDATE_LENDER = /* GraphQL */ 'mutation UpdateLender($id: Int!, $input: LenderUpdateInput!) { updateLender(id: $id, input: $input) { id name } }';
export const SAVE_PRODUCT = /* GraphQL */ 'mutation SaveProduct($lenderId: Int!, $input: LenderProductInput!) { saveLenderProduct(lenderId: $lenderId, input: $input) { id name products { id productType name } } }';
export const APPLICATION_STATUS_CHANGED = /* GraphQL */ 'subscription ApplicationStatusChanged { applicationStatusChanged { applicationId } }';
export const OFFER_STATUS_CHANGED = /* GraphQL */ 'subscription OfferStatusChanged { offerStatusChanged { applicationId } }';

export const PRODUCT_TYPES = [
  'ASSET_BACKED_FINANCE', 'COMMERCIAL_PROPERTY', 'E_COMMERCE_FUNDING', 'FIXED_LOAN_TERMS',
  'INVOICE_FINANCE', 'MERCHANT_CASH_ADVANCE', 'TERM_LOAN', 'TRADE_FINANCE',
] as const;

export const APPLICATION_STATUSES = ['Submitted', 'Acknowledged', 'Offered', 'Failed', 'Rejected', 'Client Accepted', 'Client Declined'] as const;
