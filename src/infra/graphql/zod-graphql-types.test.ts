/** The zod → GraphQL bridge: names, scalars, nullability, and refusals, read from the printed schema. */
import 'reflect-metadata';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { Arg, buildSchema, Query, Resolver } from 'type-graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inputTypeFrom, objectTypeFrom } from './zod-graphql-types.js';

const ProbeAmount = z.strictObject({ code: z.enum(['GBP', 'EUR']), value: z.number() }).meta({ id: 'ProbeAmount', description: 'An amount' });
const Probe = z.strictObject({
  id: z.string(),
  ownerId: z.string().optional(),
  count: z.number().int().min(0),
  ratio: z.number().nullable().describe('0..1'),
  createdAt: z.iso.datetime(),
  kind: z.enum(['A', 'B']).default('A'),
  tags: z.array(z.enum(['X', 'Y'])).optional(),
  flags: z.array(z.boolean().nullable()),
  total: ProbeAmount,
  limits: z.array(ProbeAmount).optional(),
  nested: z.strictObject({ deep: z.literal('yes') }).optional(),
  when: z.union([z.iso.date(), z.iso.datetime()]),
});

const ProbeOwner = z.strictObject({ uuid: z.uuid(), kind: z.enum(['A', 'B']).meta({ id: 'ProbeOwnerKind' }) }).meta({ id: 'ProbeOwner' });
// The entity first: the holder below reuses it, key and all.
const ProbeOwnerType = objectTypeFrom(ProbeOwner, { key: 'uuid' });
const ProbeHolder = z.strictObject({
  owner: ProbeOwner,
  ownerKinds: z.array(z.enum(['A', 'B']).meta({ id: 'ProbeOwnerKind' })),
  path: z.enum(['funding-search', 'other']),
  extra: z.record(z.string(), z.unknown()),
  legacyKind: z.enum(['A', 'B']),
});
const ProbeHolderType = objectTypeFrom(ProbeHolder, {
  name: 'ProbeHolder',
  json: { 'ProbeHolder.extra': 'whatever the caller stored' },
  strings: { 'ProbeHolder.legacyKind': 'Old rows hold lower-case kinds.' },
});
const ProbeOutput = objectTypeFrom(Probe, 'Probe');
const ProbeInput = inputTypeFrom(Probe, 'Probe');

@Resolver()
class ProbeResolver {
  @Query(() => ProbeHolderType)
  holder(): unknown {
    return null;
  }

  @Query(() => ProbeOutput)
  probe(@Arg('input', () => ProbeInput) input: unknown): unknown {
    return input;
  }
}

// A type published before it was derived: a String id, and an input named without the Input suffix.
const ProbeLegacyOutput = objectTypeFrom(
  z.strictObject({ id: z.string().meta({ graphqlType: 'String' }), ownerId: z.string(), code: z.string().meta({ graphqlType: 'ID' }) }),
  'ProbeLegacy',
);
const ProbeLegacyFilter = inputTypeFrom(z.strictObject({ ownerId: z.string().optional() }), { name: 'ProbeLegacyFilter', exactName: true });

@Resolver()
class ProbeLegacyResolver {
  @Query(() => ProbeLegacyOutput)
  legacy(@Arg('filter', () => ProbeLegacyFilter) filter: unknown): unknown {
    return filter;
  }
}

/** One definition of the printed schema, from its first line to its closing brace. */
async function printed(): Promise<(firstLine: string) => string> {
  // Printed by the same graphql module instance as type-graphql's (a test file's own import is another).
  const sdl = printSchemaWithDirectives(await buildSchema({ resolvers: [ProbeResolver], skipCheck: true }));
  return (firstLine) => {
    const start = sdl.indexOf(`${firstLine}\n`);
    if (start < 0) throw new Error(`${firstLine} is not in the schema:\n${sdl}`);
    return sdl.slice(start, sdl.indexOf('\n}', start) + 2);
  };
}

describe('zod → GraphQL types', () => {
  it('maps scalars, lists and nullability, names nested types by zod id or by path, and marks object types shareable', async () => {
    const type = await printed();
    expect(type('type Probe @shareable {')).toBe(`type Probe @shareable {
  id: ID!
  ownerId: ID
  count: Int!
  """0..1"""
  ratio: Float
  """An ISO 8601 date-time."""
  createdAt: String!
  """Default: "A"."""
  kind: ProbeKind
  tags: [ProbeTags!]
  flags: [Boolean]!
  total: ProbeAmount!
  limits: [ProbeAmount!]
  nested: ProbeNested
  when: String!
}`);
    expect(type('"""An amount"""')).toBe('"""An amount"""\ntype ProbeAmount @shareable {\n  code: ProbeAmountCode!\n  value: Float!\n}');
    expect(type('enum ProbeKind {')).toBe('enum ProbeKind {\n  A\n  B\n}');
    // Inputs keep String: zod checks them, naming the failing field by JSON pointer as REST does.
    expect(type('input ProbeInput {')).toContain('  """Default: "A". One of A, B."""\n  kind: String\n');
    expect(type('input ProbeAmountInput {')).toContain('  code: String!\n');
    expect(type('type ProbeNested @shareable {')).toBe('type ProbeNested @shareable {\n  """Always "yes"."""\n  deep: String!\n}');
    expect(type('input ProbeInput {')).toContain('  total: ProbeAmountInput!\n');
    expect(type('input ProbeInput {')).toContain('  nested: ProbeNestedInput\n');
    expect(type('input ProbeAmountInput {')).toContain('  value: Float!\n');
  });

  it("keeps a published name: a string field's graphqlType overrides the id rule, exactName drops the Input suffix", async () => {
    const sdl = printSchemaWithDirectives(await buildSchema({ resolvers: [ProbeLegacyResolver], skipCheck: true }));
    expect(sdl).toContain('type ProbeLegacy @shareable {\n  id: String!\n  ownerId: ID!\n  code: ID!\n}');
    expect(sdl).toContain('input ProbeLegacyFilter {\n  ownerId: ID\n}');
    expect(sdl).not.toContain('ProbeLegacyFilterInput');
  });

  it('derives entities with their key (as ID), shared named enums, String for enums that are no GraphQL names, and JSON only where asked', async () => {
    const type = await printed();
    expect(type('type ProbeOwner @key(fields: "uuid") {')).toBe('type ProbeOwner @key(fields: "uuid") {\n  uuid: ID!\n  kind: ProbeOwnerKind!\n}');
    expect(type('type ProbeHolder @shareable {')).toBe(
      'type ProbeHolder @shareable {\n  owner: ProbeOwner!\n  ownerKinds: [ProbeOwnerKind!]!\n  """One of funding-search, other."""\n  path: String!\n  """Free-form JSON: whatever the caller stored"""\n  extra: JSONObject!\n  """One of A, B. Old rows hold lower-case kinds."""\n  legacyKind: String!\n}',
    );
    expect(ProbeOwnerType).toBe(objectTypeFrom(ProbeOwner, { key: 'uuid' }));
  });

  it('refuses an enum name given to two value sets, and an entity asked for after its value type', () => {
    expect(() => objectTypeFrom(z.strictObject({ kind: z.enum(['A', 'C']).meta({ id: 'ProbeOwnerKind' }) }), 'ProbeOtherKind')).toThrow(
      'Two different zod enums both become the GraphQL enum ProbeOwnerKind',
    );
    const Late = z.strictObject({ id: z.string() }).meta({ id: 'ProbeLate' });
    objectTypeFrom(z.strictObject({ late: Late }), 'ProbeLateHolder');
    expect(() => objectTypeFrom(Late, { key: 'id' })).toThrow('ProbeLate was derived as a value type before being asked for as an entity');
  });

  it('reuses a type for the same shape, and refuses two shapes under one name', () => {
    expect(objectTypeFrom(z.strictObject({ code: z.enum(['GBP', 'EUR']), value: z.number() }).meta({ id: 'ProbeAmount', description: 'An amount' }))).toBe(
      objectTypeFrom(ProbeAmount),
    );
    expect(() => objectTypeFrom(z.strictObject({ code: z.string() }).meta({ id: 'ProbeAmount' }))).toThrow(
      'Two different zod shapes both become the GraphQL type ProbeAmount',
    );
  });

  it('refuses shapes GraphQL cannot type, naming the field', () => {
    expect(() => objectTypeFrom(z.strictObject({ free: z.record(z.string(), z.unknown()) }), 'ProbeFree')).toThrow(
      'ProbeFree.free: zod record has no GraphQL type',
    );
    expect(() => objectTypeFrom(z.strictObject({ either: z.union([z.string(), z.number()]) }), 'ProbeEither')).toThrow(
      'ProbeEither.either: a union becomes a GraphQL field only when',
    );
    expect(() => objectTypeFrom(z.strictObject({ a: z.string() }))).toThrow('A derived GraphQL type needs a name');
  });
});
