/** GraphQL types of questionnaires (spec 2.3 Questionnaire, 2.4). */
import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One question of a questionnaire' })
export class Question {
  @Field(() => String, { description: 'The answer field it fills' }) key!: string;
  @Field(() => String) label!: string;
  @Field(() => String) help!: string;
  @Field(() => String, { description: 'string, email, phone, enum, boolean, number, currency or date' }) type!: string;
  @Field(() => GraphQLJSON, { nullable: true, description: 'Allowed values (enum, and numbers with a fixed set)' }) options!: unknown;
  @Field(() => Boolean) required!: boolean;
  @Field(() => GraphQLJSON, { nullable: true, description: 'Condition under which it is required' }) requiredWhen!: unknown;
  @Field(() => GraphQLJSON, { nullable: true, description: 'Condition under which it is asked' }) askedWhen!: unknown;
  @Field(() => GraphQLJSON, { nullable: true }) default!: unknown;
}

@ObjectType({ description: 'A questionnaire and its questions, in form order' })
export class Questionnaire {
  @Field(() => ID) id!: string;
  @Field(() => Int) version!: number;
  @Field(() => String) title!: string;
  @Field(() => String) description!: string;
  @Field(() => [Question]) questions!: Question[];
}
