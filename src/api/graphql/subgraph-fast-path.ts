/**
 * The distributed subgraphs' /graphql fast path for the gateway's plain POSTs of a query Apollo
 * Server has already answered without errors: the JSON body express.json read, the document Apollo
 * parsed and validated (taken from a bounded cache keyed by the query text), executed against the
 * same schema with the same context builder, the caller's credential verified as for every request,
 * and written with the headers Apollo wrote for that query and that Accept header, as Apollo writes
 * its body (res.send), its cost checked again for these variables (operation-limits.ts). Skipped are Apollo's per-request header copy, query hashing, request
 * cloning, content negotiation and plugin pipeline: measured as about a fifth of a subgraph's CPU
 * per request under the gateway (bench/tenant-read.ts).
 *
 * Anything else goes on to Apollo unchanged: a query text or an Accept header Apollo has not yet
 * answered with success, mutations and subscriptions, persisted queries and any other `extensions`,
 * batches, GET, a request for a federation trace. A query whose result carries errors is handed to Apollo too, which runs it again
 * and answers it its own way (its error formatting and status): queries never write (STYLE 4b; the
 * one read that records, a funding search, records each distinct search once), so running one twice
 * changes nothing, and only failing ones pay it. A request handed on keeps the
 * context already built, so its credential is verified once.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import type { ApolloServerPlugin } from '@apollo/server';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { execute, getOperationAST, GraphQLSchema, OperationTypeNode, type DocumentNode } from 'graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { handOnWithContext, plainParams, type PlainParams } from './plain-graphql-request.js';
import type { CostCheck } from './operation-limits.js';

/** Distinct query texts kept (the gateway sends a bounded set: one per plan step of each operation it has seen). */
const MAX_DOCUMENTS = 1000;
/** Longer texts always go through Apollo: the cache stays small. */
const MAX_CACHED_QUERY_LENGTH = 32 * 1024;
/** Distinct Accept headers remembered per query (the gateway sends one). */
const MAX_ACCEPTS = 4;
/** The header asking a subgraph for a federation trace in its answer's extensions (ftv1). */
const FEDERATION_TRACE_HEADER = 'apollo-federation-include-trace';
/** Computed by res.send for each body, so never replayed. */
const PER_RESPONSE_HEADERS = new Set(['content-length', 'etag']);

interface AnsweredQuery {
  document: DocumentNode;
  /** Per Accept header: the headers Apollo itself set on its successful answer (content type, cache control). */
  headersByAccept: Map<string, Record<string, string>>;
}

/** Query texts Apollo answered without errors, with their documents and the headers it answered with. */
export class AnsweredQueries {
  private readonly queries = new Map<string, AnsweredQuery>();
  /** Bodies (express.json's objects, which Apollo receives as is) whose operations Apollo answered without errors. */
  private readonly succeeded = new WeakMap<object, DocumentNode>();

  /** Marks what Apollo answered without errors: the document of each such query operation. */
  plugin(): ApolloServerPlugin<ServiceContext> {
    return {
      requestDidStart: async () => ({
        willSendResponse: async ({ request, response, document, operation }) => {
          const body = request.http?.body;
          if (
            typeof request.query !== 'string' ||
            request.query.length > MAX_CACHED_QUERY_LENGTH ||
            !document ||
            operation?.operation !== OperationTypeNode.QUERY
          )
            return;
          if (response.body.kind !== 'single' || response.body.singleResult.errors?.length || response.body.singleResult.extensions) return;
          if (typeof body === 'object' && body !== null) this.succeeded.set(body, document);
        },
      }),
    };
  }

  /** The headers Apollo answered this query and Accept header with, once the response is written. */
  learnFrom(req: Request, res: Response, params: PlainParams): void {
    const before = new Set(res.getHeaderNames());
    res.once('finish', () => {
      const document = this.succeeded.get(req.body as object);
      if (!document || res.statusCode !== 200) return;
      const headers: Record<string, string> = {};
      for (const name of res.getHeaderNames()) {
        const value = res.getHeader(name);
        if (!before.has(name) && !PER_RESPONSE_HEADERS.has(name) && typeof value === 'string') headers[name] = value;
      }
      this.remember(params.query, acceptOf(req.headers), document, headers);
    });
  }

  get(query: string, accept: string): { document: DocumentNode; headers: Record<string, string> } | undefined {
    const answered = this.queries.get(query);
    const headers = answered?.headersByAccept.get(accept);
    if (!answered || !headers) return undefined;
    // Most recently used last: the oldest entry is the one pushed out.
    this.queries.delete(query);
    this.queries.set(query, answered);
    return { document: answered.document, headers };
  }

  private remember(query: string, accept: string, document: DocumentNode, headers: Record<string, string>): void {
    let answered = this.queries.get(query);
    if (!answered) {
      if (this.queries.size >= MAX_DOCUMENTS) this.queries.delete(this.queries.keys().next().value!);
      answered = { document, headersByAccept: new Map() };
      this.queries.set(query, answered);
    }
    if (answered.headersByAccept.size < MAX_ACCEPTS) answered.headersByAccept.set(accept, headers);
  }
}

/**
 * graphql's execute from the copy the schema was built with: graphql ships a CommonJS and an ESM
 * build, and each refuses the other's schema. Node resolves both imports to the CommonJS one (what
 * @apollo/subgraph builds the subgraphs with); a bundler-style resolver (vitest) may load the ESM one here.
 */
function executeFor(schema: GraphQLSchema): typeof execute {
  return schema instanceof GraphQLSchema ? execute : (createRequire(import.meta.url)('graphql') as typeof import('graphql')).execute;
}

/** Mounted after express.json and before Apollo's middleware, at the subgraph's /graphql. */
export function subgraphFastPath(
  schema: GraphQLSchema,
  answered: AnsweredQueries,
  contextFor: (headers: IncomingHttpHeaders) => Promise<ServiceContext>,
  cost: CostCheck,
): RequestHandler {
  const run = executeFor(schema);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST' || req.url !== '/' || !req.is('application/json')) return next();
    // A federation trace (Apollo's inline trace plugin, on for subgraphs) is Apollo's to add to its answer.
    if (req.headers[FEDERATION_TRACE_HEADER] !== undefined) return next();
    const params = plainParams(req.body);
    if (!params) return next();
    const known = answered.get(params.query, acceptOf(req.headers));
    const operation = known && getOperationAST(known.document, params.operationName ?? undefined);
    if (!known || operation?.operation !== OperationTypeNode.QUERY) {
      answered.learnFrom(req, res, params);
      return next();
    }
    // Apollo answered this text once, with other variables maybe: a page size they give is checked
    // again, and a refusal is Apollo's to answer.
    if (cost({ schema, document: known.document, variableValues: params.variables, operationName: params.operationName })) return next();
    const building = contextFor(req.headers);
    const handOn = () => {
      handOnWithContext(req, building);
      next();
    };
    building
      .then((contextValue) => run({ schema, document: known.document, contextValue, variableValues: params.variables, operationName: params.operationName }))
      .then((result) => {
        if (result.errors?.length || result.extensions) return handOn();
        res.status(200).set(known.headers);
        // What Apollo writes for a result without errors (its default stringifyResult, through res.send).
        res.send(JSON.stringify({ data: result.data }) + '\n');
      }, handOn)
      .catch(next);
  };
}

function acceptOf(headers: IncomingHttpHeaders): string {
  return headers.accept ?? '';
}
