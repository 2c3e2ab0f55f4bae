/** The gateway's security settings from configuration (its operation limits the subgraphs' too), and a caller's standing from its context. */
import type { AppConfig } from '../../kernel/config.js';
import type { Actor } from '../../kernel/actor.js';
import type { CallerStanding } from './graphql-access.js';
import { CREDENTIAL_HEADERS } from '../http/connection-headers.js';
import type { GatewaySecurity } from './gateway-runtime.js';
import type { OperationLimits } from './operation-limits.js';

export function gatewaySecurity(config: AppConfig, actorOf: (headers: Headers) => Promise<Actor>): GatewaySecurity {
  return {
    limits: operationLimitsOf(config),
    schemaAccess: {
      graphiql: config.GRAPHIQL_ENABLED,
      introspection: config.GRAPHQL_INTROSPECTION,
      standingOf: async (headers) => standingOf(await actorOf(credentialsOnly(headers))),
    },
  };
}

/** The server's Headers may be a ponyfill, not the global class authentication recognises. */
/** The GraphQL operation limits of configuration: the gateway's, the single process's and each distributed subgraph's. */
export function operationLimitsOf(config: AppConfig): OperationLimits {
  return {
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxTokens: config.GRAPHQL_MAX_TOKENS,
    maxDirectives: config.GRAPHQL_MAX_DIRECTIVES,
    maxCost: config.GRAPHQL_MAX_COST,
    maxFieldRepeats: config.GRAPHQL_MAX_FIELD_REPEATS,
  };
}

function credentialsOnly(headers: Headers): Headers {
  const plain = new Headers();
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers.get(name);
    if (value) plain.set(name, value);
  }
  return plain;
}

function standingOf(actor: Actor): CallerStanding {
  const authenticated = 'scopes' in actor;
  return { authenticated, staff: authenticated && actor.kind === 'login' && actor.scopes.includes('staff') };
}
