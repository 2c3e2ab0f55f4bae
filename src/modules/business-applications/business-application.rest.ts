/**
 * The REST bodies of Business V1 applications (spec 2.6), made from the module's results: the
 * application answered as its variant's fields plus id and type, and the match list with each
 * likelihood as { value } and a lender's missing logo or description left out. REST-only, so they
 * live beside the REST rows; their schemas are built from the declarations they answer.
 */
import { z } from 'zod';
import { ApplicationMatch, ApplicationMatchList, MatchLender } from '../matching/funding-search-schemas.js';
import { Likelihood } from '../matching/matching.rest.js';
import { OPTIONAL_KEYS, withOptionalKeys, withoutNullKeys } from '../../kernel/rest/rest-bodies.js';
import { APPLICATION_VARIANT_FIELDS, applicationBodySchema } from './application-variants.js';
import { answersShown, type BusinessApplicationRecord } from './business-application-service.js';
import { BusinessApplication } from './business-application-schemas.js';

type JsonObject = Record<string, unknown>;

/**
 * One variant's answer: the fields its body may carry (the variant's JSON Schema, the one requests
 * are checked with) but governmentBackedLoansExist, with the application's id and the response
 * type of spec 2.6 (the same for every variant).
 */
function variantResponse(type: string): z.ZodType {
  const { $schema: _s, $id: _i, properties, ...variant } = applicationBodySchema(type) as JsonObject & { properties: JsonObject };
  const { governmentBackedLoansExist: _omitted, ...answered } = properties;
  // zod turns `format: email` into its own (stricter) email pattern; the answer must document the
  // rule requests were checked with, so those fields keep the JSON Schema format alone.
  const emailFields = Object.entries(answered).filter(([, property]) => (property as JsonObject).format === 'email');
  const withoutFormats = Object.fromEntries(
    Object.entries(answered).map(([name, property]) => {
      const { format, ...rest } = property as JsonObject;
      return [name, format === 'email' ? rest : property];
    }),
  );
  const fields = z.fromJSONSchema({ ...variant, properties: withoutFormats } as Parameters<typeof z.fromJSONSchema>[0]);
  if (!(fields instanceof z.ZodObject)) throw new Error(`application variant ${type}: its body schema is not an object`);
  const emails = Object.fromEntries(emailFields.map(([name]) => [name, (fields.shape[name] as z.ZodType).meta({ format: 'email' })]));
  return fields.extend({ ...emails, id: BusinessApplication.shape.id, type: BusinessApplication.shape.type }).meta({ title: type });
}

/** POST /applications → 201: the application's fields as its request variant gave them (spec 2.6), `type` the response variant. */
export const ApplicationResponse = z.lazy(() =>
  z.union(Object.keys(APPLICATION_VARIANT_FIELDS).map(variantResponse) as [z.ZodType, z.ZodType, ...z.ZodType[]]),
);

export function toResponse(record: BusinessApplicationRecord): JsonObject & { id: string; type: string } {
  return { ...answersShown(record), id: record.id, type: record.type };
}

/** GET /applications/{id}/matches → 200 (spec 2.6 match list). */
export const ApplicationMatchListBody = ApplicationMatchList.extend({
  matches: z.array(ApplicationMatch.extend({ lender: withOptionalKeys(MatchLender, OPTIONAL_KEYS.matches), likelihood: Likelihood })),
}).meta({ id: 'ApplicationMatchListBody', description: "A Business V1 application's matches (spec 2.6)" });

export function toMatchListBody(list: ApplicationMatchList): z.infer<typeof ApplicationMatchListBody> {
  return withoutNullKeys({ ...list, matches: list.matches.map((m) => ({ ...m, likelihood: { value: m.likelihood } })) }, OPTIONAL_KEYS.matches);
}
