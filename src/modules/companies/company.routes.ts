/** The companies module's REST rows: registry search and look-up (Marketplace V1). */
import * as companies from './company-service.js';
import { LookupInput, SearchInput } from './company-service.js';
import { z } from 'zod';
import { CompanySearchHit, RegistryCompanyInformation, RegistryCompanyScore } from './company-schemas.js';
import { OPTIONAL_KEYS, withOptionalKeys, withoutNullKeys } from '../../kernel/rest/rest-bodies.js';
import { BASES, route, type RouteDefinition } from '../../kernel/rest/route-definition.js';

/** The REST body of a registry company: a score never changed has no changedAt or previous. */
const RestCompanyInformation = RegistryCompanyInformation.extend({ score: withOptionalKeys(RegistryCompanyScore, OPTIONAL_KEYS.profiles) });

export const companyRoutes: RouteDefinition[] = [
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/companies/search/:searchTerm`,
    operationId: 'CompanyController_search',
    summary: 'Companies by name (exact, prefix, then inside the name) or registration number; 10 unless limit (1-100)',
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
    summary: 'One company of the registry as CompanyInformation',
    query: LookupInput,
    response: RestCompanyInformation,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => withoutNullKeys(await companies.getCompany(ctx, req.query), OPTIONAL_KEYS.profiles),
  }),
];
