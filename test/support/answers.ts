/** Answer bodies for tests, built from a questionnaire's definition: complete and valid by construction. */
import type { Question, QuestionnaireDefinition } from '../../src/modules/questionnaires/questionnaire-definitions.js';

export function validValue(q: Question): unknown {
  switch (q.type) {
    case 'string':
      return `Answer to ${q.key}`;
    case 'email':
      return 'owner@acme-widgets.example';
    case 'phone':
      return '+44 20 7946 0000';
    case 'enum':
      return q.options?.find((o) => o !== 'NONE') ?? q.options?.[0];
    case 'boolean':
      return true;
    case 'number':
      return q.options?.[0] ?? Math.max(q.minimum ?? 0, 12);
    case 'currency':
      return { code: 'GBP', value: 75_000 };
    case 'date':
      return '2019-04-01';
  }
}

/** Every question answered: conditional requirements are then met whatever their conditions. */
export function completeAnswers(definition: QuestionnaireDefinition): Record<string, unknown> {
  return Object.fromEntries(definition.questions.map((q) => [q.key, validValue(q)]));
}

/** A value of the wrong type for a question. */
export function wrongTypeValue(q: Question): unknown {
  return q.type === 'boolean' ? 'yes' : q.type === 'number' ? 'twelve' : q.type === 'currency' ? 12 : 42;
}

/** ACME WIDGETS LIMITED (registry grade A) asking for £150,000 over 24 months: the API reference's example answers. */
export { ACME_ANSWERS } from '../../src/modules/questionnaires/questionnaire.examples.js';

/** ACME's answers as a Business V1 application body: the API reference's example. */
export { ACME_APPLICATION } from '../../src/modules/business-applications/business-application.examples.js';
