/**
 * Company search and lookup (Marketplace V1 `/companies/...`, spec 4.1 and rule 4): registry data
 * as CompanyInformation (spec 2.1), with its credit score graded and set against its industry.
 */
import { z } from 'zod';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import type { CompanySearchHit } from './company-schemas.js';
import { companyInformation, type CompanyInformationDto } from './company-information.js';

export type { CompanyInformationDto } from './company-information.js';

const COUNTRY_CODES = ['GB', 'ZA'] as const;
const CountryCode = z.enum(COUNTRY_CODES, { message: 'must be GB or ZA' }).default('GB');

export const SearchInput = z.object({
  searchTerm: z.string().trim().min(1, 'must not be empty').max(160, 'must be at most 160 characters'),
  countryCode: CountryCode,
  limit: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(10),
});

export const LookupInput = z.object({
  registrationNumber: z.string().trim().min(1, 'must not be empty').max(40),
  countryCode: CountryCode,
});

/** GET /companies/search/{searchTerm}?countryCode&limit → [{ name, number }], 10 unless limit says. */
export async function searchCompanies(ctx: ServiceContext, input: z.output<typeof SearchInput>): Promise<CompanySearchHit[]> {
  requireAccess(ctx, 'companies.read');
  return ctx.companies.search(input.searchTerm, { countryCode: input.countryCode, limit: input.limit });
}

/** GET /companies/{registrationNumber}?countryCode → CompanyInformation, or 404. */
export async function getCompany(ctx: ServiceContext, input: z.output<typeof LookupInput>): Promise<CompanyInformationDto> {
  requireAccess(ctx, 'companies.read');
  const company = await ctx.companies.find(input.registrationNumber, input.countryCode);
  if (!company) throw AppError.notFound('Company');
  return companyInformation(ctx, company, 'marketplaceV1');
}
