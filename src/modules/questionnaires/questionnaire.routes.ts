/** The questionnaires module's REST rows: questionnaires, their JSON Schemas and a profile's answers (Marketplace V1). */
import * as questionnaires from './questionnaire-service.js';
import { type JsonSchema } from './answer-schema.js';
import { z } from 'zod';
import { AnswerJsonSchema, Answers, QuestionnaireDto } from './questionnaire-schemas.js';
import { BASES, route, routeCheckedInOperation, type RouteDefinition } from '../../kernel/rest/route-definition.js';

/** Answers: each questionnaire has its own schema, served at …/json-schema and validated against there. */
function answersBodySchema(): JsonSchema {
  return { type: 'object', description: "The answers, keyed by answer key; the questionnaire's JSON Schema (GET …/questionnaires/{questionnaireId}/json-schema) validates them" };
}

const answersPath = `${BASES.marketplaceV1}/questionnaires/:questionnaireId/profiles/:profileId/answers`;

export const questionnaireRoutes: RouteDefinition[] = [
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/questionnaires`,
    operationId: 'QuestionnaireController_list',
    summary: 'The eleven questionnaires with their questions',
    response: z.array(QuestionnaireDto),
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx) => questionnaires.listQuestionnaires(ctx),
  }),
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/questionnaires/:id`,
    operationId: 'QuestionnaireController_get',
    summary: 'One questionnaire with its questions',
    response: QuestionnaireDto,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => questionnaires.getQuestionnaire(ctx, req.params.id),
  }),
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/questionnaires/:questionnaireId/json-schema`,
    operationId: 'QuestionnaireController_jsonSchema',
    summary: 'The answer body as a JSON Schema (draft 2020-12), the one answers are validated with',
    response: AnswerJsonSchema,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => questionnaires.getAnswerSchema(ctx, req.params.questionnaireId),
  }),
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/questionnaires/:questionnaireId/profiles/:profileId/json-schema`,
    operationId: 'QuestionnaireController_profileJsonSchema',
    summary: "The same schema with the profile's current values as defaults",
    response: AnswerJsonSchema,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.getProfileAnswerSchema(ctx, req.params.questionnaireId, req.params.profileId),
  }),
  route({
    method: 'put',
    path: answersPath,
    operationId: 'AnswerController_put',
    summary: 'All answers (every required one); they land in the profile',
    jsonSchemaBody: answersBodySchema,
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.putAnswers(ctx, req.params.questionnaireId, req.params.profileId, req.body),
  }),
  route({
    method: 'patch',
    path: answersPath,
    operationId: 'AnswerController_patch',
    summary: 'Some answers, merged into the stored ones',
    jsonSchemaBody: answersBodySchema,
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.patchAnswers(ctx, req.params.questionnaireId, req.params.profileId, req.body),
  }),
  route({
    method: 'get',
    path: answersPath,
    operationId: 'AnswerController_get',
    summary: 'The stored answers',
    response: Answers,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.getAnswers(ctx, req.params.questionnaireId, req.params.profileId),
  }),
  routeCheckedInOperation({
    method: 'delete',
    path: answersPath,
    operationId: 'AnswerController_delete',
    summary: 'Removes the answers named by answerKey (repeatable) and what they put in the profile',
    query: questionnaires.DeleteAnswersQuery,
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.deleteAnswers(ctx, req.params.questionnaireId, req.params.profileId, () => req.query().answerKey),
  }),
];
