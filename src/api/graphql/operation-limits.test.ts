/**
 * The operation limits' rules on their own, against a small schema: depth, aliases and directives
 * (fragments counted where they are spread), and the estimated cost with its variables (on its own,
 * and as the servers check it when an operation runs).
 */
import { buildSchema, parse, printSchema, validate } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { describe, expect, it } from 'vitest';
import { createYoga } from 'graphql-yoga';
import { ASSUMED_LIST_SIZE, costRefusal, costVariables, operationLimitPlugins, operationShapeRule } from './operation-limits.js';

const schema = buildSchema(`
  type Query { lenders(first: Int): [Lender!]! lender(id: Int!): Lender search(limit: Int, term: String!): [Hit!]! }
  type Lender { name: String products: [Product!]! lender: Lender }
  type Product { name: String lender: Lender }
  type Hit { id: ID }
`);

const shapeErrors = (query: string, limits = { maxDepth: 3, maxAliases: 2, maxDirectives: 2 }): string[] => {
  try {
    return validate(schema, parse(query), [operationShapeRule(limits)]).map((e) => e.message);
  } catch (err) {
    // Thrown, as GraphQL Armor's rules did: the first limit reached ends validation.
    return [(err as Error).message];
  }
};

describe('depth, aliases and directives', () => {
  it('refuse past each limit with the messages clients know, counting fragments where they are spread', () => {
    expect(shapeErrors('{ lender(id: 1) { lender { lender { name } } } }')).toEqual(['Syntax Error: Query depth limit of 3 exceeded, found 4.']);
    expect(shapeErrors('{ lender(id: 1) { lender { name } } }')).toEqual([]);
    // A fragment adds no level of its own; its fields are as deep as where it is spread.
    expect(shapeErrors('{ lender(id: 1) { lender { ...deep } } } fragment deep on Lender { lender { name } }')).toEqual([
      'Syntax Error: Query depth limit of 3 exceeded, found 4.',
    ]);
    expect(shapeErrors('{ a: lender(id: 1) { name } b: lender(id: 2) { name } c: lender(id: 3) { name } }')).toEqual([
      'Syntax Error: Aliases limit of 2 exceeded, found 3.',
    ]);
    // Each spread counts the fragment's aliases again; __typename aliases are free.
    expect(shapeErrors('{ lender(id: 1) { ...named } lenders { ...named } } fragment named on Lender { n: name t: __typename }')).toEqual([]);
    expect(shapeErrors('{ lender(id: 1) { ...named } lenders { ...named } x: lenders { name } } fragment named on Lender { n: name }')).toEqual([
      'Syntax Error: Aliases limit of 2 exceeded, found 3.',
    ]);
    expect(
      shapeErrors('query($s: Boolean!) { lenders @include(if: $s) { name @skip(if: $s) ...f @include(if: true) } } fragment f on Lender { name }'),
    ).toEqual(['Syntax Error: Directives limit of 2 exceeded, found 3.']);
  });

  it("at a subgraph, do not count the aliases the gateway's batching gives top-level fields, and still count the caller's", () => {
    const subgraphShapeErrors = (query: string) =>
      validate(schema, parse(query), [operationShapeRule({ maxDepth: 3, maxAliases: 2, maxDirectives: 2 }, { gatewayBatches: true })]).map((e) => e.message);
    // Three calls merged: each top-level field aliased by its own name, one in an inline fragment.
    expect(
      subgraphShapeErrors('{ _v0_lender: lender(id: 1) { name } _v1_lender: lender(id: 2) { name } ... on Query { _v2_lenders: lenders { name } } }'),
    ).toEqual([]);
    expect(() => subgraphShapeErrors('{ _v0_a: lender(id: 1) { name } _v1_b: lender(id: 2) { name } _v2_c: lender(id: 3) { name } }')).toThrow(
      'Aliases limit of 2 exceeded, found 3.',
    );
    // Only at the top level, and only the merge's form: elsewhere, and at the gateway, they are aliases like any other.
    expect(() => subgraphShapeErrors('{ lender(id: 1) { _v0_name: name _v1_name: name _v2_name: name } }')).toThrow('Aliases limit of 2 exceeded, found 3.');
    expect(shapeErrors('{ _v0_lender: lender(id: 1) { name } _v1_lender: lender(id: 2) { name } _v2_lender: lender(id: 3) { name } }')).toEqual([
      'Syntax Error: Aliases limit of 2 exceeded, found 3.',
    ]);
  });

  it("do not count introspection's depth", () => {
    expect(shapeErrors('{ __schema { types { fields { type { ofType { ofType { name } } } } } } }')).toEqual([]);
  });
});

describe('estimated cost', () => {
  const costOf = (query: string, max: number, variables?: Record<string, unknown>) => costRefusal(schema, parse(query), max, { variables })?.message ?? null;

  it('multiplies what a list holds by its page size (as given, by literal or variable, else the assumed size)', () => {
    // lenders 1 + 10 x (name 1 + products (1 + 10 x name 1)) = 121
    expect(costOf('{ lenders { name products { name } } }', 121)).toBeNull();
    expect(costOf('{ lenders { name products { name } } }', 120)).toBe('Query refused: estimated cost 121 exceeds 120 (GRAPHQL_MAX_COST).');
    expect(costOf('{ lenders(first: 2) { name products { name } } }', 30)).toBeNull();
    expect(costOf('query($n: Int) { lenders(first: $n) { name products { name } } }', 30, { n: 2 })).toBeNull();
    expect(costOf('query($n: Int) { lenders(first: $n) { name products { name } } }', 30, { n: 3 })).toBe(
      'Query refused: estimated cost 37 exceeds 30 (GRAPHQL_MAX_COST).',
    );
    expect(costOf('query($n: Int) { search(term: "x", limit: $n) { id } }', 5000, { n: 1_000_000 })).toBe(
      'Query refused: estimated cost over 50000 exceeds 5000 (GRAPHQL_MAX_COST).',
    );
    expect(ASSUMED_LIST_SIZE).toBe(10);
  });

  it('leaves out what @include/@skip leave out, and introspection', () => {
    const query = 'query($all: Boolean!) { lenders { name products @include(if: $all) { name } } }';
    expect(costOf(query, 20, { all: false })).toBeNull();
    expect(costOf(query, 20, { all: true })).toMatch(/estimated cost 121 exceeds 20/);
    expect(costOf('{ __schema { types { name fields { name } } } }', 1)).toBeNull();
  });

  it('leaves variables that do not coerce to execution, and refuses fragments spread into too many selections', () => {
    expect(costOf('query($n: Int!) { lenders(first: $n) { name } }', 5000, {})).toBeNull();
    const bomb = [
      'fragment f0 on Lender { name }',
      ...Array.from({ length: 5 }, (_, i) => `fragment f${i + 1} on Lender { ${Array.from({ length: 10 }, () => `...f${i}`).join(' ')} }`),
    ];
    expect(costOf(`{ lender(id: 1) { ...f5 } } ${bomb.join(' ')}`, 5000)).toMatch(
      /^Query refused: its fragments spread into over 10000 selections; .*GRAPHQL_MAX_COST/,
    );
  });
});

describe('estimated cost at execution, remembered per document and per value of the variables it depends on', () => {
  it('names the variables an estimate reads: page sizes and @include/@skip conditions, not ids or inputs', () => {
    expect(
      costVariables(
        parse(
          'query($id: Int!, $n: Int, $all: Boolean!, $term: String!) { lender(id: $id) { name } lenders(first: $n) { products @include(if: $all) { name } } search(term: $term) { id } }',
        ),
      ),
    ).toEqual(['all', 'n']);
    expect(costVariables(parse('query($id: Int!) { lender(id: $id) { name } }'))).toEqual([]);
  });

  it('refuses and allows the same operations whether an allowance was remembered or not', async () => {
    // The same types, answering empty lists and no lender: only the limits can refuse.
    const served = makeExecutableSchema({ typeDefs: printSchema(schema), resolvers: { Query: { lenders: () => [], lender: () => null, search: () => [] } } });
    const yoga = createYoga({
      schema: served,
      plugins: operationLimitPlugins({ maxDepth: 10, maxAliases: 10, maxTokens: 1000, maxDirectives: 10, maxCost: 30, maxFieldRepeats: 10 }),
      logging: false,
    });
    const run = async (query: string, variables: Record<string, unknown>) => {
      const res = await yoga.fetch('http://local/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return ((await res.json()) as { errors?: Array<{ message: string }> }).errors?.map((e) => e.message) ?? [];
    };
    const byPageSize = 'query($n: Int, $id: Int!) { lenders(first: $n) { name products { name } } lender(id: $id) { name } }';
    // n = 2 is found within the limit once and remembered; another id does not change that, another page size does.
    expect(await run(byPageSize, { n: 2, id: 1 })).toEqual([]);
    expect(await run(byPageSize, { n: 2, id: 2 })).toEqual([]);
    expect(await run(byPageSize, { n: 3, id: 1 })).toEqual(['Query refused: estimated cost 39 exceeds 30 (GRAPHQL_MAX_COST).']);
    expect(await run(byPageSize, { n: 3, id: 2 })).toEqual(['Query refused: estimated cost 39 exceeds 30 (GRAPHQL_MAX_COST).']);
    expect(await run(byPageSize, { n: 2, id: 3 })).toEqual([]);
    // Variables that do not coerce are execution's to refuse, before any refusal of the cost, remembered or not.
    expect(await run(byPageSize, { n: 3, id: 'x' })).toEqual([expect.stringMatching(/Variable "\$id" got invalid value "x"/)]);
    expect(await run(byPageSize, { n: 2, id: 'x' })).toEqual([expect.stringMatching(/Variable "\$id" got invalid value "x"/)]);
    expect(await run(byPageSize, { n: 3, id: 4 })).toEqual(['Query refused: estimated cost 39 exceeds 30 (GRAPHQL_MAX_COST).']);
    // An omitted page size (the list's assumed size) and an explicit null are told apart from a given one.
    expect(await run(byPageSize, { id: 1 })).toEqual(['Query refused: estimated cost 123 exceeds 30 (GRAPHQL_MAX_COST).']);
    expect(await run(byPageSize, { n: null, id: 1 })).toEqual(['Query refused: estimated cost 123 exceeds 30 (GRAPHQL_MAX_COST).']);
    expect(await run(byPageSize, { n: 1, id: 1 })).toEqual([]);
  });
});
