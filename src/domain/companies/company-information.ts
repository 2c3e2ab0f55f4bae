/**
 * Registry data as CompanyInformation (spec 2.1): the credit score graded on the scale a surface
 * shows and set against its industry (internal: callers have decided access).
 */
import type { ServiceContext } from '../context.js';
import type { RegistryCompany } from './company-registry.js';
import { gradeFor, marketplaceV1Grade, type Grade } from './credit-grade.js';

export interface CompanyScoreDto {
  grade: Grade;
  value: number;
  industryAverageGrade: Grade | null;
  changedAt: string | null;
  lastAssessedAt: string | null;
  previous: { grade: Grade } | null;
}

export interface CompanyInformationDto {
  name: string;
  type: string;
  registrationNumber: string;
  incorporatedAt: string | null;
  sector: string;
  vatStatus: string;
  score: CompanyScoreDto;
  creditLimit: { code: string; value: number } | null;
  contactAddress: Record<string, string> | null;
  employeesNumber: number | null;
  website: string | null;
  legalNotices: {
    company: { last12MonthsCount: number; last12MonthsValue: { code: string; value: number } };
    directors: { last12MonthsCount: number; last12MonthsValue: { code: string; value: number } };
  };
}

/** Marketplace V1 shows grades A-E only; Business V1 and the credit report show F and G too. */
export type GradeScale = 'marketplaceV1' | 'full';

export async function companyInformation(ctx: ServiceContext, company: RegistryCompany, scale: GradeScale): Promise<CompanyInformationDto> {
  const shown = (grade: Grade): Grade => (scale === 'marketplaceV1' ? marketplaceV1Grade(grade) : grade);
  const dissolved = company.status === 'DISSOLVED';
  const average = await ctx.companies.sectorAverageScore(company.sector, company.countryCode);
  const money = (value: number) => ({ code: company.noticesCurrency, value });
  return {
    name: company.name,
    type: company.type,
    registrationNumber: company.registrationNumber,
    incorporatedAt: company.incorporatedAt?.toISOString() ?? null,
    sector: company.sector,
    vatStatus: company.vatStatus,
    score: {
      grade: shown(gradeFor(company.scoreValue, dissolved)),
      value: company.scoreValue,
      industryAverageGrade: average === null ? null : shown(gradeFor(Math.round(average))),
      changedAt: company.scoreChangedAt?.toISOString() ?? null,
      lastAssessedAt: company.scoreLastAssessedAt?.toISOString() ?? null,
      previous: company.previousScoreValue === null ? null : { grade: shown(gradeFor(company.previousScoreValue)) },
    },
    creditLimit:
      company.creditLimitValue === null ? null : { code: company.creditLimitCurrency ?? company.noticesCurrency, value: company.creditLimitValue },
    contactAddress: (company.address as Record<string, string> | null) ?? null,
    employeesNumber: company.employeesNumber,
    website: company.website,
    legalNotices: {
      company: { last12MonthsCount: company.companyNoticesCount, last12MonthsValue: money(company.companyNoticesValue) },
      directors: { last12MonthsCount: company.directorsNoticesCount, last12MonthsValue: money(company.directorsNoticesValue) },
    },
  };
}

/** The registry's grade of a profile's company (full scale), or null when the registry does not know it. */
export async function registryGrade(ctx: ServiceContext, profile: { registrationNumber: string | null; countryCode: string }): Promise<Grade | null> {
  const company = profile.registrationNumber ? await ctx.companies.find(profile.registrationNumber, profile.countryCode) : null;
  return company ? gradeOf(company) : null;
}

/** `registryGrade` of several profiles, in one registry look-up. */
export async function registryGrades(ctx: ServiceContext, profiles: ReadonlyArray<{ registrationNumber: string | null; countryCode: string }>): Promise<Array<Grade | null>> {
  const registered = profiles.flatMap((p) => (p.registrationNumber ? [{ registrationNumber: p.registrationNumber, countryCode: p.countryCode }] : []));
  const companies = await ctx.companies.findEach(registered);
  let next = 0;
  return profiles.map((p) => {
    if (!p.registrationNumber) return null;
    const company = companies[next++];
    return company ? gradeOf(company) : null;
  });
}

const gradeOf = (company: RegistryCompany) => gradeFor(company.scoreValue, company.status === 'DISSOLVED');
