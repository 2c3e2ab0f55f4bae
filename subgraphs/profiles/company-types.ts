/** GraphQL types of company search and the credit report (spec 2.3, 2.5); a company is CompanyInformation. */
import { Field, ID, ObjectType } from 'type-graphql';
import { CompanyInformation } from './profile-types.js';

@ObjectType({ description: 'A company search hit (spec 2.3)' })
export class CompanySearchHit {
  @Field(() => String) name!: string;
  @Field(() => String) number!: string;
}

@ObjectType({ description: 'The credit report of a tenant (spec 2.5: its data object)' })
export class CreditReport {
  @Field(() => CompanyInformation) companyInformation!: unknown;
  @Field(() => ID) id!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}
