/** GraphQL types of the matches subgraph: the lender catalogue (derived from its zod declaration) and the entities matching extends. */
import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { Lender as LenderSchema, LenderSettings as LenderSettingsSchema } from './lender-schemas.js';
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';

export const Lender = objectTypeFrom(LenderSchema);
export const LenderSettings = objectTypeFrom(LenderSettingsSchema);

/**
 * Key-only stub, hand-written because it declares no shape of its own: the profiles subgraph owns
 * Profile, and matching contributes its fields by resolvers (@key needs a class to carry it).
 */
@ObjectType()
@Directive('@key(fields: "uuid")')
export class Profile {
  @Field(() => ID)
  uuid!: string;
}
