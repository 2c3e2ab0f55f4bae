/** Minimal GraphQL clients for tests: HTTP POST, and graphql-ws subscriptions. */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface GraphQLResponse<T = Record<string, any>> {
  data?: T | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

export async function graphql<T = Record<string, any>>(
  baseUrl: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<GraphQLResponse<T>> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as GraphQLResponse<T>;
}

export interface Subscription<T> {
  /** The next event (queued if it already arrived); rejects after 10 s without one. */
  next(): Promise<T>;
  close(): Promise<void>;
}

/** Subscribes over graphql-ws (after the connection is acknowledged) and queues every event. */
export async function subscribe<T = Record<string, any>>(
  baseUrl: string,
  query: string,
  variables: Record<string, unknown> = {},
  connectionParams: Record<string, string> = {},
): Promise<Subscription<GraphQLResponse<T>>> {
  const client: Client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    lazy: false,
    connectionParams,
  });
  const queue: GraphQLResponse<T>[] = [];
  const waiters: Array<(v: GraphQLResponse<T>) => void> = [];
  let failure: unknown;
  const connected = new Promise<void>((resolve, reject) => {
    client.on('connected', () => resolve());
    client.on('error', reject);
  });
  await connected;
  client.subscribe<T>(
    { query, variables },
    {
      next: (value) => {
        const waiter = waiters.shift();
        if (waiter) waiter(value as GraphQLResponse<T>);
        else queue.push(value as GraphQLResponse<T>);
      },
      error: (err) => {
        failure = err;
      },
      complete: () => {},
    },
  );
  return {
    next() {
      if (failure) return Promise.reject(failure);
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no subscription event within 10 s (${String(failure ?? '')})`)), 10_000);
        waiters.push((v) => {
          clearTimeout(timer);
          resolve(v);
        });
      });
    },
    async close() {
      await client.dispose();
    },
  };
}

/**
 * graphql-ws gives the client no signal that the server registered a subscription; a short pause
 * before publishing keeps the test from racing it (an event published earlier would be missed).
 */
export async function settle(ms = 300): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** A selection set as data: `true` selects a leaf, an object selects its sub-fields. */
export interface Selection {
  [field: string]: true | Selection;
}

export function selectionSet(selection: Selection): string {
  return `{ ${Object.entries(selection)
    .map(([field, sub]) => (sub === true ? field : `${field} ${selectionSet(sub)}`))
    .join(' ')} }`;
}

/** What a GraphQL response holds for `selection` when the resolver returns `value`: absent fields are null. */
export function selectedFrom(value: unknown, selection: Selection): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((item) => selectedFrom(item, selection));
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(selection).map(([field, sub]) => [field, sub === true ? (record[field] ?? null) : selectedFrom(record[field], sub)]),
  );
}
