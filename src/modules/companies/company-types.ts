/** GraphQL types of companies: a search hit (spec 2.3) and a company as CompanyInformation (spec 2.1). */
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import { companyInformationSchema } from './company-information-schemas.js';
import { CompanySearchHit as CompanySearchHitSchema } from './company-schemas.js';

export const CompanySearchHit = objectTypeFrom(CompanySearchHitSchema);
/** Read as the Business V1 shape, the superset of the Marketplace V1 one. */
export const CompanyInformation = objectTypeFrom(companyInformationSchema('businessV1'));
