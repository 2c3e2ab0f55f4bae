/**
 * The experiment issue 19 asks for before choosing a local (non-federated) schema for single-process
 * GraphQL: the federated query `tenant { id referenceId profile { uuid } }` executed in process,
 * one request at a time, (a) through the Hive gateway (planning, delegation to the tenants and
 * profiles subgraphs through the in-process transport), (b) as the same resolvers run without the
 * gateway: the tenants subgraph's `tenant` and the profiles subgraph's `Tenant.profile` executed
 * directly on their schemas with parsed documents (what one local schema would execute), and
 * (c) the two use cases called directly (the floor any GraphQL layer adds to), (d) building the
 * request's ServiceContext alone (what every variant pays first), and (e) the whole query on the
 * local schema through the Yoga server single-process mode serves at /graphql (its plugins, parse
 * and validation caches, error masking), (f) the same through the plain-POST fast path that answers
 * such requests once Yoga has validated their query text. Each request builds
 * its ServiceContext from the bearer token (JWT verified) in every variant. Reports CPU and wall
 * milliseconds per request, so the gateway's share of a request is known without HTTP in the way.
 *
 * Needs a PostgreSQL (DATABASE_URL, default the local server). BENCH_REQUESTS tunes it.
 */
import { randomUUID } from 'node:crypto';
import { execute, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import pg from 'pg';
import { loadConfig } from '../src/kernel/config.js';
import { createAccountWithUser } from '../src/modules/identity/bootstrap.js';
import { profilesOfTenants } from '../src/modules/profiles/profile-service.js';
import { getTenant } from '../src/modules/tenants/tenant-service.js';
import { applyMigrations } from '../src/infra/migrations.js';
import { generateSigningJwk } from '../src/infra/signing-keys.js';
import { startSingleProcessServer } from '../src/processes/single-process-server.js';
import { createSingleProcessGraphQL } from '../src/processes/single-process-graphql.js';
import { plainPostFastPathOf } from '../src/api/graphql/local-graphql.js';
import { createGateway } from '../src/api/graphql/gateway-runtime.js';
import { gatewaySecurity } from '../src/api/graphql/gateway-security.js';
import { startRuntime } from '../src/processes/runtime.js';
import { buildSubgraphSchemas } from '../src/api/graphql/subgraphs/index.js';
import { adminQuery, databaseUrlFor } from '../test/support/postgres-admin.js';
import { freePort } from '../test/support/processes.js';
import { recordResults } from './results.js';

const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const TENANTS = 200;
const USER = { email: 'bench-local@example.test', password: 'bench-password-123' };
const FEDERATED = 'query($id: ID!) { tenant(id: $id) { id referenceId profile { uuid } } }';
const TENANT_PART = parse('query($id: ID!) { tenant(id: $id) { id referenceId } }');
const PROFILE_PART = parse('query($r: [_Any!]!) { _entities(representations: $r) { ... on Tenant { profile { uuid } } } }');

interface Measured {
  name: string;
  cpuMs: number;
  wallMs: number;
}

/** Runs `one` for every request (after a warm-up of a quarter as many), CPU and wall time per request. */
async function measure(name: string, ids: string[], one: (id: string) => Promise<void>): Promise<Measured> {
  for (let i = 0; i < REQUESTS / 4; i++) await one(ids[i % ids.length]!);
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < REQUESTS; i++) await one(ids[i % ids.length]!);
  const wallMs = (performance.now() - start) / REQUESTS;
  const used = process.cpuUsage(cpu);
  return { name, cpuMs: (used.user + used.system) / 1000 / REQUESTS, wallMs };
}

function check(result: { errors?: readonly unknown[] }, what: string): void {
  if (result.errors?.length) throw new Error(`${what}: ${JSON.stringify(result.errors)}`);
}

const dbName = `fg_bench_local_${process.pid}`;
await adminQuery(serverUrl, `CREATE DATABASE ${dbName}`);
const url = databaseUrlFor(serverUrl, dbName);
try {
  await applyMigrations(url);
  const port = await freePort();
  const config = loadConfig(
    {},
    {
      DATABASE_URL: url,
      DB_POOL_SIZE: 4,
      PORT: port,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      HOST: '127.0.0.1',
      AUTH_SIGNING_KEYS: JSON.stringify({ keys: [await generateSigningJwk()] }),
      LOG_LEVEL: 'silent',
      SEED_DEMO_DATA: false,
    },
  );
  const runtime = await startRuntime(config);
  const server = await startSingleProcessServer(runtime);
  try {
    const { accountId } = await createAccountWithUser(runtime.database.prisma, { environment: 'demo', accountName: 'bench', ...USER });
    const ids = await seed(url, accountId);
    const authorization = await platformAuthorization(server.url);
    const headers = new Headers({ authorization });
    const security = gatewaySecurity(config, async (h) => (await runtime.contextForRequest(h)).actor);
    const gateway = await createGateway({ mode: 'in-process', contextFor: (request) => runtime.contextForRequest(request.headers) }, security);
    const localGraphQL = createSingleProcessGraphQL(runtime, config);
    const schemas: Record<string, GraphQLSchema> = await buildSubgraphSchemas();

    const viaGateway = await measure('through the gateway (federated)', ids, async (id) => {
      const res = await gateway.fetch('http://gateway.local/graphql', {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: FEDERATED, variables: { id } }),
      });
      check((await res.json()) as { errors?: unknown[] }, 'gateway');
    });
    const viaLocal = await measure('local schema over Yoga (single-process /graphql)', ids, async (id) => {
      const res = await localGraphQL.fetch('http://graphql.local/graphql', {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: FEDERATED, variables: { id } }),
      });
      check((await res.json()) as { errors?: unknown[] }, 'local');
    });
    // The same requests as Express hands them to /graphql after the body limit: what the fast path
    // (plain-post-fast-path.ts) answers once Yoga has validated the query text (the case above did).
    const fastPath = plainPostFastPathOf(localGraphQL)!;
    const viaFastPath = await measure(
      'local schema, plain-POST fast path (single-process /graphql)',
      ids,
      (id) =>
        new Promise<void>((resolve, reject) => {
          const req = {
            method: 'POST',
            url: '/',
            headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
            body: Buffer.from(JSON.stringify({ query: FEDERATED, variables: { id } })),
          };
          const res = {
            writeHead: () => res,
            end: (body: string) => {
              try {
                check(JSON.parse(body) as { errors?: unknown[] }, 'fast path');
                resolve();
              } catch (err) {
                reject(err);
              }
            },
          };
          fastPath(req as never, res as never, () => reject(new Error('the fast path handed a plain POST on to Yoga')));
        }),
    );
    const run = async (schema: GraphQLSchema, document: DocumentNode, variableValues: Record<string, unknown>, contextValue: unknown) => {
      const result = await execute({ schema, document, variableValues, contextValue });
      check(result, 'subgraph');
      return result;
    };
    const local = await measure('same resolvers, no gateway (local schema)', ids, async (id) => {
      const ctx = await runtime.contextForRequest(headers);
      await run(schemas.tenants!, TENANT_PART, { id }, ctx);
      await run(schemas.profiles!, PROFILE_PART, { r: [{ __typename: 'Tenant', id }] }, ctx);
    });
    const direct = await measure('use cases called directly (no GraphQL)', ids, async (id) => {
      const ctx = await runtime.contextForRequest(headers);
      await getTenant(ctx, id);
      await profilesOfTenants(ctx, [id]);
    });

    const contextOnly = await measure('the ServiceContext alone (token verified)', ids, async () => {
      await runtime.contextForRequest(headers);
    });

    const rows = [viaGateway, viaLocal, viaFastPath, local, direct, contextOnly];
    console.log(`\n${REQUESTS} requests, one at a time, in process:`);
    for (const r of rows) console.log(`  ${r.name.padEnd(46)} CPU ${r.cpuMs.toFixed(2)} ms/request, wall ${r.wallMs.toFixed(2)} ms/request`);
    recordResults(
      'graphql-local-schema',
      rows.map((r) => ({
        case: `in process: ${r.name}`,
        value: r.cpuMs,
        unit: 'CPU ms/request',
        ...(r === viaGateway
          ? {}
          : { baseline: `in process: ${viaGateway.name}`, ratio: viaGateway.cpuMs / r.cpuMs, note: 'ratio: how many times cheaper than through the gateway' }),
      })),
    );
    await gateway.dispose?.();
    await localGraphQL.dispose();
  } finally {
    await server.close();
    await runtime.close();
  }
} finally {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
}

async function seed(databaseUrl: string, accountId: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const ids: string[] = [];
  for (let i = 0; i < TENANTS; i++) {
    const id = randomUUID();
    ids.push(id);
    await client.query('INSERT INTO tenant (id, "accountId", "referenceId", environment, "updatedDateTime") VALUES ($1, $2, $3, $4, now())', [
      id,
      accountId,
      `bench-${i}`,
      'demo',
    ]);
    if (i % 2 === 0)
      await client.query('INSERT INTO profile (id, "tenantId", "countryCode", environment, "updatedAt") VALUES ($1, $2, $3, $4, now())', [
        randomUUID(),
        id,
        'GB',
        'demo',
      ]);
  }
  await client.end();
  return ids;
}

async function platformAuthorization(base: string): Promise<string> {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, string>>;
  };
  const login = await post('/api/platform/v1/auth/login', USER);
  const key = await post(
    '/api/platform/v1/api-key',
    { name: `bench-${randomUUID()}`, scopes: ['profile:read'] },
    { authorization: `Bearer ${login.access_token}` },
  );
  const token = await post('/api/platform/v1/auth/token', undefined, { 'x-api-key': key.key as string });
  return `Bearer ${token.access_token}`;
}
