/**
 * The subgraphs' fast path against Apollo Server on a small schema, mounted as subgraph-server.ts
 * mounts it: what it answers is what Apollo answers (status, body, headers), it answers only what
 * Apollo has answered without errors for the same query text and Accept header, and everything else
 * (errors, mutations, extensions, new Accept headers) is Apollo's, with the context built once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLError } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../../kernel/context.js';
import { AnsweredQueries, subgraphFastPath } from './subgraph-fast-path.js';
import { contextHandedOn } from './plain-graphql-request.js';
import { subgraphOperationLimits } from './subgraph-operation-limits.js';

const schema = makeExecutableSchema({
  typeDefs:
    'type Query { tenant(id: ID!): Tenant tenants(limit: Int): [Tenant!]! } type Tenant { id: ID! caller: String } type Mutation { touch(id: ID!): Tenant }',
  resolvers: {
    Query: {
      tenants: (_: unknown, { limit }: { limit?: number }) => Array.from({ length: Math.min(limit ?? 1, 3) }, (_, i) => ({ id: `t${i}` })),
      tenant: (_: unknown, { id }: { id: string }) => {
        if (id === 'missing') throw new GraphQLError('No such tenant', { extensions: { code: 'NOT_FOUND' } });
        return { id };
      },
    },
    Tenant: { caller: (_: unknown, __: unknown, ctx: { caller: string }) => ctx.caller },
    Mutation: { touch: (_: unknown, { id }: { id: string }) => ({ id }) },
  },
});

const QUERY = 'query($id: ID!) { tenant(id: $id) { id caller } }';
/** As the subgraph servers have them: each field 1, times a list's page size (tenants(limit: 20) { id } costs 21). */
const limits = subgraphOperationLimits(schema, { maxDepth: 12, maxAliases: 30, maxTokens: 2000, maxDirectives: 20, maxCost: 50, maxFieldRepeats: 10 });
const ACCEPT = 'application/graphql-response+json, application/json, multipart/mixed';

let server: http.Server;
let url: string;
/** Operations Apollo's own pipeline ran, and contexts built. */
let apolloRuns = 0;
let contextsBuilt = 0;

beforeAll(async () => {
  const answered = new AnsweredQueries();
  const apollo = new ApolloServer<ServiceContext>({
    schema,
    parseOptions: limits.parseOptions,
    plugins: [answered.plugin(), limits.plugin, { requestDidStart: async () => void apolloRuns++ }],
  });
  await apollo.start();
  const contextFor = async (headers: http.IncomingHttpHeaders) => {
    contextsBuilt++;
    return { caller: headers.authorization ?? 'anonymous' } as unknown as ServiceContext;
  };
  const app = express();
  app.use(
    '/graphql',
    express.json(),
    limits.beforeApollo,
    subgraphFastPath(schema, answered, contextFor, limits.cost),
    expressMiddleware(apollo, { context: ({ req }) => contextHandedOn(req) ?? contextFor(req.headers) }),
  );
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  apolloRuns = 0;
  contextsBuilt = 0;
});

async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body: JSON.stringify(body) });
  const { date: _date, etag: _etag, ...rest } = Object.fromEntries(res.headers);
  return { status: res.status, headers: rest, body: await res.text() };
}

describe('subgraph fast path', () => {
  it('answers a query Apollo has answered as Apollo answered it, with the caller its credential names', async () => {
    const first = await post({ query: QUERY, variables: { id: 't1' } }, { authorization: 'Bearer a' });
    expect(apolloRuns).toBe(1);
    const second = await post({ query: QUERY, variables: { id: 't2' } }, { authorization: 'Bearer b' });
    expect(apolloRuns).toBe(1);
    expect(contextsBuilt).toBe(2);
    expect(second.status).toBe(first.status);
    expect(second.headers).toEqual(first.headers);
    expect(second.body).toBe(first.body.replace('t1', 't2').replace('Bearer a', 'Bearer b'));
    expect(JSON.parse(second.body)).toEqual({ data: { tenant: { id: 't2', caller: 'Bearer b' } } });
  });

  it('leaves a result with errors to Apollo, which answers it its own way, the context built once', async () => {
    await post({ query: QUERY, variables: { id: 't1' } });
    apolloRuns = 0;
    contextsBuilt = 0;
    const failed = await post({ query: QUERY, variables: { id: 'missing' } });
    expect(apolloRuns).toBe(1);
    expect(contextsBuilt).toBe(1);
    expect(failed.status).toBe(200);
    expect(JSON.parse(failed.body)).toMatchObject({
      data: { tenant: null },
      errors: [{ message: 'No such tenant', path: ['tenant'], extensions: { code: 'NOT_FOUND' } }],
    });
    // Variables Apollo refuses are its answer too.
    const refused = await post({ query: QUERY, variables: {} });
    expect(refused.status).toBe(400);
    expect(apolloRuns).toBe(2);
  });

  it('leaves mutations, extensions, other Accept headers, unseen texts and trace requests to Apollo', async () => {
    const mutation = 'mutation($id: ID!) { touch(id: $id) { id } }';
    await post({ query: mutation, variables: { id: 'm1' } });
    await post({ query: mutation, variables: { id: 'm2' } });
    expect(apolloRuns).toBe(2);
    await post({ query: QUERY, variables: { id: 't1' } });
    apolloRuns = 0;
    await post({ query: QUERY, variables: { id: 't1' }, extensions: { x: 1 } });
    await post({ query: QUERY, variables: { id: 't1' } }, { accept: 'application/json' });
    await post({ query: '{ tenant(id: "t3") { id } }' });
    await post({ query: QUERY, variables: { id: 't1' } }, { 'apollo-federation-include-trace': 'ftv1' });
    expect(apolloRuns).toBe(4);
    // The new Accept header, once answered by Apollo, is served too.
    await post({ query: QUERY, variables: { id: 't4' } }, { accept: 'application/json' });
    expect(apolloRuns).toBe(4);
  });

  it('checks the cost of a query it has answered again for new variables: a page size over the limit is refused by Apollo', async () => {
    const LIST = 'query($n: Int) { tenants(limit: $n) { id } }';
    const small = await post({ query: LIST, variables: { n: 2 } });
    expect(JSON.parse(small.body)).toEqual({ data: { tenants: [{ id: 't0' }, { id: 't1' }] } });
    apolloRuns = 0;
    expect(JSON.parse((await post({ query: LIST, variables: { n: 3 } })).body).data.tenants).toHaveLength(3);
    expect(apolloRuns).toBe(0);
    const large = await post({ query: LIST, variables: { n: 1000 } });
    expect(apolloRuns).toBe(1);
    expect(large.status).toBe(400);
    expect(JSON.parse(large.body)).toEqual({
      errors: [
        expect.objectContaining({
          message: 'Query refused: estimated cost over 500 exceeds 50 (GRAPHQL_MAX_COST).',
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        }),
      ],
    });
  });

  it('refuses what the gateway refuses before running anything: aliases, repeated fields and tokens, each naming its limit', async () => {
    const aliases = await post({ query: `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: tenant(id: "x") { id }`).join(' ')} }` });
    const repeats = await post({ query: `{ ${Array.from({ length: 11 }, () => 'tenant(id: "x") { id }').join(' ')} }` });
    const tokens = await post({ query: `{ ${'__typename '.repeat(2100)} }` });
    for (const [answer, message] of [
      [aliases, /Aliases limit of 30 exceeded, found 31/],
      [repeats, /field "tenant" is selected 11 times in one selection set; at most 10 \(GRAPHQL_MAX_FIELD_REPEATS\)/],
      [tokens, /^Syntax Error: Token limit of 2000 exceeded\.$/],
    ] as const) {
      expect(answer.status).toBe(400);
      const body = JSON.parse(answer.body) as { data?: unknown; errors: Array<{ message: string }> };
      expect(body.data).toBeUndefined();
      expect(body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(message) })]);
    }
    // Refused before Apollo, or a context, was involved.
    expect(apolloRuns).toBe(0);
    expect(contextsBuilt).toBe(0);
  });
});
