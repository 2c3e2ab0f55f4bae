/**
 * CompanyInformation (spec 2.1) and the value types it is made of (Currency, Address, legal notices,
 * the score), declared once with zod: a company as the registry states it and as a profile holds
 * it. The companies module owns them; profiles, lenders and the registry's results build on them.
 */
import { z } from 'zod';

export type Flavour = 'marketplaceV1' | 'businessV1';

export const COMPANY_TYPES = ['SOLE_TRADER', 'LIMITED_LIABILITY_PARTNERSHIP', 'LIMITED_COMPANY', 'STARTUP'] as const;
export const SECTORS = [
  'AGRICULTURE',
  'AUTOMOTIVE',
  'BUSINESS_SERVICES',
  'CHARITIES',
  'CONSTRUCTION',
  'COURIER',
  'DISTRIBUTION',
  'EDUCATION',
  'FINANCIAL_SERVICES',
  'HAULAGE',
  'HEALTHCARE_CARE',
  'HOTELS_HOUSE',
  'IMPORT_EXPORT',
  'IT_RELATED',
  'MANUFACTURING',
  'MEDIA_AND_ENTERTAINMENT',
  'NONE',
  'OTHER',
  'PRINT_PUBLISHING',
  'PROFESSIONAL_SERVICES',
  'PROPERTY',
  'RECRUITMENT',
  'RETAIL',
  'SECURITY_SERVICES',
  'TRADE',
  'TRANSPORTATION',
  'WHOLESALE',
] as const;

export const VAT_STATUSES = ['REGISTERED', 'NOT_REGISTERED', 'UNKNOWN'] as const;

export const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { message: `must be one of ${values.join(', ')}` });
/** Enums shared by several types carry a zod id, so each becomes one named type (GraphQL, OpenAPI). */
const CompanyType = oneOf(COMPANY_TYPES).meta({ id: 'CompanyType' });
const Sector = oneOf(SECTORS).meta({ id: 'Sector' });
const VatStatus = oneOf(VAT_STATUSES).meta({ id: 'VatStatus' });
export const CurrencyCode = oneOf(['GBP', 'EUR', 'ZAR'] as const).meta({ id: 'CurrencyCode' });
export const DateTime = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' });

export const Currency = z
  .strictObject({
    code: CurrencyCode,
    value: z.number({ message: 'must be a number' }),
  })
  .meta({ id: 'Currency', description: 'Currency amount (spec 2.1)' });

export const Address = z
  .strictObject({
    simpleValue: z.string().optional(),
    street: z.string().optional(),
    houseNumber: z.string().optional(),
    city: z.string().optional(),
    province: z.string().optional(),
    postalCode: z.string().optional(),
  })
  .meta({ id: 'Address', description: 'Address (spec 2.1)' });

const PrimaryContactInformation = z
  .strictObject({
    email: z.string().optional(),
    name: z.string().optional(),
    number: z.string().optional(),
    inviteClient: z.boolean().optional(),
    legalRequirements: z.boolean().optional(),
    address: Address.optional(),
  })
  .meta({ id: 'PrimaryContactInformation' });

const UnencumberedAssets = z
  .strictObject({
    guarantees: oneOf(['NONE', 'BUSINESS', 'PERSONAL', 'BOTH'] as const).optional(),
    isHomeOwnership: z.boolean().optional(),
    personalGuarantee: z.boolean().optional(),
    businessOwnsAssets: z.boolean().optional(),
  })
  .meta({ id: 'UnencumberedAssets' });

const LegalNoticeCount = z.strictObject({ last12MonthsCount: z.number().int().min(0), last12MonthsValue: Currency }).meta({ id: 'LegalNoticeCount' });
export const LegalNotices = z
  .strictObject({ company: LegalNoticeCount, directors: LegalNoticeCount })
  .meta({ id: 'LegalNotices', description: 'Legal notices of the last 12 months, against the company and its directors' });

/** Zod ids name the shapes (and so their GraphQL types); the Marketplace V1 variants of a Business V1 shape get their own. */
export const flavouredId = (flavour: Flavour, id: string) => (flavour === 'businessV1' ? id : `MarketplaceV1${id}`);

function companyScore(flavour: Flavour) {
  const grades = flavour === 'businessV1' ? (['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const) : (['A', 'B', 'C', 'D', 'E'] as const);
  const Grade = oneOf(grades).meta({ id: flavouredId(flavour, 'Grade') });
  return z
    .strictObject({
      grade: Grade.optional(),
      value: z.number().min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100').optional(),
      industryAverageGrade: Grade.optional(),
      changedAt: DateTime.optional(),
      lastAssessedAt: DateTime.optional(),
      previous: z
        .strictObject({ grade: Grade })
        .meta({ id: flavouredId(flavour, 'PreviousScore') })
        .optional(),
    })
    .meta({ id: flavouredId(flavour, 'CompanyScore'), description: 'CompanyScore (spec 2.1): grade bands F 2-15 … A 91-100, G dissolved' });
}

export function companyInformationSchema(flavour: Flavour) {
  const base = z.strictObject({
    name: z.string().optional(),
    type: CompanyType.optional(),
    // Bounded (as POST /profile bounds it): the number is copied to an indexed column, whose btree
    // entries cannot exceed a few kB (a longer value was a 500, found by the OpenAPI fuzzer).
    registrationNumber: z.string().max(40, 'must be at most 40 characters').optional(),
    incorporatedAt: DateTime.optional(),
    tradingFromDate: DateTime.optional(),
    sector: Sector.optional(),
    vatStatus: VatStatus.optional(),
    score: companyScore(flavour).optional(),
    creditLimit: Currency.optional(),
    contactAddress: Address.optional(),
    primaryContactInformation: PrimaryContactInformation.optional(),
    unencumberedAssets: UnencumberedAssets.optional(),
    isGovernmentBacked: z.boolean().optional(),
    hasGovernmentBackedLoans: z.boolean().optional(),
    employeesNumber: z.number().int('must be a whole number').min(0).optional(),
    percentageSalesOnline: z.number().min(0).max(100).optional(),
    website: z.string().optional(),
  });
  const schema = flavour === 'businessV1' ? base.extend({ legalNotices: LegalNotices.optional(), tradingAddress: Address.optional() }) : base;
  return schema.meta({ id: flavouredId(flavour, 'CompanyInformation'), description: 'CompanyInformation (spec 2.1)' });
}
