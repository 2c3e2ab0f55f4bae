/** Thin adapters: questionnaires, their JSON schemas and a profile's answers, over the domain service. */
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import * as questionnaires from './questionnaire-service.js';
import { checkLater } from '../../kernel/validation.js';
import { Questionnaire } from './questionnaire-types.js';

type Json = Record<string, unknown>;

// Answers stay free-form JSON: eleven questionnaires, each its own field set (answer variants), and
// each described by its served JSON Schema, which validates them.
const ANSWERS = 'Free-form JSON: the answers keyed by question, whose fields depend on the questionnaire (see questionnaireJsonSchema)';

function toGraphQL(dto: questionnaires.QuestionnaireDto): Questionnaire {
  return { ...dto, questions: Object.entries(dto.questions).map(([key, q]) => ({ key, ...q })) };
}

@Resolver(() => Questionnaire)
export class QuestionnaireResolver {
  @Query(() => [Questionnaire])
  questionnaires(@Ctx() ctx: ServiceContext): Questionnaire[] {
    return questionnaires.listQuestionnaires(ctx).map(toGraphQL);
  }

  @Query(() => Questionnaire)
  questionnaire(@Arg('id', () => ID) id: string, @Ctx() ctx: ServiceContext): Questionnaire {
    return toGraphQL(questionnaires.getQuestionnaire(ctx, id));
  }

  @Query(() => GraphQLJSONObject, {
    description:
      "Free-form JSON: the answer JSON Schema (draft 2020-12), itself a document whose shape is JSON Schema's; with profileId, pre-filled from that profile",
  })
  questionnaireJsonSchema(
    @Arg('id', () => ID) id: string,
    @Arg('profileId', () => ID, { nullable: true }) profileId: string | undefined,
    @Ctx() ctx: ServiceContext,
  ): Promise<Json> | Json {
    return profileId ? questionnaires.getProfileAnswerSchema(ctx, id, profileId) : questionnaires.getAnswerSchema(ctx, id);
  }

  @Query(() => GraphQLJSONObject, { description: `A profile's stored answers to a questionnaire. ${ANSWERS}` })
  answers(@Arg('questionnaireId', () => ID) questionnaireId: string, @Arg('profileId', () => ID) profileId: string, @Ctx() ctx: ServiceContext): Promise<Json> {
    return questionnaires.getAnswers(ctx, questionnaireId, profileId);
  }

  @Mutation(() => GraphQLJSONObject, { description: `PUT answers: the whole set; returns the stored answers. ${ANSWERS}` })
  putAnswers(
    @Arg('questionnaireId', () => ID) questionnaireId: string,
    @Arg('profileId', () => ID) profileId: string,
    @Arg('answers', () => GraphQLJSONObject, { description: ANSWERS }) answers: Json,
    @Ctx() ctx: ServiceContext,
  ): Promise<Json> {
    return questionnaires.putAnswers(ctx, questionnaireId, profileId, answers);
  }

  @Mutation(() => GraphQLJSONObject, { description: `PATCH answers: merged into the stored ones; returns them. ${ANSWERS}` })
  patchAnswers(
    @Arg('questionnaireId', () => ID) questionnaireId: string,
    @Arg('profileId', () => ID) profileId: string,
    @Arg('answers', () => GraphQLJSONObject, { description: ANSWERS }) answers: Json,
    @Ctx() ctx: ServiceContext,
  ): Promise<Json> {
    return questionnaires.patchAnswers(ctx, questionnaireId, profileId, answers);
  }

  @Mutation(() => GraphQLJSONObject, { description: `DELETE answers by key; returns the stored answers left. ${ANSWERS}` })
  deleteAnswers(
    @Arg('questionnaireId', () => ID) questionnaireId: string,
    @Arg('profileId', () => ID) profileId: string,
    @Arg('answerKeys', () => [String]) answerKeys: string[],
    @Ctx() ctx: ServiceContext,
  ): Promise<Json> {
    return questionnaires.deleteAnswers(ctx, questionnaireId, profileId, checkLater(questionnaires.AnswerKeys, answerKeys, 'answerKey'));
  }
}
