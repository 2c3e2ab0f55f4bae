/** GraphQL types of the profiles subgraph. Profile is an entity the other subgraphs extend by uuid. */
import { Directive, Field, ID, ObjectType } from 'type-graphql';

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
