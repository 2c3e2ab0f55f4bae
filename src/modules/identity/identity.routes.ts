/** The identity module's REST rows: login, platform/master/tenant/Marketplace V1 tokens, API keys, platform users, and a lender's rotation of its own credentials. */
import { ACCESS_POLICY, type Surface } from '../../kernel/access-policy.js';
import * as apiKeys from './api-key-service.js';
import { login } from './login-service.js';
import { LenderConsoleSession, LenderConsoleSignIn, LENDER_CONSOLE_SESSION_SECONDS, signInToLenderConsole } from './lender-console-sign-in.js';
import * as tokens from './token-service.js';
import * as users from './user-service.js';
import * as lenderCredentials from './lender-credential-rotation.js';
import { z } from 'zod';
import {
  ApiKey,
  CreateApiKeyBody,
  CreatedApiKey,
  CreateUserBody,
  LoginBody,
  MarketplaceV1Tokens,
  PlatformUser,
  TokenResponse,
  UpdateUserBody,
} from './identity-schemas.js';
import { PlatformRefreshBody, V1AuthorizeQuery, V1RefreshBody } from './token-service.js';
import { BASES, header, route, routeCheckedInOperation, type RouteDefinition } from '../../kernel/rest/route-definition.js';
import { DEMO_INTEGRATOR_SIGN_IN, EXAMPLE_API_KEY_BODY, EXAMPLE_USER_BODY, PLACEHOLDERS } from './identity.examples.js';
import { IDEMPOTENT_DESCRIPTION, idempotencyKeyHeader } from '../../infra/idempotent-answers.js';

const refreshRoute = (base: string, prefix: string, kinds: Parameters<typeof tokens.refreshPlatformToken>[2]): RouteDefinition =>
  route({
    method: 'post',
    path: `${base}/auth/refresh-token`,
    operationId: `${prefix}AuthController_refreshToken`,
    summary: 'Refresh a token',
    description:
      prefix === 'Platform'
        ? 'Exchanges the refresh token of a platform or tenant token (from `POST /api/platform/v1/auth/token`) for a new token and refresh token, without the API key. A refresh token is single use: a used, revoked or unknown one is a 401. `refreshToken` is taken as another name of `refresh_token`.'
        : 'Exchanges the refresh token of a master token (from `POST /api/marketplace/v2/auth/authorize`) for a new master token and refresh token. Single use: a used, revoked or unknown one, or one of another kind of token, is a 401.',
    example: { body: { refresh_token: PLACEHOLDERS.refreshToken } },
    body: PlatformRefreshBody,
    response: TokenResponse,
    successStatus: 201,
    surface: 'public',
    handle: (ctx, req) => tokens.refreshPlatformToken(ctx, req.body, kinds),
  });

const tenantAuthorizeRoute = (base: string, surface: Surface, prefix: string): RouteDefinition =>
  route({
    method: 'post',
    path: `${base}/auth/tenants/authorize`,
    operationId: `${prefix}AuthController_authorizeTenant`,
    summary: 'Get a tenant token',
    description:
      'Exchanges a master (or platform) token and the tenant named by `Service-tenant-id` for a tenant token: limited to that tenant, with the scopes `profile:read`, `profile:write` (as far as the key holds them) and `sign_up`, valid 10 hours, without a refresh token. Use it for the credit widget or when your integration is per tenant. A tenant of another account is a 404.',
    access: 'tenantTokens.issue',
    response: TokenResponse,
    successStatus: 201,
    surface,
    handle: (ctx) => tokens.issueTenantToken(ctx),
  });

export const identityRoutes: RouteDefinition[] = [
  route({
    method: 'post',
    path: `${BASES.lenderApi}/credentials/client-secret/rotate`,
    operationId: 'LenderCredentialController_rotateClientSecret',
    summary: 'Rotate your client secret',
    description:
      'A new OAuth client secret for your lender API credentials (spec 5.9), shown this once; your client id stays. The old secret stops working at `/oauth/token` at once. Tokens already issued keep working until they expire (2 minutes).',
    access: 'lenderCredentials.rotate',
    response: lenderCredentials.RotatedClientSecret,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx) => lenderCredentials.rotateClientSecret(ctx),
  }),
  route({
    method: 'post',
    path: `${BASES.lenderApi}/credentials/password/rotate`,
    operationId: 'LenderCredentialController_rotatePassword',
    summary: 'Rotate your password',
    description:
      'A new password for your lender API credentials (spec 5.9), shown this once; your username stays. The old password stops working at `/oauth/token` at once. Tokens already issued keep working until they expire (2 minutes).',
    access: 'lenderCredentials.rotate',
    response: lenderCredentials.RotatedPassword,
    successStatus: 200,
    surface: 'lenderApi',
    handle: (ctx) => lenderCredentials.rotatePassword(ctx),
  }),
  route({
    method: 'post',
    path: `${BASES.platform}/auth/login`,
    operationId: 'PlatformAuthController_login',
    summary: 'Sign in',
    description:
      'Onboarding step 1: a platform user signs in with email and password and gets a login token (24 hours) to manage API keys and users. A wrong email or password is the same 401; repeated failures are slowed down and then refused with 429 and `Retry-After`. The example signs in to the demo deployment with its published demo user.',
    example: { summary: 'The demo integrator (demo deployments only)', body: DEMO_INTEGRATOR_SIGN_IN },
    body: LoginBody,
    response: TokenResponse,
    successStatus: 200,
    surface: 'public',
    handle: (ctx, req) => login(ctx, req.body, req.ip),
  }),
  route({
    method: 'post',
    path: `${BASES.platform}/auth/lender-console`,
    operationId: 'LenderConsoleAuthController_signIn',
    summary: 'Sign in to the lender console',
    description: `A lender's user signs in to the lender console (/app/lender) with the username and password of the lender's credentials (spec 5.9), without the client secret, and gets an \`id_token\` like /oauth/token's (the lender API bearer, its lender's data only) valid ${LENDER_CONSOLE_SESSION_SECONDS / 60} minutes. A wrong username or password is one 401; failures are counted with /oauth/token's and then refused with 429 and \`Retry-After\`. JSON only; no cookie is set.`,
    example: {
      summary: "A lender's username and password (spec 5.9's placeholders)",
      body: { username: PLACEHOLDERS.lenderUsername, password: PLACEHOLDERS.lenderPassword },
    },
    body: LenderConsoleSignIn,
    response: LenderConsoleSession,
    successStatus: 200,
    surface: 'public',
    handle: (ctx, req) => signInToLenderConsole(ctx, req.body, req.ip),
  }),
  route({
    method: 'post',
    path: `${BASES.platform}/auth/token`,
    operationId: 'PlatformAuthController_token',
    summary: 'Get a platform or tenant token',
    description:
      "Onboarding step 3: exchanges an API key (header `X-API-Key`) for a platform token with the key's scopes and a refresh token, valid 10 hours. With `Service-tenant-id`, the token is a tenant token for that tenant of the key's account (a tenant of another account is a 404). A missing, revoked or expired key is a 401.",
    response: TokenResponse,
    successStatus: 201,
    surface: 'public',
    handle: (ctx, req) => tokens.issuePlatformToken(ctx, header(req, 'x-api-key')),
  }),
  refreshRoute(BASES.platform, 'Platform', ['PLATFORM', 'TENANT']),
  tenantAuthorizeRoute(BASES.platform, 'platform', 'Platform'),
  route({
    method: 'post',
    path: `${BASES.platform}/api-key`,
    operationId: 'PlatformApiKeyController_create',
    summary: 'Create an API key',
    description:
      'Onboarding step 2: creates an API key of the account with the scopes given. The key (`fgk_…`) is in this answer only: store it as a secret. `name` is unique in the account (else 409); an unknown scope is a 400; an `expiresAt` in the past is a 422. A master key (`isMaster`) or a key holding an admin-only scope (' +
      ACCESS_POLICY['apiKeys.create'].elevated.grants.map((scope) => `\`${scope}\``).join(', ') +
      ") needs an account admin's sign-in. " +
      IDEMPOTENT_DESCRIPTION +
      ' A replay answers the key without its secret (`key`), which only the first answer carries.',
    access: 'apiKeys.create',
    example: { summary: 'A key for a CRM integration: profiles and matches', body: EXAMPLE_API_KEY_BODY },
    body: CreateApiKeyBody,
    response: CreatedApiKey,
    successStatus: 200,
    surface: 'platform',
    headers: idempotencyKeyHeader('account'),
    handle: (ctx, req) => apiKeys.createApiKey(ctx, req.body, header(req, 'idempotency-key')),
  }),
  route({
    method: 'get',
    path: `${BASES.platform}/api-key`,
    operationId: 'PlatformApiKeyController_list',
    summary: 'List API keys',
    description: "The account's API keys, newest first, without their secrets: `keyPrefix` identifies a key publicly.",
    access: 'apiKeys.list',
    response: z.array(ApiKey),
    successStatus: 200,
    surface: 'platform',
    handle: (ctx) => apiKeys.listApiKeys(ctx),
  }),
  route({
    method: 'delete',
    path: `${BASES.platform}/api-key/:keyId`,
    operationId: 'PlatformApiKeyController_revoke',
    summary: 'Revoke an API key',
    description:
      'Revokes the key, its refresh tokens and the tokens issued from it (at once in this process, within 30 seconds everywhere). Idempotent. Revoking a key another user created needs an account admin.',
    access: 'apiKeys.revoke',
    successStatus: 204,
    surface: 'platform',
    handle: (ctx, req) => apiKeys.revokeApiKey(ctx, req.params.keyId),
  }),
  route({
    method: 'post',
    path: `${BASES.platform}/api-key/:keyId/rotate`,
    operationId: 'PlatformApiKeyController_rotate',
    summary: 'Rotate an API key',
    description:
      'Gives the key a new secret (`fgk_…`, in this answer only) and keeps its id, name, `keyPrefix` and scopes. The old secret stops at once, and so do the refresh tokens issued with it; access tokens already issued live out their lifetime (revoke the key to stop them). A revoked key is a 422. Rotating a key another user created needs an account admin.',
    access: 'apiKeys.rotate',
    response: CreatedApiKey,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => apiKeys.rotateApiKey(ctx, req.params.keyId),
  }),
  route({
    method: 'get',
    path: `${BASES.platform}/users`,
    operationId: 'PlatformUserController_list',
    summary: 'List platform users',
    description: "The account's platform users, with their role and whether they are disabled.",
    access: 'users.list',
    response: z.array(PlatformUser),
    successStatus: 200,
    surface: 'platform',
    handle: (ctx) => users.listUsers(ctx),
  }),
  route({
    method: 'post',
    path: `${BASES.platform}/users`,
    operationId: 'PlatformUserController_create',
    summary: 'Add a platform user',
    description: 'Adds a user to the account (account admins). An email already in use is a 409; a password shorter than 12 characters is a 400.',
    access: 'users.create',
    example: { summary: 'A finance colleague who manages API keys', body: EXAMPLE_USER_BODY },
    body: CreateUserBody,
    response: PlatformUser,
    successStatus: 201,
    surface: 'platform',
    handle: (ctx, req) => users.createUser(ctx, req.body),
  }),
  route({
    method: 'get',
    path: `${BASES.platform}/users/:userId`,
    operationId: 'PlatformUserController_get',
    summary: 'Get a platform user',
    description: "One user of the account. Another account's user is a 404.",
    access: 'users.read',
    response: PlatformUser,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => users.getUser(ctx, req.params.userId),
  }),
  routeCheckedInOperation({
    method: 'patch',
    path: `${BASES.platform}/users/:userId`,
    operationId: 'PlatformUserController_update',
    summary: 'Change a platform user',
    description:
      'A user may change their own name and password (the new password with `currentPassword`); account admins may change any user of the account, their role, and disable them. Changing the password or disabling a user ends their sign-ins.',
    access: 'users.update',
    example: { summary: 'Correct a display name', body: { name: 'Ada Owner' } },
    body: UpdateUserBody,
    response: PlatformUser,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => users.updateUser(ctx, req.params.userId, req.body),
  }),
  route({
    method: 'post',
    path: `${BASES.marketplaceV2}/auth/authorize`,
    operationId: 'MarketplaceAuthController_authorize',
    summary: 'Get a master token',
    description:
      'Exchanges an API key (header `X-API-Key`) for a master token with a refresh token, valid 10 hours. A master token manages tenants (`/tenants`) and exchanges itself for tenant tokens, but cannot read or write profiles. A missing, revoked or expired key is a 401.',
    response: TokenResponse,
    successStatus: 201,
    surface: 'public',
    handle: (ctx, req) => tokens.issueMasterToken(ctx, header(req, 'x-api-key')),
  }),
  refreshRoute(BASES.marketplaceV2, 'Marketplace', ['MASTER']),
  tenantAuthorizeRoute(BASES.marketplaceV2, 'marketplaceV2', 'Marketplace'),
  route({
    method: 'post',
    path: `${BASES.marketplaceV1}/auth/authorize`,
    operationId: 'AuthController_authorize',
    summary: 'Get a Marketplace V1 token',
    description:
      "Exchanges an API key (query parameter `api_key`) for a Marketplace V1 `jwt` with the key's scopes and a single-use `refreshToken`. Send the jwt as `Authorization: Bearer <jwt>` on the other Marketplace V1 operations. A missing, revoked or expired key is a 401.\n\nCompatibility: `expiresIn` (seconds) is an addition.",
    example: { query: { api_key: PLACEHOLDERS.apiKey } },
    query: V1AuthorizeQuery,
    response: MarketplaceV1Tokens,
    successStatus: 200,
    surface: 'public',
    handle: (ctx, req) => tokens.authorizeMarketplaceV1(ctx, req.query.api_key),
  }),
  route({
    method: 'post',
    path: `${BASES.marketplaceV1}/auth/refresh-token`,
    operationId: 'AuthController_refreshToken',
    summary: 'Refresh a Marketplace V1 token',
    description:
      'Exchanges a Marketplace V1 refresh token for a new jwt and refresh token. Single use: a used, revoked or unknown one is a 401; any other field in the body is a 400.',
    example: { body: { refreshToken: PLACEHOLDERS.refreshToken } },
    body: V1RefreshBody,
    response: MarketplaceV1Tokens,
    successStatus: 200,
    surface: 'public',
    handle: (ctx, req) => tokens.refreshMarketplaceV1(ctx, req.body),
  }),
];
