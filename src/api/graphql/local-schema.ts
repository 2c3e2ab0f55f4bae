/**
 * Single-process GraphQL without federation at run time: the supergraph's public API schema (what
 * the gateway serves: types, fields, arguments, enums, descriptions, directives), each field
 * executed by the resolver of the subgraph that owns it, as one graphql-js schema. No query plan,
 * no entity representations, no delegation: a field another subgraph contributes to an entity
 * (Tenant.profile, Profile.matches, Application.matches, ...) runs on the parent object the owning
 * subgraph resolved.
 *
 * Why that parent will do where the gateway resolves a reference first: every entity is returned
 * only by the subgraph that owns it (Tenant by tenants, Profile by profiles, Application by
 * applications; test/graphql-local-schema.test.ts holds this), whose resolvers answer only what the
 * caller sees, and the contributing subgraphs' entity classes are key-only stubs, so their field
 * resolvers read nothing but the key, which the full object carries too. Their reference resolvers
 * only re-check visibility, which the owner already decided.
 *
 * The distributed deployment and the gateway keep the subgraphs as they are.
 */
import { transformSupergraphToPublicSchema } from '@theguild/federation-composition';
import { makeExecutableSchema } from '@graphql-tools/schema';
import {
  Kind,
  parse,
  type ConstDirectiveNode,
  type DocumentNode,
  type GraphQLSchema,
  type ObjectTypeDefinitionNode,
  type ObjectTypeExtensionNode,
} from 'graphql';
import { readCommittedSupergraph } from './compose.js';
import { buildSubgraphSchemas, isSubgraphName, type SubgraphName } from './subgraphs/index.js';

let built: Promise<GraphQLSchema> | undefined;

/** Built once per process (schemas hold no request state), on first use. */
export function localSchema(): Promise<GraphQLSchema> {
  built ??= (async () => buildLocalSchema(parse(await readCommittedSupergraph()), await buildSubgraphSchemas()))();
  return built;
}

/**
 * Built from the API schema's document by graphql-tools (not with our own `graphql` import): the
 * schema then comes from the same graphql module as the subgraphs' and the server's, which under
 * the test runner is not the one our source files get (vitest.config.ts).
 */
export function buildLocalSchema(supergraph: DocumentNode, subgraphs: Record<SubgraphName, GraphQLSchema>): GraphQLSchema {
  const resolvers: Record<string, Record<string, unknown>> = {};
  for (const [typeName, fields] of fieldOwners(supergraph)) {
    const byField: Record<string, unknown> = {};
    for (const [fieldName, owner] of fields) {
      const type = subgraphs[owner].getType(typeName);
      const owned = type && 'getFields' in type ? type.getFields()[fieldName] : undefined;
      if (!owned || !('resolve' in owned)) throw new Error(`${typeName}.${fieldName} is missing from the ${owner} subgraph the supergraph names`);
      byField[fieldName] = { resolve: owned.resolve, subscribe: owned.subscribe };
    }
    resolvers[typeName] = byField;
  }
  for (const schema of Object.values(subgraphs)) {
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || resolvers[type.name]) continue;
      // Scalars parse and serialise as their subgraph defines them (JSON, JSONObject), not as strings.
      if ('serialize' in type) resolvers[type.name] = { serialize: type.serialize, parseValue: type.parseValue, parseLiteral: type.parseLiteral };
      // Enum values carry their subgraph's internal values.
      if ('getValues' in type) resolvers[type.name] = Object.fromEntries(type.getValues().map((value) => [value.name, value.value as unknown]));
    }
  }
  return makeExecutableSchema({
    typeDefs: transformSupergraphToPublicSchema(supergraph),
    resolvers,
    // Federation's own types (_Any, _Service, _Entity) are in the subgraphs, not in the API schema.
    resolverValidationOptions: { requireResolversToMatchSchema: 'ignore' },
  });
}

/**
 * Type name → field name → the subgraph that resolves it, read from the supergraph's join
 * directives. A field without `@join__field` is declared by every subgraph of its type (keys,
 * shareable value types): it is resolved where the type has most fields, which for an entity is
 * the subgraph that owns it and builds its objects.
 */
export function fieldOwners(supergraph: DocumentNode): Map<string, Map<string, SubgraphName>> {
  const graphNames = new Map<string, SubgraphName>();
  for (const definition of supergraph.definitions) {
    if (definition.kind !== Kind.ENUM_TYPE_DEFINITION || definition.name.value !== 'join__Graph') continue;
    for (const value of definition.values ?? []) {
      const name = stringArgument(
        value.directives?.find((d) => d.name.value === 'join__graph'),
        'name',
      );
      if (name && isSubgraphName(name)) graphNames.set(value.name.value, name);
    }
  }
  const subgraphOf = (directive: ConstDirectiveNode): SubgraphName | undefined => {
    const graph = directive.arguments?.find((a) => a.name.value === 'graph')?.value;
    return graph?.kind === Kind.ENUM ? graphNames.get(graph.value) : undefined;
  };
  const owners = new Map<string, Map<string, SubgraphName>>();
  const objectTypes = supergraph.definitions.filter(
    (d): d is ObjectTypeDefinitionNode | ObjectTypeExtensionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.OBJECT_TYPE_EXTENSION,
  );
  for (const type of objectTypes) {
    const typeGraphs = (type.directives ?? []).filter((d) => d.name.value === 'join__type').flatMap((d) => subgraphOf(d) ?? []);
    const fieldGraphs = (type.fields ?? []).map((field) => {
      const joined = (field.directives ?? []).filter((d) => d.name.value === 'join__field').flatMap((d) => subgraphOf(d) ?? []);
      return { name: field.name.value, graphs: joined.length > 0 ? joined : typeGraphs };
    });
    const fieldsIn = (graph: SubgraphName) => fieldGraphs.filter((field) => field.graphs.includes(graph)).length;
    const byFields = [...typeGraphs].sort((a, b) => fieldsIn(b) - fieldsIn(a));
    const fields = owners.get(type.name.value) ?? new Map<string, SubgraphName>();
    for (const field of fieldGraphs) {
      const owner = byFields.find((graph) => field.graphs.includes(graph)) ?? field.graphs[0];
      if (owner) fields.set(field.name, owner);
    }
    owners.set(type.name.value, fields);
  }
  return owners;
}

function stringArgument(directive: ConstDirectiveNode | undefined, name: string): string | undefined {
  const value = directive?.arguments?.find((a) => a.name.value === name)?.value;
  return value?.kind === Kind.STRING ? value.value : undefined;
}
