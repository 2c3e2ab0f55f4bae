/**
 * Registry data as CompanyInformation (spec 2.1): the credit score graded on the scale a surface
 * shows and set against its industry (internal: callers have decided access).
 */
import type { ServiceContext } from '../../kernel/context.js';
import type { RegistryCompany } from './company-registry.js';
import { gradeFor, marketplaceV1Grade, type Grade } from './credit-grade.js';
import type { RegistryCompanyInformation } from './company-schemas.js';

type Dto = RegistryCompanyInformation;

export type CompanyInformationDto = RegistryCompanyInformation;

/** Marketplace V1 shows grades A-E only; Business V1 and the credit report show F and G too. */
export type GradeScale = 'marketplaceV1' | 'full';

/** @access internal: the registry facts of a company whose profile or number the calling operation has already decided on. */
export async function companyInformation(ctx: ServiceContext, company: RegistryCompany, scale: GradeScale): Promise<CompanyInformationDto> {
  const shown = (grade: Grade): Grade => (scale === 'marketplaceV1' ? marketplaceV1Grade(grade) : grade);
  const dissolved = company.status === 'DISSOLVED';
  const average = company.scoreValue === null ? null : await ctx.companies.sectorAverageScore(company.sector, company.countryCode);
  // The registry's type, sector, VAT status and currencies are PostgreSQL enums (or checked columns) of the schema's values.
  const money = (value: number) => ({ code: company.noticesCurrency as NonNullable<Dto['creditLimit']>['code'], value });
  return {
    name: company.name,
    type: company.type as Dto['type'],
    registrationNumber: company.registrationNumber,
    incorporatedAt: company.incorporatedAt?.toISOString() ?? null,
    sector: company.sector as Dto['sector'],
    vatStatus: company.vatStatus as Dto['vatStatus'],
    // No credit data, no grade: the register alone says nothing of a company's credit.
    score:
      company.scoreValue === null
        ? null
        : {
            grade: shown(gradeFor(company.scoreValue, dissolved)),
            value: company.scoreValue,
            industryAverageGrade: average === null ? null : shown(gradeFor(Math.round(average))),
            changedAt: company.scoreChangedAt?.toISOString() ?? null,
            lastAssessedAt: company.scoreLastAssessedAt?.toISOString() ?? null,
            previous: company.previousScoreValue === null ? null : { grade: shown(gradeFor(company.previousScoreValue)) },
          },
    creditLimit:
      company.creditLimitValue === null
        ? null
        : { code: (company.creditLimitCurrency ?? company.noticesCurrency) as NonNullable<Dto['creditLimit']>['code'], value: company.creditLimitValue },
    contactAddress: (company.address as Dto['contactAddress']) ?? null,
    employeesNumber: company.employeesNumber,
    website: company.website,
    legalNotices:
      company.creditSource === null
        ? null
        : {
            company: { last12MonthsCount: company.companyNoticesCount, last12MonthsValue: money(company.companyNoticesValue) },
            directors: { last12MonthsCount: company.directorsNoticesCount, last12MonthsValue: money(company.directorsNoticesValue) },
          },
  };
}

/**
 * The registered office as a profile's contact address, which the lender document's address, city
 * and postal code are read from: a starting value copied when a profile takes the company (an
 * address the client sends replaces it), not a fact kept in step with the registry.
 */
export function registeredAddress(company: Pick<RegistryCompany, 'address'>): { contactAddress?: NonNullable<Dto['contactAddress']> } {
  return company.address ? { contactAddress: company.address as NonNullable<Dto['contactAddress']> } : {};
}

/**
 * The registry's grade of a profile's company (full scale), or null when the registry does not know it.
 * @access internal: for a profile the calling operation has already decided on.
 */
export async function registryGrade(ctx: ServiceContext, profile: { registrationNumber: string | null; countryCode: string }): Promise<Grade | null> {
  const company = profile.registrationNumber ? await ctx.companies.find(profile.registrationNumber, profile.countryCode) : null;
  return company ? gradeOf(company) : null;
}

/**
 * `registryGrade` of several profiles, in one registry look-up.
 * @access internal: for profiles the calling operation has already decided on.
 */
export async function registryGrades(
  ctx: ServiceContext,
  profiles: ReadonlyArray<{ registrationNumber: string | null; countryCode: string }>,
): Promise<Array<Grade | null>> {
  const registered = profiles.flatMap((p) => (p.registrationNumber ? [{ registrationNumber: p.registrationNumber, countryCode: p.countryCode }] : []));
  const companies = await ctx.companies.findEach(registered);
  let next = 0;
  return profiles.map((p) => {
    if (!p.registrationNumber) return null;
    const company = companies[next++];
    return company ? gradeOf(company) : null;
  });
}

/** Unknown (null) without credit data: matching then treats the grade as unknown. */
const gradeOf = (company: RegistryCompany) => (company.scoreValue === null ? null : gradeFor(company.scoreValue, company.status === 'DISSOLVED'));
