/**
 * The gateway's operation limits (operation-limits.ts, from the same OperationLimits) on each
 * subgraph of the distributed deployment, in front of Apollo Server and inside it:
 * - before Apollo, on the query text the body carries: tokens (parsing stops at the limit), then
 *   repeated fields, then depth, aliases and directives (the aliases the gateway's batching adds
 *   not counted, operation-limits.ts ShapeOptions). Apollo has no hook that may refuse a request
 *   between parsing and validation, and validation is where repeats cost quadratic CPU. The verdict
 *   is kept per query text (the gateway sends a bounded set of texts, one per plan step), so a text
 *   is parsed here once;
 * - in Apollo, once the operation and its variables are known: the estimated cost, as the gateway
 *   checks it at execution. The subgraph fast path checks the same before it runs a cached document;
 * - over graphql-ws (the gateway's subscriptions), all of them before the operation starts.
 * Refused with 400 (over graphql-ws an error message) and the gateway's messages, as GRAPHQL_VALIDATION_FAILED.
 */
import { createRequire } from 'node:module';
import type { ApolloServerPlugin } from '@apollo/server';
import type { SubscribePayload } from 'graphql-ws';
import type { RequestHandler } from 'express';
import type { DocumentNode, ExecutionArgs, GraphQLError, GraphQLSchema } from 'graphql';
import { costCheck, operationShapeRule, repeatedFieldError, tokenLimitRefusal, type CostCheck, type OperationLimits } from './operation-limits.js';

/** The subgraph schemas and Apollo's documents are graphql's CommonJS build's (operation-limits.ts says why there are two). */
const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');

/** Distinct query texts whose verdict is kept; the oldest goes first. */
const MAX_VERDICTS = 1000;
/** Longer texts are checked on every request: the memory stays small. */
const MAX_REMEMBERED_QUERY_LENGTH = 32 * 1024;

export interface SubgraphOperationLimits {
  /** Mounted after the body is read (express.json) and before the fast path and Apollo. */
  beforeApollo: RequestHandler;
  parseOptions: { maxTokens: number };
  /** The cost check, at Apollo's didResolveOperation. */
  plugin: ApolloServerPlugin;
  /** The same check, for a path that runs a cached document without Apollo (subgraph-fast-path.ts). */
  cost: CostCheck;
  /**
   * graphql-ws's onSubscribe: every limit, then graphql's validation; the refusals, or the operation
   * to run. A text that does not parse is left to graphql-ws, which answers it its own way.
   */
  onWebSocketSubscribe(payload: SubscribePayload): readonly GraphQLError[] | ExecutionArgs | undefined;
}

export function subgraphOperationLimits(schema: GraphQLSchema, limits: OperationLimits): SubgraphOperationLimits {
  const cost = costCheck(limits.maxCost);
  const shapeOf = shapeCheck(schema, limits);
  const verdicts = new Map<string, GraphQLError | null>();
  const verdictOf = (query: string): GraphQLError | null => {
    const known = verdicts.get(query);
    if (known !== undefined) return known;
    const verdict = refusalOf(query, limits, shapeOf);
    if (query.length <= MAX_REMEMBERED_QUERY_LENGTH) {
      if (verdicts.size >= MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value!);
      verdicts.set(query, verdict);
    }
    return verdict;
  };
  return {
    beforeApollo: (req, res, next) => {
      const query = queryOf(req.method === 'GET' ? req.query : req.body);
      const refused = query === undefined ? null : verdictOf(query);
      if (!refused) return next();
      res.status(400).json({ errors: [answered(refused)] });
    },
    parseOptions: { maxTokens: limits.maxTokens },
    plugin: {
      requestDidStart: async () => ({
        didResolveOperation: async ({ schema: operationSchema, document, request }) => {
          const refused = cost({ schema: operationSchema, document, variableValues: request.variables, operationName: request.operationName });
          if (refused)
            throw new graphql.GraphQLError(refused.message, {
              nodes: refused.nodes as never,
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } },
            });
        },
      }),
    },
    cost,
    onWebSocketSubscribe(payload) {
      const refused = verdictOf(payload.query);
      if (refused) return [refused];
      let document: DocumentNode;
      try {
        document = graphql.parse(payload.query, { maxTokens: limits.maxTokens }) as unknown as DocumentNode;
      } catch {
        return undefined;
      }
      const invalid = graphql.validate(schema as never, document as never);
      if (invalid.length > 0) return invalid as unknown as GraphQLError[];
      const args = { schema, document, variableValues: payload.variables ?? undefined, operationName: payload.operationName ?? undefined };
      const costly = cost(args);
      return costly ? [asRefusal(costly)] : args;
    },
  };
}

/** A refusal as GraphQL error of graphql's CommonJS build (graphql-ws recognises errors of that build only), with the gateway's code. */
function asRefusal(error: GraphQLError): GraphQLError {
  return new graphql.GraphQLError(error.message, { nodes: error.nodes as never, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }) as unknown as GraphQLError;
}

/** The query text of a request body (or GET query string); a batch or anything else is Apollo's to refuse. */
function queryOf(params: unknown): string | undefined {
  const query = typeof params === 'object' && params !== null && !Array.isArray(params) ? (params as { query?: unknown }).query : undefined;
  return typeof query === 'string' ? query : undefined;
}

/** null when the text is within the limits, or does not parse (Apollo answers its syntax error itself). */
function refusalOf(query: string, limits: OperationLimits, shapeOf: (document: DocumentNode) => GraphQLError | null): GraphQLError | null {
  let document: DocumentNode;
  try {
    document = graphql.parse(query, { maxTokens: limits.maxTokens }) as unknown as DocumentNode;
  } catch (err) {
    const tooLong = tokenLimitRefusal(err, limits.maxTokens);
    return tooLong && asRefusal(tooLong);
  }
  const refused = repeatedFieldError(document, limits.maxFieldRepeats) ?? shapeOf(document);
  return refused && asRefusal(refused);
}

/** The shape rule throws its refusal (to end validation at once): run alone, it is caught here. */
function shapeCheck(schema: GraphQLSchema, limits: OperationLimits): (document: DocumentNode) => GraphQLError | null {
  const rule = operationShapeRule(limits, { gatewayBatches: true });
  return (document) => {
    try {
      graphql.validate(schema as never, document as never, [rule as never]);
      return null;
    } catch (err) {
      if (err instanceof Error && err.name === 'GraphQLError') return err as GraphQLError;
      throw err;
    }
  };
}

/** As Apollo formats a validation error. */
function answered(error: GraphQLError): { message: string; locations?: unknown; extensions: { code: string } } {
  return { message: error.message, ...(error.locations ? { locations: error.locations } : {}), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } };
}
