/**
 * GraphQL types of questionnaires (spec 2.3 Questionnaire, 2.4), derived from the REST result
 * (questionnaire-schemas.ts) with its questions listed, each carrying its key, rather than keyed.
 */
import { z } from 'zod';
import { QuestionDto, QuestionnaireDto } from './questionnaire-schemas.js';
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';

const CONDITION = 'Recursive ({ field, equals } | { field, in: [...] } | { all: [conditions] }) over answers of any type, which GraphQL cannot express';

const QuestionListed = z
  .strictObject({ key: z.string().describe('The answer field it fills'), ...QuestionDto.shape })
  .meta({ id: 'Question', description: 'One question of a questionnaire' });
const QuestionnaireListed = QuestionnaireDto.extend({ questions: z.array(QuestionListed) }).meta({
  id: 'Questionnaire',
  description: 'A questionnaire and its questions, in form order',
});
export type Questionnaire = z.infer<typeof QuestionnaireListed>;

export const Questionnaire = objectTypeFrom(QuestionnaireListed, {
  json: {
    'Question.options': 'the allowed values, strings for an enum or numbers for a fixed set (a list of either type)',
    'Question.requiredWhen': `the condition under which it is required. ${CONDITION}`,
    'Question.askedWhen': `the condition under which it is asked. ${CONDITION}`,
    'Question.default': "the default answer, of the question's own type (string, number, boolean or Currency)",
  },
});
