/**
 * The operation limits' rules on their own, against a small schema: depth, aliases and directives
 * (fragments counted where they are spread), and the estimated cost with its variables.
 */
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ASSUMED_LIST_SIZE, costRefusal, operationShapeRule } from './operation-limits.js';

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
    expect(shapeErrors('{ lender(id: 1) { lender { ...deep } } } fragment deep on Lender { lender { name } }')).toEqual(['Syntax Error: Query depth limit of 3 exceeded, found 4.']);
    expect(shapeErrors('{ a: lender(id: 1) { name } b: lender(id: 2) { name } c: lender(id: 3) { name } }')).toEqual(['Syntax Error: Aliases limit of 2 exceeded, found 3.']);
    // Each spread counts the fragment's aliases again; __typename aliases are free.
    expect(shapeErrors('{ lender(id: 1) { ...named } lenders { ...named } } fragment named on Lender { n: name t: __typename }')).toEqual([]);
    expect(shapeErrors('{ lender(id: 1) { ...named } lenders { ...named } x: lenders { name } } fragment named on Lender { n: name }')).toEqual(['Syntax Error: Aliases limit of 2 exceeded, found 3.']);
    expect(shapeErrors('query($s: Boolean!) { lenders @include(if: $s) { name @skip(if: $s) ...f @include(if: true) } } fragment f on Lender { name }')).toEqual([
      'Syntax Error: Directives limit of 2 exceeded, found 3.',
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
    expect(costOf('query($n: Int) { lenders(first: $n) { name products { name } } }', 30, { n: 3 })).toBe('Query refused: estimated cost 37 exceeds 30 (GRAPHQL_MAX_COST).');
    expect(costOf('query($n: Int) { search(term: "x", limit: $n) { id } }', 5000, { n: 1_000_000 })).toBe('Query refused: estimated cost over 50000 exceeds 5000 (GRAPHQL_MAX_COST).');
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
    const bomb = ['fragment f0 on Lender { name }', ...Array.from({ length: 5 }, (_, i) => `fragment f${i + 1} on Lender { ${Array.from({ length: 10 }, () => `...f${i}`).join(' ')} }`)];
    expect(costOf(`{ lender(id: 1) { ...f5 } } ${bomb.join(' ')}`, 5000)).toMatch(/^Query refused: its fragments spread into over 10000 selections; .*GRAPHQL_MAX_COST/);
  });
});
