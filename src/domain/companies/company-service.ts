/**
 * Company search and lookup (Marketplace V1 `/companies/...`, spec 4.1 and rule 4): registry data
 * as CompanyInformation (spec 2.1), with its credit score graded and set against its industry.
 */
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { AppError } from '../errors.js';
import { requireAccess } from '../identity/access-policy.js';
import { parseInput } from '../validation.js';
import type { RegistryCompany, SearchHit } from './company-registry.js';
import { gradeFor, marketplaceV1Grade, type Grade } from './credit-grade.js';

export const COUNTRY_CODES = ['GB', 'ZA'] as const;
const CountryCode = z.enum(COUNTRY_CODES, { message: 'must be GB or ZA' }).default('GB');

const SearchInput = z.object({
  searchTerm: z.string().trim().min(1, 'must not be empty').max(160, 'must be at most 160 characters'),
  countryCode: CountryCode,
  limit: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(10),
});

const LookupInput = z.object({
  registrationNumber: z.string().trim().min(1, 'must not be empty').max(40),
  countryCode: CountryCode,
});

/** GET /companies/search/{searchTerm}?countryCode&limit → [{ name, number }], 10 unless limit says. */
export async function searchCompanies(ctx: ServiceContext, searchTerm: unknown, query: unknown): Promise<SearchHit[]> {
  requireAccess(ctx, 'companies.read');
  const input = parseInput(SearchInput, { ...(query as object), searchTerm }, 'Request');
  return ctx.companies.search(input.searchTerm, { countryCode: input.countryCode, limit: input.limit });
}

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

/** GET /companies/{registrationNumber}?countryCode → CompanyInformation, or 404. */
export async function getCompany(ctx: ServiceContext, registrationNumber: unknown, query: unknown): Promise<CompanyInformationDto> {
  requireAccess(ctx, 'companies.read');
  const input = parseInput(LookupInput, { ...(query as object), registrationNumber }, 'Request');
  const company = await ctx.companies.find(input.registrationNumber, input.countryCode);
  if (!company) throw AppError.notFound('Company');
  return companyInformation(ctx, company, 'marketplaceV1');
}

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
  return company ? gradeFor(company.scoreValue, company.status === 'DISSOLVED') : null;
}
