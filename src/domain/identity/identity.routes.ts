/** The identity module's REST rows: login, platform/master/tenant/Marketplace V1 tokens, API keys and platform users. */
import type { Surface } from './access-policy.js';
import * as apiKeys from './api-key-service.js';
import { login } from './login-service.js';
import * as tokens from './token-service.js';
import * as users from './user-service.js';
import { CreateApiKeyBody, CreateUserBody, LoginBody, UpdateUserBody } from './identity-schemas.js';
import { PlatformRefreshBody, V1RefreshBody } from './token-service.js';
import { BASES, header, type RouteDefinition } from '../../../rest-adapter/route-definition.js';

const refreshRoute = (base: string, prefix: string, kinds: Parameters<typeof tokens.refreshPlatformToken>[2]): RouteDefinition => ({
  method: 'post',
  path: `${base}/auth/refresh-token`,
  operationId: `${prefix}AuthController_refreshToken`,
  summary: 'Exchange a single-use refresh token for a new token pair',
  body: PlatformRefreshBody,
  successStatus: 201,
  surface: 'public',
  handle: (ctx, req) => tokens.refreshPlatformToken(ctx, req.body, kinds),
});

const tenantAuthorizeRoute = (base: string, surface: Surface, prefix: string): RouteDefinition => ({
  method: 'post',
  path: `${base}/auth/tenants/authorize`,
  operationId: `${prefix}AuthController_authorizeTenant`,
  summary: 'Master (or platform) token + Service-tenant-id → tenant token',
  successStatus: 201,
  surface,
  handle: (ctx) => tokens.issueTenantToken(ctx),
});

export const identityRoutes: RouteDefinition[] = [
  {
    method: 'post',
    path: `${BASES.platform}/auth/login`,
    operationId: 'PlatformAuthController_login',
    summary: 'Platform login: email and password → login token (onboarding step 1)',
    body: LoginBody,
    successStatus: 200,
    surface: 'public',
    handle: (ctx, req) => login(ctx, req.body, req.ip),
  },
  {
    method: 'post',
    path: `${BASES.platform}/auth/token`,
    operationId: 'PlatformAuthController_token',
    summary: 'X-API-Key → platform token, or a tenant token with Service-tenant-id (onboarding step 3)',
    successStatus: 201,
    surface: 'public',
    handle: (ctx, req) => tokens.issuePlatformToken(ctx, header(req, 'x-api-key')),
  },
  refreshRoute(BASES.platform, 'Platform', ['PLATFORM', 'TENANT']),
  tenantAuthorizeRoute(BASES.platform, 'platform', 'Platform'),
  {
    method: 'post',
    path: `${BASES.platform}/api-key`,
    operationId: 'PlatformApiKeyController_create',
    summary: 'Create an API key; the key is in this response only (onboarding step 2)',
    body: CreateApiKeyBody,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => apiKeys.createApiKey(ctx, req.body),
  },
  {
    method: 'get',
    path: `${BASES.platform}/api-key`,
    operationId: 'PlatformApiKeyController_list',
    summary: "List the account's API keys, without their secrets",
    successStatus: 200,
    surface: 'platform',
    handle: (ctx) => apiKeys.listApiKeys(ctx),
  },
  {
    method: 'delete',
    path: `${BASES.platform}/api-key/:keyId`,
    operationId: 'PlatformApiKeyController_revoke',
    summary: 'Revoke an API key and its refresh tokens',
    successStatus: 204,
    surface: 'platform',
    handle: (ctx, req) => apiKeys.revokeApiKey(ctx, req.params.keyId),
  },
  {
    method: 'get',
    path: `${BASES.platform}/users`,
    operationId: 'PlatformUserController_list',
    summary: "List the account's platform users",
    successStatus: 200,
    surface: 'platform',
    handle: (ctx) => users.listUsers(ctx),
  },
  {
    method: 'post',
    path: `${BASES.platform}/users`,
    operationId: 'PlatformUserController_create',
    summary: 'Add a platform user to the account (admins)',
    body: CreateUserBody,
    successStatus: 201,
    surface: 'platform',
    handle: (ctx, req) => users.createUser(ctx, req.body),
  },
  {
    method: 'get',
    path: `${BASES.platform}/users/:userId`,
    operationId: 'PlatformUserController_get',
    summary: 'Read one platform user of the account',
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => users.getUser(ctx, req.params.userId),
  },
  {
    method: 'patch',
    path: `${BASES.platform}/users/:userId`,
    operationId: 'PlatformUserController_update',
    summary: 'Change a platform user (self: name, password; admins: anyone, role, disabled)',
    body: UpdateUserBody,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => users.updateUser(ctx, req.params.userId, req.body),
  },
  {
    method: 'post',
    path: `${BASES.marketplaceV2}/auth/authorize`,
    operationId: 'MarketplaceAuthController_authorize',
    summary: 'X-API-Key → master token with refresh token',
    successStatus: 201,
    surface: 'public',
    handle: (ctx, req) => tokens.issueMasterToken(ctx, header(req, 'x-api-key')),
  },
  refreshRoute(BASES.marketplaceV2, 'Marketplace', ['MASTER']),
  tenantAuthorizeRoute(BASES.marketplaceV2, 'marketplaceV2', 'Marketplace'),
  {
    method: 'post',
    path: `${BASES.marketplaceV1}/auth/authorize`,
    operationId: 'AuthController_authorize',
    summary: 'api_key (query) → { jwt, refreshToken }',
    successStatus: 200,
    surface: 'public',
    handle: (ctx, req) => tokens.authorizeMarketplaceV1(ctx, req.query.api_key),
  },
  {
    method: 'post',
    path: `${BASES.marketplaceV1}/auth/refresh-token`,
    operationId: 'AuthController_refreshToken',
    summary: '{ refreshToken } → a new { jwt, refreshToken } (single use)',
    body: V1RefreshBody,
    successStatus: 200,
    surface: 'public',
    handle: (ctx, req) => tokens.refreshMarketplaceV1(ctx, req.body),
  },
];
