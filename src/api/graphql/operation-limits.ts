/**
 * Operation limits of the gateway, checked while parsing and validating, before any subgraph is
 * called: tokens, depth, aliases and directives through GraphQL Armor's plugins, and an estimated
 * cost in which every list multiplies what it contains. Armor's own cost plugin weighs depth but
 * not list sizes, and `lenders { products }` or `matches(explain: true)` grow with the lists, so
 * the cost estimate is our validation rule. Before any validation, one field selected over and
 * over in one selection set is refused: graphql's own overlap rule compares every pair of such
 * selections, so 400 repeats of `lenders { name }` (no alias, within the token limit) cost ~100 ms
 * of CPU to validate. A refused operation gets one GraphQL error naming the limit.
 */
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { Plugin } from '@envelop/core';
import {
  BREAK,
  GraphQLError,
  Kind,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

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
const PAGE_SIZE_ARGUMENTS = new Set(['first', 'last', 'limit', 'take', 'pageSize']);

export function operationLimitPlugins(limits: OperationLimits): Plugin[] {
  return [
    maxTokensPlugin({ n: limits.maxTokens }),
    maxDepthPlugin({ n: limits.maxDepth, flattenFragments: true }),
    maxAliasesPlugin({ n: limits.maxAliases }),
    maxDirectivesPlugin({ n: limits.maxDirectives }),
    costLimitPlugin(limits.maxCost),
    fieldRepeatsPlugin(limits.maxFieldRepeats),
  ] as Plugin[];
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
          refusal = new GraphQLError(`Query refused: field "${name}" is selected ${count} times in one selection set; at most ${maxRepeats} (GRAPHQL_MAX_FIELD_REPEATS).`, { nodes: [node] });
          return BREAK;
        }
      }
      return undefined;
    },
  });
  return refusal;
}

function countResponseNames(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, spread: Set<string>, counts: Map<string, number>): void {
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

function costLimitPlugin(maxCost: number): Plugin {
  const rule = costLimitRule(maxCost);
  return { onValidate: ({ addValidationRule }) => addValidationRule(rule) };
}

/** Each field costs 1 times the sizes of all lists around it; introspection fields are free. */
export function costLimitRule(maxCost: number): ValidationRule {
  return (context: ValidationContext) => ({
    OperationDefinition(operation) {
      const schema = context.getSchema();
      const root = schema.getRootType(operation.operation);
      if (!root) return;
      const fragments = new Map(
        context.getDocument().definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
      );
      const cost = selectionCost({ schema, fragments, spreading: new Set(), stopAt: maxCost * 10 }, operation.selectionSet, root, 1);
      if (cost > maxCost) {
        const shown = cost > maxCost * 10 ? `over ${maxCost * 10}` : String(cost);
        context.reportError(new GraphQLError(`Query refused: estimated cost ${shown} exceeds ${maxCost} (GRAPHQL_MAX_COST).`, { nodes: [operation] }));
      }
    },
  });
}

interface CostWalk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  spreading: Set<string>;
  /** Far over the limit: stop counting (a hostile query must not cost us the count). */
  stopAt: number;
}

function selectionCost(walk: CostWalk, selectionSet: SelectionSetNode, parent: GraphQLNamedType, multiplier: number): number {
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (total > walk.stopAt) return total;
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith('__')) continue;
      total += multiplier;
      const field = fieldsOf(parent)?.[selection.name.value];
      if (!field || !selection.selectionSet) continue;
      const size = isList(field.type) ? pageSizeOf(selection) : 1;
      total += selectionCost(walk, selection.selectionSet, namedTypeOf(field.type), multiplier * size);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition?.name.value;
      total += selectionCost(walk, selection.selectionSet, (condition && walk.schema.getType(condition)) || parent, multiplier);
    } else {
      const name = selection.name.value;
      const fragment = walk.fragments.get(name);
      if (!fragment || walk.spreading.has(name)) continue;
      walk.spreading.add(name);
      total += selectionCost(walk, fragment.selectionSet, walk.schema.getType(fragment.typeCondition.name.value) ?? parent, multiplier);
      walk.spreading.delete(name);
    }
  }
  return total;
}

/** The page size the field asks for as a literal, else the assumed size of a list. */
function pageSizeOf(field: FieldNode): number {
  const argument = field.arguments?.find((a) => PAGE_SIZE_ARGUMENTS.has(a.name.value));
  return argument?.value.kind === Kind.INT ? Math.max(1, Number(argument.value.value)) : ASSUMED_LIST_SIZE;
}

/*
 * The gateway validates with graphql's CommonJS copy while this module may load the ESM one, so
 * types are read by shape, never with graphql's instanceof-based predicates (they throw across copies).
 */
function isList(type: GraphQLOutputType): boolean {
  return String(type).replace(/!$/, '').startsWith('[');
}

function namedTypeOf(type: GraphQLOutputType): GraphQLNamedType {
  let inner: unknown = type;
  while (typeof inner === 'object' && inner !== null && 'ofType' in inner && inner.ofType) inner = inner.ofType;
  return inner as GraphQLNamedType;
}

function fieldsOf(type: GraphQLNamedType): Record<string, { type: GraphQLOutputType }> | undefined {
  const candidate = type as { getFields?: () => Record<string, { type: GraphQLOutputType }>; getInterfaces?: unknown };
  // Object and interface types have both; input objects have no interfaces and never appear in a selection.
  return typeof candidate.getFields === 'function' && typeof candidate.getInterfaces === 'function' ? candidate.getFields() : undefined;
}
