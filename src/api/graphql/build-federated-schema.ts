/**
 * Builds a TypeGraphQL schema as an Apollo Federation 2 subgraph. TypeGraphQL does not emit
 * `@link`, so the printed SDL (with directives) gets the federation link prepended and goes through
 * `buildSubgraphSchema` with TypeGraphQL's resolver map plus the entities' reference resolvers.
 */
import 'reflect-metadata';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { parse, type GraphQLSchema } from 'graphql';
import { buildSchema, createResolversMap, type BuildSchemaOptions } from 'type-graphql';
import { mapAppErrors } from '../../infra/graphql/graphql-errors.js';

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@external", "@requires", "@provides"])';

/**
 * Subscriptions here declare `subscribe` and read the bus from the context (so one schema serves
 * in-memory and Redis-backed processes alike). TypeGraphQL still demands a pubSub; this one refuses
 * topic-based subscriptions so a missing `subscribe` fails loudly instead of silently never firing.
 */
const contextBusOnly = {
  publish() {
    throw new Error('publish through ServiceContext.events, not the schema pubSub');
  },
  subscribe(): never {
    throw new Error('declare `subscribe` reading ServiceContext.events on every @Subscription');
  },
};

export type ReferenceResolvers = Record<string, { __resolveReference: (...args: never[]) => unknown }>;

export async function buildFederatedSchema(
  options: Omit<BuildSchemaOptions, 'skipCheck' | 'globalMiddlewares'>,
  referenceResolvers: ReferenceResolvers = {},
): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    ...options,
    pubSub: contextBusOnly,
    skipCheck: true,
    globalMiddlewares: [mapAppErrors],
  });
  const resolvers = createResolversMap(schema) as Record<string, Record<string, unknown>>;
  for (const [typeName, reference] of Object.entries(referenceResolvers)) {
    resolvers[typeName] = { ...(resolvers[typeName] ?? {}), ...reference };
  }
  return buildSubgraphSchema({
    typeDefs: parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}`),
    resolvers: resolvers as GraphQLResolverMap<unknown>,
  });
}
