/** GraphQL types of the applications subgraph; the offer and lender documents derive from their zod declarations. */
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { IntegratorApplicationDocument } from '../../src/domain/lender-api/funding-application-schemas.js';
import { ApplicationSubmission as ApplicationSubmissionSchema } from '../../src/domain/lender-api/submission-schemas.js';
import { PreselectedOffer as PreselectedOfferSchema } from '../../src/domain/offers/preselected-offer-schemas.js';
import { objectTypeFrom } from '../shared/zod-graphql-types.js';

export const PreselectedOffer = objectTypeFrom(PreselectedOfferSchema);
/** What integrators get back from accept, decline and resubmit: never the lender's apiProvider. */
export const IntegratorFundingApplication = objectTypeFrom(IntegratorApplicationDocument);
export const ApplicationSubmission = objectTypeFrom(ApplicationSubmissionSchema);

@ObjectType({ description: 'A Business V1 funding application (spec 2.6)' })
@Directive('@key(fields: "id")')
export class Application {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'The questionnaire (answer variant) it was made with, e.g. business-all-funding-products' })
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

@ObjectType({ description: 'A lender application moved to a new status (spec 3)' })
export class ApplicationStatusChange {
  @Field(() => Int) applicationId!: number;
  @Field(() => String) status!: string;
  @Field(() => Int) lenderId!: number;
}

@ObjectType({ description: 'One attempt of a webhook delivery' })
export class WebhookDeliveryAttempt {
  @Field(() => Int, { nullable: true, description: "The lender's HTTP status; null when no answer came (timeout, refused connection or URL)" }) statusCode!: number | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => Int, { description: 'Milliseconds from sending to the answer (or the failure)' }) latencyMs!: number;
  @Field(() => String) attemptedAt!: string;
}

@ObjectType({ description: 'A webhook delivery to a lender, with its attempts' })
export class WebhookDelivery {
  @Field(() => ID) id!: string;
  @Field(() => Int) lenderApplicationId!: number;
  @Field(() => Int) lenderId!: number;
  @Field(() => String, { description: 'APPLICATION_CREATED or APPLICATION_UPDATED' }) event!: string;
  @Field(() => String) url!: string;
  @Field(() => String, { description: 'PENDING, FAILED (retrying), DELIVERED or DEAD' }) status!: string;
  @Field(() => Int) attempts!: number;
  @Field(() => Int, { nullable: true }) lastStatusCode!: number | null;
  @Field(() => String, { nullable: true }) lastError!: string | null;
  @Field(() => String, { nullable: true }) nextAttemptAt!: string | null;
  @Field(() => String, { nullable: true }) deliveredAt!: string | null;
  @Field(() => String) createdAt!: string;
  @Field(() => [WebhookDeliveryAttempt], { description: 'The latest attempts (at most 10), newest first' }) attemptLog!: WebhookDeliveryAttempt[];
}

@ObjectType({ description: "A lender's offer was made, replaced, accepted or declined" })
export class OfferStatusChange {
  @Field(() => Int) applicationId!: number;
  @Field(() => Int) lenderId!: number;
  @Field(() => ID) offerId!: string;
  @Field(() => String) reference!: string;
  @Field(() => String, { description: 'INDICATIVE or FINAL' }) status!: string;
  @Field(() => String, { nullable: true, description: 'ACCEPTED or DECLINED once the client decided' }) decision!: string | null;
}
