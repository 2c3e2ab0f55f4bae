/**
 * Who may look at the schema through the gateway: GraphiQL (served from the locally installed
 * @graphql-yoga/render-graphiql, which inlines its assets, so it works offline) and introspection,
 * which production keeps to staff unless configured otherwise. Where introspection is not open to
 * everyone, errors do not suggest field, argument or enum names ("Did you mean …?") either.
 */
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { Plugin as EnvelopPlugin } from '@envelop/core';
import { GraphQLError, type ValidationRule } from 'graphql';
import type { Plugin as YogaPlugin } from 'graphql-yoga';

type IntrospectionAudience = 'everyone' | 'authenticated' | 'staff';

/** What the gateway needs to know of a caller to decide on introspection. */
export interface CallerStanding {
  authenticated: boolean;
  staff: boolean;
}

export interface SchemaAccess {
  graphiql: boolean;
  introspection: IntrospectionAudience;
  /** The standing of the caller behind a request's credential headers. */
  standingOf(headers: Headers): Promise<CallerStanding>;
}

/**
 * What GraphiQL opens with: a query a fresh integrator can run as soon as it holds a token, and
 * where that token goes (the headers editor, opened, holds the header to fill in).
 */
export const GRAPHIQL_EXAMPLE_QUERY = `# Funding gateway GraphQL: every operation needs
# a bearer token. Put yours in the Headers editor
# below, in place of <token>:
#   {"Authorization": "Bearer <token>"}
# This example needs a platform token: the
# access_token of POST /api/platform/v1/auth/token
# with your API key as the X-API-Key header.
# Steps: /docs/guides/integrator-rest
# More GraphQL: /docs/guides/integrator-graphql
# Run it with the run button (or Ctrl-Enter).
query FirstSteps {
  tenants(limit: 5) {
    total
    items {
      id
      referenceId
      createdDateTime
    }
  }
  lenders {
    name
    products {
      productType
      name
    }
  }
}
`;

/** The headers editor's first content: the header every operation needs, with its token to fill in. */
export const GRAPHIQL_HEADERS_HINT = JSON.stringify({ Authorization: 'Bearer <token>' }, null, 2);

export function graphiqlOptions(access: SchemaAccess) {
  return access.graphiql
    ? {
        graphiql: {
          title: 'Funding gateway GraphQL',
          defaultQuery: GRAPHIQL_EXAMPLE_QUERY,
          headers: GRAPHIQL_HEADERS_HINT,
          defaultHeaders: GRAPHIQL_HEADERS_HINT,
          defaultEditorToolsVisibility: 'headers' as const,
        },
        renderGraphiQL,
        landingPage: false,
      }
    : { graphiql: false, landingPage: false };
}

const INTROSPECTION_IN_TEXT = /__schema|__type\b/;

/** Whether a query text may ask for introspection (a cheap test on the text: it may also match a string or comment). */
export function asksForIntrospection(query: string): boolean {
  return INTROSPECTION_IN_TEXT.test(query);
}

/**
 * Decides per request, before validation (credentials are checked asynchronously, which validation
 * cannot do), and only when the query text asks for introspection at all.
 */
export function introspectionPlugin(access: SchemaAccess): YogaPlugin {
  // Keyed by the HTTP request, or for a graphql-ws operation (which has none) by the headers object
  // its socket's context carries (gateway-server.ts builds it from the upgrade and connection_init).
  const allowed = new WeakSet<object>();
  const callerOf = (request: Request | undefined, context: unknown): { key: object; headers: Headers } | undefined => {
    if (request) return { key: request, headers: request.headers };
    const headers = (context as { headers?: unknown } | undefined)?.headers;
    return headers instanceof Headers ? { key: headers, headers } : undefined;
  };
  return {
    // Synchronous unless the query asks for introspection: a promise per request would add turns to every operation.
    onParams({ params, request, context }) {
      if (access.introspection === 'everyone' || typeof params.query !== 'string' || !asksForIntrospection(params.query)) return undefined;
      const caller = callerOf(request as Request | undefined, context);
      if (!caller) return undefined;
      return access.standingOf(caller.headers).then((standing) => {
        if (access.introspection === 'staff' ? standing.staff : standing.authenticated) allowed.add(caller.key);
      });
    },
    onValidate({ context, addValidationRule }) {
      if (access.introspection === 'everyone') return;
      const caller = callerOf((context as { request?: Request }).request, context);
      if (!caller || !allowed.has(caller.key)) addValidationRule(noIntrospection(access.introspection));
    },
  };
}

function noIntrospection(audience: IntrospectionAudience): ValidationRule {
  const who = audience === 'staff' ? 'staff' : 'signed-in callers';
  return (context) => ({
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        context.reportError(
          new GraphQLError(`Introspection is available to ${who} only (GRAPHQL_INTROSPECTION).`, { nodes: [node], extensions: { code: 'FORBIDDEN' } }),
        );
      }
    },
  });
}

/** graphql's suggestions: `Did you mean "name"?`, `Did you mean "a", "b", or "c"?`, `Did you mean the enum value "X"?`. */
const SUGGESTION = /\s*Did you mean\b[^?]*\?/;
const SUGGESTIONS = new RegExp(SUGGESTION.source, 'g');

type ResultHook = (event: { result: { errors?: readonly GraphQLError[] }; setResult(result: unknown): void }) => void;

/**
 * Strips suggestions from validation errors and from execution errors (variable coercion suggests
 * enum values), the way GraphQL Armor's block-field-suggestions does for validation.
 */
export function blockFieldSuggestionsPlugin(): EnvelopPlugin {
  const strip: ResultHook = ({ result, setResult }) => {
    if (result.errors?.some((e) => SUGGESTION.test(e.message))) setResult({ ...result, errors: result.errors.map(withoutSuggestion) });
  };
  // A stream (subscription, @defer) is handled result by result.
  const eachResult = (payload: Parameters<ResultHook>[0]) => (Symbol.asyncIterator in Object(payload.result) ? { onNext: strip } : strip(payload));
  return {
    onValidate() {
      return ({ result, setResult }) => {
        if (result.some((e) => SUGGESTION.test(e.message))) setResult(result.map(withoutSuggestion));
      };
    },
    onExecute: () => ({ onExecuteDone: eachResult }),
    onSubscribe: () => ({ onSubscribeResult: eachResult }),
  } as EnvelopPlugin;
}

function withoutSuggestion<E extends Error>(error: E): E | GraphQLError {
  if (!SUGGESTION.test(error.message)) return error;
  const message = error.message.replace(SUGGESTIONS, '');
  // Read by shape: the gateway's errors may come from graphql's other (CJS) copy.
  const e = error as Partial<GraphQLError>;
  return new GraphQLError(message, {
    nodes: e.nodes,
    source: e.source,
    positions: e.positions,
    path: e.path,
    originalError: e.originalError,
    extensions: e.extensions,
  });
}
