/**
 * The access table: every operation of every surface (REST route or GraphQL field) names one entry
 * here, and its public domain operation opens with `requireAccess(ctx, operation)`, its only access decision. A reviewer reads who may do what
 * in this one place; the access table of docs/access.md ("Who may do what") is this table.
 * A GraphQL field below an entity is a row of its own (`Profile.documents`): its parent reached the
 * caller through an operation that established the parent's visibility, so the field decides this
 * row alone, once for all the parents of a request.
 *
 * - `tokens`: the token kinds allowed. Another recognised kind gets 403.
 * - `scope`: a scope the token must carry (any one of them, when a list), else 403.
 * - `elevated`: what of the operation needs a further scope (account admins'); the operation says
 *   whether this call is that case (`requireAccess(ctx, op, { elevated })`), decided in the same check.
 *   `elevated.grants` lists the scopes only that further scope may hand out (`elevatedGrants`).
 *
 * Which token kinds a surface recognises at all (others get 401) is SURFACE_TOKENS below; the
 * REST router applies it per base path before the service runs.
 */
import { audit } from './audit-log.js';
import type { ServiceContext } from './context.js';
import { AppError } from './errors.js';
import type { Actor, TokenKind } from './actor.js';
import type { ApiKeyScope } from './scopes.js';

interface AccessRule {
  tokens: readonly TokenKind[];
  scope?: string | readonly string[];
  /** `grants`: the scopes an input may hand out only with the further scope (e.g. the scopes of a new API key). */
  elevated?: { scope: string; action: string; grants?: readonly ApiKeyScope[] };
  description: string;
}

const INTEGRATOR_ACCOUNT = ['platform', 'master'] as const;

export const ACCESS_POLICY = {
  // Platform users (login token)
  'apiKeys.create': {
    tokens: ['login'],
    scope: 'api_keys:write',
    // Scopes reaching across the account (its many profiles, its pipeline's numbers) are an admin's
    // to hand out, as a master key is; the others are the integration scopes every member may give
    // a key (offline_access among them: the specification's own onboarding example grants it).
    elevated: { scope: 'users:write', action: 'create a master key or a key holding an admin-only scope', grants: ['profile:multiples', 'insights:read'] },
    description: 'Create an API key of the account',
  },
  'apiKeys.list': { tokens: ['login'], scope: 'api_keys:read', description: "List the account's API keys (never their secrets)" },
  'apiKeys.revoke': {
    tokens: ['login'],
    scope: 'api_keys:write',
    elevated: { scope: 'users:write', action: 'revoke a key another user created' },
    description: 'Revoke an API key',
  },
  'apiKeys.rotate': {
    tokens: ['login'],
    scope: 'api_keys:write',
    elevated: { scope: 'users:write', action: 'rotate a key another user created' },
    description: 'Give an API key a new secret (same id, name and scopes); the old secret stops at once',
  },
  'requestLog.read': {
    tokens: ['login'],
    scope: 'request_log:read',
    description: "See the account's recent API requests (route, status, latency, credential, request id; a failure's problem body) (account admins)",
  },
  'consoleTenants.read': {
    tokens: ['login'],
    scope: 'tenants:read',
    description: "Search the account's tenants and open one: its profile, credit report, applications and review selections (integrator console)",
  },
  'users.list': { tokens: ['login'], scope: 'users:read', description: "List the account's platform users" },
  'users.read': { tokens: ['login'], scope: 'users:read', description: 'Read one platform user' },
  'users.create': { tokens: ['login'], scope: 'users:write', description: 'Add a platform user to the account' },
  'users.update': { tokens: ['login'], scope: 'users:read', description: 'Update a user (self: name, password; users:write: anyone, role, disabled)' },

  // An integrator account's webhooks and events: every platform user of the account reads them (the
  // role scope members hold), account admins change them and send deliveries again
  'webhookEndpoints.read': { tokens: ['login'], scope: 'users:read', description: "List the account's webhook endpoints (never their secrets)" },
  'webhookEndpoints.manage': {
    tokens: ['login'],
    scope: 'users:write',
    description: "Create, change and delete the account's webhook endpoints (account admins)",
  },
  'integratorEvents.read': {
    tokens: ['login'],
    scope: 'users:read',
    description: "Read the account's events (its clients' applications' status changes, offers and decisions) in order, from a cursor",
  },
  'integratorDeliveries.read': {
    tokens: ['login'],
    scope: 'users:read',
    description: "List the webhook deliveries to the account's endpoints with what each sent and its attempts",
  },
  'integratorDeliveries.replay': {
    tokens: ['login'],
    scope: 'users:write',
    description:
      "Send the deliveries to the account's endpoints again: one, every failed one, or those of a time range (account admins; bounded, rate-limited, audited)",
  },

  // Tenants (onboarding step 4): platform or master tokens, never tenant tokens (spec 5.4, 5.5)
  'tenants.create': { tokens: INTEGRATOR_ACCOUNT, description: 'Create a tenant of the account' },
  'tenants.list': { tokens: INTEGRATOR_ACCOUNT, description: "List the account's tenants" },
  'tenants.read': { tokens: INTEGRATOR_ACCOUNT, description: 'Read one tenant of the account' },
  'tenants.update': { tokens: INTEGRATOR_ACCOUNT, description: 'Change a tenant of the account' },
  'tenants.subscribe': { tokens: INTEGRATOR_ACCOUNT, description: "Be told of the account's new tenants" },
  'tenantTokens.issue': { tokens: INTEGRATOR_ACCOUNT, description: 'Exchange a master (or platform) token for a tenant token' },

  // A tenant's profile (onboarding steps 5-6, Business V1 profile): not with a master token (spec 5.4)
  'tenantProfile.read': { tokens: ['platform', 'tenant'], scope: 'profile:read', description: "Read the tenant's profile and credit report" },
  'tenantProfile.write': { tokens: ['platform', 'tenant'], scope: 'profile:write', description: "Set up or update the tenant's profile" },

  // Marketplace V1 profiles, owned by the key that created them
  'profiles.create': { tokens: ['marketplace_v1'], scope: 'profile:write', description: 'Create a profile owned by the calling key' },
  'profiles.write': {
    tokens: ['marketplace_v1'],
    scope: 'profile:write',
    description: "Change a profile's company information or financials (own account's, or an anonymous one)",
  },
  'profiles.move': { tokens: ['marketplace_v1'], scope: 'profile:write', description: "Move a master key's profile to another key of the account" },
  'profiles.claim': { tokens: ['marketplace_v1'], scope: 'profile:write', description: 'Become the owner of an anonymous profile (set-ownership)' },
  'cases.apply': { tokens: ['marketplace_v1'], scope: 'profile:write', description: 'Apply a profile to a non-funding case' },
  'documents.write': {
    tokens: ['marketplace_v1', 'platform', 'tenant'],
    scope: 'profile:write',
    description: 'Attach documents to a visible profile, and list them',
  },
  'profiles.read': {
    tokens: ['marketplace_v1', 'platform', 'tenant'],
    scope: 'profile:read',
    description: 'Read a profile the caller owns (Marketplace V1) or of its tenants (platform/tenant token)',
  },

  // Questionnaires and answers
  'questionnaires.read': {
    tokens: ['marketplace_v1', 'platform', 'tenant'],
    scope: ['questionnaire:read', 'profile:read'],
    description: 'Read questionnaires, their JSON schemas and a visible profile’s answers',
  },
  'answers.write': {
    tokens: ['marketplace_v1', 'platform', 'tenant'],
    scope: ['questionnaire:write', 'profile:write'],
    description: 'Answer a questionnaire for a visible profile',
  },

  // Matching and applying
  'funding.read': {
    tokens: ['marketplace_v1', 'platform', 'tenant'],
    scope: ['funding:read', 'profile:read'],
    description: 'Match a visible profile with lender products',
  },

  'funding.apply': { tokens: ['marketplace_v1'], scope: 'funding:write', description: 'Send up to 4 preferred lenders to the review queue' },
  'deliveries.manage': { tokens: ['login'], scope: 'staff', description: 'See webhook deliveries and send them again (staff)' },
  'deliverySummary.read': {
    tokens: ['login'],
    scope: 'staff',
    description: "See each lender's webhook deliveries of a window counted by status, with the success rate (staff)",
  },
  'reviews.submit': { tokens: ['login'], scope: 'staff', description: 'Submit a reviewed selection to its lenders (staff)' },
  'reviews.read': { tokens: ['login'], scope: 'staff', description: "See the funding specialists' review queue (staff)" },
  'reviews.reject': { tokens: ['login'], scope: 'staff', description: 'Reject a selection waiting for review, with a reason the client reads (staff)' },
  'reviews.return': { tokens: ['login'], scope: 'staff', description: 'Return a selection waiting for review to the client, who chooses again (staff)' },
  'reviews.assign': { tokens: ['login'], scope: 'staff', description: 'Take a selection waiting for review (assign it to oneself) (staff)' },
  'reviews.note': { tokens: ['login'], scope: 'staff', description: 'Add a staff-only note to a review selection (staff)' },

  // Company registry (Marketplace V1 search and lookup)
  'companies.read': { tokens: ['marketplace_v1', 'platform', 'master', 'tenant'], description: 'Search the company registry and read a company' },

  // Catalogue and applications
  'lenders.manage': { tokens: ['login'], scope: 'admin', description: 'Add and change lenders and their products (staff)' },
  'lenderSettings.read': {
    tokens: ['login'],
    scope: 'admin',
    description: "Read the lenders' webhook URLs and their products' complete terms to edit them, never secrets (staff)",
  },
  'lenders.read': { tokens: ['platform', 'master', 'tenant', 'marketplace_v1', 'login'], description: 'Read the lender catalogue' },
  'businessApplications.create': {
    tokens: ['platform', 'tenant'],
    scope: ['funding:write', 'profile:write'],
    description: "Create a tenant's Business V1 application, or its continue URL",
  },
  'continueLinks.revoke': {
    tokens: ['platform', 'tenant'],
    scope: ['funding:write', 'profile:write'],
    description: "Revoke every continue link of a tenant's Business V1 application made until now",
  },
  'businessApplications.read': {
    tokens: ['platform', 'tenant'],
    scope: ['funding:read', 'profile:read'],
    description: "Read a tenant's Business V1 applications, their matches and pre-selected offers",
  },

  // Lender Application API (lender id_token)
  'lenderApplications.list': { tokens: ['lender'], description: "List and read the calling lender's applications" },
  'applicationEvents.subscribe': {
    tokens: ['lender', 'platform', 'master', 'tenant', 'marketplace_v1', 'login'],
    description:
      "Follow status and offer changes of the lender applications the caller sees (lender: its own; tenant token: its tenant's; integrator: its account's; staff: all)",
  },
  'lenderApplications.decide': {
    tokens: ['marketplace_v1', 'platform', 'tenant'],
    scope: ['funding:write', 'profile:write'],
    description: "Accept or decline the current offer on a lender application of a visible profile, or resubmit it after a failure (the client's decisions)",
  },
  'lenderApplications.respond': { tokens: ['lender'], description: "Acknowledge, make offers on or reject the calling lender's applications" },
  'lenderDeliveries.read': {
    tokens: ['lender'],
    description: "List the calling lender's webhook deliveries with what each sent (its secrets redacted) and its attempts",
  },
  'lenderEvents.read': {
    tokens: ['lender'],
    description: "Read the created and updated events of the calling lender's applications in order, from a cursor (the bodies its webhooks carry)",
  },
  'lenderEndpoints.test': {
    tokens: ['lender'],
    description: "Send a signed test event to the calling lender's application or update URL now, and see its answer",
  },
  'lenderEndpoints.read': {
    tokens: ['lender'],
    description: "Read the calling lender's webhook endpoints (URLs, enabled, signing-secret status)",
  },
  'lenderEndpoints.write': {
    tokens: ['lender'],
    description: "Change the calling lender's webhook URLs and enable or disable them",
  },
  'lenderCredentials.rotate': { tokens: ['lender'], description: "Rotate the calling lender's OAuth client secret or password (shown once)" },
  'lenderSecrets.rotate': { tokens: ['lender'], description: "Rotate the calling lender's webhook signing secret, with an overlap window (shown once)" },
  'lenderDeliveries.replay': {
    tokens: ['lender'],
    description: "Send the calling lender's deliveries again: one, every failed one, or those of a time range (bounded, rate-limited, audited)",
  },
  'applicationBoard.read': {
    tokens: ['login'],
    description: "See the lender applications on the operations dashboard, with their offers and history (staff: all; other platform users: their account's)",
  },
  'insights.read': {
    tokens: ['login'],
    description:
      "See the pipeline's numbers on the operations dashboard: applications by status over time, lenders' times to acknowledgement and offer (staff: all; other platform users: their account's)",
  },

  // Fields of GraphQL entities: decided on a parent the caller already sees (the parent came through a
  // public operation, or an entity reference, that established its visibility), by this row alone.
  'Tenant.profile': {
    tokens: ['platform'],
    scope: 'profile:read',
    description: 'Read the business profile of a tenant the caller sees (GraphQL Tenant.profile)',
  },
  'Profile.documents': {
    tokens: ['marketplace_v1', 'platform', 'tenant'],
    scope: 'profile:write',
    description: "List the documents of a profile the caller sees, with the documents list's scope (GraphQL Profile.documents)",
  },
  'Profile.cases': {
    tokens: ['marketplace_v1', 'platform', 'tenant'],
    scope: 'profile:read',
    description: 'Read the non-funding cases of a profile the caller sees (GraphQL Profile.cases)',
  },
  'Profile.matches': {
    tokens: ['marketplace_v1', 'platform', 'tenant'],
    scope: ['funding:read', 'profile:read'],
    description: 'Match a profile the caller sees with lender products (GraphQL Profile.matches)',
  },
  'Profile.applications': {
    tokens: ['platform', 'tenant'],
    scope: ['funding:read', 'profile:read'],
    description: 'Read the Business V1 applications of a profile the caller sees (GraphQL Profile.applications)',
  },
  'Application.matches': {
    tokens: ['platform', 'tenant'],
    scope: ['funding:read', 'profile:read'],
    description: 'Read the matches of a Business V1 application the caller sees (GraphQL Application.matches)',
  },
  'Application.preselectedOffers': {
    tokens: ['platform', 'tenant'],
    scope: ['funding:read', 'profile:read'],
    description: 'Read the pre-selected offers of a Business V1 application the caller sees (GraphQL Application.preselectedOffers)',
  },
} as const satisfies Record<string, AccessRule>;

export type Operation = keyof typeof ACCESS_POLICY;

/** Surfaces and the token kinds each recognises; any other credential is a 401 there. */
export const SURFACE_TOKENS = {
  platform: ['login', 'platform', 'master', 'tenant'],
  marketplaceV2: ['platform', 'master', 'tenant'],
  /** Spec 5.7: platform access tokens only (master and tenant tokens are platform-issued). */
  businessV1: ['platform', 'master', 'tenant'],
  marketplaceV1: ['marketplace_v1'],
  lenderApi: ['lender'],
  graphql: ['login', 'platform', 'master', 'tenant', 'marketplace_v1', 'lender'],
} as const satisfies Record<string, readonly TokenKind[]>;
export type Surface = keyof typeof SURFACE_TOKENS;

const KIND_NAMES: Record<TokenKind, string> = {
  login: 'platform login',
  platform: 'platform access',
  master: 'master',
  tenant: 'tenant',
  marketplace_v1: 'Marketplace V1',
  lender: 'lender',
};

/** 401 unless the caller holds a credential this surface takes. */
export function requireSurface(actor: Actor, surface: Surface): void {
  const accepted = SURFACE_TOKENS[surface] as readonly TokenKind[];
  if (actor.kind === 'anonymous') throw actor.rejection ?? missingCredential(accepted);
  if (actor.kind === 'system') return;
  if (!accepted.includes(actor.kind)) {
    throw new AppError('UNAUTHENTICATED', `This API does not accept a ${KIND_NAMES[actor.kind]} token; use ${listKinds(accepted)} token`);
  }
}

/** The caller an operation admits, typed by its rule's token kinds. */
export type ActorFor<O extends Operation> = Extract<Actor, { kind: (typeof ACCESS_POLICY)[O]['tokens'][number] }>;

/**
 * Opens every service operation: 401 without a credential, 403 when it is not enough. Denials and
 * staff operations that change something are written to the audit log.
 */
export function requireAccess<O extends Operation>(ctx: ServiceContext, operation: O, options: { elevated?: boolean } = {}): ActorFor<O> {
  try {
    const actor = decideAccess(ctx.actor, operation, options.elevated === true);
    const rule: AccessRule = ACCESS_POLICY[operation];
    if ((rule.scope === 'staff' || rule.scope === 'admin') && !operation.endsWith('.read')) {
      audit(ctx.logger, 'staff.action', { operation, ...actorFacts(actor) });
    }
    return actor;
  } catch (err) {
    if (err instanceof AppError) audit(ctx.logger, 'access.denied', { operation, code: err.code, ...actorFacts(ctx.actor) });
    throw err;
  }
}

function decideAccess<O extends Operation>(actor: Actor, operation: O, elevated: boolean): ActorFor<O> {
  const rule: AccessRule = ACCESS_POLICY[operation];
  if (actor.kind === 'anonymous') throw actor.rejection ?? missingCredential(rule.tokens);
  if (actor.kind === 'system') throw new AppError('FORBIDDEN', 'Internal callers use the service functions below the access check');
  if (!rule.tokens.includes(actor.kind)) {
    throw new AppError('FORBIDDEN', `A ${KIND_NAMES[actor.kind]} token cannot ${lowerFirst(rule.description)}; use ${listKinds(rule.tokens)} token`);
  }
  const needed = rule.scope === undefined ? [] : typeof rule.scope === 'string' ? [rule.scope] : rule.scope;
  if (needed.length > 0 && !needed.some((s) => actor.scopes.includes(s))) {
    throw new AppError('FORBIDDEN', `The token lacks the scope ${needed.join(' or ')}`);
  }
  if (elevated && rule.elevated && !actor.scopes.includes(rule.elevated.scope)) {
    throw new AppError('FORBIDDEN', `Only account admins (scope ${rule.elevated.scope}) may ${rule.elevated.action}`);
  }
  return actor as ActorFor<O>;
}

/** The scopes of `elevated.grants` among those asked for: handing any of them out is the elevated case. */
export function elevatedGrants(operation: Operation, asked: readonly string[]): string[] {
  const rule: AccessRule = ACCESS_POLICY[operation];
  const grants = rule.elevated?.grants ?? [];
  return asked.filter((scope) => (grants as readonly string[]).includes(scope));
}

/** Who acted, for the audit log: kinds and ids, never a token. */
function actorFacts(actor: Actor): Record<string, unknown> {
  const { kind } = actor;
  const ids = Object.fromEntries(Object.entries(actor).filter(([key]) => ['accountId', 'userId', 'apiKeyId', 'tenantId', 'lenderId'].includes(key)));
  return { actorKind: kind, ...ids };
}

function missingCredential(kinds: readonly TokenKind[]): AppError {
  return new AppError('UNAUTHENTICATED', `Authorization: Bearer <token> is required (${listKinds(kinds)} token)`);
}

function listKinds(kinds: readonly TokenKind[]): string {
  const names = kinds.map((k) => KIND_NAMES[k]);
  const last = names.pop();
  const joined = names.length ? `${names.join(', ')} or ${last}` : (last ?? '');
  return /^[aeiouAEIOU]/.test(joined) ? `an ${joined}` : `a ${joined}`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The access table as docs/access.md shows it (test/access-matrix.test.ts keeps that page in step). */
export function accessTableMarkdown(): string {
  const rows = Object.entries(ACCESS_POLICY).map(([operation, rule]: [string, AccessRule]) => {
    const scopes = rule.scope === undefined ? [] : typeof rule.scope === 'string' ? [rule.scope] : rule.scope;
    const required = scopes.length ? scopes.map((s) => `\`${s}\``).join(' or ') : '—';
    const grants = rule.elevated?.grants?.length ? ` (${rule.elevated.grants.map((s) => `\`${s}\``).join(', ')})` : '';
    const scope = rule.elevated ? `${required}; \`${rule.elevated.scope}\` to ${rule.elevated.action}${grants}` : required;
    return `| \`${operation}\` | ${rule.tokens.join(', ')} | ${scope} | ${rule.description} |`;
  });
  return ['| operation | token kinds | scope | what it allows |', '|---|---|---|---|', ...rows].join('\n');
}
