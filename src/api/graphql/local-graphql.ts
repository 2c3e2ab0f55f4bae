/**
 * Single-process GraphQL: the local schema (local-schema.ts) served by GraphQL Yoga, the server the
 * Hive gateway itself is built on, with the gateway's plugins (operation limits, introspection and
 * GraphiQL access, field-suggestion blocking, metrics) and its error masking, so clients cannot
 * tell it from the gateway. One ServiceContext per HTTP request (its credential checked once), one
 * per graphql-ws operation. Yoga caches parsed and validated documents (parserAndValidationCache).
 *
 * The schema is built on first use, not at start: a process that serves no GraphQL never pays for it.
 *
 * Plain POSTs of a query text Yoga has validated once take a leaner route to the same pipeline
 * (plain-post-fast-path.ts, mounted before Yoga by single-process-server.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import type { GraphQLSchema } from 'graphql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { ServiceContext } from '../../kernel/context.js';
import { graphqlMetricsPlugin } from '../http/graphql-metrics.js';
import { maskUnexpectedErrors } from './error-masking.js';
import type { GatewaySecurity } from './gateway-runtime.js';
import { asksForIntrospection, blockFieldSuggestionsPlugin, graphiqlOptions, introspectionPlugin } from './graphql-access.js';
import { operationLimitPlugins } from './operation-limits.js';
import { plainPostFastPath, ValidatedDocuments } from './plain-post-fast-path.js';
import { contextHandedOn } from './plain-graphql-request.js';
import { GRAPHQL_PATH } from './graphql-path.js';

/** What the server's context starts from: the HTTP request, or the headers a graphql-ws socket carries (gateway-server.ts). */
interface InitialContext {
  request?: Request;
  headers?: Headers;
  /** The Express request, for an HTTP request (Yoga's node adapter puts it there). */
  req?: object;
}

export type LocalGraphQL = YogaServerInstance<Record<string, unknown>, ServiceContext>;

/** Builds a request's ServiceContext from its headers, as a Fetch Headers or Node's own (the fast path's). */
export type LocalContextBuilder = (headers: Headers | IncomingHttpHeaders) => Promise<ServiceContext>;

const fastPaths = new WeakMap<LocalGraphQL, RequestHandler>();

/** The Express handler answering the plain POSTs this server has validated before; mounted in front of it. */
export function plainPostFastPathOf(graphql: LocalGraphQL): RequestHandler | undefined {
  return fastPaths.get(graphql);
}

export function createLocalGraphQL(contextFor: LocalContextBuilder, security: GatewaySecurity): LocalGraphQL {
  const validated = new ValidatedDocuments();
  const everyoneIntrospects = security.schemaAccess.introspection === 'everyone';
  const yoga = createYoga<Record<string, unknown>, ServiceContext>({
    // A request the fast path began and handed on keeps the context it started (one verification per request).
    context: (initial: InitialContext) => contextHandedOn(initial.req) ?? contextFor(asGlobalHeaders(initial.headers ?? initial.request?.headers)),
    graphqlEndpoint: GRAPHQL_PATH,
    logging: false,
    maskedErrors: { maskError: maskUnexpectedErrors },
    // The HTTP layer caps the body before Yoga reads it (src/api/http/graphql-body-limit.ts, 1 MiB or
    // 10 MB by credential, mounted in gateway-server.ts) and hands it over already read: Yoga's own
    // 25 MB ceiling would only re-pipe those bytes through a counting stream on every request.
    maxRequestBodySize: false,
    // CORS is answered by the HTTP layer from the allowlist (src/api/http/cors.ts), never reflected here.
    cors: false,
    ...graphiqlOptions(security.schemaAccess),
    plugins: [
      loadedOnFirstUse(),
      ...(security.limits ? operationLimitPlugins(security.limits) : []),
      introspectionPlugin(security.schemaAccess),
      ...(security.schemaAccess.introspection === 'everyone' ? [] : [blockFieldSuggestionsPlugin()]),
      graphqlMetricsPlugin(),
      // Last: records only what every limit and rule above let through.
      validated.plugin((query) => everyoneIntrospects || !asksForIntrospection(query)),
    ],
  });
  fastPaths.set(yoga, plainPostFastPath(yoga, validated, contextFor));
  return yoga;
}

/**
 * The local schema, loaded with its resolver modules on the first operation (start-up neither
 * loads nor builds them). Awaited in `onParams`, which HTTP requests and graphql-ws operations
 * alike pass before execution; Yoga's own lazy schemas wait only on HTTP parsing.
 */
function loadedOnFirstUse(): Plugin {
  let schema: GraphQLSchema | undefined;
  return {
    // Not an async hook: once the schema is loaded, a promise per request would only add turns to Yoga's pipeline.
    onParams() {
      if (schema) return undefined;
      return loadLocalSchema().then((loaded) => {
        schema = loaded;
      });
    },
    onEnveloped({ setSchema }) {
      if (schema) setSchema(schema);
    },
  };
}

/** Yoga's requests may carry a ponyfill Headers, which authentication does not recognise as Headers. */
function asGlobalHeaders(headers: Headers | undefined): Headers {
  if (headers instanceof Headers) return headers;
  const plain = new Headers();
  (headers as Pick<Headers, 'forEach'> | undefined)?.forEach((value, name) => plain.append(name, value));
  return plain;
}

/** The local schema, built once per process; awaiting it first spares the first operation the wait. */
export async function loadLocalSchema(): Promise<GraphQLSchema> {
  return (await import('./local-schema.js')).localSchema();
}
