/** GraphQL type of a non-funding case (spec 2.3 Case), with its state history. */
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Currency } from './profile-types.js';

@ObjectType()
export class CaseDetails {
  @Field(() => String) title!: string;
  @Field(() => String) description!: string;
  @Field(() => Currency, { nullable: true, description: 'When the case has one (e.g. the claim)' }) amount!: unknown;
}

@ObjectType()
export class CaseOwner {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) email!: string;
  @Field(() => Int) team!: number;
}

@ObjectType()
export class CaseManager {
  @Field(() => Int) id!: number;
}

@ObjectType()
export class CaseActivity {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => String) createdAt!: string;
}

@ObjectType()
export class CaseIntegration {
  @Field(() => String) name!: string;
  @Field(() => String) generatedAt!: string;
}

@ObjectType()
export class CaseStateChange {
  @Field(() => String, { nullable: true }) fromState!: string | null;
  @Field(() => String) toState!: string;
  @Field(() => String, { nullable: true }) note!: string | null;
  @Field(() => String) createdAt!: string;
}

@ObjectType({ description: 'A non-funding case: debt recovery, grants, R&D tax claim or credit improvement' })
export class Case {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'The profile uuid' }) profile!: string;
  @Field(() => Int) businessId!: number;
  @Field(() => String) caseState!: string;
  @Field(() => String) caseStateName!: string;
  @Field(() => String) state!: string;
  @Field(() => String) stateName!: string;
  @Field(() => String) stateType!: string;
  @Field(() => String) type!: string;
  @Field(() => String) product!: string;
  @Field(() => String) productName!: string;
  @Field(() => Boolean) private!: boolean;
  @Field(() => Boolean) offersAwaitingReview!: boolean;
  @Field(() => [String]) followers!: string[];
  @Field(() => [String]) products!: string[];
  @Field(() => [String]) productNames!: string[];
  @Field(() => String) stateUpdatedAt!: string;
  @Field(() => CaseDetails) details!: CaseDetails;
  @Field(() => CaseOwner, { nullable: true, description: 'The funding specialist, once one takes the case' }) owner!: CaseOwner | null;
  @Field(() => CaseManager, { nullable: true }) manager!: CaseManager | null;
  @Field(() => CaseActivity, { nullable: true }) latestActivity!: CaseActivity | null;
  @Field(() => CaseIntegration) integration!: CaseIntegration;
  @Field(() => [CaseStateChange], { description: 'Every state the case has been in, oldest first' }) history!: CaseStateChange[];
}
