/**
 * The demo lender catalogue: thirty life-like lenders, each offering one to four products, so every
 * product type has several lenders with different appetites (amounts, terms, trading history,
 * revenue, grade, sectors, company types) and prices. Demo lenders have no webhook URL until one is
 * registered: nothing is delivered to them.
 */
import { createRandom } from './prng.js';
import type { CompanyTypeName, SectorName } from './demo-companies.js';

export type ProductTypeName =
  | 'ASSET_BACKED_FINANCE' | 'COMMERCIAL_PROPERTY' | 'E_COMMERCE_FUNDING' | 'FIXED_LOAN_TERMS'
  | 'INVOICE_FINANCE' | 'MERCHANT_CASH_ADVANCE' | 'TERM_LOAN' | 'TRADE_FINANCE';
export type PriceBandName = 'LOW' | 'AVERAGE' | 'EXPENSIVE' | 'MOST_EXPENSIVE';

export interface DemoProduct {
  productType: ProductTypeName;
  name: string;
  minAmount: number;
  maxAmount: number;
  minTermMonths: number;
  maxTermMonths: number;
  minTradingMonths: number;
  minAnnualRevenue: number;
  minGrade: string;
  excludedSectors: SectorName[];
  requiredSectors: SectorName[];
  companyTypes: CompanyTypeName[];
  countries: string[];
  currencies: string[];
  requirements: Record<string, boolean | number>;
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
  priceBand: PriceBandName;
  products: DemoProduct[];
}

const LENDERS: Array<[name: string, description: string, band: PriceBandName, types: ProductTypeName[]]> = [
  ['Northern Rock Commercial', 'Relationship lender for established UK SMEs', 'LOW', ['TERM_LOAN', 'COMMERCIAL_PROPERTY']],
  ['Fleetway Capital', 'Unsecured business loans decided in a day', 'AVERAGE', ['TERM_LOAN', 'FIXED_LOAN_TERMS']],
  ['Iron Bridge Finance', 'Asset finance for plant, machinery and vehicles', 'AVERAGE', ['ASSET_BACKED_FINANCE']],
  ['Ledgerline Invoice Finance', 'Confidential invoice discounting and factoring', 'LOW', ['INVOICE_FINANCE', 'TRADE_FINANCE']],
  ['CardFlow Advance', 'Merchant cash advances repaid from card takings', 'EXPENSIVE', ['MERCHANT_CASH_ADVANCE', 'E_COMMERCE_FUNDING']],
  ['Harbour Trade Partners', 'Purchase order and supply chain finance for importers', 'AVERAGE', ['TRADE_FINANCE', 'INVOICE_FINANCE']],
  ['Keystone Property Lending', 'Commercial mortgages and buy-to-let for portfolios', 'LOW', ['COMMERCIAL_PROPERTY']],
  ['Brightside Business Loans', 'Fast funding for young businesses', 'MOST_EXPENSIVE', ['TERM_LOAN', 'MERCHANT_CASH_ADVANCE']],
  ['Meridian Growth Capital', 'Growth loans for profitable SMEs', 'AVERAGE', ['TERM_LOAN', 'FIXED_LOAN_TERMS', 'INVOICE_FINANCE']],
  ['Cobalt Asset Finance', 'Hire purchase and leasing', 'LOW', ['ASSET_BACKED_FINANCE', 'TERM_LOAN']],
  ['Shopfront Funding', 'Revenue-based finance for online sellers', 'EXPENSIVE', ['E_COMMERCE_FUNDING', 'MERCHANT_CASH_ADVANCE']],
  ['Thistle Bank Business', 'Scottish business banking and lending', 'LOW', ['TERM_LOAN', 'COMMERCIAL_PROPERTY', 'ASSET_BACKED_FINANCE']],
  ['Oakfield Finance', 'Flexible loans for trades and construction', 'AVERAGE', ['TERM_LOAN', 'ASSET_BACKED_FINANCE']],
  ['Pennant Recovery Lending', 'Government-backed recovery loans', 'LOW', ['TERM_LOAN', 'FIXED_LOAN_TERMS']],
  ['Quayside Factors', 'Full-service factoring with credit control', 'EXPENSIVE', ['INVOICE_FINANCE']],
  ['Summit Bridging', 'Short-term bridging for property', 'MOST_EXPENSIVE', ['COMMERCIAL_PROPERTY']],
  ['Tamar Vehicle Finance', 'Vans, HGVs and fleet finance', 'AVERAGE', ['ASSET_BACKED_FINANCE']],
  ['Unity Community Finance', 'Responsible lending for under-served businesses', 'AVERAGE', ['TERM_LOAN', 'MERCHANT_CASH_ADVANCE']],
  ['Vantage Trade Credit', 'Import and export trade credit', 'EXPENSIVE', ['TRADE_FINANCE']],
  ['Wessex Capital', 'Loans and property finance for the South West', 'AVERAGE', ['TERM_LOAN', 'COMMERCIAL_PROPERTY']],
  ['Albion Merchant Services', 'Card-linked funding for hospitality and retail', 'EXPENSIVE', ['MERCHANT_CASH_ADVANCE']],
  ['Beacon Business Finance', 'Loans for professional practices', 'LOW', ['FIXED_LOAN_TERMS', 'TERM_LOAN']],
  ['Crestline Funding', 'Invoice finance for recruitment and staffing', 'AVERAGE', ['INVOICE_FINANCE']],
  ['Dalesman Agri Finance', 'Finance for farms and agricultural machinery', 'LOW', ['ASSET_BACKED_FINANCE', 'TERM_LOAN']],
  ['Elmstead Lending', 'Small loans from £5,000', 'MOST_EXPENSIVE', ['TERM_LOAN', 'FIXED_LOAN_TERMS']],
  ['Foxglove Capital', 'E-commerce and marketplace seller funding', 'EXPENSIVE', ['E_COMMERCE_FUNDING']],
  ['Granite Commercial Mortgages', 'Owner-occupier commercial mortgages', 'LOW', ['COMMERCIAL_PROPERTY']],
  ['Highgate Trade Finance', 'Stock and purchase order funding', 'AVERAGE', ['TRADE_FINANCE', 'TERM_LOAN']],
  ['Ironside Capital', 'Larger facilities for established companies', 'LOW', ['TERM_LOAN', 'INVOICE_FINANCE', 'ASSET_BACKED_FINANCE', 'COMMERCIAL_PROPERTY']],
  ['Jubilee Business Credit', 'Short-term working capital', 'EXPENSIVE', ['FIXED_LOAN_TERMS', 'MERCHANT_CASH_ADVANCE']],
];

const ALL_TYPES: CompanyTypeName[] = ['LIMITED_COMPANY', 'LIMITED_LIABILITY_PARTNERSHIP', 'SOLE_TRADER', 'STARTUP'];
const INCORPORATED: CompanyTypeName[] = ['LIMITED_COMPANY', 'LIMITED_LIABILITY_PARTNERSHIP'];

/** Appetite per product type: [minAmount, maxAmount, minTerm, maxTerm, annual rate %, requirements]. */
const TEMPLATES: Record<ProductTypeName, { amount: [number, number]; term: [number, number]; rate: number; requirements: Record<string, boolean | number>; label: string }> = {
  TERM_LOAN: { amount: [10_000, 500_000], term: [6, 60], rate: 9, requirements: {}, label: 'Business Term Loan' },
  FIXED_LOAN_TERMS: { amount: [5_000, 150_000], term: [3, 36], rate: 12, requirements: { personalGuarantee: true }, label: 'Fixed Term Loan' },
  ASSET_BACKED_FINANCE: { amount: [5_000, 1_000_000], term: [12, 84], rate: 7, requirements: { needsAsset: true }, label: 'Asset Finance' },
  INVOICE_FINANCE: { amount: [20_000, 2_000_000], term: [0, 36], rate: 6, requirements: { raisesInvoices: true }, label: 'Invoice Finance' },
  TRADE_FINANCE: { amount: [25_000, 1_500_000], term: [1, 12], rate: 10, requirements: { purchaseOrders: true }, label: 'Trade Finance' },
  MERCHANT_CASH_ADVANCE: { amount: [5_000, 300_000], term: [3, 18], rate: 22, requirements: { cardPayments: true, minAverageCardSales: 7500 }, label: 'Merchant Cash Advance' },
  E_COMMERCE_FUNDING: { amount: [5_000, 250_000], term: [3, 12], rate: 18, requirements: { cardPayments: true }, label: 'E-commerce Funding' },
  COMMERCIAL_PROPERTY: { amount: [100_000, 5_000_000], term: [24, 300], rate: 6.5, requirements: { property: true }, label: 'Commercial Mortgage' },
};
const BAND_MARKUP: Record<PriceBandName, number> = { LOW: 0.85, AVERAGE: 1, EXPENSIVE: 1.3, MOST_EXPENSIVE: 1.7 };
const GRADE_BY_BAND: Record<PriceBandName, string> = { LOW: 'C', AVERAGE: 'D', EXPENSIVE: 'E', MOST_EXPENSIVE: 'F' };
const DOCUMENTS = ['Last 6 months bank statements', 'Latest filed accounts', 'Management accounts', 'Photo ID of directors', 'Aged debtors report', 'VAT returns'];

export function demoLenders(): DemoLender[] {
  const rnd = createRandom(7);
  return LENDERS.map(([name, description, band, types], index) => {
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const markup = BAND_MARKUP[band];
    return {
      slug,
      name,
      logo: `/static/lenders/${slug}.svg`,
      icon: `/static/lenders/${slug}-icon.svg`,
      description,
      responseTimeHours: [4, 24, 48, 72][index % 4] as number,
      requiredDocuments: DOCUMENTS.slice(0, 2 + (index % 4)),
      priceBand: band,
      products: types.map((productType, p): DemoProduct => {
        const t = TEMPLATES[productType];
        const rate = Math.round(t.rate * markup * 100) / 100;
        const young = band === 'MOST_EXPENSIVE' || productType === 'MERCHANT_CASH_ADVANCE';
        return {
          productType,
          name: `${name.split(' ')[0]} ${t.label}`,
          minAmount: t.amount[0] * (1 + (p % 2)),
          maxAmount: Math.round(t.amount[1] * (0.5 + rnd.next())),
          minTermMonths: t.term[0],
          maxTermMonths: t.term[1],
          minTradingMonths: young ? 3 : [6, 12, 24][index % 3] as number,
          minAnnualRevenue: young ? 30_000 : [50_000, 100_000, 250_000][index % 3] as number,
          minGrade: GRADE_BY_BAND[band],
          excludedSectors: index % 3 === 0 ? ['CHARITIES', 'FINANCIAL_SERVICES'] : index % 3 === 1 ? ['PROPERTY'] : [],
          requiredSectors: slug.includes('agri') ? ['AGRICULTURE'] : [],
          companyTypes: productType === 'COMMERCIAL_PROPERTY' || band === 'LOW' ? INCORPORATED : ALL_TYPES,
          countries: index % 10 === 9 ? ['GB', 'ZA'] : ['GB'],
          currencies: index % 10 === 9 ? ['GBP', 'ZAR'] : ['GBP'],
          requirements: {
            ...t.requirements,
            ...(slug.includes('recovery') ? { governmentBacked: true } : {}),
            ...(productType === 'COMMERCIAL_PROPERTY' && band !== 'LOW' ? { homeownerDirector: true } : {}),
          },
          arrangementFeePct: Math.round((1 + (index % 4) * 0.75) * markup * 100) / 100,
          earlyRepaymentFeePct: index % 2 === 0 ? 0 : 2,
          exitFeePct: productType === 'COMMERCIAL_PROPERTY' ? 1 : 0,
          annualRateMin: rate,
          annualRateMax: Math.round(rate * 1.6 * 100) / 100,
          likelihoodBase: Math.round((0.35 + rnd.next() * 0.5) * 1000) / 1000,
          instantOffer: productType === 'TERM_LOAN' || productType === 'FIXED_LOAN_TERMS' || productType === 'MERCHANT_CASH_ADVANCE' ? index % 2 === 0 : false,
        };
      }),
    };
  });
}
