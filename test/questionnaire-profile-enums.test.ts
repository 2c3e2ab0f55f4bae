/**
 * Answers written into a profile document hold only values its schema allows: the GraphQL result
 * enums (src/infra/graphql/zod-graphql-types.ts) rely on it, since a stored value outside an enum
 * could not be served. Checked from the definitions themselves, so a new questionnaire cannot
 * break it unnoticed.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { questionnaireDefinitions } from '../src/modules/questionnaires/questionnaire-definitions.js';
import { companyInformationSchema } from '../src/modules/companies/company-information-schemas.js';
import { financialsSchema } from '../src/modules/profiles/profile-schemas.js';

const DOCUMENTS: Record<string, z.ZodType> = { companyInformation: companyInformationSchema('businessV1'), financials: financialsSchema('businessV1') };

/** The schema of the field a profile path names, or undefined when the path leaves the typed documents. */
function fieldSchema(path: string): z.ZodType | undefined {
  const [document, ...segments] = path.split('.');
  let schema: z.ZodType | undefined = DOCUMENTS[document!];
  for (const segment of segments) {
    while (schema instanceof z.ZodOptional) schema = schema.unwrap() as z.ZodType;
    schema = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>)[segment] : undefined;
  }
  return schema;
}

describe('questionnaire answers carried into profile documents', () => {
  it('offer only values the profile schema allows (enum questions into companyInformation and financials)', () => {
    const checked: string[] = [];
    for (const definition of questionnaireDefinitions().values()) {
      for (const question of definition.questions) {
        if (question.type !== 'enum') continue;
        for (const path of [question.profilePath ?? []].flat()) {
          const schema = fieldSchema(path);
          if (!schema) continue;
          checked.push(`${definition.id}.${question.key}`);
          const refused = (question.options ?? []).filter((option) => !schema.safeParse(option).success);
          expect(refused, `${definition.id}.${question.key} → ${path}`).toEqual([]);
        }
      }
    }
    // The company type and sector questions at least: a check that checks nothing would pass too.
    expect(checked.length).toBeGreaterThanOrEqual(2);
  });
});
