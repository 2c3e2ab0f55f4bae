/** The companies module's REST rows: registry search and look-up (Marketplace V1). */
import * as companies from './company-service.js';
import { LookupInput, SearchInput } from './company-service.js';
import { OPTIONAL_KEYS, withoutNullKeys } from '../../../rest-adapter/rest-bodies.js';
import { BASES, type RouteDefinition } from '../../../rest-adapter/route-definition.js';

export const companyRoutes: RouteDefinition[] = [
  {
    method: 'get',
    path: `${BASES.marketplaceV1}/companies/search/:searchTerm`,
    operationId: 'CompanyController_search',
    summary: 'Companies by name (exact, prefix, then inside the name) or registration number; 10 unless limit (1-100)',
    query: SearchInput,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(await companies.searchCompanies(ctx, req.params.searchTerm, req.query), OPTIONAL_KEYS.profiles),
  },
  {
    method: 'get',
    path: `${BASES.marketplaceV1}/companies/:registrationNumber`,
    operationId: 'CompanyController_get',
    summary: 'One company of the registry as CompanyInformation',
    query: LookupInput,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(await companies.getCompany(ctx, req.params.registrationNumber, req.query), OPTIONAL_KEYS.profiles),
  },
];
