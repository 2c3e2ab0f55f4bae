/** GraphQL types of the matches subgraph: the lender catalogue (matching arrives with the matching issue). */
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType()
export class LenderProduct {
  @Field(() => Int)
  id!: number;

  @Field(() => String, { description: 'One of the product types of spec 2.3' })
  productType!: string;

  @Field(() => String)
  name!: string;

  @Field(() => Boolean)
  instantOffer!: boolean;
}

@ObjectType()
export class Lender {
  @Field(() => Int)
  id!: number;

  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  logo!: string | null;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => String, { description: 'LOW, AVERAGE, EXPENSIVE or MOST_EXPENSIVE' })
  priceBand!: string;

  @Field(() => Int)
  responseTimeHours!: number;

  @Field(() => [String])
  requiredDocuments!: string[];

  @Field(() => [LenderProduct])
  products!: LenderProduct[];
}

/** Key-only stub: the profiles subgraph owns Profile; matching adds fields here. */
@ObjectType()
@Directive('@key(fields: "uuid")')
export class Profile {
  @Field(() => ID)
  uuid!: string;
}

/** Key-only stub: the applications subgraph owns Application; matching adds its matches. */
@ObjectType()
@Directive('@key(fields: "id")')
export class Application {
  @Field(() => ID)
  id!: string;
}
