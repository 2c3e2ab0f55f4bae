/**
 * One answer shape for a request on any surface, so access tests compare REST, GraphQL and
 * graphql-ws alike: `status` is the HTTP status, a GraphQL error's `extensions.status` (200 when
 * the field resolved), or for a subscription the first error or 200 once it is live (and, when a
 * trigger is given, once the triggered event arrived).
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { graphql, subscribe, type GraphQLResponse } from './graphql-client.js';
import { contractFetch } from './openapi-contract.js';

export interface Outcome {
  status: number;
  /** The body as text (problem details, GraphQL response or subscription events), to look for leaks. */
  text: string;
}

export interface RestRequestSpec {
  method: string;
  /** Path with query, after the base URL. */
  path: string;
  headers?: Record<string, string>;
  /** JSON body (sent as application/json), or a FormData (multipart). */
  body?: unknown;
}

export async function restOutcome(baseUrl: string, spec: RestRequestSpec): Promise<Outcome> {
  const multipart = spec.body instanceof FormData;
  const res = await contractFetch(`${baseUrl}${spec.path}`, {
    method: spec.method.toUpperCase(),
    redirect: 'manual',
    headers: { ...(spec.body !== undefined && !multipart ? { 'content-type': 'application/json' } : {}), ...spec.headers },
    body: spec.body === undefined ? undefined : multipart ? (spec.body as FormData) : JSON.stringify(spec.body),
  });
  return { status: res.status, text: await res.text() };
}

function graphqlStatus(res: GraphQLResponse): number {
  const error = res.errors?.[0];
  if (!error) return res.data ? 200 : 500;
  const status = error.extensions?.status;
  return typeof status === 'number' ? status : 500;
}

export async function graphqlOutcome(baseUrl: string, query: string, variables: Record<string, unknown>, headers: Record<string, string>): Promise<Outcome> {
  const res = await graphql(baseUrl, query, variables, headers);
  return { status: graphqlStatus(res), text: JSON.stringify(res) };
}

const sleep = (ms: number) => new Promise<'quiet'>((resolve) => setTimeout(() => resolve('quiet'), ms));

/**
 * Subscribes; an access refusal arrives at once as an error. Otherwise (quiet for `quietMs`) the
 * subscription is live: with a trigger, the triggered event must then arrive (200) within 10 s.
 */
export async function subscriptionOutcome(
  baseUrl: string,
  query: string,
  variables: Record<string, unknown>,
  connectionParams: Record<string, string>,
  trigger?: () => Promise<void>,
  quietMs = 500,
): Promise<Outcome> {
  const sub = await subscribe(baseUrl, query, variables, connectionParams);
  try {
    const first = sub.next();
    first.catch(() => {}); // observed below; keeps an early rejection from being unhandled
    const early = await Promise.race([first, sleep(quietMs)]);
    if (early !== 'quiet') return { status: graphqlStatus(early), text: JSON.stringify(early) };
    if (!trigger) return { status: 200, text: 'subscription live, no event expected' };
    await trigger();
    try {
      const event = await first;
      return { status: graphqlStatus(event), text: JSON.stringify(event) };
    } catch (err) {
      return { status: 0, text: `no event after the trigger: ${String(err)}` };
    }
  } finally {
    await sub.close();
  }
}

/** Root fields of the composed schema, with their argument types and whether they return an object. */
interface RootField {
  args: Map<string, string>;
  /** ` { __typename }` for object results, '' for scalars (e.g. JSONObject). */
  selection: string;
}
export type RootKind = 'query' | 'mutation' | 'subscription';
export type RootFields = Record<RootKind, Map<string, RootField>>;

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}

const TYPE_REF = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';
const INTROSPECTION = `{ __schema {
  queryType { fields { name args { name type { ${TYPE_REF} } } type { ${TYPE_REF} } } }
  mutationType { fields { name args { name type { ${TYPE_REF} } } type { ${TYPE_REF} } } }
  subscriptionType { fields { name args { name type { ${TYPE_REF} } } type { ${TYPE_REF} } } }
} }`;

function printType(ref: TypeRef): string {
  if (ref.kind === 'NON_NULL') return `${printType(ref.ofType!)}!`;
  if (ref.kind === 'LIST') return `[${printType(ref.ofType!)}]`;
  return ref.name!;
}

function namedKind(ref: TypeRef): string {
  return ref.ofType ? namedKind(ref.ofType) : ref.kind;
}

/** Reads the gateway's root fields, so operations can be written without knowing result shapes. */
export async function introspectRootFields(baseUrl: string, headers: Record<string, string>): Promise<RootFields> {
  const res = await graphql<{
    __schema: Record<string, { fields: Array<{ name: string; args: Array<{ name: string; type: TypeRef }>; type: TypeRef }> } | null>;
  }>(baseUrl, INTROSPECTION, {}, headers);
  if (!res.data) throw new Error(`introspection failed: ${JSON.stringify(res.errors)}`);
  const read = (type: string): Map<string, RootField> =>
    new Map(
      (res.data!.__schema[type]?.fields ?? []).map((f) => [
        f.name,
        {
          args: new Map(f.args.map((a) => [a.name, printType(a.type)])),
          selection: ['OBJECT', 'INTERFACE', 'UNION'].includes(namedKind(f.type)) ? ' { __typename }' : '',
        },
      ]),
    );
  return { query: read('queryType'), mutation: read('mutationType'), subscription: read('subscriptionType') };
}

/**
 * `mutation($a: T!) { field(a: $a) { __typename } }` for one root field and the variables given:
 * only `__typename` of an object result is selected, so the operation keeps working whatever
 * fields the result type grows (or when a JSON scalar becomes a typed object).
 */
export function rootOperation(fields: RootFields, kind: RootKind, field: string, variables: Record<string, unknown>): string {
  const def = fields[kind].get(field);
  if (!def) throw new Error(`the schema has no ${kind} field ${field}`);
  const names = Object.keys(variables);
  for (const name of names) if (!def.args.has(name)) throw new Error(`${kind} ${field} has no argument ${name}`);
  const declared = names.map((n) => `$${n}: ${def.args.get(n)}`).join(', ');
  const passed = names.map((n) => `${n}: $${n}`).join(', ');
  return `${kind}${declared ? `(${declared})` : ''} { ${field}${passed ? `(${passed})` : ''}${def.selection} }`;
}

/** Every event (or error) a graphql-ws subscription receives, kept for inspection. */
export interface EventCollector {
  readonly received: GraphQLResponse[];
  /** The first received message matching `accept`, waiting up to `ms`. */
  waitFor(accept: (message: GraphQLResponse) => boolean, ms?: number): Promise<GraphQLResponse>;
  close(): Promise<void>;
}

export async function collectEvents(
  baseUrl: string,
  query: string,
  variables: Record<string, unknown>,
  connectionParams: Record<string, string>,
): Promise<EventCollector> {
  const client = createClient({ url: `${baseUrl.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, lazy: false, connectionParams });
  await new Promise<void>((resolve, reject) => {
    client.on('connected', () => resolve());
    client.on('error', reject);
  });
  const received: GraphQLResponse[] = [];
  const listeners = new Set<() => void>();
  client.subscribe(
    { query, variables },
    {
      next: (message) => {
        received.push(message as GraphQLResponse);
        for (const listener of listeners) listener();
      },
      error: (err) => {
        received.push({ errors: [{ message: String(err), extensions: { status: 0 } }] });
        for (const listener of listeners) listener();
      },
      complete: () => {},
    },
  );
  return {
    received,
    waitFor(accept, ms = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = received.find(accept);
          if (!hit) return false;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(hit);
          return true;
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching event within ${ms} ms; received ${JSON.stringify(received)}`));
        }, ms);
        if (!check()) listeners.add(check);
      });
    },
    close: async () => {
      await client.dispose();
    },
  };
}
