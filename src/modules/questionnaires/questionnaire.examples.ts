/**
 * Example answers of the API reference (the questionnaire routes' examples), and the fixtures the
 * test suite answers with (test/support/answers.ts): ACME WIDGETS LIMITED, a Sheffield manufacturer
 * of the demo registry (company number 09876543, grade A), asking for £150,000 over 24 months to
 * expand. Declared once, so the reference shows what the tests send.
 */

/** A complete `introducer-all-funding-products` answer set (every required answer). */
export const ACME_ANSWERS = {
  clientName: 'Ada Owner',
  clientEmail: 'ada@acme-widgets.example',
  clientNumber: '+44 20 7946 0000',
  legalRequirements: true,
  companyType: 'LIMITED_COMPANY',
  companyNumber: '09876543',
  companyName: 'ACME WIDGETS LIMITED',
  useOfFunds: 'BUSINESS_EXPANSION',
  fundingAmount: { code: 'GBP', value: 150000 },
  fundingPeriod: 24,
  sector: 'MANUFACTURING',
  incorporationDate: '2015-10-19',
  revenue: { code: 'GBP', value: 900000 },
  raiseInvoices: true,
  cardPayments: false,
  fundingAsset: false,
  purchaseOrders: false,
  governmentBacked: false,
  governmentBackedLoansExist: false,
  homeOwnership: true,
  personalGuarantee: true,
  businessOwnsAssets: true,
} as const;

/** A partial answer set: the figures from the latest filed accounts. */
export const ACME_PATCH = {
  netProfit: { code: 'GBP', value: 85000 },
  fundingUrgency: 'ONE_MONTH',
} as const;

export const EXAMPLE_QUESTIONNAIRE = 'introducer-all-funding-products';
