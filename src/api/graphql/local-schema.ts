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
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import {
  buildASTSchema,
  GraphQLEnumType,
  GraphQLScalarType,
  isObjectType,
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

export function buildLocalSchema(supergraph: DocumentNode, subgraphs: Record<SubgraphName, GraphQLSchema>): GraphQLSchema {
  const api = buildASTSchema(transformSupergraphToPublicSchema(supergraph));
  const owners = fieldOwners(supergraph);
  const ownerOf = (typeName: string, fieldName: string): GraphQLSchema => {
    const owner = owners.get(typeName)?.get(fieldName);
    if (!owner) throw new Error(`the supergraph names no subgraph for ${typeName}.${fieldName}`);
    return subgraphs[owner];
  };
  return mapSchema(api, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
      const type = ownerOf(typeName, fieldName).getType(typeName);
      const owned = isObjectType(type) ? type.getFields()[fieldName] : undefined;
      if (!owned) throw new Error(`${typeName}.${fieldName} is missing from the subgraph the supergraph names`);
      return { ...field, resolve: owned.resolve, subscribe: owned.subscribe };
    },
    // Scalars parse and serialise as their subgraph defines them (JSON, JSONObject), not as strings.
    [MapperKind.SCALAR_TYPE]: (scalar) => {
      const defined = Object.values(subgraphs).map((schema) => schema.getType(scalar.name)).find((type) => type !== undefined);
      if (!(defined instanceof GraphQLScalarType)) return scalar;
      const { serialize, parseValue, parseLiteral } = defined.toConfig();
      return new GraphQLScalarType({ ...scalar.toConfig(), serialize, parseValue, parseLiteral });
    },
    // Enum values carry their subgraph's internal values (TypeGraphQL's enum members).
    [MapperKind.ENUM_TYPE]: (enumType) => {
      const defined = Object.values(subgraphs).map((schema) => schema.getType(enumType.name)).find((type) => type instanceof GraphQLEnumType);
      if (!(defined instanceof GraphQLEnumType)) return enumType;
      const config = enumType.toConfig();
      const internal = new Map(defined.getValues().map((value) => [value.name, value.value as unknown]));
      const values = Object.fromEntries(Object.entries(config.values).map(([name, value]) => [name, { ...value, value: internal.has(name) ? internal.get(name) : name }]));
      return new GraphQLEnumType({ ...config, values });
    },
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
      const name = stringArgument(value.directives?.find((d) => d.name.value === 'join__graph'), 'name');
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
