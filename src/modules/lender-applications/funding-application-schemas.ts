/**
 * The funding application document (spec 2.7) as this service sends it to lenders and returns it,
 * declared once: the builder's and the lender API's TypeScript types and the GraphQL type follow
 * from it. The lender API's conventions: dates as epoch seconds, the funding search's amount as a
 * string decimal, numeric flags (vatRegistered 1/0). Sections the profile cannot fill are absent
 * or null, never invented; the spec's accountantDetails and companyCredit have no source here.
 */
import { z } from 'zod';
import { PRODUCT_OBJECTS } from './offer-schemas.js';

const text = z.string().nullable();
const amount = z.number().nullable();
/** Not an integer check: a GraphQL Int (32 bits) cannot hold seconds after January 2038. */
const epochSeconds = z.number().describe('Unix time in seconds');

const ApiProvider = z
  .strictObject({ url: z.string(), updateUrl: z.string(), authorizationToken: text })
  .meta({ id: 'ApiProvider', description: "Where the lender answers, and this application's token that lets the lender verify a request is genuine" });

/** The spec names these fields without types; ids are numbers as everywhere else in the document. */
const FundingSearchUser = z
  .strictObject({
    id: z.number().int(),
    entity: z.strictObject({ id: z.number().int(), entityId: z.number().int(), companyName: text }).meta({ id: 'FundingSearchUserEntity' }),
    userType: text,
    name: text,
    email: text,
  })
  .meta({ id: 'FundingSearchUser' });

const LenderFundingSearch = z
  .strictObject({
    id: z.number().int(),
    status: z.number().int(),
    amount: z.string().describe('A decimal, e.g. "50000.00"'),
    period: z.number().int().nullable().describe('Months'),
    statusLabel: z.string(),
    author: FundingSearchUser.nullable(),
    manager: FundingSearchUser.nullable(),
    useOfFunds: text,
    urgency: text,
  })
  .meta({ id: 'LenderFundingSearch', description: 'The funding search the application came from' });

const LenderFundingMatch = z
  .strictObject({
    id: z.number().int(),
    offerId: z.string().nullable(),
    products: z.array(z.number().int()).describe('The product ids sent'),
    productNames: z.array(z.string()).describe('Their product types'),
    statusReason: text,
    statusComment: text,
    canUseInstantOffer: z.boolean(),
    canUseInstantApplication: z.boolean(),
    lender: z
      .strictObject({ id: z.number().int(), entityId: z.number().int(), companyName: z.string(), logo: text, icon: text })
      .meta({ id: 'FundingMatchLender' }),
    status: z.number().int(),
  })
  .meta({ id: 'LenderFundingMatch', description: "The lender's match in the funding search" });

const BasicCompanyDetails = z
  .strictObject({
    contactName: text,
    contactEmail: text,
    contactPhone: text,
    companyName: text,
    companyTradingName: text,
    companyNumber: text,
    companyType: text,
    vatRegistered: z.number().int().describe('1 when VAT registered, else 0'),
    address: text,
    city: text,
    postalCode: text,
    tradingFrom: epochSeconds.nullable(),
    tradingPeriod: text,
    creditScore: text.describe("The registry's grade"),
    numberOfEmployees: amount,
    percentageOfSalesOnline: amount,
    companyWebsite: text,
    sectorName: text,
  })
  .meta({ id: 'BasicCompanyDetails' });

/** A director's further details (stored with the person): the spec names them; money and counts are numbers. */
export const DirectorDetails = z.strictObject({
  email: z.string().optional(),
  phone: z.string().optional(),
  ownershipPercentage: z.number().optional(),
  residentialStatus: z.string().optional(),
  monthlyRentOrMortgage: z.number().optional(),
  mortgageValue: z.number().optional(),
  monthlyBusinessIncome: z.number().optional(),
  monthlyNonBusinessIncome: z.number().optional(),
  monthlyOtherHouseholdIncome: z.number().optional(),
  personalCreditLimit: z.number().optional(),
  ccjsValue: z.number().optional(),
  personalDefaultsValue: z.number().optional(),
  dependants: z.number().optional(),
  oldestCreditAccountAge: z.number().optional(),
  missedPaymentsBusiness: z.number().optional(),
  missedPaymentsPersonal: z.number().optional(),
  personalDefaults: z.number().optional(),
});

const DirectorOrSecretaryDetails = z
  .strictObject({
    title: text,
    fullName: text,
    dateOfBirth: epochSeconds.nullable().describe('Unix time in seconds (negative before 1970)'),
    position: text,
    addressResidential: text,
    personalGuarantee: z.boolean().nullable(),
    ...DirectorDetails.shape,
  })
  .meta({ id: 'DirectorOrSecretaryDetails' });

const TradeHistoryYear = z
  .strictObject({
    year: z.string(),
    yearEndTimestamp: epochSeconds.nullable(),
    revenue: z.string(),
    profitNet: z.string(),
    debtorsOutstanding: amount,
    debtorsInvoicesDue: amount,
    fixedAssets: amount,
  })
  .meta({ id: 'TradeHistoryYear' });

const GuarantorAssetsForSecurity = z
  .strictObject({
    hasUkHomeownerDirector: z.boolean(),
    estimatedSecurity: z.number(),
    guarantorAssets: z.array(z.strictObject({ owner: text, estimatedValue: amount, totalDebt: amount, address: text }).meta({ id: 'GuarantorAsset' })),
  })
  .meta({ id: 'GuarantorAssetsForSecurity' });

const InvoiceFinancing = z
  .strictObject({
    debtorsValue: z.number(),
    debtorDays: z.number(),
    invoicesNumber: z.number(),
    creditNotesGrossValue: z.number().optional(),
    creditNotesNumber: z.number().optional(),
    customersNumber: z.number(),
  })
  .meta({ id: 'InvoiceFinancing' });

const TradeFinanceProfile = z
  .strictObject({
    currentValueOfDebtors: z.number().optional(),
    approxNoOfCustomers: z.number().optional(),
    currentValueOfConfirmedOrders: z.number(),
    approxGrossMargin: z.number().optional(),
    madeADozenWebsiteSales: z.boolean().optional(),
  })
  .meta({ id: 'TradeFinanceProfile' });

const EposTerminalInfo = z
  .strictObject({
    transactionsPerMonthAvg: amount,
    monthsUsingCCProcessing: z.number().optional(),
    monthsRemainingOnBusinessLease: z.number().int().nullable(),
    terminalId: text,
    terminalProvider: text,
  })
  .meta({ id: 'EposTerminalInfo' });

const AssetToFinance = z
  .strictObject({ assetCost: amount, assetSerialNumber: text, depositAvailable: amount, assetType: text, assetTypeName: text })
  .meta({ id: 'AssetToFinance' });

const ApplicationAttachment = z
  .strictObject({
    id: z.string(),
    fileName: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int(),
    sha256: z.string(),
    url: z.string().describe('Where the lender downloads it (lender token)'),
  })
  .meta({ id: 'ApplicationAttachment' });

const ApplicantProfile = z
  .strictObject({
    basicCompanyDetails: BasicCompanyDetails,
    directorOrSecretaryDetails: z.array(DirectorOrSecretaryDetails),
    tradeHistory: z.array(TradeHistoryYear),
    guarantorAssetsForSecurity: GuarantorAssetsForSecurity,
    invoiceFinancing: InvoiceFinancing.optional(),
    tradeFinanceProfile: TradeFinanceProfile.optional(),
    eposTerminalInfo: EposTerminalInfo.optional(),
    assetsToFinance: z.array(AssetToFinance),
    attachments: z.array(ApplicationAttachment),
  })
  .meta({ id: 'ApplicantProfile', description: 'The applicant as the lender sees it' });

/** The current offer as fetched: the lender's offer body (offer-schemas.ts) with its id and the client's decision. */
export const LenderOffer = z
  .strictObject({
    id: z.string(),
    reference: z.string(),
    status: z.enum(['INDICATIVE', 'FINAL']),
    expiryDate: text.describe('An ISO 8601 date-time'),
    comment: text,
    decision: z.enum(['ACCEPTED', 'DECLINED']).nullable().describe('Once the client decided'),
    termLoan: PRODUCT_OBJECTS.termLoan
      .extend({ totalFees: z.number().optional().describe('|totalRepayment − maximumAmount.value|, computed when fetched') })
      .meta({ id: 'TermLoanOffer' })
      .optional(),
    invoiceFinance: PRODUCT_OBJECTS.invoiceFinance.meta({ id: 'InvoiceFinanceOffer' }).optional(),
    merchantCashAdvance: PRODUCT_OBJECTS.merchantCashAdvance.meta({ id: 'MerchantCashAdvanceOffer' }).optional(),
    assetFinance: PRODUCT_OBJECTS.assetFinance.meta({ id: 'AssetFinanceOffer' }).optional(),
    tradeFinance: PRODUCT_OBJECTS.tradeFinance.meta({ id: 'TradeFinanceOffer' }).optional(),
    commercialProperty: PRODUCT_OBJECTS.commercialProperty.meta({ id: 'CommercialPropertyOffer' }).optional(),
  })
  .meta({ id: 'LenderOffer', description: "A lender's offer (spec 2.7): exactly one product object is set" });
export type LenderOffer = z.infer<typeof LenderOffer>;

/** The application with its current status and offer: what lenders and integrators both see of it. */
const ApplicationOfDocument = z
  .strictObject({
    id: z.number().int(),
    reference: text,
    status: z.string(),
    responseReason: text,
    comment: text,
    // Absent only from a document stored without them (an application with no funding match).
    fundingSearch: LenderFundingSearch.optional(),
    fundingMatch: LenderFundingMatch.optional(),
    profile: ApplicantProfile.optional(),
    acceptedAt: epochSeconds.nullable(),
    invalidatedAt: epochSeconds.nullable(),
    offer: LenderOffer.nullable().optional().describe('The current offer (documents sent before one was made carry none)'),
  })
  .meta({ id: 'LenderApplication', description: 'The application with its current status and offer' });

/**
 * The lender's view (webhooks and the lender API): with apiProvider, whose authorizationToken is
 * this application's own token, derived when the document is sent or read (never stored).
 */
export const FundingApplicationDocument = z
  .strictObject({ apiProvider: ApiProvider.optional(), application: ApplicationOfDocument })
  .meta({ id: 'FundingApplication', description: 'The funding application document (spec 2.7)' });
export type FundingApplicationDocument = z.infer<typeof FundingApplicationDocument>;

/** The document as stored and queued: apiProvider without its token, which is added as it is sent or read. */
export type StoredApplicationDocument = Omit<FundingApplicationDocument, 'apiProvider'> & { apiProvider?: Omit<ApiProvider, 'authorizationToken'> };
type ApiProvider = z.infer<typeof ApiProvider>;

/**
 * The integrator's view of the same application (accept, decline, resubmit): no apiProvider, so no
 * lender secret or token can reach an integrator whatever is stored.
 */
export const IntegratorApplicationDocument = z.strictObject({ application: ApplicationOfDocument }).meta({
  id: 'IntegratorFundingApplication',
  description: "A lender application as the client's integrator sees it: its status, offer and what was sent, without the lender's apiProvider",
});
export type IntegratorApplicationDocument = z.infer<typeof IntegratorApplicationDocument>;
