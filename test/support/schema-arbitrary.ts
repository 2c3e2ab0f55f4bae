/**
 * fast-check arbitraries generated from a JSON Schema (the subset our answer schemas use), and
 * mutations of the values they generate, for property-based tests of schema-driven validation.
 */
import fc from 'fast-check';

type Schema = Record<string, any>;

function arbitraryFor(schema: Schema, root: Schema = schema): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') return arbitraryFor(root.$defs[schema.$ref.replace('#/$defs/', '')], root);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'boolean':
      return fc.boolean();
    case 'number':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: 10_000_000 });
    case 'string':
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'date')
        return fc.date({ min: new Date('1950-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (typeof schema.pattern === 'string' && schema.pattern !== '\\S') return fc.stringMatching(new RegExp(schema.pattern));
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: 40 });
    case 'object': {
      const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, arbitraryFor(s as Schema, root)]));
      return fc.record(properties, { requiredKeys: schema.required ?? [] });
    }
    default:
      throw new Error(`no arbitrary for schema ${JSON.stringify(schema).slice(0, 80)}`);
  }
}

/** Values from the schema, and values one mutation away: a key dropped, a wrong type, an extra key. */
export function answersAndMutations(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const valid = arbitraryFor(schema) as fc.Arbitrary<Record<string, unknown>>;
  const keys = Object.keys(schema.properties ?? {});
  const withoutOne = fc.tuple(valid, fc.constantFrom(...keys)).map(([v, k]) => Object.fromEntries(Object.entries(v).filter(([key]) => key !== k)));
  const wrongType = fc
    .tuple(valid, fc.constantFrom(...keys), fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.boolean(), fc.constant([])))
    .map(([v, k, bad]) => ({ ...v, [k]: bad }));
  const extraKey = fc.tuple(valid, fc.string({ minLength: 1, maxLength: 12 })).map(([v, k]) => ({ ...v, [`x${k}`]: 1 }));
  return fc.oneof(valid, withoutOne, wrongType, extraKey);
}
