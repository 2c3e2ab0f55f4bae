/**
 * Configuration: parsed once at start from the environment (and the .env file), typed, fail-fast.
 * Every key is listed in the configuration table of docs/operations.md and in .env.example.
 */
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** REDIS_KEY_PREFIX unless configured. */
export const DEFAULT_REDIS_KEY_PREFIX = 'fg:';

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  // Loopback unless asked: a demo start seeds published passwords, so it must not be reachable from
  // the network by default (the image and compose set 0.0.0.0 for containers).
  HOST: z.string().default('127.0.0.1'),
  /** The file of defaults read at start when it exists (variables set in the environment win). */
  ENV_FILE: z.string().default('.env'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./.data'),
  /** Where multipart uploads are written while their request is read; each file is removed when its request ends. */
  UPLOAD_SPOOL_DIR: z.string().min(1).default(join(tmpdir(), 'funding-gateway-uploads')),
  DEPLOY_ENV: z.enum(['demo', 'production']).default('demo'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `json` (one JSON document per line) or `pretty` (pino-pretty); default pretty when NODE_ENV=development, else json. */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  REDIS_URL: z.string().url().optional(),
  /**
   * Starts every Redis key and pub/sub channel of this deployment (infra/redis.ts), so deployments
   * sharing one Redis (staging and production) neither count nor hear each other's. Every process
   * of one deployment must have the same.
   */
  REDIS_KEY_PREFIX: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only (no glob characters)')
    .default(DEFAULT_REDIS_KEY_PREFIX),
  SEED_DEMO_DATA: booleanFlag.optional(),
  /** The process's pg pool: Prisma's queries and the typed SQL reads share it. */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  PROFILES_URL: z.string().url().default('http://127.0.0.1:4011/graphql'),
  MATCHES_URL: z.string().url().default('http://127.0.0.1:4012/graphql'),
  APPLICATIONS_URL: z.string().url().default('http://127.0.0.1:4013/graphql'),
  TENANTS_URL: z.string().url().default('http://127.0.0.1:4014/graphql'),
  /**
   * The secret the distributed gateway presents to the subgraphs with every request and WebSocket
   * upgrade (src/api/http/gateway-only.ts): a subgraph answers nobody else. The same in the gateway
   * and every subgraph of one deployment; only they need it. Base64, base64url or hex: 32+ characters.
   */
  SUBGRAPH_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .max(512)
    .regex(/^[A-Za-z0-9+/=._~-]+$/, 'letters, digits and + / = . _ ~ - only (base64, base64url or hex)')
    .optional(),
  /** File holding that secret; in demo it is generated on first start when absent (default DATA_DIR/subgraph-secret). */
  SUBGRAPH_SECRET_FILE: z.string().min(1).optional(),
  /** Where the distributed REST adapter forwards /graphql (HTTP and graphql-ws) for the dashboard it serves. */
  GRAPHQL_GATEWAY_URL: z.string().url().default('http://127.0.0.1:4000/graphql'),
  /** External base URL of this deployment: the token issuer and the OIDC discovery address. */
  PUBLIC_URL: z.string().url().optional(),
  /** Token signing keys as a JSON Web Key Set of private keys; the first signs, all verify. */
  AUTH_SIGNING_KEYS: z.string().optional(),
  /** File holding that key set; in demo it is generated on first start when absent. */
  AUTH_SIGNING_KEYS_FILE: z.string().optional(),
  /** Seconds before each webhook delivery attempt (the first is usually 0); then dead-lettered. */
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .regex(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/, 'must be comma-separated seconds')
    .default('0,5,300,1800,7200,18000,36000,36000')
    .transform((v) => v.split(',').map((n) => Number(n.trim()))),
  /**
   * After a lender's credentials are re-issued, how long deliveries are signed with the previous
   * webhook secret as well as the new one (both in webhook-signature), so deliveries on their way
   * still verify; 0 switches at once.
   */
  WEBHOOK_SECRET_OVERLAP_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .default(86_400),
  /** How long a lender may take to answer a webhook. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /**
   * How often the delivery worker looks for due deliveries unprompted: a new one wakes it at once
   * (NOTIFY at commit), so this is only the fallback for a wake-up missed while its listening
   * session was down. (The name predates the outbox queue; kept so deployments need no change.)
   */
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(3600).default(5),
  /** Days an account's request log (the integrator console's) keeps a request before the worker purges it. */
  REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(7).max(90).default(14),
  /** Bearer token guarding /metrics on the main port (Prometheus `authorization`). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Serve /metrics alone on this port instead (no token: keep it private). 0 picks a free port. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** The `instance` label of this process's metrics (default `<hostname>/<pid>`). */
  INSTANCE_ID: z.string().min(1).max(200).optional(),
  /** Let webhooks reach private networks (lenders on a VPN); loopback is allowed in demo only. */
  ALLOW_PRIVATE_WEBHOOK_URLS: booleanFlag.default(false),
  /**
   * Origins (scheme://host[:port], comma-separated) whose pages may embed the credit widget: its API
   * calls are allowed from them (CORS) and embed.html may be framed by them. `*` means any origin.
   * Unset: any origin in demo, none in production.
   */
  WIDGET_EMBED_ORIGINS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.union([z.literal('*'), z.url().refine((o) => new URL(o).origin === o, 'must be an origin: scheme://host[:port], no path')])))
    .optional(),
  /**
   * Which proxy hops to trust for X-Forwarded-For (Express's `trust proxy`): `false` (direct
   * clients, the default), a hop count, or comma-separated addresses/subnets of the proxies.
   */
  TRUST_PROXY: z.string().default('false'),
  /** Browser origins (comma-separated) allowed to call /graphql and the APIs cross-origin, without cookies. */
  CORS_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim().replace(/\/+$/, ''))
        .filter(Boolean),
    ),
  /** GraphiQL at GET /graphql: on in demo (served from local assets), off in production unless set. */
  GRAPHIQL_ENABLED: booleanFlag.optional(),
  /** Who may introspect the schema: everyone, signed-in callers, or staff only (production default). */
  GRAPHQL_INTROSPECTION: z.enum(['everyone', 'authenticated', 'staff']).optional(),
  /** GraphQL operation limits, checked before anything runs (every dashboard and test query stays far below). */
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(12),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(30),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(50).default(2000),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).default(20),
  /** Estimated cost ceiling: each field costs 1, times the page size of every list around it. */
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(5000),
  /**
   * How often one field (one response name) may be selected in one selection set, fragments
   * included: graphql's overlap validation compares every pair, so repeats cost CPU quadratically.
   */
  GRAPHQL_MAX_FIELD_REPEATS: z.coerce.number().int().min(1).default(10),
  /** POST /graphql body ceiling for callers without a verified bearer token (REST takes 1 MiB too). */
  GRAPHQL_MAX_BODY_BYTES_ANONYMOUS: z.coerce.number().int().min(1024).default(1_048_576),
  /** POST /graphql body ceiling with a verified bearer token: room for attachDocument's 10 MB in base64. */
  GRAPHQL_MAX_BODY_BYTES_AUTHENTICATED: z.coerce
    .number()
    .int()
    .min(1024)
    .default(15 * 1_048_576),
  /** graphql-ws: a socket must send connection_init (with credentials) within this time, else it is closed (4408). */
  GRAPHQL_WS_INIT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3_000),
  /** graphql-ws: the largest message a client may send; a larger one closes the socket (1009). */
  GRAPHQL_WS_MAX_MESSAGE_BYTES: z.coerce.number().int().min(1024).default(65_536),
  /** graphql-ws: open sockets per credential (per gateway process); one more is closed with 4429. */
  GRAPHQL_WS_MAX_SOCKETS_PER_CREDENTIAL: z.coerce.number().int().min(1).default(20),
  /** graphql-ws: operations in progress (live subscriptions) per credential, over all its sockets in one process. */
  GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL: z.coerce.number().int().min(1).default(100),
  /** graphql-ws: how often an open socket's credential is checked again (revoked key, disabled user, rotated lender credentials). */
  GRAPHQL_WS_CREDENTIAL_RECHECK_MS: z.coerce.number().int().min(100).default(30_000),
  /** Requests per minute per client address, REST and GraphQL (default 1200; 100000 in demo, for load tests). */
  RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).optional(),
  /** Requests per minute per credential: API key, lender, signed-in user (default 600; 50000 in demo). */
  RATE_LIMIT_PER_CREDENTIAL: z.coerce.number().int().min(1).optional(),
  /** Failed lender /oauth/token attempts per 15 minutes, per client id and per username, before 429s. */
  RATE_LIMIT_LENDER_TOKEN_FAILURES: z.coerce.number().int().min(1).default(10),
  /**
   * Audiences a lender's /oauth/token request may name instead of ours (comma-separated), e.g. the
   * identifier of the lender API that a lender's client copied from the live platform's documents.
   * Tokens are issued for our own audience whichever alias was asked for.
   */
  /**
   * Company-data sources behind the local register, asked in order for a number it does not hold
   * (comma-separated; `companies-house-api` needs COMPANIES_HOUSE_API_KEY). Unset: the Companies
   * House API when a key is configured, else none. `none`: the register alone.
   */
  COMPANY_DATA_SOURCES: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s && s !== 'none'),
    )
    .pipe(z.array(z.enum(['companies-house-api'], { message: 'each source must be companies-house-api (or the list none)' })))
    .optional(),
  /** The Companies House public data API key (HTTP basic user name). */
  COMPANIES_HOUSE_API_KEY: z.string().min(1).optional(),
  COMPANIES_HOUSE_API_URL: z.string().url().default('https://api.company-information.service.gov.uk'),
  /** Each Companies House API request's time limit. */
  COMPANIES_HOUSE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** The longest a lookup waits for the key's rate-limit window to reset (search never waits). */
  COMPANIES_HOUSE_MAX_WAIT_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
  /** The Companies House streaming API key (HTTP basic user name) the company-stream process follows the companies stream with. */
  COMPANIES_HOUSE_STREAM_KEY: z.string().min(1).optional(),
  COMPANIES_HOUSE_STREAM_URL: z.string().url().default('https://stream.companieshouse.gov.uk'),
  LENDER_AUDIENCE_ALIASES: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().max(500, 'each alias must be at most 500 characters'))),
});

export type AppConfig = Omit<
  z.infer<typeof ConfigSchema>,
  | 'COMPANY_DATA_SOURCES'
  | 'SEED_DEMO_DATA'
  | 'PUBLIC_URL'
  | 'LOG_FORMAT'
  | 'GRAPHIQL_ENABLED'
  | 'GRAPHQL_INTROSPECTION'
  | 'RATE_LIMIT_PER_ADDRESS'
  | 'RATE_LIMIT_PER_CREDENTIAL'
> & {
  RATE_LIMIT_PER_ADDRESS: number;
  RATE_LIMIT_PER_CREDENTIAL: number;
  /** Defaults to true in demo, false in production. */
  GRAPHIQL_ENABLED: boolean;
  /** Defaults to everyone in demo, staff in production. */
  GRAPHQL_INTROSPECTION: 'everyone' | 'authenticated' | 'staff';
  /** The company-data sources behind the register, in order (COMPANY_DATA_SOURCES, defaulted). */
  COMPANY_DATA_SOURCES: Array<'companies-house-api'>;
  /** Demo data is seeded into an empty demo database unless switched off; never in production. */
  SEED_DEMO_DATA: boolean;
  /** Without a trailing slash; defaults to http://localhost:PORT. */
  PUBLIC_URL: string;
  /** Pretty (human-readable) lines in development, JSON everywhere else unless asked. */
  LOG_FORMAT: 'json' | 'pretty';
  /** Whether PUBLIC_URL was configured (documents then name it; otherwise the URL they were requested on). */
  PUBLIC_URL_CONFIGURED: boolean;
};

/**
 * Adds the variables of ENV_FILE (default ./.env) to process.env, when that file exists, without
 * replacing any variable set (non-empty) in the environment. Entry points call it once through
 * loadConfig(); children they spawn inherit the result.
 */
export function readEnvFile(env: NodeJS.ProcessEnv = process.env): void {
  const file = env.ENV_FILE || '.env';
  if (!existsSync(file)) return;
  for (const [key, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (!env[key] && value !== undefined) env[key] = value;
  }
}

/** Parses the configuration: by default from process.env after reading the .env file. */
export function loadConfig(env?: NodeJS.ProcessEnv, overrides: Partial<AppConfig> = {}): AppConfig {
  if (env === undefined) {
    readEnvFile();
    env = process.env;
  }
  const parsed = ConfigSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const data = { ...parsed.data, ...overrides };
  if (data.DEPLOY_ENV === 'production' && !data.AUTH_SIGNING_KEYS && !data.AUTH_SIGNING_KEYS_FILE) {
    throw new Error('Invalid configuration:\n  AUTH_SIGNING_KEYS or AUTH_SIGNING_KEYS_FILE is required in production');
  }
  const companyDataSources = data.COMPANY_DATA_SOURCES ?? (data.COMPANIES_HOUSE_API_KEY ? ['companies-house-api' as const] : []);
  if (companyDataSources.includes('companies-house-api') && !data.COMPANIES_HOUSE_API_KEY) {
    throw new Error('Invalid configuration:\n  COMPANY_DATA_SOURCES: companies-house-api needs COMPANIES_HOUSE_API_KEY');
  }
  // Demo data is never seeded in production, whatever the environment or overrides ask.
  const seed = (data.SEED_DEMO_DATA ?? data.DEPLOY_ENV === 'demo') && data.DEPLOY_ENV === 'demo';
  const publicUrl = (data.PUBLIC_URL ?? `http://localhost:${data.PORT}`).replace(/\/+$/, '');
  const demo = data.DEPLOY_ENV === 'demo';
  return {
    ...data,
    SEED_DEMO_DATA: seed,
    COMPANY_DATA_SOURCES: companyDataSources,
    PUBLIC_URL: publicUrl,
    LOG_FORMAT: data.LOG_FORMAT ?? (env.NODE_ENV === 'development' ? 'pretty' : 'json'),
    PUBLIC_URL_CONFIGURED: data.PUBLIC_URL !== undefined,
    GRAPHIQL_ENABLED: data.GRAPHIQL_ENABLED ?? demo,
    GRAPHQL_INTROSPECTION: data.GRAPHQL_INTROSPECTION ?? (demo ? 'everyone' : 'staff'),
    RATE_LIMIT_PER_ADDRESS: data.RATE_LIMIT_PER_ADDRESS ?? (demo ? 100_000 : 1200),
    RATE_LIMIT_PER_CREDENTIAL: data.RATE_LIMIT_PER_CREDENTIAL ?? (demo ? 50_000 : 600),
  };
}
