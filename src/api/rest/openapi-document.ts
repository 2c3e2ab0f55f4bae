/**
 * The OpenAPI 3.1 document, generated from the route table: each route's path, the zod schemas it
 * validates its query and body with and shapes its answer by (z.toJSONSchema, JSON Schema 2020-12
 * as OpenAPI 3.1 uses), problem details for every failure, and the security scheme of its surface.
 * No schema is written twice: a route without a declared answer is documented as a JSON value.
 *
 * Beside the route table: the webhooks the gateway sends lenders (OpenAPI 3.1 `webhooks`) and the
 * identity provider's operations, which the identity provider's router serves (openapi-declarations.ts).
 *
 * Each operation carries its row's summary and description, who may call it (from the access
 * table), and examples: the row's example request and the answer the server gave it, recorded by
 * test/openapi-examples.test.ts into openapi-examples.json (that test sends every example request to
 * a started server and checks both answers against the operation's schema).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ACCESS_POLICY, SURFACE_TOKENS, type Surface } from '../../kernel/access-policy.js';
import type { TokenKind } from '../../kernel/actor.js';
import { repositoryPath } from '../../kernel/repository-root.js';
import type { OperationServedElsewhere, WebhookDefinition } from '../../kernel/rest/openapi-declarations.js';
import { lenderApplicationWebhooks } from '../../modules/lender-applications/lender-application.webhooks.js';
import { integratorApplicationWebhooks } from '../../modules/lender-applications/integrator-application.webhooks.js';
import { WEBHOOK_HEADERS } from '../../modules/webhooks/webhook-headers.js';
import { IDENTITY_PROVIDER_OPERATIONS } from './identity-provider-router.js';
import { ProblemDetailsSchema } from './problem-details.js';
import { BASES, ROUTES, servedRoutes, type RouteDefinition } from './route-table.js';

type JsonObject = Record<string, unknown>;

/** Tags: one per surface, in the order of the specification. */
export const SURFACE_TAGS: Record<Surface | 'public', { name: string; description: string }> = {
  platform: { name: 'Platform V1', description: `${BASES.platform}: login, API keys, tenants, users (platform, master and tenant tokens)` },
  marketplaceV2: { name: 'Marketplace V2', description: `${BASES.marketplaceV2}: master and tenant tokens, tenants and the tenant profile` },
  businessV1: { name: 'Business V1', description: `${BASES.businessV1}: applications, matches and pre-selected offers of a tenant` },
  marketplaceV1: { name: 'Marketplace V1', description: `${BASES.marketplaceV1}: profiles, questionnaires, companies and funding searches` },
  lenderApi: {
    name: 'Lender Application API',
    description: `${BASES.lenderApi} (and the same paths at ${BASES.marketplaceV2}, spec 4.5 note 4): a lender's funding applications, acknowledgements, offers and rejections`,
  },
  graphql: { name: 'GraphQL', description: 'The federated graph at /graphql (not described here)' },
  public: { name: 'Authentication', description: 'Exchanging API keys, passwords and refresh tokens for tokens' },
};

/** The webhooks' tag, and what the document declares beside the route table. */
const WEBHOOKS_TAG = { name: 'Lender webhooks', description: 'What the gateway POSTs to a lender (spec 6): signed the Standard Webhooks way, answered 204' };
const INTEGRATOR_WEBHOOKS_TAG = {
  name: 'Integrator webhooks',
  description:
    "What the gateway POSTs to an integrator account's webhook endpoints: its clients' application events, signed the Standard Webhooks way with the endpoint's secret, answered 204",
};
const WEBHOOKS: readonly WebhookDefinition[] = [...lenderApplicationWebhooks, ...integratorApplicationWebhooks];
export const OPERATIONS_SERVED_ELSEWHERE: readonly OperationServedElsewhere[] = Object.values(IDENTITY_PROVIDER_OPERATIONS);

const SECURITY_SCHEMES = {
  platformBearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A platform login, platform, master or tenant token (Service-tenant-id selects the tenant of a master token)',
  },
  marketplaceV1Bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A Marketplace V1 jwt from POST /api/marketplace/v1/auth/authorize',
  },
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

/**
 * Each status's code: its entry on the problems page (a problem's `type`). Plain text, not a link:
 * reference renderers show a response's description inside its expand button.
 */
const ERROR_STATUSES: Record<string, string> = {
  '400': 'The request is invalid: `errors` names each failing field by JSON pointer (code BAD_REQUEST)',
  '401': 'No credential, or one this surface does not take (code UNAUTHENTICATED)',
  '403': 'The credential lacks the scope or the tenant (code FORBIDDEN)',
  '404': 'Not found, or not visible to the caller (code NOT_FOUND)',
  '422': 'Understood but refused by a business rule (code UNPROCESSABLE)',
};

/** The token kinds as the reference names them. */
const KIND_NAMES: Record<TokenKind, string> = {
  login: 'platform login token',
  platform: 'platform token',
  master: 'master token',
  tenant: 'tenant token',
  marketplace_v1: 'Marketplace V1 jwt',
  lender: "lender's id_token",
};

/** "Who may call" of an operation, from its access table row. */
function whoMayCall(route: RouteDefinition): string | undefined {
  if (!route.access) return undefined;
  const rule = ACCESS_POLICY[route.access] as {
    tokens: readonly TokenKind[];
    scope?: string | readonly string[];
    elevated?: { scope: string; action: string; grants?: readonly string[] };
  };
  // The kinds this path's API takes at all (SURFACE_TOKENS): a rule shared with GraphQL may name more.
  const taken =
    route.surface === 'public' ? rule.tokens : rule.tokens.filter((kind) => (SURFACE_TOKENS[route.surface as Surface] as readonly TokenKind[]).includes(kind));
  const kinds = taken.map((kind) => KIND_NAMES[kind]);
  const scopes = rule.scope === undefined ? [] : typeof rule.scope === 'string' ? [rule.scope] : rule.scope;
  const scope = scopes.length ? ` holding the scope ${scopes.map((s) => `\`${s}\``).join(' or ')}` : ' (no scope needed)';
  const grants = rule.elevated?.grants?.length ? ` (${rule.elevated.grants.map((scope) => `\`${scope}\``).join(', ')})` : '';
  const elevated = rule.elevated ? `; \`${rule.elevated.scope}\` to ${rule.elevated.action}${grants}` : '';
  const listed = kinds.length > 1 ? `${kinds.slice(0, -1).join(', a ')} or a ${kinds.at(-1)}` : kinds[0];
  return `**Who may call:** a ${listed}${scope}${elevated}. Others are refused with 401 (a credential this API does not take) or 403.`;
}

/** What the server answered each operation's example request: recorded by test/openapi-examples.test.ts. */
export const RECORDED_EXAMPLES_FILE = repositoryPath('src', 'api', 'rest', 'openapi-examples.json');

export interface RecordedExample {
  /** The path parameters (and Service-tenant-id) the recorded request was sent with. */
  params: Record<string, string>;
  status: number;
  /** The JSON answer (none for a 204, a redirect or a file). */
  response?: unknown;
}

let recorded: Record<string, RecordedExample> | undefined;
export function recordedExamples(): Record<string, RecordedExample> {
  recorded ??= JSON.parse(readFileSync(RECORDED_EXAMPLES_FILE, 'utf8')) as Record<string, RecordedExample>;
  return recorded;
}

/**
 * One example (`example`, not the named `examples` map): what client and collection generators
 * (openapi-to-postmanv2 among them) take as the request's values. What the example shows is said in
 * the operation's description.
 */
const examplesOf = (_route: RouteDefinition, value: unknown) => ({ example: value });

const PACKAGE_VERSION = (JSON.parse(readFileSync(repositoryPath('package.json'), 'utf8')) as { version: string }).version;

/**
 * What a row can answer besides ERROR_STATUSES, by what it is: every API request is counted by the
 * rate limits (429); a row that may write can meet a concurrent or duplicate change (409: the
 * database-error mapper's answer, when its service has no more precise one); a row that takes a body
 * can be sent one too large (413) or of another type (415). GETs never write (test/access-table.test.ts).
 */
const RATE_LIMITED = { '429': 'Too many requests from this address or credential (code TOO_MANY_REQUESTS); retry after `Retry-After` seconds' };
const WRITE_ERROR_STATUSES = { '409': 'Conflicts with the current state: a duplicate, a concurrent change, or a state that does not allow it (code CONFLICT)' };
const BODY_ERROR_STATUSES = {
  '413': 'The body is larger than 1 MB (code PAYLOAD_TOO_LARGE); nothing is read or kept',
  '415': 'The body is not JSON (code UNSUPPORTED_MEDIA_TYPE); nothing is read',
};
const TAKES_A_BODY: ReadonlySet<string> = new Set(['post', 'put', 'patch']);

function errorStatuses(route: RouteDefinition): Array<[string, string]> {
  const statuses = {
    ...ERROR_STATUSES,
    ...(route.method === 'get' ? {} : WRITE_ERROR_STATUSES),
    ...(TAKES_A_BODY.has(route.method) ? (route.upload ? UPLOAD_ERROR_STATUSES : BODY_ERROR_STATUSES) : {}),
    ...RATE_LIMITED,
  };
  return Object.entries(statuses).sort(([a], [b]) => Number(a) - Number(b));
}

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
    if (route.body) components.add(componentName(route, 'Body'), bodyForClients(component(route.body, 'input')));
    if (route.query) components.add(componentName(route, 'Query'), component(route.query, 'input'));
    if (route.response) components.add(componentName(route, 'Response'), component(route.response, 'output'));
    if (route.jsonSchemaBody) components.add(componentName(route, 'Body'), bodyForClients(route.jsonSchemaBody() as JsonObject));
  }
  // What the gateway sends as it sends it (output); what it is sent as a client may write it (input).
  for (const webhook of WEBHOOKS) components.add(namedComponent(webhook.body), component(webhook.body, 'output'));
  for (const operation of OPERATIONS_SERVED_ELSEWHERE) {
    if (operation.body) components.add(namedComponent(operation.body.schema), bodyForClients(component(operation.body.schema, 'input')));
    for (const schema of Object.values(operation.responses).flatMap((response) => Object.values(response.content ?? {}))) {
      if (schema !== ProblemDetailsSchema) components.add(namedComponent(schema), component(schema, 'output'));
    }
  }
  return Object.fromEntries(Object.entries(components.schemas).map(([name, schema]) => [name, withoutEmptyAlternatives(schema)]));
}

/** The component of a schema declared with `.meta({ id })`, shared by every place that uses it: named by that id. */
function namedComponent(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error('a schema of a webhook or of an operation served elsewhere is named with .meta({ id })');
  return id;
}

/**
 * `anyOf: [{}, {type: 'null'}]` (zod's unknown().nullable()) is `{}`: any value, null included;
 * linters flag the empty alternative as matching everything.
 */
function withoutEmptyAlternatives(schema: JsonObject): JsonObject {
  return mapSchemas(schema, (node) => {
    const anyOf = node.anyOf;
    if (!Array.isArray(anyOf) || !anyOf.some((alternative) => isObject(alternative) && Object.keys(alternative).length === 0)) return node;
    const { anyOf: _a, ...rest } = node;
    return rest;
  });
}

/** Keywords whose values are schemas (or maps or lists of them), where defaultsDescribed looks. */
const SUBSCHEMA_KEYWORDS = new Set(['items', 'prefixItems', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains']);
const SUBSCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf']);
const SUBSCHEMA_MAPS = new Set(['properties', '$defs', 'patternProperties']);

/** Applies `change` to a schema and each of its subschemas, innermost first. */
function mapSchemas(schema: JsonObject, change: (node: JsonObject) => JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map((v) => (isObject(v) ? mapSchemas(v, change) : v));
    else if (SUBSCHEMA_MAPS.has(key) && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isObject(v) ? mapSchemas(v, change) : v]));
    else if (SUBSCHEMA_KEYWORDS.has(key) && isObject(value)) out[key] = mapSchemas(value, change);
    else out[key] = value;
  }
  return change(out);
}

/**
 * A request body's schema as client generators and linters read it, validating the same:
 * - each `default` said in its description instead: `default` only annotates, but generators read
 *   it as "always present" (openapi-typescript makes such a property required), which for a body a
 *   client writes is false;
 * - a conditional requirement (`then: {required: [k]}`) names its property (`properties: {k: {}}`,
 *   which allows anything): linters refuse a required property the same schema does not declare.
 */
function bodyForClients(schema: JsonObject): JsonObject {
  return mapSchemas(schema, (node) => {
    const { default: value, ...rest } = node;
    const out: JsonObject = rest;
    if ('default' in node) {
      const said = `Default: \`${JSON.stringify(value)}\`.`;
      out.description = typeof node.description === 'string' && node.description ? `${node.description} ${said}` : said;
    }
    if (Array.isArray(node.required) && !isObject(node.properties) && node.type === undefined) {
      out.properties = Object.fromEntries((node.required as string[]).map((name) => [name, {}]));
    }
    return out;
  });
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

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
    .map(([name, property]) => {
      const { description, ...propertySchema } = property as JsonObject & { description?: string };
      const example = route.example?.query?.[name];
      return {
        name,
        in: 'query',
        required: (schema.required ?? []).includes(name) && !('default' in property),
        ...(typeof description === 'string' ? { description } : {}),
        schema: propertySchema,
        ...(example === undefined ? {} : examplesOf(route, example)),
      };
    });
}

function successResponse(route: RouteDefinition): JsonObject {
  if (route.successStatus === 204) return { description: 'Done; no body' };
  if (route.download) {
    const file = { schema: { type: 'string', format: 'binary' } };
    return {
      description: 'The file, with its name (Content-Disposition) and SHA-256 (Digest)',
      content: Object.fromEntries(route.download.map((type) => [type, file])),
    };
  }
  const schema = route.response ? ref(componentName(route, 'Response')) : {};
  const example = recordedExamples()[route.operationId];
  return {
    description: route.response ? 'Success' : 'Success (a JSON value)',
    content: { 'application/json': { schema, ...(example?.response === undefined ? {} : examplesOf(route, example.response)) } },
  };
}

/** The multipart body of an upload: one file in the field `file`. */
const UPLOAD_SCHEMA = {
  type: 'object',
  required: ['file'],
  properties: {
    file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The document (PDF, PNG, JPEG, CSV, XLSX or DOCX), at most 10 MB' },
  },
};

function requestBody(route: RouteDefinition): JsonObject | undefined {
  if (route.upload === 'file') return { required: true, content: { 'multipart/form-data': { schema: UPLOAD_SCHEMA } } };
  if (route.body || route.jsonSchemaBody) {
    const example = route.example?.body;
    return {
      required: true,
      content: { 'application/json': { schema: ref(componentName(route, 'Body')), ...(example === undefined ? {} : examplesOf(route, example)) } },
    };
  }
  return undefined;
}

function description(route: RouteDefinition): string {
  const example = route.example?.summary ? `**Example:** ${route.example.summary}.` : undefined;
  return [route.description, whoMayCall(route), route.records ? `Records a ${route.records.what}: ${route.records.description}` : undefined, example]
    .filter((part): part is string => part !== undefined)
    .join('\n\n');
}

/** A path parameter, with the value the recorded example was sent with. */
function pathParameter(route: RouteDefinition, name: string): JsonObject {
  const value = route.example?.params?.[name] ?? recordedExamples()[route.operationId]?.params[name];
  return { name, in: 'path', required: true, schema: { type: 'string' }, ...(value === undefined ? {} : examplesOf(route, value)) };
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
  const tenantHeaderExample = recordedExamples()[route.operationId]?.params['Service-tenant-id'];
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: description(route),
    ...(route.records ? { 'x-records': route.records.what } : {}),
    tags: [SURFACE_TAGS[route.surface].name],
    security,
    parameters: [
      ...pathParameterNames(route.path).map((name) => pathParameter(route, name)),
      ...queryParameters(route, components),
      ...(route.headers ?? []).map(({ name, description, schema }) => {
        const { $schema: _s, ...headerSchema } = component(schema, 'input');
        const example = route.example?.headers?.[name];
        return { name, in: 'header', required: false, description, schema: headerSchema, ...(example === undefined ? {} : examplesOf(route, example)) };
      }),
      ...(route.surface === 'platform' || route.surface === 'businessV1' || route.surface === 'marketplaceV2'
        ? [
            {
              name: 'Service-tenant-id',
              in: 'header',
              required: false,
              description: 'The tenant a master or platform token acts for (with a tenant token: optional, and must be its tenant)',
              schema: { type: 'string', format: 'uuid' },
              ...(tenantHeaderExample === undefined ? {} : examplesOf(route, tenantHeaderExample)),
            },
          ]
        : []),
    ],
    ...(body ? { requestBody: body } : {}),
    responses: {
      [String(route.successStatus)]: successResponse(route),
      ...(route.redirects ? { '302': { description: 'A redirect (Location) instead of the body, when asked for' } } : {}),
      ...Object.fromEntries(errorStatuses(route).map(([status, description]) => [status, { description, content: problem }])),
      default: { description: 'Any other failure, as problem details', content: problem },
    },
  };
}

/** A webhook the gateway sends: its headers (webhook-headers.ts), its body, and what the lender answers. */
function webhookOperation(webhook: WebhookDefinition): JsonObject {
  return {
    operationId: webhook.operationId,
    summary: webhook.summary,
    description: webhook.description,
    tags: [webhook.audience === 'integrator' ? INTEGRATOR_WEBHOOKS_TAG.name : WEBHOOKS_TAG.name],
    // Authenticated by its signature (webhook-signature), which no OpenAPI security scheme describes.
    security: [],
    parameters: WEBHOOK_HEADERS.map((header) => {
      const { $schema: _s, ...schema } = component(header.schema, 'output');
      return { name: header.name, in: 'header', required: !('optional' in header), description: header.description, schema };
    }),
    requestBody: { required: true, content: { 'application/json': { schema: ref(namedComponent(webhook.body)) } } },
    responses: {
      '204': { description: 'Received: the only answer that counts as delivered' },
      '4XX': { description: 'Refused: a failed attempt, sent again on the retry schedule (then dead-lettered)' },
      default: { description: 'Any other answer, or none within the timeout: a failed attempt, sent again on the retry schedule' },
    },
  };
}

/** An operation of the identity provider (identity-provider-router.ts): public, its errors RFC 6749's. */
function operationServedElsewhere(operation: OperationServedElsewhere): JsonObject {
  const schemaRef = (schema: z.ZodType) => ref(schema === ProblemDetailsSchema ? 'ProblemDetails' : namedComponent(schema));
  const { body } = operation;
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    tags: [SURFACE_TAGS.public.name],
    security: [],
    ...(body
      ? { requestBody: { required: true, content: Object.fromEntries(body.mediaTypes.map((type) => [type, { schema: schemaRef(body.schema) }])) } }
      : {}),
    responses: Object.fromEntries(
      Object.entries(operation.responses).map(([status, { description, content }]) => [
        status,
        {
          description,
          ...(content ? { content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema: schemaRef(schema) }])) } : {}),
        },
      ]),
    ),
  };
}

const INFO_DESCRIPTION = [
  'Every REST surface of the funding gateway (UK SME profiles, lender matching, applications and offers), generated from the schemas the server validates with.',
  '',
  '**Start here.** An integrator signs in (`POST /api/platform/v1/auth/login`), creates an API key (`POST /api/platform/v1/api-key`) and exchanges it for tokens: a platform token (`POST /api/platform/v1/auth/token`), a tenant token (the same with `Service-tenant-id`) or a Marketplace V1 jwt (`POST /api/marketplace/v1/auth/authorize?api_key=…`). Every other call sends `Authorization: Bearer <token>`. A lender exchanges its client credentials for an `id_token` at `/oauth/token` (OAuth 2.0 password grant) before each call.',
  '',
  "**Lenders** sign in at `/oauth/token` (below, with the OpenID discovery and key set documents) and receive the funding application document on their webhook URLs: the `webhooks` section declares both deliveries, their Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`), the event type (`webhook-event-type`) and the application's sequence number (`webhook-sequence`).",
  '',
  "Each operation names who may call it (token kinds and scopes) and carries an example request and the answer this server gave it. Failures are RFC 9457 problem details whose `type` links to the code's entry on [/docs/problems](/docs/problems); every response carries `X-Request-Id`.",
].join('\n');

export function buildOpenApiDocument(options: { serverUrl?: string; routes?: RouteDefinition[] } = {}): JsonObject {
  const routes = options.routes ?? ROUTES;
  const components = buildComponents(routes);
  const paths: Record<string, Record<string, JsonObject>> = {};
  // A row served at two bases is one operation documented at each (its components and examples shared).
  for (const { route, path, operationId } of servedRoutes(routes)) {
    (paths[openApiPath(path)] ??= {})[route.method] = { ...operation(route, components), operationId };
  }
  for (const served of OPERATIONS_SERVED_ELSEWHERE) (paths[served.path] ??= {})[served.method] = operationServedElsewhere(served);
  // A query schema is documented as its parameters, not as a component of its own.
  for (const route of routes) if (route.query) delete components[componentName(route, 'Query')];
  const used = new Set(routes.map((r) => r.surface));
  const serverUrl = options.serverUrl ?? '/';
  const absolute = (path: string) => (/^https?:\/\//.test(serverUrl) ? new URL(path, serverUrl).toString() : path);
  return {
    openapi: '3.1.1',
    info: {
      title: 'Funding gateway REST API',
      version: PACKAGE_VERSION,
      description: INFO_DESCRIPTION,
      license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
      contact: { name: 'Funding gateway maintainers', url: absolute('/docs') },
    },
    servers: [{ url: serverUrl, description: 'This deployment' }],
    tags: [
      ...Object.entries(SURFACE_TAGS)
        .filter(([surface]) => used.has(surface as Surface) || surface === 'public')
        .map(([, tag]) => tag),
      WEBHOOKS_TAG,
      INTEGRATOR_WEBHOOKS_TAG,
    ],
    paths,
    webhooks: Object.fromEntries(WEBHOOKS.map((webhook) => [webhook.eventType, { post: webhookOperation(webhook) }])),
    components: {
      schemas: components,
      // The lender's token URL on this deployment, so a client or collection needs no edit.
      securitySchemes: {
        ...SECURITY_SCHEMES,
        lenderOAuth: { ...SECURITY_SCHEMES.lenderOAuth, flows: { password: { tokenUrl: absolute('/oauth/token'), scopes: {} } } },
      },
    },
  };
}
