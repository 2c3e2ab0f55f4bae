/**
 * GraphQL types of the profiles subgraph, derived from their zod declarations (profile-schemas.ts).
 * Profile is an entity the other subgraphs extend by uuid; it is derived before the value types so
 * that any type holding it reuses it. Stored documents are read as the Business V1 shapes, the
 * superset of the Marketplace V1 ones.
 */
import { Directive, Field, ID, ObjectType } from 'type-graphql';
import * as schemas from './profile-schemas.js';
import { Currency as CurrencySchema } from '../companies/company-information-schemas.js';
import { inputTypeFrom, objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';

const Financials = objectTypeFrom(schemas.financialsSchema('businessV1'));
const Person = objectTypeFrom(schemas.Person);
const Property = objectTypeFrom(schemas.Property);
const Asset = objectTypeFrom(schemas.Asset);
const AssetSecurity = objectTypeFrom(schemas.AssetSecurity);
const MerchantCashAdvanceData = objectTypeFrom(schemas.MerchantCashAdvance);
export const BusinessProfile = objectTypeFrom(schemas.BusinessProfile);
const Currency = objectTypeFrom(CurrencySchema);

export const CompanyInformationPatchInput = inputTypeFrom(schemas.CompanyInformationPatch, 'CompanyInformationPatch');
export const FinancialsPatchInput = inputTypeFrom(schemas.FinancialsPatch, 'FinancialsPatch');
export const TenantProfileSetUpInput = inputTypeFrom(schemas.TenantProfileSetUp, 'TenantProfileSetUp');
/** PATCH and PUT /profile share it: PUT's one extra rule (companyInformation present) is the zod schema's. */
export const TenantProfileUpdateInput = inputTypeFrom(schemas.TenantProfilePatch, 'TenantProfileUpdate');

/** The profile entity: the record without its tenant (the Tenant entity's profile field links the two). */
export const Profile = objectTypeFrom(schemas.ProfileRecord.omit({ tenantId: true }), { name: 'Profile', key: 'uuid' });

/**
 * The tenants subgraph owns Tenant; this subgraph contributes its profile. Hand-written: a
 * federation stub holds the key alone, while the derived Tenant (the whole entity) belongs to the
 * tenants subgraph, and one process builds both under the one name.
 */
@ObjectType()
@Directive('@key(fields: "id")')
export class Tenant {
  @Field(() => ID)
  id!: string;
}
