/** GraphQL types of the applications subgraph. */
import { GraphQLJSONObject } from 'graphql-scalars';
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A Business V1 funding application (spec 2.6)' })
@Directive('@key(fields: "id")')
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

@ObjectType({ description: 'A pre-selected instant offer (spec 2.6)' })
export class PreselectedOffer {
  @Field(() => ID) id!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String, { description: 'PRE_SELECTED' }) status!: string;
  @Field(() => String, { description: 'INSTANT_OFFER' }) type!: string;
  @Field(() => Boolean) isPreselected!: boolean;
  @Field(() => String) productType!: string;
  @Field(() => String) reference!: string;
  @Field(() => String) publicComment!: string;
  @Field(() => [String]) securityRequired!: string[];
  @Field(() => String) expiryDate!: string;
  @Field(() => String, { description: 'Name of the product object: termLoan, assetFinance, merchantCashAdvance, invoiceFinance, tradeFinance or commercialProperty' })
  productObject!: string;
  @Field(() => GraphQLJSONObject, { description: 'The product object of spec 2.6 with its figures' }) product!: Record<string, unknown>;
}

@ObjectType({ description: 'A lender application moved to a new status (spec 3)' })
export class ApplicationStatusChange {
  @Field(() => Int) applicationId!: number;
  @Field(() => String) status!: string;
  @Field(() => Int) lenderId!: number;
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
