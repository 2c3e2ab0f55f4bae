/**
 * What clients see of errors, through the gateway and the local schema alike: GraphQL errors raised
 * on purpose (mapped AppErrors) without any trace of the federation's layout; anything else masked.
 */
import { GraphQLError } from 'graphql';

/**
 * Errors the subgraphs raised on purpose (GraphQL errors, e.g. mapped AppErrors) pass through;
 * anything else is masked. Recognised by name rather than `instanceof`, because graphql's ESM and
 * CJS builds can both be loaded (Apollo's subgraph library is CJS) and their classes differ.
 */
export function maskUnexpectedErrors(error: unknown): Error {
  if (isIntendedGraphQLError(error)) return withoutTopology(error as GraphQLError);
  if (isVariableValueError(error)) return new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'BAD_USER_INPUT' } });
  return new GraphQLError('Unexpected error.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

/** Clients are not told which subgraph answered, nor how the gateway planned the query: the federation's layout is ours. */
const TOPOLOGY_EXTENSIONS = ['serviceName', 'subgraph', 'subgraphName'];

/** Messages about the gateway's own planning (entity representations, generated variables). */
const INTERNAL_MESSAGE = /\$_v\d+_|\$representations|_entities|__typename of an entity/;

function withoutTopology(error: GraphQLError): GraphQLError {
  if (INTERNAL_MESSAGE.test(error.message)) return new GraphQLError('Unexpected error.', { path: error.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  const extensions = error.extensions ?? {};
  if (!TOPOLOGY_EXTENSIONS.some((key) => key in extensions)) return error;
  const kept = Object.fromEntries(Object.entries(extensions).filter(([key]) => !TOPOLOGY_EXTENSIONS.includes(key)));
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: kept,
  });
}

function isIntendedGraphQLError(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'GraphQLError') return false;
  const original = (error as { originalError?: unknown }).originalError;
  return original == null || isIntendedGraphQLError(original);
}

/**
 * A variable's value refused before execution: graphql-js's coercion reports it on the operation's
 * variable definition, outside any field (no path). The caller's input, not our failure, even when
 * a scalar's parser failed in an unplanned way on an odd value (e.g. an object whose toString is
 * null); no resolver ran.
 */
function isVariableValueError(error: unknown): error is GraphQLError {
  if (!(error instanceof Error) || error.name !== 'GraphQLError') return false;
  const { path, nodes } = error as GraphQLError;
  return path === undefined && nodes?.length === 1 && nodes[0]!.kind === 'VariableDefinition';
}
