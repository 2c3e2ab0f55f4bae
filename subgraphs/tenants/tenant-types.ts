/** GraphQL types of the tenants subgraph. Tenant is an entity: other subgraphs extend it by id. */
import { Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One tenant manages one business (spec 2.5)' })
@Directive('@key(fields: "id")')
export class Tenant {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true, description: 'Integrator reference, unique per account' })
  referenceId!: string | null;

  @Field(() => String, { description: 'ISO 8601 timestamp' })
  createdDateTime!: string;

  @Field(() => String, { description: 'ISO 8601 timestamp' })
  updatedDateTime!: string;
}

@ObjectType()
export class TenantPage {
  @Field(() => [Tenant])
  items!: Tenant[];

  @Field(() => Int)
  total!: number;

  @Field(() => Int)
  offset!: number;

  @Field(() => Int)
  limit!: number;
}

@InputType()
export class CreateTenantInput {
  @Field(() => String, { nullable: true })
  referenceId?: string;
}

@InputType()
export class UpdateTenantInput {
  @Field(() => String, { nullable: true, description: 'The new referenceId; null clears it' })
  referenceId!: string | null;
}
