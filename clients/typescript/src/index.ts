/**
 * @funding-gateway/client: a typed client of the funding gateway's APIs.
 *
 * - REST: `createClient` is openapi-fetch over the types generated from the gateway's OpenAPI
 *   document (./generated/openapi.ts): paths, parameters, bodies and answers are checked by the compiler.
 * - GraphQL: typed documents of the operations in ../operations.graphql, generated from the
 *   supergraph (./generated/graphql.ts), usable with any GraphQL client that takes a
 *   TypedDocumentNode (Apollo Client, urql, graphql-request), or with `createGraphQLClient` here.
 *
 * Regenerate both with `npm run client:generate` in the gateway's repository.
 */
import createFetchClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import type { paths } from './generated/openapi.js';

export type * from './generated/openapi.js';
export * from './generated/graphql.js';

/** A credential, or a function giving the current one (tenant tokens last 10 hours: refresh them behind it). */
export type Credential = string | (() => string | Promise<string>);

export interface FundingGatewayOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The deployment's address, e.g. `http://127.0.0.1:4000` (the demo's). */
  baseUrl: string;
  /** A bearer token (login, platform, master, tenant, Marketplace V1 or lender token), sent as `Authorization: Bearer …`. */
  token?: Credential;
  /** An API key (fgk_…), sent as `X-API-Key` (the token endpoint's credential). */
  apiKey?: Credential;
}

export type FundingGatewayClient = Client<paths>;

const current = async (credential: Credential) => (typeof credential === 'function' ? credential() : credential);

/** The credential headers of a request: the token as a bearer, the API key as X-API-Key. */
async function credentialHeaders({ token, apiKey }: Pick<FundingGatewayOptions, 'token' | 'apiKey'>): Promise<Record<string, string>> {
  return {
    ...(token !== undefined ? { authorization: `Bearer ${await current(token)}` } : {}),
    ...(apiKey !== undefined ? { 'x-api-key': await current(apiKey) } : {}),
  };
}

/** The REST client: `client.GET('/api/business/v1/profile')`, `client.POST(…, { body })`, each answer typed. */
export function createClient({ token, apiKey, ...options }: FundingGatewayOptions): FundingGatewayClient {
  const client = createFetchClient<paths>(options);
  if (token !== undefined || apiKey !== undefined) {
    const credentials: Middleware = {
      async onRequest({ request }) {
        // A header given on the call itself wins over the client's credential.
        for (const [name, value] of Object.entries(await credentialHeaders({ token, apiKey })))
          if (!request.headers.has(name)) request.headers.set(name, value);
        return request;
      },
    };
    client.use(credentials);
  }
  return client;
}

/** A GraphQL answer with errors (the `errors` of the answer, whose `extensions.code` names each). */
export class GraphQLRequestError extends Error {
  constructor(
    readonly errors: ReadonlyArray<{ message: string; path?: ReadonlyArray<string | number>; extensions?: Record<string, unknown> }>,
    readonly status: number,
  ) {
    super(errors.map((e) => `${String(e.extensions?.code ?? 'ERROR')}: ${e.message}`).join('; '));
    this.name = 'GraphQLRequestError';
  }
}

export interface GraphQLClient {
  /** Runs a query or mutation; its data, typed by the document, or a GraphQLRequestError. */
  request<TResult, TVariables extends Record<string, unknown>>(
    document: TypedDocumentNode<TResult, TVariables>,
    ...variables: Record<string, never> extends TVariables ? [variables?: TVariables] : [variables: TVariables]
  ): Promise<TResult>;
}

/** GraphQL over HTTP at `{baseUrl}/graphql` (subscriptions go over graphql-ws: see the README). */
export function createGraphQLClient({ baseUrl, token, apiKey, fetch: fetchImpl = globalThis.fetch, headers }: FundingGatewayOptions): GraphQLClient {
  const endpoint = `${baseUrl.replace(/\/+$/, '')}/graphql`;
  return {
    async request(document, ...[variables]) {
      const response = await fetchImpl(
        new Request(endpoint, {
          method: 'POST',
          headers: {
            ...(headers as Record<string, string> | undefined),
            ...(await credentialHeaders({ token, apiKey })),
            'content-type': 'application/json',
            accept: 'application/graphql-response+json, application/json',
          },
          body: JSON.stringify({ query: print(document), variables: variables ?? {} }),
        }),
      );
      const answer = (await response.json().catch(() => ({}))) as { data?: unknown; errors?: GraphQLRequestError['errors'] };
      if (answer.errors?.length || answer.data == null)
        throw new GraphQLRequestError(answer.errors ?? [{ message: `HTTP ${response.status} without data` }], response.status);
      return answer.data as never;
    },
  };
}
