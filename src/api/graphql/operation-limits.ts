/**
 * Operation limits of the gateway and the local schema, before any resolver or subgraph is called,
 * each refusal one GraphQL error naming its limit:
 * - tokens, while parsing: graphql-js's own `maxTokens` parse option (`Syntax Error: Token limit of N
 *   exceeded.`);
 * - one field selected over and over in one selection set, before validation: graphql's overlap
 *   rule compares every pair of such selections, so 400 repeats of `lenders { name }` (no alias,
 *   within the token limit) cost ~100 ms of CPU to validate;
 * - depth, aliases and directives, as a validation rule (one walk of each operation, its fragments
 *   counted where they are spread; the messages GraphQL Armor's plugins gave, which clients know);
 * - an estimated cost, through graphql-query-complexity (maintained, and already what type-graphql
 *   builds on) with one estimator: each field costs 1 plus what it selects, times the page size when
 *   it is a list (`first`/`last`/`limit`/`take`/`pageSize` as given, literally or by variable, else
 *   ASSUMED_LIST_SIZE), so `lenders { products }` or `matches(explain: true)` grow with the lists.
 *   Checked when the operation runs, where its variables are known (a page size or an @include may
 *   come from them); estimated once per document and per value of the variables it depends on.
 */
import { createRequire } from 'node:module';
import type { Plugin } from '@envelop/core';
import {
  GraphQLSchema,
  Kind,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLOutputType,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  BREAK,
  visit,
} from 'graphql';
import type * as QueryComplexityLibrary from 'graphql-query-complexity';
import { variablesInspectionPlugin } from './variables-inspection.js';

export interface OperationLimits {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxDirectives: number;
  maxCost: number;
  /** How often one response name may be selected in one selection set (fragments included). */
  maxFieldRepeats: number;
}

/** What a list is assumed to hold when the query does not say (no `first`/`limit` argument). */
export const ASSUMED_LIST_SIZE = 10;
const PAGE_SIZE_ARGUMENTS = ['first', 'last', 'limit', 'take', 'pageSize'];
/** Federation's entity fetch on a subgraph, which only the gateway sends. */
const ENTITIES_FIELD = '_entities';

/*
 * Two copies of graphql can be loaded: Node resolves `graphql` to its CommonJS build (the servers,
 * the gateway and every package Node loads use it), while under vitest our own modules get its ESM
 * build (vitest.config.ts). graphql-query-complexity checks types with `instanceof`, so the build of
 * it that imports the schema's copy must estimate it: its CommonJS build requires graphql's CommonJS
 * one, its ESM build imports graphql's ESM one. The ESM build is loaded only where our own graphql
 * is the ESM copy (never in a server started with node). Errors are made from the CommonJS copy, as
 * GraphQL Armor's were (graphql-ws and Yoga recognise them by name either way).
 */
const requireCommonJs = createRequire(import.meta.url);
const commonJsGraphql = requireCommonJs('graphql') as typeof import('graphql');
const commonJsComplexity = requireCommonJs('graphql-query-complexity') as typeof QueryComplexityLibrary;
const esmComplexity: typeof QueryComplexityLibrary | undefined =
  GraphQLSchema === commonJsGraphql.GraphQLSchema ? undefined : await import('graphql-query-complexity');

function complexityLibraryFor(schema: GraphQLSchema): typeof QueryComplexityLibrary {
  return esmComplexity && !(schema instanceof commonJsGraphql.GraphQLSchema) ? esmComplexity : commonJsComplexity;
}

function limitError(message: string, nodes?: readonly OperationDefinitionNode[]): GraphQLError {
  return new commonJsGraphql.GraphQLError(message, nodes ? { nodes: nodes as never } : {}) as unknown as GraphQLError;
}

/**
 * The cost refusal is made when the operation starts, yet it is the validation error it was when a
 * validation rule reported it: the same `extensions.code` (and over HTTP the same status, below).
 */
function costError(message: string, nodes?: readonly OperationDefinitionNode[]): GraphQLError {
  return new commonJsGraphql.GraphQLError(message, {
    ...(nodes ? { nodes: nodes as never } : {}),
    extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
  }) as unknown as GraphQLError;
}

/**
 * Over HTTP, the status Yoga gives validation errors (`http.spec`: 400 for
 * application/graphql-response+json, 200 for plain application/json); Yoga takes the `http`
 * extension out of HTTP answers, but graphql-ws would send it, so operations over a socket (their
 * context carries its connectionParams) get the error as it is.
 */
function answeredOver(error: GraphQLError, contextValue: unknown): GraphQLError {
  if (typeof contextValue === 'object' && contextValue !== null && 'connectionParams' in contextValue) return error;
  return new commonJsGraphql.GraphQLError(error.message, {
    nodes: error.nodes as never,
    extensions: { ...error.extensions, http: { spec: true, status: 400 } },
  }) as unknown as GraphQLError;
}

export function operationLimitPlugins(limits: OperationLimits): Plugin[] {
  const shape = operationShapeRule(limits);
  return [
    variablesInspectionPlugin(),
    tokenLimitPlugin(limits.maxTokens),
    fieldRepeatsPlugin(limits.maxFieldRepeats),
    { onValidate: ({ addValidationRule }) => addValidationRule(shape) },
    costLimitPlugin(limits.maxCost),
  ] as Plugin[];
}

/** graphql-js counts tokens while parsing and stops at the limit; its message is given the wording clients know. */
function tokenLimitPlugin(maxTokens: number): Plugin {
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => {
        try {
          return parseFn(source, { ...options, maxTokens });
        } catch (err) {
          throw tokenLimitRefusal(err, maxTokens) ?? err;
        }
      });
    },
  };
}

/** The refusal naming the limit, when graphql-js stopped parsing at `maxTokens`; else null. */
export function tokenLimitRefusal(err: unknown, maxTokens: number): GraphQLError | null {
  return err instanceof Error && /Document contains more th(?:at|an) \d+ tokens/.test(err.message)
    ? limitError(`Syntax Error: Token limit of ${maxTokens} exceeded.`)
    : null;
}

/**
 * Checked before validation runs (setResult skips it): the refusal must not pay for the overlap check.
 * Yoga hands every request with the same query text the same parsed document (its parser cache), so
 * the verdict is kept per document, as Yoga keeps validation results, instead of walked per request.
 */
function fieldRepeatsPlugin(maxRepeats: number): Plugin {
  const verdicts = new WeakMap<DocumentNode, GraphQLError | null>();
  return {
    onValidate({ params, setResult }) {
      let refusal = verdicts.get(params.documentAST);
      if (refusal === undefined) {
        refusal = repeatedFieldError(params.documentAST, maxRepeats);
        verdicts.set(params.documentAST, refusal);
      }
      if (refusal) setResult([refusal]);
    },
  };
}

/**
 * The first selection set in which one response name is selected more than `maxRepeats` times,
 * counting its fields, its inline fragments' and (once each, as graphql's overlap rule collects
 * them) the named fragments it spreads.
 */
export function repeatedFieldError(document: DocumentNode, maxRepeats: number): GraphQLError | null {
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  let refusal: GraphQLError | null = null;
  visit(document, {
    SelectionSet(node) {
      const counts = new Map<string, number>();
      countResponseNames(node, fragments, new Set(), counts);
      for (const [name, count] of counts) {
        if (count > maxRepeats) {
          refusal = new GraphQLError(
            `Query refused: field "${name}" is selected ${count} times in one selection set; at most ${maxRepeats} (GRAPHQL_MAX_FIELD_REPEATS).`,
            { nodes: [node] },
          );
          return BREAK;
        }
      }
      return undefined;
    },
  });
  return refusal;
}

function countResponseNames(
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  spread: Set<string>,
  counts: Map<string, number>,
): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = (selection.alias ?? selection.name).value;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      countResponseNames(selection.selectionSet, fragments, spread, counts);
    } else {
      const fragment = fragments.get(selection.name.value);
      if (!fragment || spread.has(fragment.name.value)) continue;
      spread.add(fragment.name.value);
      countResponseNames(fragment.selectionSet, fragments, spread, counts);
    }
  }
}

/**
 * Depth (introspection's `__schema` not counted; fragments add no level of their own), aliases
 * (`__typename` ones free) and directives of each operation, its fragments counted where they are
 * spread (each fragment walked once). Thrown, as GraphQL Armor's rules did: the first limit reached
 * ends validation, so the other rules do not spend time on the operation.
 */
export function operationShapeRule(limits: Pick<OperationLimits, 'maxDepth' | 'maxAliases' | 'maxDirectives'>, options: ShapeOptions = {}): ValidationRule {
  return (context: ValidationContext) => {
    const fragments = new Map<string, Shape>();
    const shapeOf = (node: { selectionSet?: SelectionSetNode }, visiting: Set<string>, root = false): Shape => {
      const total: Shape = { depth: 0, aliases: 0, directives: 0 };
      for (const selection of node.selectionSet?.selections ?? []) {
        total.directives += selection.directives?.length ?? 0;
        if (selection.kind === Kind.FIELD) {
          const free = selection.name.value === '__typename' || (root && options.gatewayBatches && isBatchPrefix(selection.alias?.value, selection.name.value));
          if (selection.alias && selection.alias.value !== '__typename' && !free) total.aliases++;
          const inner = selection.name.value === '__schema' ? { depth: -1, aliases: 0, directives: 0 } : shapeOf(selection, visiting);
          total.depth = Math.max(total.depth, inner.depth + 1);
          total.aliases += inner.aliases;
          total.directives += inner.directives;
        } else {
          const inner = selection.kind === Kind.INLINE_FRAGMENT ? shapeOf(selection, visiting, root) : fragmentShape(selection.name.value, visiting);
          total.depth = Math.max(total.depth, inner.depth);
          total.aliases += inner.aliases;
          total.directives += inner.directives;
        }
      }
      return total;
    };
    const fragmentShape = (name: string, visiting: Set<string>): Shape => {
      const known = fragments.get(name);
      if (known) return known;
      const fragment = context.getFragment(name);
      // Unknown or cyclic: other rules report it.
      if (!fragment || visiting.has(name)) return { depth: 0, aliases: 0, directives: 0 };
      visiting.add(name);
      const shape = shapeOf(fragment, visiting);
      shape.directives += fragment.directives?.length ?? 0;
      visiting.delete(name);
      fragments.set(name, shape);
      return shape;
    };
    return {
      OperationDefinition(operation) {
        const shape = shapeOf(operation, new Set(), true);
        const directives = shape.directives + (operation.directives?.length ?? 0);
        if (shape.depth > limits.maxDepth) throw limitError(`Syntax Error: Query depth limit of ${limits.maxDepth} exceeded, found ${shape.depth}.`);
        if (shape.aliases > limits.maxAliases) throw limitError(`Syntax Error: Aliases limit of ${limits.maxAliases} exceeded, found ${shape.aliases}.`);
        if (directives > limits.maxDirectives) throw limitError(`Syntax Error: Directives limit of ${limits.maxDirectives} exceeded, found ${directives}.`);
      },
    };
  };
}

interface Shape {
  depth: number;
  aliases: number;
  directives: number;
}

export interface ShapeOptions {
  /**
   * A subgraph's: the gateway merges the calls of one request to one subgraph into one operation
   * (@graphql-tools/batch-execute), aliasing each top-level field `_v<n>_` + its alias or name. Such an
   * alias of a field's own name is the merge's, not the caller's (the caller's own alias is still
   * counted once, as `_v<n>_<alias>`), so an operation within the limit at the gateway stays within it.
   */
  gatewayBatches?: boolean;
}

const BATCH_PREFIX = /^_v\d+_/;

function isBatchPrefix(alias: string | undefined, fieldName: string): boolean {
  return alias !== undefined && BATCH_PREFIX.test(alias) && alias.replace(BATCH_PREFIX, '') === fieldName;
}

/** Past this many selections (fragments spread where they are used) an operation is refused without finishing its estimate. */
const MAX_ESTIMATED_SELECTIONS = 10_000;

/** Operations found within the limit, kept per document for distinct values of the variables its cost depends on. */
const MAX_ALLOWED_PER_DOCUMENT = 64;
/** Longer values of those variables (a page size or a condition is short) are estimated each time: memory stays small. */
const MAX_REMEMBERED_KEY_LENGTH = 256;

/**
 * Checked as the operation starts (queries and mutations, and subscriptions), with its variables.
 * The estimate depends on the document and on only those variables that give a page size or an
 * @include/@skip condition (costVariables): an operation found within the limit is remembered per
 * document (Yoga hands every request of one query text the same parsed document) and per value of
 * those variables, so a query whose variables are ids, filters or inputs is estimated once, not on
 * every request (its walk with the schema's types was a visible share of every federated request's
 * CPU, issue 28). A refusal is estimated again each time, so the answer to a request is the same as
 * it always was (variables that do not coerce are reported as such, before a refusal).
 */
function costLimitPlugin(maxCost: number): Plugin {
  const check = costCheck(maxCost);
  const stopIfTooCostly = ({ args, setResultAndStopExecution }: { args: ExecutionArgs; setResultAndStopExecution: (result: ExecutionResult) => void }) => {
    const refused = check(args);
    if (refused) setResultAndStopExecution({ errors: [answeredOver(refused, args.contextValue)] });
  };
  return { onExecute: stopIfTooCostly, onSubscribe: stopIfTooCostly } as Plugin;
}

/** An operation's cost refusal (null within the limit), with the verdicts costLimitPlugin describes remembered. */
export type CostCheck = (args: Pick<ExecutionArgs, 'schema' | 'document' | 'variableValues' | 'operationName'>) => GraphQLError | null;

export function costCheck(maxCost: number): CostCheck {
  const allowed = new WeakMap<DocumentNode, { variables: readonly string[]; keys: Set<string> }>();
  return (args) => {
    let known = allowed.get(args.document);
    if (!known) allowed.set(args.document, (known = { variables: costVariables(args.document), keys: new Set() }));
    const values = args.variableValues ?? {};
    const key = `${args.operationName ?? ''}\u0000${known.variables.map((name) => (Object.hasOwn(values, name) ? JSON.stringify(values[name]) : '-')).join('\u0000')}`;
    if (known.keys.has(key)) return null;
    const estimated = estimatedRefusal(args.schema, args.document, maxCost, { variables: args.variableValues, operationName: args.operationName });
    // Not estimated (variables that do not coerce): execution refuses them; nothing is remembered.
    if (estimated === undefined) return null;
    if (estimated === null && known.keys.size < MAX_ALLOWED_PER_DOCUMENT && key.length <= MAX_REMEMBERED_KEY_LENGTH) known.keys.add(key);
    return estimated;
  };
}

/**
 * The variables an estimate reads (listMultiplyingEstimator): those used, anywhere in their value,
 * by a page-size argument (PAGE_SIZE_ARGUMENTS) or by a directive (@include/@skip decide whether a
 * selection counts). Any other variable (an id, a filter, an input) cannot change the estimate.
 */
export function costVariables(document: DocumentNode): readonly string[] {
  const names = new Set<string>();
  let depth = 0;
  const enter = () => void depth++;
  const leave = () => void depth--;
  visit(document, {
    Argument: {
      enter(node) {
        if (PAGE_SIZE_ARGUMENTS.includes(node.name.value)) depth++;
      },
      leave(node) {
        if (PAGE_SIZE_ARGUMENTS.includes(node.name.value)) depth--;
      },
    },
    Directive: { enter, leave },
    Variable(node) {
      if (depth > 0) names.add(node.name.value);
    },
  });
  return [...names].sort();
}

/**
 * The refusal of an operation whose estimated cost exceeds `maxCost`, else null. Variables that do
 * not coerce are left to execution, which refuses them before anything runs.
 */
export function costRefusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  maxCost: number,
  options: { variables?: Readonly<Record<string, unknown>> | null; operationName?: string | null } = {},
): GraphQLError | null {
  return estimatedRefusal(schema, document, maxCost, options) ?? null;
}

/** costRefusal's answer, undefined when the operation could not be estimated (its variables do not coerce). */
function estimatedRefusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  maxCost: number,
  options: { variables?: Readonly<Record<string, unknown>> | null; operationName?: string | null },
): GraphQLError | null | undefined {
  let cost: number;
  try {
    cost = complexityLibraryFor(schema).getComplexity({
      schema,
      query: document,
      variables: (options.variables ?? {}) as Record<string, unknown>,
      ...(options.operationName ? { operationName: options.operationName } : {}),
      estimators: [listMultiplyingEstimator],
      maxQueryNodes: MAX_ESTIMATED_SELECTIONS,
    });
  } catch (err) {
    if (err instanceof Error && /maximum allowed number of nodes/.test(err.message)) {
      return costError(
        `Query refused: its fragments spread into over ${MAX_ESTIMATED_SELECTIONS} selections; its estimated cost exceeds ${maxCost} (GRAPHQL_MAX_COST).`,
      );
    }
    // The operation's own errors (variables that do not coerce): execution reports them before anything runs.
    if (err instanceof Error && err.name === 'GraphQLError') return undefined;
    throw err;
  }
  if (cost <= maxCost) return null;
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!options.operationName || d.name?.value === options.operationName),
  );
  const shown = cost > maxCost * 10 ? `over ${maxCost * 10}` : String(cost);
  return costError(`Query refused: estimated cost ${shown} exceeds ${maxCost} (GRAPHQL_MAX_COST).`, operations);
}

/**
 * The same estimate as a validation rule, for a document whose cost does not depend on variables
 * (tools and tests validating a document on its own; a required variable is reported as missing).
 * The servers check at execution instead (costLimitPlugin), where the variables are known.
 */
export function costLimitRule(maxCost: number): ValidationRule {
  return (context: ValidationContext) =>
    complexityLibraryFor(context.getSchema()).createComplexityRule({
      maximumComplexity: maxCost,
      estimators: [listMultiplyingEstimator],
      maxQueryNodes: MAX_ESTIMATED_SELECTIONS,
      createError: (max, actual) =>
        costError(`Query refused: estimated cost ${actual > max * 10 ? `over ${max * 10}` : actual} exceeds ${max} (GRAPHQL_MAX_COST).`),
    })(context);
}

/** Each field costs 1 plus what it selects, that many times over for a list; introspection is free. */
const listMultiplyingEstimator: QueryComplexityLibrary.ComplexityEstimator = ({ field, args, childComplexity }) => {
  if (field.name.startsWith('__')) return 0;
  // A subgraph's entity fetch: the gateway has counted each entity where its operation selects it,
  // times the lists around it; here one entity's cost is checked (the representations' number is
  // bounded by those lists' page sizes at the gateway, not by anything in this document).
  if (field.name === ENTITIES_FIELD) return 1 + childComplexity;
  return 1 + (isList(field.type) ? pageSizeOf(args) : 1) * childComplexity;
};

/** The page size the field asks for (its arguments as coerced, variables and defaults included), else the assumed size of a list. */
function pageSizeOf(args: Record<string, unknown>): number {
  for (const name of PAGE_SIZE_ARGUMENTS) {
    const value = args[name];
    if (typeof value === 'number' && Number.isFinite(value)) return Math.max(1, Math.floor(value));
  }
  return ASSUMED_LIST_SIZE;
}

/** Read by shape, never with graphql's instanceof-based predicates (they throw across copies). */
function isList(type: GraphQLOutputType): boolean {
  return String(type).replace(/!$/, '').startsWith('[');
}
