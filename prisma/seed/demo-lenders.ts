/**
 * The demo lender catalogue: 30 life-like (fictitious) lenders with one to four products each, so
 * every product type has several lenders with different appetites (amount, term, trading history,
 * revenue, worst accepted grade, sectors, company types, country) and prices. Pure data: no I/O.
 *
 * Units used in the catalogue (and in the lender_product columns):
 * - amounts in the product's currencies (first currency is the main one), e.g. 25000 = GBP 25,000;
 * - minTermMonths 0 means a rolling facility (invoice / trade finance): any requested period fits;
 * - minGrade is the worst credit grade still accepted (A best ... F; G = dissolved is never accepted);
 * - arrangementFeePct / earlyRepaymentFeePct / exitFeePct and annualRateMin/Max are percentages
 *   (2.5 = 2.5 %); likelihoodBase is a fraction 0..1 (the base likelihood of acceptance).
 *
 * Webhooks: demo lenders point at DEMO_WEBHOOK_PLACEHOLDER, which never delivers (port 0). A
 * lender receives webhooks only once a real applicationUrl (and a secret) has been configured.
 */
import type { CompanyType, PriceBand, ProductType, Sector } from '../../src/generated/prisma/enums.js';
import type { RequiredFieldRule } from '../../src/modules/lender-applications/required-fields.js';
import type { ProductRequirements } from '../../src/modules/matching/matching-engine.js';

export type { ProductRequirements, RequiredFieldRule };

/** Non-delivering webhook URL of demo lenders until one is configured. */
export const DEMO_WEBHOOK_PLACEHOLDER = 'http://127.0.0.1:0/unset';

export interface DemoProduct {
  productType: ProductType;
  name: string;
  minAmount: number;
  maxAmount: number;
  minTermMonths: number;
  maxTermMonths: number;
  minTradingMonths: number;
  minAnnualRevenue: number;
  minGrade: 'A' | 'B' | 'C' | 'D' | 'E' | 'F';
  excludedSectors: Sector[];
  requiredSectors: Sector[];
  companyTypes: CompanyType[];
  countries: string[];
  currencies: string[];
  requirements: ProductRequirements;
  arrangementFeePct: number;
  earlyRepaymentFeePct: number;
  exitFeePct: number;
  annualRateMin: number;
  annualRateMax: number;
  likelihoodBase: number;
  instantOffer: boolean;
}

export interface DemoLender {
  slug: string;
  name: string;
  logo: string;
  icon: string;
  description: string;
  responseTimeHours: number;
  requiredDocuments: string[];
  priceBand: PriceBand;
  applicationUrl: string;
  requiredFields: RequiredFieldRule[];
  products: DemoProduct[];
}

// ------------------------------------------------------------------------------------------ vocabulary

const DOCS = {
  bank: "Last 6 months' business bank statements",
  accounts: 'Latest filed accounts',
  management: 'Management accounts (year to date)',
  id: 'Photo ID for all directors',
  proofOfAddress: 'Proof of address for all directors',
  debtors: 'Aged debtors and creditors report',
  vat: "Last 4 quarters' VAT returns",
  card: 'Card terminal statements (last 3 months)',
  assetQuote: 'Asset quote or supplier invoice',
  property: 'Property schedule and valuation',
  orders: 'Purchase orders and supplier pro-forma invoices',
  plan: 'Business plan and 12-month cash-flow forecast',
  marketplace: 'Online marketplace sales reports (last 6 months)',
  tax: 'Latest corporation tax computation',
} as const;
type Doc = keyof typeof DOCS;

const ALL_TYPES: CompanyType[] = ['LIMITED_COMPANY', 'LIMITED_LIABILITY_PARTNERSHIP', 'SOLE_TRADER', 'STARTUP'];
const INCORPORATED: CompanyType[] = ['LIMITED_COMPANY', 'LIMITED_LIABILITY_PARTNERSHIP'];
const LIMITED_AND_STARTUP: CompanyType[] = ['LIMITED_COMPANY', 'LIMITED_LIABILITY_PARTNERSHIP', 'STARTUP'];
const NOT_SOLE: CompanyType[] = LIMITED_AND_STARTUP;

/** Sectors most mainstream lenders avoid. */
const HIGH_RISK: Sector[] = ['CHARITIES', 'FINANCIAL_SERVICES', 'NONE'];

/** Defaults per product type; each product below overrides what differs. */
const DEFAULTS: Record<ProductType, Omit<DemoProduct, 'productType' | 'name'>> = {
  TERM_LOAN: base(10_000, 500_000, 6, 60, 24, 100_000, 'D', 7.5, 14, { arrangementFeePct: 2, earlyRepaymentFeePct: 1 }),
  FIXED_LOAN_TERMS: base(5_000, 150_000, 3, 36, 12, 50_000, 'D', 9, 18, { arrangementFeePct: 2.5, requirements: { personalGuarantee: true } }),
  ASSET_BACKED_FINANCE: base(5_000, 1_000_000, 12, 60, 12, 50_000, 'D', 6, 12, { arrangementFeePct: 1, requirements: { needsAsset: true } }),
  INVOICE_FINANCE: base(20_000, 2_000_000, 0, 60, 12, 150_000, 'D', 5, 11, { arrangementFeePct: 1, requirements: { raisesInvoices: true } }),
  TRADE_FINANCE: base(25_000, 1_500_000, 0, 12, 24, 250_000, 'C', 8, 15, { arrangementFeePct: 1.5, requirements: { purchaseOrders: true } }),
  MERCHANT_CASH_ADVANCE: base(5_000, 300_000, 3, 18, 4, 36_000, 'F', 18, 40, {
    arrangementFeePct: 0,
    requirements: { cardPayments: true, minAverageCardSales: 7_500 },
  }),
  E_COMMERCE_FUNDING: base(5_000, 250_000, 3, 12, 6, 60_000, 'E', 14, 30, { arrangementFeePct: 0, requirements: { cardPayments: true } }),
  COMMERCIAL_PROPERTY: base(100_000, 5_000_000, 24, 240, 24, 100_000, 'C', 5.5, 9, {
    arrangementFeePct: 1.5,
    exitFeePct: 1,
    companyTypes: INCORPORATED,
    requirements: { property: true },
  }),
};

function base(
  minAmount: number,
  maxAmount: number,
  minTermMonths: number,
  maxTermMonths: number,
  minTradingMonths: number,
  minAnnualRevenue: number,
  minGrade: DemoProduct['minGrade'],
  annualRateMin: number,
  annualRateMax: number,
  extra: Partial<DemoProduct> = {},
): Omit<DemoProduct, 'productType' | 'name'> {
  return {
    minAmount,
    maxAmount,
    minTermMonths,
    maxTermMonths,
    minTradingMonths,
    minAnnualRevenue,
    minGrade,
    excludedSectors: [],
    requiredSectors: [],
    companyTypes: ALL_TYPES,
    countries: ['GB'],
    currencies: ['GBP'],
    requirements: {},
    arrangementFeePct: 0,
    earlyRepaymentFeePct: 0,
    exitFeePct: 0,
    annualRateMin,
    annualRateMax,
    likelihoodBase: 0.6,
    instantOffer: false,
    ...extra,
  };
}

function product(productType: ProductType, name: string, overrides: Partial<DemoProduct> = {}): DemoProduct {
  const d = DEFAULTS[productType];
  return { productType, name, ...d, ...overrides, requirements: { ...d.requirements, ...overrides.requirements } };
}

interface LenderSpec {
  name: string;
  description: string;
  band: PriceBand;
  hours: number;
  docs: Doc[];
  rules?: RequiredFieldRule[];
  products: DemoProduct[];
}

// Required-field rules (spec 2.7): always / depending on another field / under combined conditions.
const P = 'application.profile';
const COMPANY_NUMBER: RequiredFieldRule = { field: `${P}.basicCompanyDetails.companyNumber`, message: 'a company registration number is required' };
const CONTACT: RequiredFieldRule[] = [{ field: `${P}.basicCompanyDetails.contactEmail` }, { field: `${P}.basicCompanyDetails.contactPhone` }];
const TRADE_HISTORY: RequiredFieldRule = { field: `${P}.tradeHistory`, message: 'at least one year of trading history is required' };
const DIRECTORS: RequiredFieldRule = { field: `${P}.directorOrSecretaryDetails`, message: 'director details are required' };
const ifProduct = (productType: ProductType, field: string, message?: string): RequiredFieldRule => ({
  field,
  when: [{ field: 'application.fundingMatch.productNames', contains: productType }],
  ...(message ? { message } : {}),
});
const INVOICE_FIELDS = [
  ifProduct('INVOICE_FINANCE', `${P}.invoiceFinancing.debtorsValue`),
  ifProduct('INVOICE_FINANCE', `${P}.invoiceFinancing.customersNumber`),
];
const EPOS_FIELDS = [
  ifProduct('MERCHANT_CASH_ADVANCE', `${P}.eposTerminalInfo.transactionsPerMonthAvg`),
  ifProduct('MERCHANT_CASH_ADVANCE', `${P}.eposTerminalInfo.terminalProvider`),
];
const ASSET_FIELDS = [ifProduct('ASSET_BACKED_FINANCE', `${P}.assetsToFinance`, 'the asset to finance is required')];
const TRADE_FIELDS = [ifProduct('TRADE_FINANCE', `${P}.tradeFinanceProfile.currentValueOfConfirmedOrders`)];
/** Combined conditions: larger property loans need the guarantor's assets when a homeowner director exists. */
const LARGE_SECURED: RequiredFieldRule = {
  field: `${P}.guarantorAssetsForSecurity.guarantorAssets`,
  when: [
    { field: 'application.fundingSearch.amount', greaterThan: 250_000 },
    { field: `${P}.guarantorAssetsForSecurity.hasUkHomeownerDirector`, equals: true },
  ],
  message: 'guarantor assets are required for secured loans above 250,000 with a homeowner director',
};
const YOUNG_COMPANY: RequiredFieldRule = {
  field: `${P}.companyCredit.expectedTurnover`,
  when: [{ field: `${P}.basicCompanyDetails.tradingPeriod`, oneOf: ['0-6 months', '6-12 months'] }],
  message: 'expected turnover is required for companies trading under 12 months',
};

// ------------------------------------------------------------------------------------------ catalogue

const LENDERS: LenderSpec[] = [
  {
    name: 'Ironside Capital',
    description: 'Larger facilities for established, profitable companies.',
    band: 'LOW',
    hours: 72,
    docs: ['accounts', 'management', 'bank', 'id', 'tax'],
    rules: [COMPANY_NUMBER, ...CONTACT, TRADE_HISTORY, DIRECTORS, ...INVOICE_FIELDS, LARGE_SECURED],
    products: [
      product('TERM_LOAN', 'Ironside Growth Loan', {
        minAmount: 100_000,
        maxAmount: 2_000_000,
        minTermMonths: 12,
        maxTermMonths: 84,
        minTradingMonths: 36,
        minAnnualRevenue: 1_000_000,
        minGrade: 'C',
        annualRateMin: 6.2,
        annualRateMax: 9.5,
        companyTypes: INCORPORATED,
        excludedSectors: HIGH_RISK,
        likelihoodBase: 0.45,
      }),
      product('INVOICE_FINANCE', 'Ironside Confidential Invoice Discounting', {
        minAmount: 250_000,
        maxAmount: 5_000_000,
        minTradingMonths: 36,
        minAnnualRevenue: 2_000_000,
        minGrade: 'C',
        annualRateMin: 3.9,
        annualRateMax: 6.5,
        companyTypes: INCORPORATED,
        likelihoodBase: 0.5,
      }),
      product('ASSET_BACKED_FINANCE', 'Ironside Plant & Machinery Finance', {
        minAmount: 50_000,
        maxAmount: 3_000_000,
        maxTermMonths: 84,
        minTradingMonths: 24,
        minAnnualRevenue: 500_000,
        minGrade: 'C',
        annualRateMin: 5.1,
        annualRateMax: 8.4,
        companyTypes: INCORPORATED,
      }),
      product('COMMERCIAL_PROPERTY', 'Ironside Owner-Occupier Mortgage', {
        minAmount: 250_000,
        maxAmount: 10_000_000,
        minTradingMonths: 36,
        minAnnualRevenue: 1_000_000,
        minGrade: 'B',
        annualRateMin: 5.2,
        annualRateMax: 7.4,
        likelihoodBase: 0.4,
      }),
    ],
  },
  {
    name: 'Fleetway Capital',
    description: 'Unsecured business loans with a decision in one working day.',
    band: 'AVERAGE',
    hours: 24,
    docs: ['bank', 'id'],
    rules: [COMPANY_NUMBER, ...CONTACT],
    products: [
      product('TERM_LOAN', 'Fleetway Unsecured Business Loan', {
        minAmount: 10_000,
        maxAmount: 350_000,
        minTradingMonths: 12,
        minAnnualRevenue: 100_000,
        minGrade: 'D',
        annualRateMin: 8.9,
        annualRateMax: 16.9,
        instantOffer: true,
        likelihoodBase: 0.65,
        requirements: { personalGuarantee: true },
      }),
      product('FIXED_LOAN_TERMS', 'Fleetway Fixed Repayment Loan', {
        minAmount: 5_000,
        maxAmount: 100_000,
        maxTermMonths: 24,
        minTradingMonths: 6,
        minAnnualRevenue: 60_000,
        annualRateMin: 11.5,
        annualRateMax: 19.9,
        instantOffer: true,
        likelihoodBase: 0.7,
      }),
    ],
  },
  {
    name: 'Iron Bridge Asset Finance',
    description: 'Hire purchase and leasing for plant, machinery and vehicles.',
    band: 'AVERAGE',
    hours: 24,
    docs: ['bank', 'assetQuote', 'id'],
    rules: [COMPANY_NUMBER, ...ASSET_FIELDS],
    products: [
      product('ASSET_BACKED_FINANCE', 'Iron Bridge Hire Purchase', {
        minAmount: 5_000,
        maxAmount: 750_000,
        minTradingMonths: 12,
        minAnnualRevenue: 50_000,
        minGrade: 'D',
        annualRateMin: 6.9,
        annualRateMax: 12.9,
        likelihoodBase: 0.7,
      }),
    ],
  },
  {
    name: 'Ledgerline Invoice Finance',
    description: 'Confidential invoice discounting and full-service factoring.',
    band: 'LOW',
    hours: 48,
    docs: ['debtors', 'accounts', 'bank'],
    rules: [COMPANY_NUMBER, ...INVOICE_FIELDS],
    products: [
      product('INVOICE_FINANCE', 'Ledgerline Invoice Discounting', {
        minAmount: 25_000,
        maxAmount: 1_500_000,
        minTradingMonths: 12,
        minAnnualRevenue: 250_000,
        companyTypes: NOT_SOLE,
        annualRateMin: 4.5,
        annualRateMax: 8.5,
        arrangementFeePct: 0.75,
        likelihoodBase: 0.62,
      }),
      product('TRADE_FINANCE', 'Ledgerline Supply Chain Finance', {
        minAmount: 50_000,
        maxAmount: 1_000_000,
        minAnnualRevenue: 500_000,
        annualRateMin: 7.5,
        annualRateMax: 12,
        companyTypes: INCORPORATED,
      }),
    ],
  },
  {
    name: 'CardFlow Advance',
    description: 'Merchant cash advances repaid as a share of card takings.',
    band: 'EXPENSIVE',
    hours: 4,
    docs: ['card', 'bank', 'id'],
    rules: [...CONTACT, ...EPOS_FIELDS],
    products: [
      product('MERCHANT_CASH_ADVANCE', 'CardFlow Merchant Cash Advance', {
        minAmount: 5_000,
        maxAmount: 250_000,
        minTradingMonths: 4,
        minAnnualRevenue: 36_000,
        minGrade: 'F',
        annualRateMin: 20,
        annualRateMax: 38,
        instantOffer: true,
        likelihoodBase: 0.8,
      }),
      product('E_COMMERCE_FUNDING', 'CardFlow Online Seller Advance', {
        minAmount: 5_000,
        maxAmount: 150_000,
        minTradingMonths: 6,
        minAnnualRevenue: 60_000,
        annualRateMin: 16,
        annualRateMax: 32,
        instantOffer: true,
        likelihoodBase: 0.72,
      }),
    ],
  },
  {
    name: 'Harbour Trade Partners',
    description: 'Purchase order and supply chain finance for importers and wholesalers.',
    band: 'AVERAGE',
    hours: 48,
    docs: ['orders', 'accounts', 'bank'],
    rules: [COMPANY_NUMBER, ...TRADE_FIELDS, ...INVOICE_FIELDS],
    products: [
      product('TRADE_FINANCE', 'Harbour Purchase Order Finance', {
        minAmount: 25_000,
        maxAmount: 2_000_000,
        minTradingMonths: 24,
        minAnnualRevenue: 300_000,
        requiredSectors: ['IMPORT_EXPORT', 'WHOLESALE', 'DISTRIBUTION', 'RETAIL', 'MANUFACTURING'],
        annualRateMin: 8.5,
        annualRateMax: 14,
        companyTypes: INCORPORATED,
        likelihoodBase: 0.55,
      }),
      product('INVOICE_FINANCE', 'Harbour Export Invoice Finance', {
        minAmount: 50_000,
        maxAmount: 1_000_000,
        minTradingMonths: 24,
        minAnnualRevenue: 300_000,
        companyTypes: INCORPORATED,
        currencies: ['GBP', 'EUR'],
        annualRateMin: 5.5,
        annualRateMax: 9.5,
      }),
    ],
  },
  {
    name: 'Keystone Property Lending',
    description: 'Commercial mortgages and buy-to-let finance for portfolio landlords.',
    band: 'LOW',
    hours: 72,
    docs: ['property', 'accounts', 'bank', 'id', 'proofOfAddress'],
    rules: [COMPANY_NUMBER, DIRECTORS, LARGE_SECURED],
    products: [
      product('COMMERCIAL_PROPERTY', 'Keystone Commercial Mortgage', {
        minAmount: 150_000,
        maxAmount: 7_500_000,
        annualRateMin: 5.4,
        annualRateMax: 7.9,
        likelihoodBase: 0.5,
      }),
    ],
  },
  {
    name: 'Brightside Business Loans',
    description: 'Fast funding for young businesses that the banks turn away.',
    band: 'MOST_EXPENSIVE',
    hours: 4,
    docs: ['bank', 'id'],
    rules: [...CONTACT, YOUNG_COMPANY],
    products: [
      product('TERM_LOAN', 'Brightside Start-Up Loan', {
        minAmount: 3_000,
        maxAmount: 75_000,
        maxTermMonths: 36,
        minTradingMonths: 3,
        minAnnualRevenue: 20_000,
        minGrade: 'F',
        annualRateMin: 19.9,
        annualRateMax: 39.9,
        instantOffer: true,
        likelihoodBase: 0.78,
        requirements: { personalGuarantee: true },
      }),
      product('MERCHANT_CASH_ADVANCE', 'Brightside Card Advance', {
        minAmount: 3_000,
        maxAmount: 60_000,
        minTradingMonths: 3,
        minAnnualRevenue: 24_000,
        annualRateMin: 24,
        annualRateMax: 45,
        instantOffer: true,
        likelihoodBase: 0.8,
        requirements: { minAverageCardSales: 2_500 },
      }),
    ],
  },
  {
    name: 'Meridian Growth Capital',
    description: 'Growth loans and working capital for profitable SMEs.',
    band: 'AVERAGE',
    hours: 48,
    docs: ['accounts', 'management', 'bank', 'id'],
    rules: [COMPANY_NUMBER, TRADE_HISTORY, ...INVOICE_FIELDS],
    products: [
      product('TERM_LOAN', 'Meridian Growth Loan', {
        minAmount: 25_000,
        maxAmount: 750_000,
        minTradingMonths: 24,
        minAnnualRevenue: 250_000,
        minGrade: 'C',
        annualRateMin: 7.9,
        annualRateMax: 13.5,
        companyTypes: INCORPORATED,
        excludedSectors: HIGH_RISK,
      }),
      product('FIXED_LOAN_TERMS', 'Meridian Fixed-Term Working Capital', {
        minAmount: 10_000,
        maxAmount: 200_000,
        minTradingMonths: 12,
        minAnnualRevenue: 100_000,
        annualRateMin: 9.5,
        annualRateMax: 16.5,
      }),
      product('INVOICE_FINANCE', 'Meridian Selective Invoice Finance', {
        minAmount: 10_000,
        maxAmount: 500_000,
        minTradingMonths: 6,
        minAnnualRevenue: 100_000,
        annualRateMin: 6,
        annualRateMax: 12,
        arrangementFeePct: 0,
      }),
    ],
  },
  {
    name: 'Cobalt Leasing',
    description: 'Hire purchase, finance leases and refinancing of owned equipment.',
    band: 'LOW',
    hours: 24,
    docs: ['assetQuote', 'accounts', 'bank'],
    rules: [COMPANY_NUMBER, ...ASSET_FIELDS],
    products: [
      product('ASSET_BACKED_FINANCE', 'Cobalt Finance Lease', {
        minAmount: 10_000,
        maxAmount: 1_500_000,
        maxTermMonths: 72,
        minTradingMonths: 24,
        minAnnualRevenue: 150_000,
        minGrade: 'C',
        annualRateMin: 5.4,
        annualRateMax: 9.2,
        companyTypes: NOT_SOLE,
        likelihoodBase: 0.58,
      }),
      product('TERM_LOAN', 'Cobalt Asset Refinance Loan', {
        minAmount: 25_000,
        maxAmount: 500_000,
        minTradingMonths: 24,
        minAnnualRevenue: 150_000,
        minGrade: 'C',
        annualRateMin: 6.5,
        annualRateMax: 10.5,
        requirements: { ownsAsset: true },
      }),
    ],
  },
  {
    name: 'Shopfront Funding',
    description: 'Revenue-based finance for online sellers and marketplace merchants.',
    band: 'EXPENSIVE',
    hours: 4,
    docs: ['marketplace', 'bank'],
    rules: [...CONTACT],
    products: [
      product('E_COMMERCE_FUNDING', 'Shopfront Revenue Advance', {
        minAmount: 5_000,
        maxAmount: 250_000,
        minTradingMonths: 6,
        minAnnualRevenue: 60_000,
        requiredSectors: ['RETAIL', 'WHOLESALE', 'IMPORT_EXPORT', 'MEDIA_AND_ENTERTAINMENT'],
        annualRateMin: 15,
        annualRateMax: 29,
        instantOffer: true,
        likelihoodBase: 0.7,
      }),
      product('MERCHANT_CASH_ADVANCE', 'Shopfront Card Sales Advance', {
        minAmount: 5_000,
        maxAmount: 150_000,
        annualRateMin: 19,
        annualRateMax: 36,
        likelihoodBase: 0.72,
      }),
    ],
  },
  {
    name: 'Thistle Bank Business',
    description: 'Business banking and lending for Scottish companies and partnerships.',
    band: 'LOW',
    hours: 72,
    docs: ['accounts', 'bank', 'id', 'proofOfAddress'],
    rules: [COMPANY_NUMBER, TRADE_HISTORY, DIRECTORS, LARGE_SECURED],
    products: [
      product('TERM_LOAN', 'Thistle Business Loan', {
        minAmount: 15_000,
        maxAmount: 1_000_000,
        minTradingMonths: 24,
        minAnnualRevenue: 200_000,
        minGrade: 'C',
        annualRateMin: 6.4,
        annualRateMax: 10.9,
        companyTypes: INCORPORATED,
        excludedSectors: HIGH_RISK,
        likelihoodBase: 0.5,
      }),
      product('COMMERCIAL_PROPERTY', 'Thistle Commercial Mortgage', {
        minAmount: 100_000,
        maxAmount: 3_000_000,
        annualRateMin: 5.6,
        annualRateMax: 7.8,
        likelihoodBase: 0.48,
      }),
      product('ASSET_BACKED_FINANCE', 'Thistle Asset Finance', {
        minAmount: 10_000,
        maxAmount: 500_000,
        minTradingMonths: 24,
        minAnnualRevenue: 100_000,
        minGrade: 'C',
        annualRateMin: 5.9,
        annualRateMax: 9.9,
        companyTypes: INCORPORATED,
      }),
    ],
  },
  {
    name: 'Oakfield Trade Finance',
    description: 'Flexible loans and equipment finance for trades and construction.',
    band: 'AVERAGE',
    hours: 24,
    docs: ['bank', 'id', 'assetQuote'],
    rules: [...CONTACT, ...ASSET_FIELDS],
    products: [
      product('TERM_LOAN', 'Oakfield Trades Loan', {
        minAmount: 5_000,
        maxAmount: 150_000,
        maxTermMonths: 48,
        minTradingMonths: 12,
        minAnnualRevenue: 60_000,
        requiredSectors: ['CONSTRUCTION', 'TRADE', 'PROPERTY', 'MANUFACTURING'],
        annualRateMin: 9.5,
        annualRateMax: 17.5,
        instantOffer: true,
        likelihoodBase: 0.66,
      }),
      product('ASSET_BACKED_FINANCE', 'Oakfield Van & Plant Finance', {
        minAmount: 5_000,
        maxAmount: 250_000,
        minTradingMonths: 6,
        minAnnualRevenue: 40_000,
        minGrade: 'E',
        annualRateMin: 8.5,
        annualRateMax: 15.9,
        likelihoodBase: 0.68,
      }),
    ],
  },
  {
    name: 'Pennant Recovery Lending',
    description: 'Government-backed Growth Guarantee Scheme loans (accredited lender).',
    band: 'LOW',
    hours: 72,
    docs: ['accounts', 'management', 'bank', 'id', 'plan'],
    rules: [COMPANY_NUMBER, TRADE_HISTORY, DIRECTORS],
    products: [
      product('TERM_LOAN', 'Pennant Growth Guarantee Scheme Loan', {
        minAmount: 25_000,
        maxAmount: 2_000_000,
        maxTermMonths: 72,
        minTradingMonths: 12,
        minAnnualRevenue: 100_000,
        minGrade: 'D',
        annualRateMin: 7.4,
        annualRateMax: 12.4,
        excludedSectors: ['CHARITIES', 'FINANCIAL_SERVICES'],
        requirements: { governmentBacked: true },
        likelihoodBase: 0.5,
      }),
      product('FIXED_LOAN_TERMS', 'Pennant Recovery Loan', {
        minAmount: 10_000,
        maxAmount: 250_000,
        minTermMonths: 12,
        maxTermMonths: 60,
        minAnnualRevenue: 50_000,
        annualRateMin: 8.2,
        annualRateMax: 13.9,
        requirements: { governmentBacked: true, personalGuarantee: false },
      }),
    ],
  },
  {
    name: 'Quayside Factors',
    description: 'Full-service factoring with credit control and bad-debt protection.',
    band: 'EXPENSIVE',
    hours: 24,
    docs: ['debtors', 'bank'],
    rules: [...INVOICE_FIELDS],
    products: [
      product('INVOICE_FINANCE', 'Quayside Factoring', {
        minAmount: 10_000,
        maxAmount: 750_000,
        minTradingMonths: 3,
        minAnnualRevenue: 50_000,
        minGrade: 'E',
        annualRateMin: 7.5,
        annualRateMax: 15.5,
        arrangementFeePct: 1.5,
        likelihoodBase: 0.74,
      }),
    ],
  },
  {
    name: 'Summit Bridging',
    description: 'Short-term bridging and development exit finance for property.',
    band: 'MOST_EXPENSIVE',
    hours: 24,
    docs: ['property', 'id', 'proofOfAddress'],
    rules: [DIRECTORS, LARGE_SECURED],
    products: [
      product('COMMERCIAL_PROPERTY', 'Summit Bridging Loan', {
        minAmount: 100_000,
        maxAmount: 5_000_000,
        minTermMonths: 3,
        maxTermMonths: 24,
        minTradingMonths: 0,
        minAnnualRevenue: 0,
        minGrade: 'E',
        annualRateMin: 9.5,
        annualRateMax: 15,
        arrangementFeePct: 2,
        exitFeePct: 1.5,
        companyTypes: LIMITED_AND_STARTUP,
        requirements: { homeownerDirector: true },
        likelihoodBase: 0.64,
      }),
    ],
  },
  {
    name: 'Tamar Vehicle Finance',
    description: 'Vans, HGVs and fleet finance for hauliers and couriers.',
    band: 'AVERAGE',
    hours: 24,
    docs: ['assetQuote', 'bank', 'id'],
    rules: [COMPANY_NUMBER, ...ASSET_FIELDS],
    products: [
      product('ASSET_BACKED_FINANCE', 'Tamar Commercial Vehicle Hire Purchase', {
        minAmount: 10_000,
        maxAmount: 1_000_000,
        minTradingMonths: 12,
        minAnnualRevenue: 75_000,
        requiredSectors: ['HAULAGE', 'COURIER', 'TRANSPORTATION', 'DISTRIBUTION', 'CONSTRUCTION', 'AUTOMOTIVE'],
        annualRateMin: 6.5,
        annualRateMax: 11.9,
        likelihoodBase: 0.66,
      }),
    ],
  },
  {
    name: 'Unity Community Finance',
    description: 'Responsible lending for under-served businesses and social enterprises.',
    band: 'AVERAGE',
    hours: 72,
    docs: ['bank', 'plan', 'id'],
    rules: [...CONTACT, YOUNG_COMPANY],
    products: [
      product('TERM_LOAN', 'Unity Community Loan', {
        minAmount: 5_000,
        maxAmount: 150_000,
        maxTermMonths: 60,
        minTradingMonths: 0,
        minAnnualRevenue: 0,
        minGrade: 'E',
        annualRateMin: 8,
        annualRateMax: 16,
        likelihoodBase: 0.55,
      }),
      product('MERCHANT_CASH_ADVANCE', 'Unity Card Takings Advance', {
        minAmount: 3_000,
        maxAmount: 50_000,
        annualRateMin: 16,
        annualRateMax: 28,
        requirements: { minAverageCardSales: 2_500 },
        likelihoodBase: 0.68,
      }),
    ],
  },
  {
    name: 'Vantage Trade Credit',
    description: 'Import and export trade credit, letters of credit and stock finance.',
    band: 'EXPENSIVE',
    hours: 48,
    docs: ['orders', 'accounts', 'bank'],
    rules: [COMPANY_NUMBER, ...TRADE_FIELDS],
    products: [
      product('TRADE_FINANCE', 'Vantage Import Trade Credit', {
        minAmount: 25_000,
        maxAmount: 1_500_000,
        minTradingMonths: 12,
        minAnnualRevenue: 150_000,
        minGrade: 'D',
        currencies: ['GBP', 'EUR'],
        annualRateMin: 9.5,
        annualRateMax: 17,
        likelihoodBase: 0.6,
      }),
    ],
  },
  {
    name: 'Wessex Capital',
    description: 'Business loans and property finance across the South West.',
    band: 'AVERAGE',
    hours: 48,
    docs: ['accounts', 'bank', 'id'],
    rules: [COMPANY_NUMBER, TRADE_HISTORY, LARGE_SECURED],
    products: [
      product('TERM_LOAN', 'Wessex Business Loan', {
        minAmount: 10_000,
        maxAmount: 400_000,
        minTradingMonths: 18,
        minAnnualRevenue: 120_000,
        annualRateMin: 8.4,
        annualRateMax: 14.9,
        excludedSectors: HIGH_RISK,
      }),
      product('COMMERCIAL_PROPERTY', 'Wessex Investment Mortgage', {
        minAmount: 100_000,
        maxAmount: 2_500_000,
        annualRateMin: 6.2,
        annualRateMax: 8.6,
        requirements: { homeownerDirector: true },
      }),
    ],
  },
  {
    name: 'Albion Merchant Services',
    description: 'Card-linked funding for hospitality and high-street retail.',
    band: 'EXPENSIVE',
    hours: 4,
    docs: ['card', 'bank'],
    rules: [...EPOS_FIELDS],
    products: [
      product('MERCHANT_CASH_ADVANCE', 'Albion Hospitality Cash Advance', {
        minAmount: 5_000,
        maxAmount: 200_000,
        minTradingMonths: 6,
        requiredSectors: ['HOTELS_HOUSE', 'RETAIL', 'HEALTHCARE_CARE', 'AUTOMOTIVE', 'MEDIA_AND_ENTERTAINMENT'],
        annualRateMin: 18,
        annualRateMax: 34,
        instantOffer: true,
        likelihoodBase: 0.76,
      }),
    ],
  },
  {
    name: 'Beacon Professional Finance',
    description: 'Loans for professional practices: accountants, solicitors, surveyors and clinics.',
    band: 'LOW',
    hours: 24,
    docs: ['accounts', 'bank', 'id'],
    rules: [COMPANY_NUMBER, TRADE_HISTORY],
    products: [
      product('FIXED_LOAN_TERMS', 'Beacon Practice Loan', {
        minAmount: 10_000,
        maxAmount: 250_000,
        maxTermMonths: 60,
        minTradingMonths: 24,
        minAnnualRevenue: 150_000,
        minGrade: 'C',
        requiredSectors: ['PROFESSIONAL_SERVICES', 'FINANCIAL_SERVICES', 'HEALTHCARE_CARE', 'EDUCATION'],
        annualRateMin: 6.9,
        annualRateMax: 10.9,
        instantOffer: true,
        requirements: { personalGuarantee: false },
        likelihoodBase: 0.7,
      }),
      product('TERM_LOAN', 'Beacon Partner Capital Loan', {
        minAmount: 25_000,
        maxAmount: 500_000,
        minTradingMonths: 36,
        minAnnualRevenue: 250_000,
        minGrade: 'C',
        requiredSectors: ['PROFESSIONAL_SERVICES', 'FINANCIAL_SERVICES'],
        companyTypes: ['LIMITED_LIABILITY_PARTNERSHIP', 'LIMITED_COMPANY'],
        annualRateMin: 6.4,
        annualRateMax: 9.9,
      }),
    ],
  },
  {
    name: 'Crestline Staffing Finance',
    description: 'Invoice finance and payroll funding for recruitment and staffing agencies.',
    band: 'AVERAGE',
    hours: 24,
    docs: ['debtors', 'bank', 'vat'],
    rules: [COMPANY_NUMBER, ...INVOICE_FIELDS],
    products: [
      product('INVOICE_FINANCE', 'Crestline Recruitment Invoice Finance', {
        minAmount: 10_000,
        maxAmount: 1_000_000,
        minTradingMonths: 0,
        minAnnualRevenue: 0,
        minGrade: 'E',
        requiredSectors: ['RECRUITMENT', 'BUSINESS_SERVICES', 'SECURITY_SERVICES'],
        companyTypes: LIMITED_AND_STARTUP,
        annualRateMin: 6.5,
        annualRateMax: 12.5,
        likelihoodBase: 0.72,
      }),
    ],
  },
  {
    name: 'Dalesman Agri Finance',
    description: 'Finance for farms, estates and agricultural machinery.',
    band: 'LOW',
    hours: 72,
    docs: ['accounts', 'bank', 'assetQuote'],
    rules: [...ASSET_FIELDS, DIRECTORS],
    products: [
      product('ASSET_BACKED_FINANCE', 'Dalesman Machinery Finance', {
        minAmount: 10_000,
        maxAmount: 750_000,
        maxTermMonths: 84,
        minTradingMonths: 24,
        minAnnualRevenue: 75_000,
        requiredSectors: ['AGRICULTURE'],
        annualRateMin: 5.5,
        annualRateMax: 9.5,
        likelihoodBase: 0.64,
      }),
      product('TERM_LOAN', 'Dalesman Seasonal Working Capital', {
        minAmount: 10_000,
        maxAmount: 300_000,
        minTermMonths: 6,
        maxTermMonths: 24,
        minTradingMonths: 24,
        minAnnualRevenue: 75_000,
        requiredSectors: ['AGRICULTURE'],
        annualRateMin: 6.9,
        annualRateMax: 10.5,
      }),
    ],
  },
  {
    name: 'Elmstead Lending',
    description: 'Small business loans from 2,000, decided online in minutes.',
    band: 'MOST_EXPENSIVE',
    hours: 4,
    docs: ['bank'],
    rules: [...CONTACT],
    products: [
      product('FIXED_LOAN_TERMS', 'Elmstead Small Business Loan', {
        minAmount: 2_000,
        maxAmount: 50_000,
        minTermMonths: 3,
        maxTermMonths: 24,
        minTradingMonths: 6,
        minAnnualRevenue: 24_000,
        minGrade: 'F',
        annualRateMin: 24,
        annualRateMax: 49,
        instantOffer: true,
        likelihoodBase: 0.82,
      }),
      product('TERM_LOAN', 'Elmstead Flexi Loan', {
        minAmount: 5_000,
        maxAmount: 100_000,
        maxTermMonths: 36,
        minTradingMonths: 6,
        minAnnualRevenue: 36_000,
        minGrade: 'E',
        annualRateMin: 19.9,
        annualRateMax: 39.9,
        instantOffer: true,
        likelihoodBase: 0.74,
      }),
    ],
  },
  {
    name: 'Foxglove Capital',
    description: 'Stock and marketing funding for e-commerce brands.',
    band: 'EXPENSIVE',
    hours: 24,
    docs: ['marketplace', 'bank', 'management'],
    rules: [...CONTACT, YOUNG_COMPANY],
    products: [
      product('E_COMMERCE_FUNDING', 'Foxglove Inventory Funding', {
        minAmount: 10_000,
        maxAmount: 500_000,
        minTradingMonths: 12,
        minAnnualRevenue: 120_000,
        minGrade: 'D',
        annualRateMin: 12,
        annualRateMax: 24,
        likelihoodBase: 0.58,
      }),
    ],
  },
  {
    name: 'Granite Commercial Mortgages',
    description: 'Owner-occupier and semi-commercial mortgages.',
    band: 'LOW',
    hours: 72,
    docs: ['property', 'accounts', 'bank', 'id', 'proofOfAddress'],
    rules: [COMPANY_NUMBER, DIRECTORS, LARGE_SECURED],
    products: [
      product('COMMERCIAL_PROPERTY', 'Granite Owner-Occupier Mortgage', {
        minAmount: 75_000,
        maxAmount: 5_000_000,
        minTradingMonths: 24,
        annualRateMin: 5.3,
        annualRateMax: 7.2,
        likelihoodBase: 0.52,
      }),
    ],
  },
  {
    name: 'Highgate Stock Finance',
    description: 'Stock, purchase order and short-term working capital funding.',
    band: 'AVERAGE',
    hours: 48,
    docs: ['orders', 'bank', 'management'],
    rules: [COMPANY_NUMBER, ...TRADE_FIELDS],
    products: [
      product('TRADE_FINANCE', 'Highgate Stock Finance', {
        minAmount: 20_000,
        maxAmount: 750_000,
        minTradingMonths: 12,
        minAnnualRevenue: 200_000,
        minGrade: 'D',
        annualRateMin: 8.5,
        annualRateMax: 14.5,
        likelihoodBase: 0.6,
      }),
      product('TERM_LOAN', 'Highgate Working Capital Loan', {
        minAmount: 10_000,
        maxAmount: 250_000,
        minTermMonths: 3,
        maxTermMonths: 24,
        minTradingMonths: 12,
        minAnnualRevenue: 150_000,
        annualRateMin: 9.9,
        annualRateMax: 17.9,
      }),
    ],
  },
  {
    name: 'Jubilee Business Credit',
    description: 'Short-term working capital for seasonal and fast-growing businesses.',
    band: 'EXPENSIVE',
    hours: 4,
    docs: ['bank', 'id'],
    rules: [...CONTACT],
    products: [
      product('FIXED_LOAN_TERMS', 'Jubilee Short-Term Loan', {
        minAmount: 5_000,
        maxAmount: 120_000,
        minTermMonths: 3,
        maxTermMonths: 18,
        minTradingMonths: 6,
        minAnnualRevenue: 40_000,
        minGrade: 'E',
        annualRateMin: 16,
        annualRateMax: 32,
        instantOffer: true,
        likelihoodBase: 0.75,
      }),
      product('MERCHANT_CASH_ADVANCE', 'Jubilee Card Advance', {
        minAmount: 5_000,
        maxAmount: 100_000,
        annualRateMin: 20,
        annualRateMax: 36,
        likelihoodBase: 0.74,
      }),
    ],
  },
  {
    name: 'Protea Business Finance',
    description: 'Working capital and invoice finance for South African SMEs.',
    band: 'AVERAGE',
    hours: 48,
    docs: ['accounts', 'bank', 'id', 'debtors'],
    rules: [COMPANY_NUMBER, ...INVOICE_FIELDS],
    products: [
      product('TERM_LOAN', 'Protea SME Loan', {
        minAmount: 100_000,
        maxAmount: 10_000_000,
        minTradingMonths: 12,
        minAnnualRevenue: 1_000_000,
        countries: ['ZA'],
        currencies: ['ZAR'],
        annualRateMin: 11.75,
        annualRateMax: 21,
        likelihoodBase: 0.55,
      }),
      product('INVOICE_FINANCE', 'Protea Invoice Discounting', {
        minAmount: 250_000,
        maxAmount: 25_000_000,
        minTradingMonths: 12,
        minAnnualRevenue: 2_000_000,
        countries: ['ZA'],
        currencies: ['ZAR'],
        companyTypes: NOT_SOLE,
        annualRateMin: 10.5,
        annualRateMax: 16,
        likelihoodBase: 0.58,
      }),
      product('ASSET_BACKED_FINANCE', 'Protea Equipment Finance', {
        minAmount: 100_000,
        maxAmount: 15_000_000,
        minTradingMonths: 12,
        minAnnualRevenue: 1_000_000,
        countries: ['ZA'],
        currencies: ['ZAR'],
        annualRateMin: 11,
        annualRateMax: 18,
      }),
    ],
  },
];

function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The demo lender catalogue, in a stable order (lender ids follow it on a fresh database). */
export function demoLenders(): DemoLender[] {
  return LENDERS.map((l) => {
    const slug = slugify(l.name);
    return {
      slug,
      name: l.name,
      logo: `/static/lenders/${slug}.svg`,
      icon: `/static/lenders/${slug}-icon.svg`,
      description: l.description,
      responseTimeHours: l.hours,
      requiredDocuments: l.docs.map((d) => DOCS[d]),
      priceBand: l.band,
      applicationUrl: DEMO_WEBHOOK_PLACEHOLDER,
      requiredFields: l.rules ?? [],
      products: l.products.map((p) => ({ ...p })),
    };
  });
}
