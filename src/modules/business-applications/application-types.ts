/** GraphQL types of the applications subgraph, derived from their zod declarations. */
import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { BusinessApplication } from './business-application-schemas.js';
import { ApplicationStatusChanged, OfferStatusChanged } from '../lender-applications/application-event-schemas.js';
import { IntegratorApplicationDocument } from '../lender-applications/funding-application-schemas.js';
import { ApplicationSubmission as ApplicationSubmissionSchema } from '../lender-applications/submission-schemas.js';
import { PreselectedOffer as PreselectedOfferSchema } from '../offers/preselected-offer-schemas.js';
import { WebhookDelivery as WebhookDeliverySchema } from '../webhooks/webhook-delivery-schemas.js';
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';

export const PreselectedOffer = objectTypeFrom(PreselectedOfferSchema);
/** What integrators get back from accept, decline and resubmit: never the lender's apiProvider. */
export const IntegratorFundingApplication = objectTypeFrom(IntegratorApplicationDocument);
export const ApplicationSubmission = objectTypeFrom(ApplicationSubmissionSchema);
export const ApplicationStatusChange = objectTypeFrom(ApplicationStatusChanged);
export const OfferStatusChange = objectTypeFrom(OfferStatusChanged);
export const WebhookDelivery = objectTypeFrom(WebhookDeliverySchema);

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
