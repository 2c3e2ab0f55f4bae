/** GraphQL types of the profiles subgraph. Profile is an entity the other subgraphs extend by uuid. */
import { GraphQLJSONObject } from 'graphql-scalars';
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';

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

  @Field(() => GraphQLJSONObject, { description: 'CompanyInformation (spec 2.1), as stored' })
  companyInformation!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { description: 'Financials (spec 2.1), as stored' })
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
