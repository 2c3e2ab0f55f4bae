/** Thin adapters: company search and lookup over the companies service. */
import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import * as companies from './company-service.js';
import type { CompanySearchHit as CompanySearchHitResult } from './company-schemas.js';
import { parseInput } from '../../kernel/validation.js';
import { CompanyInformation, CompanySearchHit } from './company-types.js';

@Resolver()
export class CompanyResolver {
  @Query(() => [CompanySearchHit], { description: 'Companies by name or registration number (10 unless limit, 1-100)' })
  companySearch(
    @Arg('term', () => String) term: string,
    @Arg('countryCode', () => String, { nullable: true }) countryCode: string | undefined,
    @Arg('limit', () => Int, { nullable: true }) limit: number | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<CompanySearchHitResult[]> {
    return companies.searchCompanies(ctx, parseInput(companies.SearchInput, { searchTerm: term, countryCode, limit }, 'Request'));
  }

  @Query(() => CompanyInformation, { description: 'One company of the registry (Marketplace V1 grades A-E)' })
  company(
    @Arg('registrationNumber', () => String) registrationNumber: string,
    @Arg('countryCode', () => String, { nullable: true }) countryCode: string | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<companies.CompanyInformationDto> {
    return companies.getCompany(ctx, parseInput(companies.LookupInput, { registrationNumber, countryCode }, 'Request'));
  }
}
