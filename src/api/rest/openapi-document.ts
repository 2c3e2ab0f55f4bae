/**
 * The OpenAPI 3.1 document, generated from the route table: each route's path, the zod schemas it
 * validates its query and body with and shapes its answer by (z.toJSONSchema, JSON Schema 2020-12
 * as OpenAPI 3.1 uses), problem details for every failure, and the security scheme of its surface.
 * No schema is written twice: a route without a declared answer is documented as a JSON value.
 */
import { z } from 'zod';
import type { Surface } from '../../kernel/access-policy.js';
import { ProblemDetailsSchema } from './problem-details.js';
import { BASES, ROUTES, type RouteDefinition } from './route-table.js';

type JsonObject = Record<string, unknown>;

/** Tags: one per surface, in the order of the specification. */
export const SURFACE_TAGS: Record<Surface | 'public', { name: string; description: string }> = {
  platform: { name: 'Platform V1', description: `${BASES.platform}: login, API keys, tenants, users (platform, master and tenant tokens)` },
  marketplaceV2: { name: 'Marketplace V2', description: `${BASES.marketplaceV2}: master and tenant tokens, tenants and the tenant profile` },
  businessV1: { name: 'Business V1', description: `${BASES.businessV1}: applications, matches and pre-selected offers of a tenant` },
  marketplaceV1: { name: 'Marketplace V1', description: `${BASES.marketplaceV1}: profiles, questionnaires, companies and funding searches` },
  lenderApi: { name: 'Lender Application API', description: `${BASES.lenderApi}: a lender's funding applications, acknowledgements, offers and rejections` },
  graphql: { name: 'GraphQL', description: 'The federated graph at /graphql (not described here)' },
  public: { name: 'Authentication', description: 'Exchanging API keys, passwords and refresh tokens for tokens' },
};

const SECURITY_SCHEMES = {
  platformBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A platform login, platform, master or tenant token (Service-tenant-id selects the tenant of a master token)' },
  marketplaceV1Bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A Marketplace V1 jwt from POST /api/marketplace/v1/auth/authorize' },
  lenderOAuth: {
    type: 'oauth2',
    description: "A lender's token: OAuth 2.0 password grant at /oauth/token with the lender's client credentials",
    flows: { password: { tokenUrl: '/oauth/token', scopes: {} } },
  },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key (fgk_…) created with POST /api/platform/v1/api-key' },
  apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'An API key, as Marketplace V1 takes it' },
} as const;

const SURFACE_SECURITY: Record<Surface, string> = {
  platform: 'platformBearer',
  marketplaceV2: 'platformBearer',
  businessV1: 'platformBearer',
  marketplaceV1: 'marketplaceV1Bearer',
  lenderApi: 'lenderOAuth',
  graphql: 'platformBearer',
};

/** Public routes that take an API key instead of a token. */
const PUBLIC_ROUTE_SECURITY: Record<string, string> = {
  PlatformAuthController_token: 'apiKey',
  MarketplaceAuthController_authorize: 'apiKey',
  AuthController_authorize: 'apiKeyQuery',
};

const ERROR_STATUSES: Record<string, string> = {
  '400': 'The request is invalid: `errors` names each failing field by JSON pointer',
  '401': 'No credential, or one this surface does not take',
  '403': 'The credential lacks the scope or the tenant',
  '404': 'Not found, or not visible to the caller',
  '422': 'Understood but refused by a business rule',
};

/** What an upload may also be answered (docs/security/uploads.md). */
const UPLOAD_ERROR_STATUSES: Record<string, string> = {
  '413': 'The file is larger than the limit (by its declared length, or once the limit is reached); nothing is kept',
  '415': 'The body is not multipart/form-data, or the file is not what its declared type says',
};

export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z]+)/g, '{$1}');
}

function pathParameterNames(expressPath: string): string[] {
  return [...expressPath.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
}

const componentName = (route: RouteDefinition, part: string) => `${route.operationId}${part}`;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function rewriteRefs(value: unknown, rewrite: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, rewrite));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? rewrite(v) : rewriteRefs(v, rewrite)]));
}

/**
 * Each schema is converted on its own (some schema factories make several instances that share an
 * id), its named parts in its own `$defs`; requests as input (defaults make fields optional),
 * answers as output.
 */
function component(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonObject;
}

function buildComponents(routes: RouteDefinition[]): Record<string, JsonObject> {
  const components = new ComponentSet();
  components.add('ProblemDetails', component(ProblemDetailsSchema, 'output'));
  for (const route of routes) {
    if (route.body) components.add(componentName(route, 'Body'), component(route.body, 'input'));
    if (route.query) components.add(componentName(route, 'Query'), component(route.query, 'input'));
    if (route.response) components.add(componentName(route, 'Response'), component(route.response, 'output'));
    if (route.jsonSchemaBody) components.add(componentName(route, 'Body'), route.jsonSchemaBody() as JsonObject);
  }
  return components.schemas;
}

const LOCAL_DEF = /^#\/\$defs\/(.+)$/;

/**
 * Components with their named parts (`$defs`) hoisted to components of their own, so that client
 * generators see plain `#/components/schemas/…` refs: a part equal to one already hoisted is shared,
 * one whose name is taken by a different schema is prefixed with its component's name.
 */
class ComponentSet {
  readonly schemas: Record<string, JsonObject> = {};
  private readonly hoisted = new Map<string, string>();

  add(name: string, schema: JsonObject): void {
    const { $schema: _s, $id: _i, $defs: defs = {}, ...root } = schema as JsonObject & { $defs?: Record<string, JsonObject> };
    // A schema named by `.meta({ id })` converts to a bare ref to its own definition: that definition is the component.
    const rootRef = typeof root.$ref === 'string' && Object.keys(root).length === 1 ? LOCAL_DEF.exec(root.$ref)?.[1] : undefined;
    const names = new Map<string, string>();
    for (const [local, def] of Object.entries(defs)) {
      if (local === rootRef) {
        names.set(local, name);
        continue;
      }
      const key = `${local} ${JSON.stringify(def)}`;
      const shared = this.hoisted.get(key);
      const chosen = shared ?? (local in this.schemas || [...names.values()].includes(local) ? `${name}_${local}` : local);
      names.set(local, chosen);
      if (!shared) this.hoisted.set(key, chosen);
    }
    const rewrite = (value: JsonObject) =>
      rewriteRefs(value, (r) => {
        const local = LOCAL_DEF.exec(r)?.[1];
        return local !== undefined && names.has(local) ? `#/components/schemas/${names.get(local)}` : r;
      }) as JsonObject;
    for (const [local, def] of Object.entries(defs)) {
      const chosen = names.get(local)!;
      if (chosen !== name && chosen in this.schemas) continue;
      this.schemas[chosen] = rewrite(def);
    }
    if (!rootRef) this.schemas[name] = rewrite(root);
  }
}

function queryParameters(route: RouteDefinition, components: Record<string, JsonObject>): JsonObject[] {
  if (!route.query) return [];
  const schema = components[componentName(route, 'Query')] as { properties?: Record<string, JsonObject>; required?: string[] };
  const inPath = new Set(pathParameterNames(route.path));
  return Object.entries(schema.properties ?? {})
    .filter(([name]) => !inPath.has(name))
    .map(([name, property]) => ({ name, in: 'query', required: (schema.required ?? []).includes(name) && !('default' in property), schema: property }));
}

function successResponse(route: RouteDefinition): JsonObject {
  if (route.successStatus === 204) return { description: 'Done; no body' };
  if (route.download) {
    const file = { schema: { type: 'string', format: 'binary' } };
    return { description: 'The file, with its name (Content-Disposition) and SHA-256 (Digest)', content: Object.fromEntries(route.download.map((type) => [type, file])) };
  }
  const schema = route.response ? ref(componentName(route, 'Response')) : {};
  return { description: route.response ? 'Success' : 'Success (a JSON value)', content: { 'application/json': { schema } } };
}

function requestBody(route: RouteDefinition): JsonObject | undefined {
  if (route.upload === 'file') {
    return {
      required: true,
      content: { 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } } } } },
    };
  }
  if (route.body || route.jsonSchemaBody) return { required: true, content: { 'application/json': { schema: ref(componentName(route, 'Body')) } } };
  return undefined;
}

function operation(route: RouteDefinition, components: Record<string, JsonObject>): JsonObject {
  const problem = { 'application/problem+json': { schema: ref('ProblemDetails') } };
  const security =
    route.surface === 'public'
      ? PUBLIC_ROUTE_SECURITY[route.operationId]
        ? [{ [PUBLIC_ROUTE_SECURITY[route.operationId]!]: [] }]
        : []
      : [{ [SURFACE_SECURITY[route.surface]]: [] }];
  const body = requestBody(route);
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.records ? { description: `Records a ${route.records.what}: ${route.records.description}`, 'x-records': route.records.what } : {}),
    tags: [SURFACE_TAGS[route.surface].name],
    security,
    parameters: [
      ...pathParameterNames(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...queryParameters(route, components),
      ...(route.headers ?? []).map(({ name, description, schema }) => {
        const { $schema: _s, ...headerSchema } = component(schema, 'input');
        return { name, in: 'header', required: false, description, schema: headerSchema };
      }),
      ...(route.surface === 'platform' || route.surface === 'businessV1' || route.surface === 'marketplaceV2'
        ? [{ name: 'Service-tenant-id', in: 'header', required: false, description: 'The tenant a master or platform token acts for', schema: { type: 'string', format: 'uuid' } }]
        : []),
    ],
    ...(body ? { requestBody: body } : {}),
    responses: {
      [String(route.successStatus)]: successResponse(route),
      ...(route.redirects ? { '302': { description: 'A redirect (Location) instead of the body, when asked for' } } : {}),
      ...Object.fromEntries(Object.entries({ ...ERROR_STATUSES, ...(route.upload ? UPLOAD_ERROR_STATUSES : {}) }).map(([status, description]) => [status, { description, content: problem }])),
      default: { description: 'Any other failure, as problem details', content: problem },
    },
  };
}

export function buildOpenApiDocument(options: { serverUrl?: string; routes?: RouteDefinition[] } = {}): JsonObject {
  const routes = options.routes ?? ROUTES;
  const components = buildComponents(routes);
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    (paths[path] ??= {})[route.method] = operation(route, components);
  }
  const used = new Set(routes.map((r) => r.surface));
  return {
    openapi: '3.1.1',
    info: {
      title: 'Funding gateway REST API',
      version: '1.0.0',
      description: 'Every REST surface of the funding gateway, generated from the schemas the server validates with. Failures are RFC 9457 problem details; every response carries X-Request-Id.',
    },
    servers: [{ url: options.serverUrl ?? '/', description: 'This deployment' }],
    tags: Object.entries(SURFACE_TAGS).filter(([surface]) => used.has(surface as Surface)).map(([, tag]) => tag),
    paths,
    components: { schemas: components, securitySchemes: SECURITY_SCHEMES },
  };
}
