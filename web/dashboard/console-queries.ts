/** The integrator console's documents: API keys, the account's tenants and its request log (see ./queries.ts). */
export const API_KEYS = /* GraphQL */ 'query ApiKeys { apiKeys { id name keyPrefix scopes isMaster expiresAt revokedAt lastUsedAt createdAt } }';
export const CREATE_API_KEY =
  /* GraphQL */ 'mutation CreateApiKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { id name key keyPrefix scopes } }';
export const ROTATE_API_KEY = /* GraphQL */ 'mutation RotateApiKey($id: ID!) { rotateApiKey(id: $id) { id name key keyPrefix scopes } }';
export const REVOKE_API_KEY = /* GraphQL */ 'mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) }';
export const CONSOLE_TENANTS =
  /* GraphQL */ 'query ConsoleTenants($search: String, $offset: Int!, $limit: Int!) { consoleTenants(search: $search, offset: $offset, limit: $limit) { total offset limit items { id referenceId companyName registrationNumber createdAt } } }';
export const CONSOLE_TENANT =
  /* GraphQL */ 'query ConsoleTenant($id: ID!) { consoleTenant(id: $id) { tenant { id referenceId companyName registrationNumber createdAt } profileId countryCode companyType sector creditReport { available reason grade industryAverageGrade creditLimit legalNotices source } applications { id questionnaireId createdAt } selections { id state lenders decisionReason createdAt } } }';
export const REQUEST_LOG =
  /* GraphQL */ 'query RequestLog($filter: RequestLogFilter) { requestLog(filter: $filter) { endCursor nodes { id requestId method route status latencyMs credentialKind apiKeyId userId tenantId problem createdAt } } }';
