/**
 * The single-process local schema (src/api/graphql/local-schema.ts) is the gateway's public API:
 * the same types, fields, arguments, enums, descriptions and directives, as clients read them by
 * introspection from each server. And the premise that lets it skip entity references: an entity
 * is returned only by fields of the subgraph that owns it, so a field another subgraph adds to it
 * always runs on an object the owner resolved (and checked visibility for).
 */
import { readFile } from 'node:fs/promises';
import { transformSupergraphToPublicSchema } from '@theguild/federation-composition';
import {
  buildASTSchema,
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isObjectType,
  Kind,
  lexicographicSortSchema,
  parse,
  printSchema,
  type IntrospectionQuery,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { createGateway, type GatewaySecurity } from '../src/api/graphql/gateway-runtime.js';
import { createLocalGraphQL } from '../src/api/graphql/local-graphql.js';
import { fieldOwners } from '../src/api/graphql/local-schema.js';
import { SUPERGRAPH_PATH } from '../src/api/graphql/compose.js';
import type { ServiceContext } from '../src/kernel/context.js';

/** Introspection runs no resolver of ours: no service context is read. */
const noContext = async (): Promise<ServiceContext> => ({}) as ServiceContext;
const security: GatewaySecurity = {
  schemaAccess: { graphiql: false, introspection: 'everyone', standingOf: async () => ({ authenticated: false, staff: false }) },
};

async function publicSchemaOf(server: { fetch: (url: string, init: RequestInit) => Response | Promise<Response> }): Promise<string> {
  const res = await server.fetch('http://graphql.local/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      query: getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, inputValueDeprecation: true }),
    }),
  });
  const body = (await res.json()) as { data?: IntrospectionQuery; errors?: unknown };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return printSchema(lexicographicSortSchema(buildClientSchema(body.data!)));
}

describe('the local schema of single-process GraphQL', () => {
  it('is the API schema the gateway serves', async () => {
    const gateway = await createGateway({ mode: 'in-process', contextFor: noContext }, security);
    const local = createLocalGraphQL(noContext, security);
    try {
      const [served, executedLocally] = await Promise.all([publicSchemaOf(gateway), publicSchemaOf(local)]);
      expect(executedLocally).toBe(served);
    } finally {
      await Promise.all([gateway.dispose(), local.dispose()]);
    }
  });

  it('finds every entity returned only by fields of the subgraph that owns it', async () => {
    const supergraph = parse(await readFile(SUPERGRAPH_PATH, 'utf8'));
    const owners = fieldOwners(supergraph);
    const keyOf = new Map<string, string>();
    for (const definition of supergraph.definitions) {
      if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
      for (const directive of definition.directives ?? []) {
        const key = directive.name.value === 'join__type' ? directive.arguments?.find((a) => a.name.value === 'key')?.value : undefined;
        if (key?.kind === Kind.STRING) keyOf.set(definition.name.value, key.value);
      }
    }
    expect([...keyOf.keys()].sort()).toEqual(['Application', 'Profile', 'Tenant']);
    const api = buildASTSchema(transformSupergraphToPublicSchema(supergraph));
    const returning: string[] = [];
    for (const [entity, key] of keyOf) {
      // The subgraph resolving the key is the one that builds the entity's objects (local-schema.ts).
      const owner = owners.get(entity)?.get(key);
      for (const type of Object.values(api.getTypeMap())) {
        if (!isObjectType(type) || type.name.startsWith('__')) continue;
        for (const field of Object.values(type.getFields())) {
          if (getNamedType(field.type).name !== entity) continue;
          returning.push(`${type.name}.${field.name}`);
          expect(`${type.name}.${field.name} in ${owners.get(type.name)?.get(field.name)}`).toBe(`${type.name}.${field.name} in ${owner}`);
        }
      }
    }
    expect(returning.length).toBeGreaterThan(0);
  });
});
