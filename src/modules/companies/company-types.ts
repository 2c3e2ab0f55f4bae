/** GraphQL types of company search and the credit report (spec 2.3, 2.5); a company is CompanyInformation. */
import { Field, ID, ObjectType } from 'type-graphql';
import { CompanySearchHit as CompanySearchHitSchema } from './company-schemas.js';
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import { CompanyInformation } from '../profiles/profile-types.js';

export const CompanySearchHit = objectTypeFrom(CompanySearchHitSchema);

/**
 * The credit report's data object (spec 2.5). Hand-written: GraphQL has always typed its company
 * as the profile's CompanyInformation (every field optional), while its REST result
 * (credit-report.ts) is the registry's narrower company; deriving from that would rename the type.
 */
@ObjectType({ description: 'The credit report of a tenant (spec 2.5: its data object)' })
export class CreditReport {
  @Field(() => CompanyInformation) companyInformation!: unknown;
  @Field(() => ID) id!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}
