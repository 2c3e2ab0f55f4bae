/** GraphQL types of Business V1 applications, derived from their zod declarations. */
import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { BusinessApplication } from './business-application-schemas.js';
import { PreselectedOffer as PreselectedOfferSchema } from '../offers/preselected-offer-schemas.js';
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';

export const PreselectedOffer = objectTypeFrom(PreselectedOfferSchema);

/** This subgraph owns Application, an entity: the derived type gets its key here (the matches subgraph adds its matches). */
export const Application = objectTypeFrom(BusinessApplication);
Directive('@key(fields: "id")')(Application);

/** Key-only stub, hand-written because it declares no shape of its own: the profiles subgraph owns Profile; this subgraph contributes its applications by a resolver. */
@ObjectType()
@Directive('@key(fields: "uuid")')
export class Profile {
  @Field(() => ID)
  uuid!: string;
}
