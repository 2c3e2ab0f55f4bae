/** GraphQL types of the applications subgraph. */
import { Directive, Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A Business V1 funding application (spec 2.6)' })
export class Application {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'Questionnaire variant, e.g. business-all-funding-products' })
  type!: string;

  @Field(() => String)
  createdAt!: string;
}

/** Key-only stub: the profiles subgraph owns Profile; this subgraph contributes its applications. */
@ObjectType()
@Directive('@key(fields: "uuid")')
export class Profile {
  @Field(() => ID)
  uuid!: string;
}
