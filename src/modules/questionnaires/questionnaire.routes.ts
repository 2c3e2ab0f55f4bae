/** The questionnaires module's REST rows: questionnaires, their JSON Schemas and a profile's answers (Marketplace V1). */
import * as questionnaires from './questionnaire-service.js';
import { answerSchema, type JsonSchema } from './answer-schema.js';
import { questionnaireDefinitions } from './questionnaire-definitions.js';
import { z } from 'zod';
import { AnswerJsonSchema, Answers, QuestionnaireDto } from './questionnaire-schemas.js';
import { ACME_ANSWERS, ACME_PATCH, EXAMPLE_QUESTIONNAIRE } from './questionnaire.examples.js';
import { BASES, route, routeCheckedInOperation, type RouteDefinition } from '../../kernel/rest/route-definition.js';

/**
 * Answers: one variant per questionnaire, each the very schema its answers are validated with
 * (answer-schema.ts; PATCH: the partial one). The path's questionnaireId selects the variant; as a
 * body alone may fit several (the all-funding-products questionnaires share their fields, and
 * nothing is required of a partial body), they are `anyOf`, not `oneOf`, which would refuse such
 * a body although the server takes it.
 */
function answersBodySchema(partial: boolean): () => JsonSchema {
  return () => ({
    description: `The answers, keyed by answer key: one variant per questionnaire, the one the path's questionnaireId names (its JSON Schema is served at …/questionnaires/{questionnaireId}/json-schema)${partial ? '; nothing is required outright, conditional requirements stay' : ''}`,
    anyOf: [...questionnaireDefinitions().values()].map((definition) => {
      const { $schema: _s, $id: _i, ...variant } = answerSchema(definition, { partial });
      return { ...variant, title: definition.id };
    }),
  });
}

const answersPath = `${BASES.marketplaceV1}/questionnaires/:questionnaireId/profiles/:profileId/answers`;

const Q = EXAMPLE_QUESTIONNAIRE;

export const questionnaireRoutes: RouteDefinition[] = [
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/questionnaires`,
    operationId: 'QuestionnaireController_list',
    summary: 'List the questionnaires',
    description:
      'The eleven questionnaires (business and introducer variants for funding, working capital, commercial property, grants, R&D tax, debt recovery and credit improvement), each with its questions: key, label, help text, type, options, and when it is required or asked.',
    access: 'questionnaires.read',
    response: z.array(QuestionnaireDto),
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx) => questionnaires.listQuestionnaires(ctx),
  }),
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/questionnaires/:id`,
    operationId: 'QuestionnaireController_get',
    summary: 'Get a questionnaire',
    description: 'One questionnaire with its questions. An unknown id is a 404.',
    access: 'questionnaires.read',
    example: { params: { id: Q } },
    response: QuestionnaireDto,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => questionnaires.getQuestionnaire(ctx, req.params.id),
  }),
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/questionnaires/:questionnaireId/json-schema`,
    operationId: 'QuestionnaireController_jsonSchema',
    summary: "Get a questionnaire's answer schema",
    description:
      'The answer body as a JSON Schema (draft 2020-12) with titles, help texts, formats and the conditional requirements (`if`/`then`): the very schema answers are validated with, so a form built from it cannot disagree with the server.',
    access: 'questionnaires.read',
    example: { params: { questionnaireId: Q } },
    response: AnswerJsonSchema,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: async (ctx, req) => questionnaires.getAnswerSchema(ctx, req.params.questionnaireId),
  }),
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/questionnaires/:questionnaireId/profiles/:profileId/json-schema`,
    operationId: 'QuestionnaireController_profileJsonSchema',
    summary: 'Get the answer schema pre-filled from a profile',
    description:
      "The same JSON Schema with the profile's current answers and company facts as each property's `default`, to pre-fill a form. A profile the caller cannot see is a 404.",
    access: 'questionnaires.read',
    example: { params: { questionnaireId: Q } },
    response: AnswerJsonSchema,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.getProfileAnswerSchema(ctx, req.params.questionnaireId, req.params.profileId),
  }),
  route({
    method: 'put',
    path: answersPath,
    operationId: 'AnswerController_put',
    summary: 'Answer a questionnaire for a profile',
    description:
      'Stores a complete answer set (every answer the questionnaire requires, including those its conditions require) and writes the answers into the profile in the same transaction: contact details, company facts, annual figures and the eligibility request matching reads. Answers left out of a later PUT are removed, with what they had put in the profile. An invalid body is a 400 naming every failing answer by JSON pointer; nothing is stored.',
    access: 'answers.write',
    example: { summary: 'ACME WIDGETS LIMITED asks for £150,000 over 24 months', params: { questionnaireId: Q }, body: ACME_ANSWERS },
    jsonSchemaBody: answersBodySchema(false),
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.putAnswers(ctx, req.params.questionnaireId, req.params.profileId, req.body),
  }),
  route({
    method: 'patch',
    path: answersPath,
    operationId: 'AnswerController_patch',
    summary: 'Change some answers',
    description:
      'Merges the answers sent into the stored ones and updates the profile; the merged set must still be valid (a 400 names what is missing or wrong).',
    access: 'answers.write',
    example: { summary: 'The net profit of the latest accounts, and the urgency', params: { questionnaireId: Q }, body: ACME_PATCH },
    jsonSchemaBody: answersBodySchema(true),
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.patchAnswers(ctx, req.params.questionnaireId, req.params.profileId, req.body),
  }),
  route({
    method: 'get',
    path: answersPath,
    operationId: 'AnswerController_get',
    summary: "Get a profile's answers",
    description: 'The stored answers of the questionnaire for the profile, keyed by answer key (an empty object before any).',
    access: 'questionnaires.read',
    example: { params: { questionnaireId: Q } },
    response: Answers,
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.getAnswers(ctx, req.params.questionnaireId, req.params.profileId),
  }),
  routeCheckedInOperation({
    method: 'delete',
    path: answersPath,
    operationId: 'AnswerController_delete',
    summary: 'Remove answers',
    description:
      'Removes the answers named by `answerKey` (repeat the parameter for several) and unsets what they had put in the profile; values other sources set (e.g. `PATCH …/company`) stay.',
    access: 'answers.write',
    example: { params: { questionnaireId: Q }, query: { answerKey: ['fundingUrgency'] } },
    query: questionnaires.DeleteAnswersQuery,
    successStatus: 204,
    surface: 'marketplaceV1',
    handle: (ctx, req) => questionnaires.deleteAnswers(ctx, req.params.questionnaireId, req.params.profileId, () => req.query().answerKey),
  }),
];
