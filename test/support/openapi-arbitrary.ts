/**
 * fast-check arbitraries for requests from an OpenAPI 3.1 document's own schemas (JSON Schema
 * 2020-12: `$ref` into components, anyOf/oneOf/allOf, `type` arrays for nullable fields, const,
 * enum, formats, bounds, additionalProperties), plus malformed variants of them: the wrong type,
 * a required key dropped, an extra key, unicode, a string near the 1 MiB body limit. `known`
 * values (real ids of the test's fixtures, by property or parameter name) are mixed in so that a
 * request gets past "not found" into validation and the business rules.
 */
import fc from 'fast-check';

type Schema = Record<string, any>;

export interface SchemaContext {
  /** The document's `components.schemas`, for `#/components/schemas/…` refs. */
  components: Record<string, Schema>;
  /** Real values by property / parameter name (e.g. `uuid` → the fixture's profile). */
  known: Record<string, readonly unknown[]>;
}

const MAX_DEPTH = 6;

function resolve(schema: Schema, context: SchemaContext): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 20; hops++) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(current.$ref)?.[1];
    const target = name === undefined ? undefined : context.components[decodeURIComponent(name)];
    if (!target) throw new Error(`unresolvable $ref ${current.$ref}`);
    const { $ref: _ref, ...siblings } = current;
    current = { ...target, ...siblings };
  }
  return current;
}

/** allOf as one schema: properties and required merged (what our documents use allOf for). */
function mergeAllOf(schema: Schema, context: SchemaContext): Schema {
  const { allOf, ...rest } = schema;
  return (allOf as Schema[])
    .map((s) => resolve(s, context))
    .reduce<Schema>(
      (merged, part) => ({
        ...merged,
        ...part,
        properties: { ...merged.properties, ...part.properties },
        required: [...(merged.required ?? []), ...(part.required ?? [])],
      }),
      rest,
    );
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc.date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'uri':
    case 'url':
      return fc.webUrl();
    case 'email':
      if (typeof schema.pattern !== 'string') return fc.emailAddress();
  }
  if (typeof schema.pattern === 'string') {
    try {
      const matching = fc.stringMatching(new RegExp(schema.pattern));
      const max = schema.maxLength ?? Infinity;
      const min = schema.minLength ?? 0;
      return min === 0 && max === Infinity ? matching : matching.filter((s) => s.length >= min && s.length <= max);
    } catch {
      // A pattern fast-check cannot generate from: plain strings (malformed ones are generated anyway).
    }
  }
  const minLength = schema.minLength ?? 0;
  return fc.string({ minLength, maxLength: Math.min(schema.maxLength ?? minLength + 40, minLength + 40), unit: 'grapheme' });
}

function numberFor(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + (integer ? 1 : 1e-6) : undefined);
  const max = schema.maximum ?? (typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - (integer ? 1 : 1e-6) : undefined);
  if (integer) {
    const lo = Math.max(min ?? -1_000_000_000, Number.MIN_SAFE_INTEGER);
    const hi = Math.min(max ?? 1_000_000_000, Number.MAX_SAFE_INTEGER);
    // Small values are where the interesting rules are; the whole range at the edges.
    return fc.oneof(fc.integer({ min: lo, max: Math.min(hi, lo + 1000) }), fc.integer({ min: lo, max: hi }), fc.constantFrom(lo, hi));
  }
  return fc.double({ min: min ?? -1e12, max: max ?? 1e12, noNaN: true, noDefaultInfinity: true });
}

/** Values valid against `schema` (as far as the generator can tell: patterns and bounds are honoured). */
export function conforming(schema: Schema | boolean | undefined, context: SchemaContext, depth = 0, name?: string): fc.Arbitrary<unknown> {
  if (schema === undefined || schema === true) return fc.jsonValue({ maxDepth: 2 });
  if (schema === false) return fc.constant(undefined);
  const known = name !== undefined ? context.known[name] : undefined;
  const generated = conformingUnnamed(resolve(schema, context), context, depth);
  return known?.length ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 2 }, { arbitrary: generated, weight: 1 }) : generated;
}

function conformingUnnamed(schema: Schema, context: SchemaContext, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.allOf)) return conforming(mergeAllOf(schema, context), context, depth);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) {
    const { anyOf: _a, oneOf: _o, ...shared } = schema;
    return fc.oneof(...alternatives.map((alternative: Schema) => conforming({ ...shared, ...resolve(alternative, context) }, context, depth + 1)));
  }
  if (schema.not !== undefined && Object.keys(schema).length === 1) return fc.constant(undefined);
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type: string) => conforming({ ...schema, type }, context, depth)));
  // Past the depth limit a nested value is left as small as its schema allows.
  if (depth > MAX_DEPTH && schema.type !== 'object' && schema.type !== 'array') return fc.constant(null);
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'string':
      return stringFor(schema);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = depth > MAX_DEPTH ? minLength : Math.min(schema.maxItems ?? minLength + 3, minLength + 3);
      return fc.array(conforming(schema.items, context, depth + 1), { minLength, maxLength });
    }
    case 'object':
    case undefined: {
      if (schema.type === undefined && !schema.properties) return fc.jsonValue({ maxDepth: 2 });
      const required: string[] = schema.required ?? [];
      const properties: Record<string, Schema> = schema.properties ?? {};
      const entries = Object.entries(properties).filter(([key]) => depth <= MAX_DEPTH || required.includes(key));
      const record = fc.record(Object.fromEntries(entries.map(([key, s]) => [key, conforming(s, context, depth + 1, key)])), {
        requiredKeys: required.filter((k) => k in properties),
      });
      const extra = schema.additionalProperties;
      if (extra === false || extra === undefined || entries.length > 0 || depth > MAX_DEPTH) return record;
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), conforming(extra, context, depth + 1), { maxKeys: 3 });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Something of another JSON type than any the schema allows, mostly. */
const wrongTyped = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
);

/** Long strings within the 1 MiB body limit (and ones that are long in UTF-8 rather than in characters). */
const hugeString = fc.oneof(
  fc.integer({ min: 10_000, max: 900_000 }).map((n) => 'a'.repeat(n)),
  fc.integer({ min: 1_000, max: 130_000 }).map((n) => '€𝄞'.repeat(n)),
);

const unicodeString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', '\uFEFF', '../../etc/passwd', "' OR 1=1 --", '%00', '${jndi:x}', '{{7*7}}'),
);

/** A valid value (from the schema, or a known good one) with one thing wrong with it. */
function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return valid.chain((value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fc.oneof(wrongTyped, unicodeString);
    const keys = Object.keys(value);
    const record = value as Record<string, unknown>;
    const options: Array<fc.Arbitrary<unknown>> = [
      fc.string({ minLength: 1, maxLength: 20 }).map((key) => ({ ...record, [`x-${key}`]: 'extra' })),
      hugeString.map((s) => ({ ...record, [keys[0] ?? 'huge']: s })),
    ];
    if (keys.length > 0) {
      options.push(
        fc.constantFrom(...keys).map((drop) => Object.fromEntries(Object.entries(record).filter(([k]) => k !== drop))),
        fc.tuple(fc.constantFrom(...keys), wrongTyped).map(([key, bad]) => ({ ...record, [key]: bad })),
        fc.tuple(fc.constantFrom(...keys), unicodeString).map(([key, text]) => ({ ...record, [key]: text })),
      );
    }
    return fc.oneof(...options);
  });
}

/**
 * Mostly values that fit the schema (so business rules run), some one mutation away, some anything.
 * `good` values (a complete body the business rules accept, where the schema alone rarely yields
 * one) are mixed in as they are and mutated.
 */
export function requestValue(schema: Schema, context: SchemaContext, good?: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const valid = conforming(schema, context);
  return fc.oneof(
    { arbitrary: valid, weight: good ? 3 : 5 },
    { arbitrary: mutated(valid), weight: good ? 1 : 3 },
    ...(good
      ? [
          { arbitrary: good, weight: 3 },
          { arbitrary: mutated(good), weight: 2 },
        ]
      : []),
    { arbitrary: fc.oneof(wrongTyped, fc.jsonValue({ maxDepth: 3 }), unicodeString), weight: 1 },
  );
}
