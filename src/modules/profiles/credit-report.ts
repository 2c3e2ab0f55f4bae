/**
 * The credit report (spec 2.5): offered for a LIMITED_COMPANY with a well-formed registration
 * number only. Formats: England and Wales 8 digits ("09876543"); a two-letter prefix and 6 digits
 * (SC Scotland, NI Northern Ireland, OC/SO/NC LLPs, ...: "SC412345"); South Africa
 * "YYYY/NNNNNN/NN". Scores come from the registry at read time, so a changed score shows its new
 * grade with previous.grade and changedAt as the registry holds them.
 */
import type { RegistryCompany } from '../companies/company-registry.js';
import { z } from 'zod';
import type { CompanyInformationDto } from '../companies/company-information.js';
import { RegistryCompanyInformation, RegistryCompanyScore } from '../companies/company-schemas.js';

const REGISTRATION_NUMBER_FORMATS: Record<string, RegExp> = {
  GB: /^(\d{8}|[A-Z]{2}\d{6})$/,
  ZA: /^\d{4}\/\d{6}\/\d{2}$/,
};

/** The country whose registry a number belongs to, by its format (GB unless it looks South African). */
export function countryOfRegistrationNumber(registrationNumber: string): 'GB' | 'ZA' {
  return REGISTRATION_NUMBER_FORMATS.ZA!.test(registrationNumber) ? 'ZA' : 'GB';
}

/** Why a company has no credit report, or null when it has one. */
export function creditReportRefusal(company: Pick<RegistryCompany, 'type' | 'registrationNumber' | 'countryCode'>): string | null {
  if (company.type !== 'LIMITED_COMPANY') {
    return `A credit report is offered for limited companies only; this company is a ${company.type}`;
  }
  const format = REGISTRATION_NUMBER_FORMATS[company.countryCode];
  if (!format?.test(company.registrationNumber)) {
    return `The registration number ${company.registrationNumber} is not a valid ${company.countryCode} company number`;
  }
  return null;
}

/**
 * The credit report's result, declared here rather than in profile-schemas.ts: it is made of the
 * registry company's schema (companies/company-schemas.ts), which is itself made of the profile
 * schemas, so declaring it there would make the two modules import each other.
 */
export const CreditReportScore = RegistryCompanyScore.omit({ value: true });
export const CreditReportCompany = RegistryCompanyInformation.pick({
  name: true,
  type: true,
  sector: true,
  registrationNumber: true,
  creditLimit: true,
  legalNotices: true,
}).extend({
  score: CreditReportScore.nullable().describe('Null when no credit-data source has scored the company (meta.creditData says so)'),
});
export const CreditReportData = z.strictObject({
  companyInformation: CreditReportCompany,
  id: z.uuid(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
/** Which credit-data source stated the score, limit and notices, and as of when; or that none has. */
const CreditDataStatement = z
  .discriminatedUnion('available', [
    z.strictObject({
      available: z.literal(true),
      source: z.string().describe('The credit-data source: a bureau named by the deployment, or `demo` (invented demo data)'),
      asOf: z.iso.datetime().nullable().describe('The date of the source data'),
      demo: z.boolean().describe("True for the demo seed's invented scores: not credit data about a real company"),
    }),
    z.strictObject({ available: z.literal(false), reason: z.string() }),
  ])
  .meta({ id: 'CreditDataStatement' });
export const CreditReport = z.strictObject({
  data: CreditReportData,
  links: z.strictObject({ self: z.string() }),
  meta: z.strictObject({ tenantId: z.uuid(), generatedAt: z.iso.datetime(), source: z.literal('registry'), creditData: CreditDataStatement }),
});
export type CreditReport = z.infer<typeof CreditReport>;

export const NO_CREDIT_DATA = 'No credit-data source has data on this company: the report names no grade, credit limit or legal notices';

export function creditReportOf(
  info: CompanyInformationDto,
  credit: Pick<RegistryCompany, 'creditSource' | 'creditAsOf'>,
  profile: { id: string; tenantId: string; createdAt: Date; updatedAt: Date },
  self: string,
  now: Date,
): CreditReport {
  const score = info.score === null ? null : (({ value: _value, ...shown }) => shown)(info.score);
  const creditData: z.infer<typeof CreditDataStatement> =
    credit.creditSource === null
      ? { available: false, reason: NO_CREDIT_DATA }
      : { available: true, source: credit.creditSource, asOf: credit.creditAsOf?.toISOString() ?? null, demo: credit.creditSource === 'demo' };
  return {
    data: {
      companyInformation: {
        name: info.name,
        type: info.type,
        sector: info.sector,
        registrationNumber: info.registrationNumber,
        score,
        creditLimit: info.creditLimit,
        legalNotices: info.legalNotices,
      },
      id: profile.id,
      createdAt: profile.createdAt.toISOString(),
      updatedAt: profile.updatedAt.toISOString(),
    },
    links: { self },
    meta: { tenantId: profile.tenantId, generatedAt: now.toISOString(), source: 'registry', creditData },
  };
}
