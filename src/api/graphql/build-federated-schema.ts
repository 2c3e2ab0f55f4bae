/**
 * Builds a TypeGraphQL schema as an Apollo Federation 2 subgraph. TypeGraphQL does not emit
 * `@link`, so the printed SDL (with directives) gets the federation link prepended and goes through
 * `buildSubgraphSchema` with TypeGraphQL's resolver map plus the entities' reference resolvers.
 */
import 'reflect-metadata';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { parse, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { buildSchema, createResolversMap, getMetadataStorage, type BuildSchemaOptions } from 'type-graphql';
import type { ServiceContext } from '../../kernel/context.js';
import { toGraphQLError } from '../../infra/graphql/graphql-errors.js';

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
  });
  const resolvers = createResolversMap(schema) as Record<string, Record<string, unknown>>;
  mapErrorsOfResolverMethods(schema, resolvers);
  for (const [typeName, reference] of Object.entries(referenceResolvers)) {
    resolvers[typeName] = { ...(resolvers[typeName] ?? {}), ...reference };
  }
  return buildSubgraphSchema({
    typeDefs: parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}`),
    resolvers: resolvers as GraphQLResolverMap<unknown>,
  });
}

/**
 * AppErrors (and anything unexpected) become GraphQL errors where code runs: root fields and the
 * methods of resolver classes (field resolvers, `@Field` methods). A TypeGraphQL global middleware
 * would do the same but wraps every field, plain property reads included, in an async middleware
 * chain: a promise per field of every object in a response, for reads that cannot throw.
 */
function mapErrorsOfResolverMethods(schema: GraphQLSchema, resolvers: Record<string, Record<string, unknown>>): void {
  const withCode = fieldsRunningResolverMethods();
  const rootTypes = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((type) => (type ? [type.name] : []));
  for (const [typeName, fields] of Object.entries(resolvers)) {
    if (!(rootTypes.includes(typeName) || Object.keys(fields).some((name) => withCode.has(`${typeName}.${name}`)))) continue;
    for (const [fieldName, field] of Object.entries(fields)) {
      if (!rootTypes.includes(typeName) && !withCode.has(`${typeName}.${fieldName}`)) continue;
      // TypeGraphQL's map holds a field's resolve function, or { resolve, subscribe } for a subscription.
      if (typeof field === 'function') fields[fieldName] = errorMapped(field as GraphQLFieldResolver<unknown, ServiceContext>);
      else {
        const config = field as { resolve?: GraphQLFieldResolver<unknown, ServiceContext> } | undefined;
        if (config?.resolve) config.resolve = errorMapped(config.resolve);
      }
    }
  }
}

/** `Type.field` of every field whose value a resolver-class or object-type method computes. */
function fieldsRunningResolverMethods(): Set<string> {
  const storage = getMetadataStorage();
  const names = new Set<string>();
  for (const field of storage.fieldResolvers) {
    const objectClass = field.getObjectType?.() ?? field.target;
    for (const type of storage.objectTypes) if (type.target === objectClass) names.add(`${type.name}.${field.schemaName}`);
  }
  return names;
}

function errorMapped(resolve: GraphQLFieldResolver<unknown, ServiceContext>): GraphQLFieldResolver<unknown, ServiceContext> {
  return (root, args, context, info) => {
    try {
      const value = resolve(root, args, context, info);
      return value instanceof Promise ? value.catch((err: unknown) => Promise.reject(toGraphQLError(err, context))) : value;
    } catch (err) {
      throw toGraphQLError(err, context);
    }
  };
}
