/**
 * Typed SQL statements built and compiled once per shape, their values bound at each execution.
 *
 * Why: building a Kysely query (its operation-node tree, frozen node by node) and compiling it costs
 * more node CPU than the rest of a hot request's own work, and gives the same text every time for a
 * given shape; only the values differ. So the hot statements (a lender application's status change,
 * issue 28) are built once with placeholders standing for the values of a call, and each call only
 * puts its values in their places. The text is then also the same string every time, which keeps
 * the named prepared statement's lookup (sql-reads.ts) cheap.
 *
 * A template's shape key must name everything its builder branches on: a builder whose statement
 * differs for two calls with one key would run the first one's text with the second one's values.
 */
import type { CompiledQuery, Compilable } from 'kysely';

/** Stands for a value of the call in a statement built once; Kysely carries it as a parameter. */
class Placeholder {
  constructor(readonly name: string) {}
}

/** A placeholder typed as the value it stands for, to pass where the builder expects that value. */
export type PlaceholderOf = <T>(name: string) => T;
const placeholder: PlaceholderOf = <T>(name: string) => new Placeholder(name) as unknown as T;

const MAX_SHAPES = 1_000;

/** Statements of one kind, compiled once per shape key. */
export class StatementTemplates<Row> {
  readonly #compiled = new Map<string, CompiledQuery<Row>>();

  /**
   * The statement of `shape` with `values` bound: built by `build` (with placeholders for the values,
   * never the values themselves) on the first call of the shape only.
   */
  bind(shape: string, build: (value: PlaceholderOf) => Compilable<Row>, values: Readonly<Record<string, unknown>>): CompiledQuery<Row> {
    let template = this.#compiled.get(shape);
    if (!template) {
      template = build(placeholder).compile();
      // Shapes come from code, so they are few; past the bound a shape is compiled at every call, never kept.
      if (this.#compiled.size < MAX_SHAPES) this.#compiled.set(shape, template);
    }
    return { ...template, parameters: template.parameters.map((p) => (p instanceof Placeholder ? valueOf(shape, p.name, values) : p)) };
  }
}

/** A placeholder's value; a missing one is a bug of the caller, never a NULL sent in its place. */
function valueOf(shape: string, name: string, values: Readonly<Record<string, unknown>>): unknown {
  if (!(name in values)) throw new Error(`statement template ${shape}: no value for ${name}`);
  return values[name];
}

/**
 * Statements one caller contributes to a statement another module compiles once per shape (a status
 * change's writes in its delivery's statement): their shape key, this call's values (named so as not
 * to collide with the other module's), and how to build them with placeholders.
 */
export interface StatementPart {
  shape: string;
  values: Readonly<Record<string, unknown>>;
  build(value: PlaceholderOf): Compilable[];
  /**
   * A compare-and-set: the name the first write (an UPDATE … RETURNING) is given, which the others
   * read. The other module's own writes happen only when it returned a row, and the statement says
   * whether it did; the part's other writes must read it themselves (INSERT … SELECT … FROM it).
   */
  guard?: string;
}
