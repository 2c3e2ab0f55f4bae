/**
 * `npx tsx bench/graphql-limits.ts`: what the GraphQL operation limits cost. Two gateways over the
 * same runtime and database, one with the limits (tokens, field repeats, depth, aliases, directives,
 * cost) and one
 * without, answer the same dashboard-like queries through the gateway's fetch (no HTTP, so the
 * limits' share is not diluted by the network). Rounds alternate the order, after a warm-up; the
 * report gives each variant's median ops/s and median CPU per operation (this process's, from
 * `process.cpuUsage`: the gateway, the resolvers and the limits, not PostgreSQL's), and the target
 * is judged on CPU per operation: the limits' cost is CPU, and a throughput ratio of rounds about a
 * second long moved by ±10% between runs with nothing changed (1.09x in one whole run, 0.91x in the
 * next), which is noise twice the size of the 5% it is meant to judge.
 *
 * Needs a PostgreSQL (DATABASE_URL, default the local server). BENCH_ROUNDS (default 10),
 * BENCH_REQUESTS per round (default 400) and BENCH_CONCURRENCY (default 8) tune it.
 */
import type { GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { loadConfig } from '../src/kernel/config.js';
import { createAccountWithUser } from '../src/modules/identity/bootstrap.js';
import { createApiKey } from '../src/modules/identity/api-key-service.js';
import { login } from '../src/modules/identity/login-service.js';
import { API_KEY_SCOPES } from '../src/kernel/scopes.js';
import { issuePlatformToken } from '../src/modules/identity/token-service.js';
import { generateSigningJwk } from '../src/infra/signing-keys.js';
import { startRuntime } from '../src/processes/runtime.js';
import { createGateway } from '../src/api/graphql/gateway-runtime.js';
import { dropLeftoverDatabases } from './bench-databases.js';
import { recordResults } from './results.js';
import { gatewaySecurity } from '../src/api/graphql/gateway-security.js';
import { adminQuery, databaseUrlFor } from '../test/support/postgres-admin.js';
import { createRequire } from 'node:module';
import { costRefusal, operationShapeRule } from '../src/api/graphql/operation-limits.js';

// The gateway runs on graphql's CommonJS copy; its schema only validates with that copy.
const cjsGraphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');

const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const TERMS = ['acme', 'widget', 'global', 'north', 'smith', 'trading', 'bright', 'harbour'];
const QUERIES = [
  {
    query: 'query($t: String!) { companySearch(term: $t, limit: 10) { __typename } }',
    variables: (i: number) => ({ t: `${TERMS[i % TERMS.length]}${i % 3}` }),
  },
  {
    query:
      'query($t: String!, $show: Boolean!) { lenders { id name priceBand responseTimeHours products { name productType instantOffer } } companySearch(term: $t, limit: 5) @include(if: $show) { __typename } }',
    variables: (i: number) => ({ t: `${TERMS[(i + 3) % TERMS.length]}${i % 5}`, show: i % 4 !== 1 }),
  },
];

const dbName = `fg_bench_limits_${process.pid}`;
// Databases of earlier runs of this suite that were stopped before their cleanup (bench/bench-databases.ts).
await dropLeftoverDatabases('limits_');
await adminQuery(serverUrl, `CREATE DATABASE ${dbName}`);
const config = loadConfig(
  {},
  {
    DATABASE_URL: databaseUrlFor(serverUrl, dbName),
    AUTH_SIGNING_KEYS: JSON.stringify({ keys: [await generateSigningJwk()] }),
    SEED_DEMO_DATA: true,
    DB_POOL_SIZE: 8,
  },
);
const runtime = await startRuntime(config);
try {
  const user = { email: 'bench-limits@example.test', password: 'bench-password-123' };
  await createAccountWithUser(runtime.database.prisma, { environment: 'demo', accountName: 'bench', ...user });
  const signedIn = await login(runtime.contextFor(), user, '127.0.0.1');
  const key = await createApiKey(await runtime.contextForRequest({ authorization: `Bearer ${signedIn.access_token}` }), {
    name: 'bench',
    scopes: [...API_KEY_SCOPES],
  });
  const { access_token } = await issuePlatformToken(runtime.contextFor(), key.key);
  const contextFor = (request: { headers: Headers }) => runtime.contextForRequest(request.headers);
  const security = gatewaySecurity(config, async (headers) => (await runtime.contextForRequest(headers)).actor);
  const variants: Record<string, GatewayRuntime> = {
    'with limits': await createGateway({ mode: 'in-process', contextFor }, security),
    'without limits': await createGateway({ mode: 'in-process', contextFor }, { ...security, limits: undefined }),
  };
  const headers = { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${access_token}` };

  /** One round: ops/s, and this process's CPU (user + system) per operation in µs. */
  async function round(gateway: GatewayRuntime, requests: number): Promise<{ perSecond: number; cpuMicros: number }> {
    let next = 0;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < requests; i = next++) {
          const { query, variables } = QUERIES[i % QUERIES.length]!;
          const res = await gateway.fetch('http://gateway.local/graphql', {
            method: 'POST',
            headers,
            body: JSON.stringify({ query, variables: variables(i) }),
          });
          const body = (await res.json()) as { errors?: unknown[] };
          if (body.errors) throw new Error(`query failed: ${JSON.stringify(body.errors)}`);
        }
      }),
    );
    const elapsed = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    return { perSecond: (requests / elapsed) * 1000, cpuMicros: (cpu.user + cpu.system) / requests };
  }

  for (const gateway of Object.values(variants)) await round(gateway, REQUESTS / 2); // warm-up
  const results: Record<string, Array<{ perSecond: number; cpuMicros: number }>> = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? Object.keys(variants) : Object.keys(variants).reverse();
    for (const name of order) results[name]!.push(await round(variants[name]!, REQUESTS));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const medianOf = (name: string, figure: 'perSecond' | 'cpuMicros') => median(results[name]!.map((r) => r[figure]));
  const limited = medianOf('with limits', 'perSecond');
  const unlimited = medianOf('without limits', 'perSecond');
  const limitedCpu = medianOf('with limits', 'cpuMicros');
  const unlimitedCpu = medianOf('without limits', 'cpuMicros');
  console.log(`GraphQL through the gateway (in-process), ${ROUNDS} interleaved rounds of ${REQUESTS} requests, concurrency ${CONCURRENCY}:`);
  for (const [name, rs] of Object.entries(results)) {
    console.log(
      `  ${name.padEnd(15)} median ${medianOf(name, 'perSecond').toFixed(0)} ops/s, ${medianOf(name, 'cpuMicros').toFixed(0)} µs CPU/op  (rounds: ${rs.map((r) => r.perSecond.toFixed(0)).join(', ')} ops/s)`,
    );
  }
  const cpuCost = ((limitedCpu - unlimitedCpu) / unlimitedCpu) * 100;
  console.log(
    `  cost of the limits: ${cpuCost.toFixed(1)}% of CPU per operation; ${(((unlimited - limited) / unlimited) * 100).toFixed(1)}% of throughput (noisier)`,
  );

  // The limits' own work, isolated: parse (token limit), validate (depth, aliases, directives) and
  // estimate the cost (with the request's variables, as the servers do when the operation starts) of
  // the same queries against the gateway's schema, with and without them, interleaved.
  // An upper bound: the gateway caches parsing and validation per document.
  const schema = (await variants['with limits']!.getSchema()) as import('graphql').GraphQLSchema;
  const limits = security.limits!;
  const limitRules = [operationShapeRule(limits)];
  const perOperationMicros = (withLimits: boolean, iterations: number): number => {
    const started = performance.now();
    for (let i = 0; i < iterations; i++) {
      const { query, variables } = QUERIES[i % QUERIES.length]!;
      const document = cjsGraphql.parse(query, withLimits ? { maxTokens: limits.maxTokens } : {});
      const errors = cjsGraphql.validate(schema, document, withLimits ? [...cjsGraphql.specifiedRules, ...limitRules] : cjsGraphql.specifiedRules);
      if (errors.length > 0) throw new Error(errors.map((e) => e.message).join('; '));
      const refused = withLimits ? costRefusal(schema, document, limits.maxCost, { variables: variables(i) }) : null;
      if (refused) throw new Error(refused.message);
    }
    return ((performance.now() - started) * 1000) / iterations;
  };
  perOperationMicros(true, 500);
  perOperationMicros(false, 500);
  const micro: Record<'with' | 'without', number[]> = { with: [], without: [] };
  for (let r = 0; r < 10; r++) {
    micro.with.push(perOperationMicros(true, 1000));
    micro.without.push(perOperationMicros(false, 1000));
  }
  const extraMicros = median(micro.with) - median(micro.without);
  const requestMicros = (1_000_000 * CONCURRENCY) / unlimited;
  console.log(`  parse + validate per operation: ${median(micro.with).toFixed(1)} µs with limits, ${median(micro.without).toFixed(1)} µs without`);
  console.log(
    `  the limits add ${extraMicros.toFixed(1)} µs to a request taking ~${(requestMicros / 1000).toFixed(1)} ms: ${((extraMicros / requestMicros) * 100).toFixed(2)}% even if nothing were cached`,
  );
  recordResults('graphql-limits', [
    {
      case: 'GraphQL with operation limits',
      perSecond: limited,
      cpuMsPerRequest: limitedCpu / 1000,
      baseline: 'GraphQL without limits',
      ratio: limited / unlimited,
      cpuRatio: unlimitedCpu / limitedCpu,
      decidedBy: 'CPU per request',
      note: `CPU per operation ${limitedCpu.toFixed(0)} µs against ${unlimitedCpu.toFixed(0)} µs without (+${cpuCost.toFixed(1)}%; CPU decides); throughput ratio ${(limited / unlimited).toFixed(2)}x`,
      target: 'limits cost < 5% (CPU per operation)',
      met: cpuCost < 5,
    },
    { case: 'GraphQL without limits', perSecond: unlimited, cpuMsPerRequest: unlimitedCpu / 1000 },
    {
      case: 'limits: parse + validate added per operation',
      value: extraMicros,
      unit: 'µs',
      note: `${((extraMicros / requestMicros) * 100).toFixed(2)}% of a request`,
    },
  ]);
  await Promise.all(Object.values(variants).map((g) => g.dispose()));
} finally {
  await runtime.close();
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
}
