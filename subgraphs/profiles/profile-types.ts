/**
 * GraphQL types of the profiles subgraph. Profile is an entity the other subgraphs extend by uuid.
 * The profile documents and bodies are derived from their zod declarations (profile-schemas.ts);
 * stored documents are read as the Business V1 shapes, the superset of the Marketplace V1 ones.
 */
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import * as schemas from '../../src/domain/profiles/profile-schemas.js';
import { inputTypeFrom, objectTypeFrom } from '../shared/zod-graphql-types.js';

export const CompanyInformation = objectTypeFrom(schemas.companyInformationSchema('businessV1'));
export const Financials = objectTypeFrom(schemas.financialsSchema('businessV1'));
export const Person = objectTypeFrom(schemas.Person);
export const Property = objectTypeFrom(schemas.Property);
export const Asset = objectTypeFrom(schemas.Asset);
export const AssetSecurity = objectTypeFrom(schemas.AssetSecurity);
export const MerchantCashAdvanceData = objectTypeFrom(schemas.MerchantCashAdvance);
export const BusinessProfile = objectTypeFrom(schemas.BusinessProfile);
export const Currency = objectTypeFrom(schemas.Currency);

export const CompanyInformationPatchInput = inputTypeFrom(schemas.CompanyInformationPatch, 'CompanyInformationPatch');
export const FinancialsPatchInput = inputTypeFrom(schemas.FinancialsPatch, 'FinancialsPatch');
export const TenantProfileSetUpInput = inputTypeFrom(schemas.TenantProfileSetUp, 'TenantProfileSetUp');
/** PATCH and PUT /profile share it: PUT's one extra rule (companyInformation present) is the zod schema's. */
export const TenantProfileUpdateInput = inputTypeFrom(schemas.TenantProfilePatch, 'TenantProfileUpdate');

@ObjectType({ description: 'A business profile (spec 2.2)' })
@Directive('@key(fields: "uuid")')
export class Profile {
  @Field(() => ID)
  uuid!: string;

  @Field(() => String)
  countryCode!: string;

  @Field(() => String, { nullable: true })
  registrationNumber!: string | null;

  @Field(() => String, { nullable: true })
  companyName!: string | null;

  @Field(() => CompanyInformation, { description: 'As stored' })
  companyInformation!: Record<string, unknown>;

  @Field(() => Financials, { description: 'As stored' })
  financials!: Record<string, unknown>;

  @Field(() => Int, { description: 'legacy.entityBusinessId' })
  legacyEntityBusinessId!: number;

  @Field(() => String)
  createdAt!: string;

  @Field(() => String)
  updatedAt!: string;
}

/** The tenants subgraph owns Tenant; this subgraph contributes its profile. */
@ObjectType()
@Directive('@key(fields: "id")')
export class Tenant {
  @Field(() => ID)
  id!: string;
}

@ObjectType({ description: 'legacy ids of a profile (spec 2.2)' })
export class ProfileLegacy {
  @Field(() => Int)
  entityBusinessId!: number;

  @Field(() => Int, { nullable: true })
  fundingSearchId!: number | null;
}

@ObjectType({ description: 'A signed, expiring link to the profile funding-search page' })
export class ProfileUrl {
  @Field(() => String)
  url!: string;
}

@ObjectType({ description: 'A document attached to a profile (content served to lenders by the lender API)' })
export class ProfileDocument {
  @Field(() => ID) id!: string;
  @Field(() => String) fileName!: string;
  @Field(() => String) contentType!: string;
  @Field(() => Int) sizeBytes!: number;
  @Field(() => String) sha256!: string;
  @Field(() => String) createdAt!: string;
}
