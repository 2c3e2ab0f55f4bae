/** The lender catalogue's documents (see ./queries.ts); the lender list also names lenders in other views. */
export const LENDERS = /* GraphQL */ 'query Lenders { lenders { id name priceBand responseTimeHours products { id productType name instantOffer } } }';
export const CREATE_LENDER = /* GraphQL */ 'mutation CreateLender($input: LenderInput!) { createLender(input: $input) { id name } }';
export const UPDATE_LENDER = /* GraphQL */ 'mutation UpdateLender($id: Int!, $input: LenderUpdateInput!) { updateLender(id: $id, input: $input) { id name } }';
export const SAVE_PRODUCT =
  /* GraphQL */ 'mutation SaveProduct($lenderId: Int!, $input: LenderProductInput!) { saveLenderProduct(lenderId: $lenderId, input: $input) { id name products { id productType name } } }';

export const PRODUCT_TYPES = [
  'ASSET_BACKED_FINANCE',
  'COMMERCIAL_PROPERTY',
  'E_COMMERCE_FUNDING',
  'FIXED_LOAN_TERMS',
  'INVOICE_FINANCE',
  'MERCHANT_CASH_ADVANCE',
  'TERM_LOAN',
  'TRADE_FINANCE',
] as const;
export const LENDER_SETTINGS =
  /* GraphQL */ 'query LenderSettings { lenderSettings { lenderId name applicationUrl updateUrl products { id productType name minAmount maxAmount minTermMonths maxTermMonths minTradingMonths minAnnualRevenue minGrade excludedSectors requiredSectors companyTypes countries currencies requirements { raisesInvoices cardPayments minAverageCardSales ownsAsset needsAsset purchaseOrders property homeownerDirector personalGuarantee governmentBacked } arrangementFeePct earlyRepaymentFeePct exitFeePct annualRateMin annualRateMax likelihoodBase instantOffer active } } }';
