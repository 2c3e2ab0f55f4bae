/** The GraphQL documents the dashboard sends: modest depth and size, well under the gateway's operation limits. */
const OFFER = 'id reference status decision productType amount termMonths interestRate createdAt';
export const ROW_FIELDS = `id companyName lenderId lenderName productType amount status updatedAt offer { ${OFFER} }`;

export const BOARD = `query Board($filter: LenderApplicationFilter) { lenderApplicationBoard(filter: $filter) { ${ROW_FIELDS} } }`;
export const HISTORY = `query History($id: Int!) { lenderApplicationHistory(applicationId: $id) { at kind status fromStatus reason comment replacedAt offer { ${OFFER} } } }`;
export const LENDERS = 'query Lenders { lenders { id name priceBand responseTimeHours products { id productType name instantOffer } } }';
export const REVIEW_QUEUE = 'query Reviews { reviewQueue { id profileId fundingSearchId state createdAt selection { lenderId products } } }';
export const REVIEW_SELECTION = `query Review($id: ID!) { reviewSelection(selectionId: $id) {
  selectionId state
  applicant { companyName companyNumber companyType sector creditGrade amount periodMonths useOfFunds urgency }
  lenders { lenderId lenderName matched products likelihood reasons missingFields { field message } } } }`;
export const SUBMIT_SELECTION = 'mutation Submit($id: ID!) { submitReviewedSelection(selectionId: $id) { selectionId applications { lenderId applicationId } } }';
export const DELIVERIES = 'query Deliveries($status: String) { webhookDeliveries(status: $status) { id lenderApplicationId lenderId event url status attempts lastStatusCode lastError nextAttemptAt deliveredAt createdAt attemptLog { statusCode error latencyMs attemptedAt } } }';
export const REDELIVER = 'mutation Redeliver($id: ID!) { redeliverWebhook(deliveryId: $id) { id status attempts nextAttemptAt } }';
export const CREATE_LENDER = 'mutation CreateLender($input: LenderInput!) { createLender(input: $input) { id name } }';
export const UPDATE_LENDER = 'mutation UpdateLender($id: Int!, $input: LenderUpdateInput!) { updateLender(id: $id, input: $input) { id name } }';
export const SAVE_PRODUCT = 'mutation SaveProduct($lenderId: Int!, $input: LenderProductInput!) { saveLenderProduct(lenderId: $lenderId, input: $input) { id name products { id productType name } } }';

export interface BoardOffer {
  id: string;
  reference: string;
  status: string;
  decision: string | null;
  productType: string;
  amount: number | null;
  termMonths: number | null;
  interestRate: number | null;
  createdAt: string;
}

export interface BoardRow {
  id: number;
  companyName: string | null;
  lenderId: number;
  lenderName: string;
  productType: string | null;
  amount: number | null;
  status: string;
  updatedAt: string;
  offer: BoardOffer | null;
}

export interface HistoryEntry {
  at: string;
  kind: string;
  status: string | null;
  fromStatus: string | null;
  reason: string | null;
  comment: string | null;
  replacedAt: string | null;
  offer: BoardOffer | null;
}

export interface LenderSummary {
  id: number;
  name: string;
  priceBand: string;
  responseTimeHours: number;
  products: Array<{ id: number; productType: string; name: string; instantOffer: boolean }>;
}

export interface ReviewSelection {
  id: string;
  profileId: string;
  fundingSearchId: number;
  state: string;
  createdAt: string;
  selection: Array<{ lenderId: number; products: string[] }>;
}

export interface ReviewPreview {
  selectionId: string;
  state: string;
  applicant: {
    companyName: string | null;
    companyNumber: string | null;
    companyType: string | null;
    sector: string | null;
    creditGrade: string | null;
    amount: number;
    periodMonths: number | null;
    useOfFunds: string | null;
    urgency: string | null;
  };
  lenders: Array<{ lenderId: number; lenderName: string | null; matched: boolean; products: string[]; likelihood: number | null; reasons: string[]; missingFields: Array<{ field: string; message: string }> }>;
}

export interface Delivery {
  id: string;
  lenderApplicationId: number;
  lenderId: number;
  event: string;
  url: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
  attemptLog: Array<{ statusCode: number | null; error: string | null; latencyMs: number; attemptedAt: string }>;
}

export const PRODUCT_TYPES = [
  'ASSET_BACKED_FINANCE', 'COMMERCIAL_PROPERTY', 'E_COMMERCE_FUNDING', 'FIXED_LOAN_TERMS',
  'INVOICE_FINANCE', 'MERCHANT_CASH_ADVANCE', 'TERM_LOAN', 'TRADE_FINANCE',
] as const;

export const APPLICATION_STATUSES = ['Submitted', 'Acknowledged', 'Offered', 'Failed', 'Rejected', 'Client Accepted', 'Client Declined'] as const;
