/** The companies module's REST rows: registry search and look-up (Marketplace V1). */
import * as companies from './company-service.js';
import { LookupInput, SearchInput } from './company-service.js';
import { z } from 'zod';
import { CompanySearchHit, RegistryCompanyInformation, RegistryCompanyScore } from './company-schemas.js';
import { OPTIONAL_KEYS, withOptionalKeys, withoutNullKeys } from '../../kernel/rest/rest-bodies.js';
import { BASES, route, type RouteDefinition } from '../../kernel/rest/route-definition.js';

/** The REST body of a registry company: a score never changed has no changedAt or previous. */
const RestCompanyInformation = RegistryCompanyInformation.extend({ score: withOptionalKeys(RegistryCompanyScore, OPTIONAL_KEYS.profiles).nullable() });

export const companyRoutes: RouteDefinition[] = [
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/companies/search/:searchTerm`,
    operationId: 'CompanyController_search',
    summary: 'Search companies',
    description:
      'Companies of the registry whose name matches the search term (exact matches first, then names starting with it, then names containing it) or whose registration number is the term, as `{ name, number }`: 10 unless `limit` (1-100) says otherwise. `countryCode` (GB or ZA) narrows the search to one country.',
    access: 'companies.read',
    example: { summary: 'Companies named like ACME WIDGETS', params: { searchTerm: 'ACME WIDGETS' }, query: { countryCode: 'GB', limit: 5 } },
    query: SearchInput,
    response: z.array(CompanySearchHit),
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(await companies.searchCompanies(ctx, req.query), OPTIONAL_KEYS.profiles),
  }),
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/companies/:registrationNumber`,
    operationId: 'CompanyController_get',
    summary: 'Get a company',
    description:
      'One company of the registry by its registration number, as CompanyInformation (name, type, sector, incorporation, VAT status, score, credit limit, address). An unknown number is a 404.',
    access: 'companies.read',
    example: { summary: 'ACME WIDGETS LIMITED', params: { registrationNumber: '09876543' }, query: { countryCode: 'GB' } },
    query: LookupInput,
    response: RestCompanyInformation,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(await companies.getCompany(ctx, req.query), OPTIONAL_KEYS.profiles),
  }),
];
