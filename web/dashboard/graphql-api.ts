/**
 * The dashboard's only server connection: the GraphQL API over HTTP (queries, mutations) and
 * graphql-ws (subscriptions), with the signed-in user's token in the Authorization header or the
 * connection_init payload, never in a URL.
 */
import { createClient, type Client } from 'graphql-ws';
import type { ApplicationStatusChangedSubscription, OfferStatusChangedSubscription } from './generated/graphql.js';
import { APPLICATION_STATUS_CHANGED, OFFER_STATUS_CHANGED } from './board-queries.js';

export interface FieldProblem {
  pointer: string;
  message: string;
}

/** A GraphQL error as the API maps it (extensions.code and the failing fields). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly fields: FieldProblem[],
  ) {
    super(message);
  }
}

/** One query or mutation; TResult and TVariables are the operation's generated types (./generated/graphql.ts). */
export async function graphql<TResult, TVariables extends object = Record<string, unknown>>(
  token: string,
  query: string,
  variables?: TVariables,
): Promise<TResult> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables: variables ?? {} }),
  });
  const body = (await res.json()) as { data?: TResult; errors?: Array<{ message: string; extensions?: { code?: string; fields?: FieldProblem[] } }> };
  const [first] = body.errors ?? [];
  if (first) throw new ApiError(first.message, first.extensions?.code ?? 'ERROR', first.extensions?.fields ?? []);
  return body.data as TResult;
}

/** Waits grow 0.5 s, 1 s, 2 s … up to 10 s, with jitter, so a restarted server is not stampeded. */
function reconnectDelayMs(retries: number): number {
  return Math.min(10_000, 500 * 2 ** retries) * (0.8 + Math.random() * 0.4);
}

export interface LiveHandlers {
  /** Every (re)connection: a reconnect must catch up on what was published while it was down. */
  connected(wasRetry: boolean): void;
  disconnected(): void;
  /** The server refused the sign-in itself (expired, revoked, role or password changed): retrying cannot help. */
  refused(): void;
  applicationChanged(applicationId: number): void;
}

/** The server closes a socket with 4403 when its credential is missing, invalid, expired or revoked. */
const CREDENTIAL_REFUSED = 4403;
const refusesCredential = (event: unknown) => typeof event === 'object' && event !== null && (event as { code?: unknown }).code === CREDENTIAL_REFUSED;

/**
 * graphql-ws with endless retries and backoff; subscriptions are re-sent by the client on every
 * reconnect. A refused credential is not retried: the same token would be refused again.
 */
export function openLiveConnection(token: string, handlers: LiveHandlers): Client {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  const client = createClient({
    url,
    lazy: false,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: (event) => !refusesCredential(event),
    retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, reconnectDelayMs(retries))),
    on: {
      connected: (_socket, _payload, wasRetry) => handlers.connected(wasRetry),
      closed: (event) => (refusesCredential(event) ? handlers.refused() : handlers.disconnected()),
    },
  });
  const follow = <TData>(query: string, applicationIdOf: (data: TData) => number) =>
    client.subscribe<TData>(
      { query },
      {
        next: (result) => {
          if (result.data) handlers.applicationChanged(applicationIdOf(result.data));
        },
        error: () => handlers.disconnected(),
        complete: () => {},
      },
    );
  follow<ApplicationStatusChangedSubscription>(APPLICATION_STATUS_CHANGED, (d) => d.applicationStatusChanged.applicationId);
  follow<OfferStatusChangedSubscription>(OFFER_STATUS_CHANGED, (d) => d.offerStatusChanged.applicationId);
  return client;
}
