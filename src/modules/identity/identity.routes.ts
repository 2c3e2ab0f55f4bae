/** The identity module's REST rows: login, platform/master/tenant/Marketplace V1 tokens, API keys and platform users. */
import type { Surface } from '../../kernel/access-policy.js';
import * as apiKeys from './api-key-service.js';
import { login } from './login-service.js';
import * as tokens from './token-service.js';
import * as users from './user-service.js';
import { z } from 'zod';
import { ApiKey, CreateApiKeyBody, CreatedApiKey, CreateUserBody, LoginBody, MarketplaceV1Tokens, PlatformUser, TokenResponse, UpdateUserBody } from './identity-schemas.js';
import { PlatformRefreshBody, V1AuthorizeQuery, V1RefreshBody } from './token-service.js';
import { BASES, header, route, type RouteDefinition } from '../../kernel/rest/route-definition.js';

const refreshRoute = (base: string, prefix: string, kinds: Parameters<typeof tokens.refreshPlatformToken>[2]): RouteDefinition =>
  route({
  method: 'post',
  path: `${base}/auth/refresh-token`,
  operationId: `${prefix}AuthController_refreshToken`,
  summary: 'Exchange a single-use refresh token for a new token pair',
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
  summary: 'Master (or platform) token + Service-tenant-id → tenant token',
  response: TokenResponse,
  successStatus: 201,
  surface,
  handle: (ctx) => tokens.issueTenantToken(ctx),
  });

export const identityRoutes: RouteDefinition[] = [
  route({
    method: 'post',
    path: `${BASES.platform}/auth/login`,
    operationId: 'PlatformAuthController_login',
    summary: 'Platform login: email and password → login token (onboarding step 1)',
    body: LoginBody,
    response: TokenResponse,
    successStatus: 200,
    surface: 'public',
    handle: (ctx, req) => login(ctx, req.body, req.ip),
  }),
  route({
    method: 'post',
    path: `${BASES.platform}/auth/token`,
    operationId: 'PlatformAuthController_token',
    summary: 'X-API-Key → platform token, or a tenant token with Service-tenant-id (onboarding step 3)',
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
    summary: 'Create an API key; the key is in this response only (onboarding step 2)',
    body: CreateApiKeyBody,
    response: CreatedApiKey,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => apiKeys.createApiKey(ctx, req.body),
  }),
  route({
    method: 'get',
    path: `${BASES.platform}/api-key`,
    operationId: 'PlatformApiKeyController_list',
    summary: "List the account's API keys, without their secrets",
    response: z.array(ApiKey),
    successStatus: 200,
    surface: 'platform',
    handle: (ctx) => apiKeys.listApiKeys(ctx),
  }),
  route({
    method: 'delete',
    path: `${BASES.platform}/api-key/:keyId`,
    operationId: 'PlatformApiKeyController_revoke',
    summary: 'Revoke an API key and its refresh tokens',
    successStatus: 204,
    surface: 'platform',
    handle: (ctx, req) => apiKeys.revokeApiKey(ctx, req.params.keyId),
  }),
  route({
    method: 'get',
    path: `${BASES.platform}/users`,
    operationId: 'PlatformUserController_list',
    summary: "List the account's platform users",
    response: z.array(PlatformUser),
    successStatus: 200,
    surface: 'platform',
    handle: (ctx) => users.listUsers(ctx),
  }),
  route({
    method: 'post',
    path: `${BASES.platform}/users`,
    operationId: 'PlatformUserController_create',
    summary: 'Add a platform user to the account (admins)',
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
    summary: 'Read one platform user of the account',
    response: PlatformUser,
    successStatus: 200,
    surface: 'platform',
    handle: (ctx, req) => users.getUser(ctx, req.params.userId),
  }),
  route({
    method: 'patch',
    path: `${BASES.platform}/users/:userId`,
    operationId: 'PlatformUserController_update',
    summary: 'Change a platform user (self: name, password; admins: anyone, role, disabled)',
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
    summary: 'X-API-Key → master token with refresh token',
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
    summary: 'api_key (query) → { jwt, refreshToken }',
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
    summary: '{ refreshToken } → a new { jwt, refreshToken } (single use)',
    body: V1RefreshBody,
    response: MarketplaceV1Tokens,
    successStatus: 200,
    surface: 'public',
    handle: (ctx, req) => tokens.refreshMarketplaceV1(ctx, req.body),
  }),
];
