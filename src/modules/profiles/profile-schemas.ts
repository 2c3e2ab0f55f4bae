/**
 * Profile bodies (spec 2.1), declared once with zod: the Marketplace V1 shapes and the Business V1
 * ones (which add legalNotices, tradingAddress, grades F and G, and extra Financials and Debtor
 * fields). Every object is closed (no additional properties), as the spec says of each type.
 */
import { z } from 'zod';
import { DateTime, flavouredId, oneOf, Address, Currency, companyInformationSchema, type Flavour } from '../companies/company-information-schemas.js';

const nonEmpty = <S extends z.ZodObject>(schema: S) => schema.refine((v) => Object.keys(v).length > 0, { message: 'must have at least one property' });

const TradingHistory = z
  .strictObject({
    profitNet: z.number({ message: 'is required (a number)' }),
    revenue: z.number({ message: 'is required (a number)' }),
    yearEnd: z.number({ message: 'is required (a number)' }),
    debtorsInvoicesDue: z.number().optional(),
    debtorsOutstanding: z.number().optional(),
    fixedAssets: z.number().optional(),
    netAssets: z.number().optional(),
    dividends: z.number().optional(),
    year: z.number().optional(),
  })
  .meta({ id: 'TradingHistory' });

function debtorSchema(flavour: Flavour) {
  const base = z.strictObject({
    id: z.string({ message: 'is required (a string)' }).min(1, 'must not be empty'),
    contactId: z.string().optional(),
    name: z.string().optional(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    emailAddress: z.string().optional(),
    contactNumber: z.string().optional(),
    outstandingAmount: z.number().optional(),
    outstandingAmountMonthlyAverage: z.number().optional(),
    outstandingInvoicesCount: z.number().optional(),
    debtorDays: z.number().optional(),
    revenue: z.number().optional(),
  });
  const schema =
    flavour === 'businessV1'
      ? base.extend({ companyName: z.string().optional(), averageMonthlyIncome: Currency.optional(), address: Address.optional() })
      : base;
  return schema.meta({ id: flavouredId(flavour, 'Debtor') });
}

export function financialsSchema(flavour: Flavour) {
  const base = z.strictObject({
    netProfit: Currency.optional(),
    tradeDebtors: Currency.optional(),
    revenue: Currency.optional(),
    bankInterest: Currency.optional(),
    depreciation: Currency.optional(),
    amortisation: Currency.optional(),
    tradingHistory: z.array(TradingHistory).optional(),
    debtors: z.array(debtorSchema(flavour)).optional(),
    primaryBank: z.number().optional(),
  });
  const schema =
    flavour === 'businessV1'
      ? base.extend({
          paymentTerms: z.number().optional(),
          invoicesOutstanding: z.number().optional(),
          numberOfCustomers: z.number().optional(),
          grossProfitMargin: z.number().optional(),
          currentValueConfirmedOrders: Currency.optional(),
        })
      : base;
  return schema.meta({ id: flavouredId(flavour, 'Financials'), description: 'Financials (spec 2.1)' });
}

/** Bodies of PATCH /profiles/{uuid}/company and /financials: the type, and at least one property. */
export const CompanyInformationPatch = nonEmpty(companyInformationSchema('marketplaceV1'));
export type CompanyInformationPatch = z.infer<typeof CompanyInformationPatch>;
export const FinancialsPatch = nonEmpty(financialsSchema('marketplaceV1'));

export const AnonymousProfileBody = z.strictObject({ countryCode: oneOf(['GB', 'ZA'] as const) });

export const Property = z
  .strictObject({
    type: oneOf([
      'HOTEL',
      'OFFICES',
      'LEISURE_FACILITY',
      'RETAIL',
      'FLATS',
      'HMO',
      'OTHER',
      'RESIDENTIAL_HOUSING',
      'STUDENT_HOUSING',
      'HOLIDAY_LETS',
    ] as const).optional(),
    location: oneOf(['UK_MAINLAND', 'UK_ISLES', 'SCOTTISH_MAINLAND', 'SCOTTISH_ISLES', 'NORTHERN_IRELAND', 'EUROPE', 'OTHER'] as const).optional(),
    setting: oneOf(['RURAL', 'INDUSTRIAL', 'TOWN', 'CITY'] as const).optional(),
    classification: oneOf(['COMMERCIAL', 'RESIDENTIAL', 'MIXED_USE'] as const).optional(),
    address: Address.optional(),
    value: Currency.optional(),
    outstandingDebt: Currency.optional(),
    depositAvailable: Currency.optional(),
    additionalDetails: z.string().optional(),
  })
  .meta({ id: 'Property', description: 'Property (spec 2.1)' });

export const Asset = z
  .strictObject({
    name: z.string().optional(),
    offeredAsGuarantee: z.boolean().optional(),
    type: oneOf(['TRANSPORTATION', 'OFFICE', 'STOCK', 'MANUFACTURING', 'BUSINESS', 'PROPERTY'] as const).optional(),
    netCost: Currency.optional(),
    depositAvailable: Currency.optional(),
    existingAgreement: z.boolean().optional(),
  })
  .meta({ id: 'Asset', description: 'Asset (spec 2.1)' });

export const AssetSecurity = z
  .strictObject({
    type: oneOf(['MAIN_PROPERTY', 'OTHER_PROPERTY', 'OTHER_FIXED_ASSETS'] as const).optional(),
    owner: z.string().optional(),
    address: Address.optional(),
    value: Currency.optional(),
    totalDebt: Currency.optional(),
  })
  .meta({ id: 'AssetSecurity', description: 'AssetSecurity (spec 2.1)' });

/** Spec 2.1 lists the fields seen; their constraints are not shown, so only their types are checked. */
export const MerchantCashAdvance = z
  .strictObject({
    type: z.string().optional(),
    averageMonthlyTransactions: z.number().optional(),
    terminalId: z.string().optional(),
    monthsOnBusinessLease: z.number().int().min(0).optional(),
  })
  .meta({ id: 'MerchantCashAdvanceData', description: 'MerchantCashAdvanceData (spec 2.1)' });

export const TradeReference = z
  .strictObject({
    companyName: z.string().optional(),
    contactName: z.string().optional(),
    contactNumber: z.string().optional(),
    contactEmail: z.string().optional(),
  })
  .meta({ id: 'TradeReference', description: 'TradeReference (spec 2.1, Business V1)' });

/** Person (spec 2.1): read from the profile's rows (no API writes persons yet). */
export const Person = z
  .strictObject({
    type: z.string().optional(),
    title: z.string().optional(),
    name: z.string().optional(),
    address: Address.optional(),
    dateOfBirth: DateTime.optional(),
  })
  .meta({ id: 'Person', description: 'Person (spec 2.1)' });

const businessSections = {
  financials: financialsSchema('businessV1').optional(),
  properties: z.array(Property).optional(),
  assets: z.array(Asset).optional(),
  assetsForSecurity: z.array(AssetSecurity).optional(),
  merchantCashAdvance: z.array(MerchantCashAdvance).optional(),
  tradeReferences: z.array(TradeReference).optional(),
};

/** POST /profile (onboarding step 5, Business V1 set-up): companyInformation.registrationNumber required. */
export const TenantProfileSetUp = z.strictObject({
  companyInformation: companyInformationSchema('businessV1').extend({
    registrationNumber: z.string({ message: 'is required' }).trim().min(1, 'must not be empty').max(40),
  }),
  ...businessSections,
});
export type TenantProfileSetUp = z.infer<typeof TenantProfileSetUp>;

/** PATCH /profile: any sections; companyInformation and financials merge, listed sections replace. */
export const TenantProfilePatch = nonEmpty(z.strictObject({ companyInformation: companyInformationSchema('businessV1').optional(), ...businessSections }));
export type TenantProfilePatch = z.infer<typeof TenantProfilePatch>;

/** PUT /profile: the whole profile; what is left out is cleared (the registry's company stays). */
export const TenantProfileReplace = z.strictObject({ companyInformation: companyInformationSchema('businessV1'), ...businessSections });
export type TenantProfileReplace = z.infer<typeof TenantProfileReplace>;

/** The Business V1 profile in responses (spec 2.2): what is stored, each list section as read back. */
export const BusinessProfile = z
  .strictObject({
    id: z.uuid(),
    companyInformation: companyInformationSchema('businessV1'),
    financials: financialsSchema('businessV1'),
    properties: z.array(Property),
    assets: z.array(Asset),
    assetsForSecurity: z.array(AssetSecurity),
    merchantCashAdvance: z.array(MerchantCashAdvance),
    tradeReferences: z.array(TradeReference),
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'BusinessProfile', description: 'A Business V1 profile (spec 2.2)' });
export type BusinessProfile = z.infer<typeof BusinessProfile>;

const flag = () => z.boolean().optional();

/** One instance for the profile record and the defendant it holds: two with the same zod id cannot meet in one JSON Schema. */
const StoredCompanyInformation = companyInformationSchema('businessV1');

/**
 * eligibilityRequest (spec 2.2): what the business asks for, nested as spec 2.2 shows it. The
 * questionnaires' answers fill it (each question's profilePath names its place), so which parts
 * exist depends on the questionnaires answered: every part is optional, and a part nothing has
 * answered is left out. Fields no answer fills (e.g. shared.backgroundPurpose, termLoan,
 * requestedProducts) are declared, as spec 2.2 lists them, and appear once something sets them.
 */
const EligibilityRequest = z
  .strictObject({
    sourceQuestionnaireId: z.string().optional().describe('The questionnaire whose answers filled it last'),
    shared: z
      .strictObject({
        fundingUrgency: z.string().optional(),
        useOfFunds: z.string().optional(),
        fundingAmount: Currency.optional(),
        fundingPeriod: z.number().optional().describe('Months'),
        previousLoanApplication: flag(),
        previousLoanDeclined: flag(),
        tradingImpacted: flag(),
        declaredForBusinessPurposes: flag(),
        backgroundPurpose: z.string().optional(),
      })
      .meta({ id: 'EligibilityShared' })
      .optional(),
    recovery: z
      .strictObject({ defendant: StoredCompanyInformation.optional(), claimAmount: Currency.optional() })
      .meta({ id: 'EligibilityRecovery', description: 'Debt recovery: the defendant (CompanyInformation shape) and the amount claimed' })
      .optional(),
    innovationRequirements: z
      .strictObject({
        tradingDifficulty: flag(),
        grants: z.strictObject({ uniqueIp: flag(), previousGrantApplication: flag() }).meta({ id: 'EligibilityGrants' }).optional(),
        rdTaxClaim: z.strictObject({ isInnovating: flag(), hasTaxRelief: flag() }).meta({ id: 'EligibilityRdTaxClaim' }).optional(),
      })
      .meta({ id: 'EligibilityInnovationRequirements' })
      .optional(),
    commercialProperty: z
      .strictObject({
        refinancing: flag(),
        portfolioSize: z.string().optional(),
        repaymentMethod: z.string().optional(),
        productPropertyType: z.string().optional(),
        annualIncome: Currency.optional(),
        depositOrEquity: Currency.optional(),
        outstandingDebt: Currency.optional(),
      })
      .meta({ id: 'EligibilityCommercialProperty' })
      .optional(),
    termLoan: z
      .strictObject({ hasTermLoan: flag(), preferredCreditFacility: z.array(z.string()).optional() })
      .meta({ id: 'EligibilityTermLoan' })
      .optional(),
    invoiceFinance: z.strictObject({ raisesInvoices: flag(), customerType: z.number().optional() }).meta({ id: 'EligibilityInvoiceFinance' }).optional(),
    merchantCash: z.strictObject({ acceptsCommercePayments: flag() }).meta({ id: 'EligibilityMerchantCash' }).optional(),
    assetFinance: z.strictObject({ ownsAssets: flag() }).meta({ id: 'EligibilityAssetFinance' }).optional(),
    tradeFinance: z.strictObject({ hasPurchaseOrders: flag() }).meta({ id: 'EligibilityTradeFinance' }).optional(),
    requestedProducts: z.array(z.string()).optional(),
    appliedProducts: z.array(z.string()).optional(),
  })
  .meta({ id: 'EligibilityRequest', description: 'What the business asks for (spec 2.2), filled by the questionnaires answered' });
type EligibilityRequest = z.infer<typeof EligibilityRequest>;

/** legacy ids of a profile (spec 2.2). */
export const ProfileLegacy = z
  .strictObject({ entityBusinessId: z.number().int(), fundingSearchId: z.number().int().nullable() })
  .meta({ id: 'ProfileLegacy', description: 'legacy ids of a profile (spec 2.2)' });

/**
 * A profile as the domain knows it (profile-records.ts reads it): every surface's profile shape is
 * taken from it, the Marketplace V1 body of spec 2.2 (profile.rest.ts) and the GraphQL Profile.
 * Its documents are read as the Business V1 shapes, the superset of the Marketplace V1 ones.
 */
export const ProfileRecord = z
  .strictObject({
    uuid: z.uuid(),
    tenantId: z.uuid().nullable(),
    countryCode: z.string(),
    registrationNumber: z.string().nullable(),
    companyName: z.string().nullable(),
    // As stored (no description here: describing a copy would lose the shared types' zod ids).
    companyInformation: StoredCompanyInformation,
    financials: financialsSchema('businessV1'),
    legacyEntityBusinessId: z.number().int().describe('legacy.entityBusinessId'),
    legacy: ProfileLegacy,
    persons: z.array(Person),
    properties: z.array(Property),
    assets: z.array(Asset),
    assetsForSecurity: z.array(AssetSecurity),
    merchantCashAdvance: z.array(MerchantCashAdvance),
    eligibilityRequest: EligibilityRequest,
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'Profile', description: 'A business profile (spec 2.2)' });
export type ProfileRecord = z.infer<typeof ProfileRecord>;

/** GET /profile (spec 2.5 envelope): the whole Business V1 profile, and whether it has a credit report. */
export const ProfileEnvelope = z.strictObject({
  data: BusinessProfile,
  links: z.strictObject({ self: z.string() }),
  meta: z.strictObject({
    tenantId: z.uuid(),
    creditReport: z.union([z.strictObject({ available: z.literal(true) }), z.strictObject({ available: z.literal(false), reason: z.string() })]),
  }),
});
export type ProfileEnvelope = z.infer<typeof ProfileEnvelope>;
