/** GraphQL types of questionnaires (spec 2.3 Questionnaire, 2.4). */
import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';

const CONDITION = 'Recursive ({ field, equals } | { field, in: [...] } | { all: [conditions] }) over answers of any type, which GraphQL cannot express';

@ObjectType({ description: 'One question of a questionnaire' })
export class Question {
  @Field(() => String, { description: 'The answer field it fills' }) key!: string;
  @Field(() => String) label!: string;
  @Field(() => String) help!: string;
  @Field(() => String, { description: 'string, email, phone, enum, boolean, number, currency or date' }) type!: string;
  @Field(() => GraphQLJSON, { nullable: true, description: 'Free-form JSON: the allowed values, strings for an enum or numbers for a fixed set (a list of either type)' })
  options!: unknown;
  @Field(() => Boolean) required!: boolean;
  @Field(() => GraphQLJSON, { nullable: true, description: `Free-form JSON: the condition under which it is required. ${CONDITION}` }) requiredWhen!: unknown;
  @Field(() => GraphQLJSON, { nullable: true, description: `Free-form JSON: the condition under which it is asked. ${CONDITION}` }) askedWhen!: unknown;
  @Field(() => GraphQLJSON, { nullable: true, description: "Free-form JSON: the default answer, of the question's own type (string, number, boolean or Currency)" })
  default!: unknown;
}

@ObjectType({ description: 'A questionnaire and its questions, in form order' })
export class Questionnaire {
  @Field(() => ID) id!: string;
  @Field(() => Int) version!: number;
  @Field(() => String) title!: string;
  @Field(() => String) description!: string;
  @Field(() => [Question]) questions!: Question[];
}
