/**
 * A subgraph of the distributed deployment answers the gateway only, with the gateway's limits:
 * tried as an attacker on the subgraph's port would, with the least credential that could try it (a
 * Marketplace V1 token of a key holding no scope companySearch needs: it needs none), and as the
 * gateway, which presents the deployment's subgraph secret (src/api/http/gateway-only.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/api/http/listen.js';
import { GATEWAY_SECRET_HEADER } from '../src/api/http/gateway-only.js';
import { createLogger } from '../src/infra/logger.js';
import { startRemoteGatewayServer } from '../src/processes/remote-gateway-server.js';
import { startSubgraphServer } from '../src/processes/subgraph-server.js';
import { UNRELATED_KEY_SCOPE } from './support/credentials.js';
import { graphql, settle, subscribe } from './support/graphql-client.js';
import { bearer, createApiKey, createTenant, marketplaceV1Token, signUpIntegrator, type Integrator } from './support/identities.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = randomBytes(32).toString('base64url');
const AS_GATEWAY = { [GATEWAY_SECRET_HEADER]: SECRET };
const COMPANY_SEARCH = 'query($n: Int) { companySearch(term: "acme", limit: $n) { number } }';
/** The attack the gateway refuses: 1,500 aliased searches of 100 hits each. */
const ALIASED_SEARCHES = `{ ${Array.from({ length: 1500 }, (_, i) => `a${i}: companySearch(term: "acme", limit: 100) { number name }`).join(' ')} }`;

let app: TestApp;
let integrator: Integrator;
let profiles: RunningServer;
let tenants: RunningServer;
let gateway: RunningServer;
beforeAll(async () => {
  app = await startTestApp({ config: { SUBGRAPH_SECRET: SECRET } });
  integrator = await signUpIntegrator(app);
  [profiles, tenants] = await Promise.all([startSubgraphServer('profiles', app.runtime, 0), startSubgraphServer('tenants', app.runtime, 0)]);
  const unreachable = 'http://127.0.0.1:9/graphql';
  gateway = await startRemoteGatewayServer(
    { profiles: `${profiles.url}/graphql`, matches: unreachable, applications: unreachable, tenants: `${tenants.url}/graphql` },
    { ...app.runtime.config, PORT: 0, HOST: '127.0.0.1', METRICS_TOKEN: undefined, METRICS_PORT: undefined },
    createLogger('silent'),
  );
});
afterAll(async () => {
  await gateway?.close();
  await Promise.all([profiles?.close(), tenants?.close()]);
  await app?.close();
});

/** A Marketplace V1 token of a fresh key that holds no scope any rule here names. */
async function marketplaceToken(): Promise<Record<string, string>> {
  const key = await createApiKey(app, integrator.loginToken, { name: `subgraph-${randomUUID().slice(0, 8)}`, scopes: [UNRELATED_KEY_SCOPE] });
  return bearer((await marketplaceV1Token(app, key.key)).jwt);
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; contentType: string | null; body: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body });
  return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
}

/** The status a WebSocket upgrade is answered with: 101 when it is accepted. */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers });
    socket.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      socket.terminate();
    });
    socket.once('open', () => {
      resolve(101);
      socket.close();
    });
    socket.once('error', (err) => (err.message.includes('Unexpected server response') ? undefined : reject(err)));
  });
}

describe('a subgraph without the gateway credential', () => {
  it('refuses a request before reading its body: a 4 MB malformed body is answered 401, not a parse or size error', async () => {
    const malformed = `{"query": "{ companySearch(term: \\"acme\\") { number } }", ${'['.repeat(4 * 1024 * 1024)}`;
    const token = await marketplaceToken();
    for (const [headers, status] of [
      [token, 401],
      [{ ...token, [GATEWAY_SECRET_HEADER]: `${SECRET.slice(1)}x` }, 403],
      [{ ...token, [GATEWAY_SECRET_HEADER]: 'short' }, 403],
    ] as const) {
      const res = await post(`${profiles.url}/graphql`, malformed, headers);
      expect(res.status).toBe(status);
      expect(res.contentType).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.body)).toMatchObject({ status, detail: expect.stringContaining(`${GATEWAY_SECRET_HEADER} header`) });
    }
    // With the credential, the same body is read, and refused for what it is.
    expect((await post(`${profiles.url}/graphql`, malformed, { ...token, ...AS_GATEWAY })).status).toBe(413);
    expect((await post(`${profiles.url}/graphql`, '{"query": ', { ...token, ...AS_GATEWAY })).status).toBe(400);
  });

  it('does not answer _service { sdl }, a query, or the credential check to anyone else; the probes stay open', async () => {
    const token = await marketplaceToken();
    for (const headers of [{}, token]) {
      for (const base of [profiles.url, tenants.url]) {
        const sdl = await post(`${base}/graphql`, JSON.stringify({ query: '{ _service { sdl } }' }), headers);
        expect(sdl.status).toBe(401);
        expect(sdl.body).not.toMatch(/type Query|extend schema/);
      }
      expect((await post(`${profiles.url}/graphql`, JSON.stringify({ query: COMPANY_SEARCH, variables: { n: 5 } }), headers)).status).toBe(401);
      expect((await fetch(`${tenants.url}/credential-status`, { headers })).status).toBe(401);
      expect((await fetch(`${tenants.url}/graphql?query=${encodeURIComponent('{ _service { sdl } }')}`, { headers })).status).toBe(401);
    }
    expect((await fetch(`${profiles.url}/health`)).status).toBe(200);
    expect((await fetch(`${profiles.url}/health/ready`)).status).toBe(200);
    // The gateway's credential is what makes the difference.
    const asGateway = await post(`${profiles.url}/graphql`, JSON.stringify({ query: '{ _service { sdl } }' }), AS_GATEWAY);
    expect(asGateway.status).toBe(200);
    expect((JSON.parse(asGateway.body) as { data: { _service: { sdl: string } } }).data._service.sdl).toContain('companySearch');
  });

  it('refuses a WebSocket upgrade (401, 403 for a wrong secret) and accepts the gateway’s', async () => {
    const token = await marketplaceToken();
    expect(await upgradeStatus(tenants.url, token)).toBe(401);
    expect(await upgradeStatus(tenants.url, { ...token, [GATEWAY_SECRET_HEADER]: randomBytes(32).toString('base64url') })).toBe(403);
    expect(await upgradeStatus(tenants.url, { ...token, ...AS_GATEWAY })).toBe(101);
  });
});

describe("a subgraph with the gateway's credential", () => {
  it('refuses the aliased companySearch(limit: 100) x1500 attack, and each limit alone, naming it', async () => {
    const headers = { ...(await marketplaceToken()), ...AS_GATEWAY };
    const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
      [ALIASED_SEARCHES, {}, /^Syntax Error: Token limit of 2000 exceeded\.$/],
      [
        `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: companySearch(term: "acme", limit: 1) { number }`).join(' ')} }`,
        {},
        /^Syntax Error: Aliases limit of 30 exceeded, found 31\.$/,
      ],
      [
        `{ ${Array.from({ length: 400 }, () => '__typename').join(' ')} }`,
        {},
        /selected 400 times in one selection set; at most 10 \(GRAPHQL_MAX_FIELD_REPEATS\)/,
      ],
      [COMPANY_SEARCH, { n: 1_000_000 }, /^Query refused: estimated cost over 50000 exceeds 5000 \(GRAPHQL_MAX_COST\)\.$/],
    ];
    for (const [query, variables, message] of refusals) {
      const res = await post(`${profiles.url}/graphql`, JSON.stringify({ query, variables }), headers);
      expect(res.status, query.slice(0, 40)).toBe(400);
      const body = JSON.parse(res.body) as { data?: unknown; errors: Array<{ message: string; extensions: { code: string } }> };
      expect(body.data ?? null).toBeNull();
      expect(body.errors).toEqual([
        expect.objectContaining({ message: expect.stringMatching(message), extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }) }),
      ]);
    }
  });

  it('checks the cost again for a query it has answered before: a larger page size from the variables is refused', async () => {
    const headers = { ...(await marketplaceToken()), ...AS_GATEWAY };
    for (let i = 0; i < 2; i++) {
      const within = await post(`${profiles.url}/graphql`, JSON.stringify({ query: COMPANY_SEARCH, variables: { n: 5 } }), headers);
      expect(JSON.parse(within.body)).toEqual({ data: { companySearch: expect.any(Array) } });
    }
    const over = await post(`${profiles.url}/graphql`, JSON.stringify({ query: COMPANY_SEARCH, variables: { n: 1_000_000 } }), headers);
    expect(over.status).toBe(400);
    expect(over.body).toContain('GRAPHQL_MAX_COST');
  });
});

/** The first answer (result or error) to one graphql-ws operation, sent to the subgraph as the gateway sends it. */
async function overWebSocket(url: string, query: string, connectionParams: Record<string, string>): Promise<unknown> {
  const client = createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: class extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers: AS_GATEWAY });
      }
    },
    retryAttempts: 0,
    connectionParams,
  });
  try {
    return await new Promise((resolve) => {
      let first: unknown;
      client.subscribe({ query }, { next: (value) => (first ??= value), error: (err) => resolve(err), complete: () => resolve(first) });
    });
  } finally {
    await client.dispose();
  }
}

describe("a subgraph's graphql-ws endpoint, with the gateway's credential", () => {
  it('refuses subscriptions past the limits before they start, naming each', async () => {
    const token = await marketplaceToken();
    const aliased = `subscription { tenantCreated { ${Array.from({ length: 31 }, (_, i) => `a${i}: id`).join(' ')} } }`;
    const repeated = `subscription { tenantCreated { ${Array.from({ length: 11 }, () => 'id').join(' ')} } }`;
    const long = `subscription { tenantCreated { ${'__typename '.repeat(2100)} } }`;
    for (const [query, message] of [
      [aliased, /^Syntax Error: Aliases limit of 30 exceeded, found 31\.$/],
      [repeated, /field "id" is selected 11 times in one selection set; at most 10 \(GRAPHQL_MAX_FIELD_REPEATS\)/],
      [long, /^Syntax Error: Token limit of 2000 exceeded\.$/],
    ] as const) {
      expect(await overWebSocket(tenants.url, query, token)).toEqual([
        expect.objectContaining({ message: expect.stringMatching(message), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
      ]);
    }
  });
});

describe('through the gateway', () => {
  it('queries and subscriptions still work: the gateway presents its credential over HTTP and on the upgrade', async () => {
    const token = await marketplaceToken();
    expect(await graphql(gateway.url, COMPANY_SEARCH, { n: 5 }, token)).toEqual({ data: { companySearch: expect.any(Array) } });
    // And the gateway refuses the attack itself, as before.
    expect((await graphql(gateway.url, ALIASED_SEARCHES, {}, token)).errors?.[0]?.message).toMatch(/Token limit of 2000 exceeded/);
    // What the gateway sends for operations at its own limits passes the subgraphs' (the same limits):
    // 30 aliases, and an entity fetch (Tenant.profile, from the profiles subgraph) under a page of tenants.
    const aliased = `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: companySearch(term: "acme", limit: 1) { number }`).join(' ')} }`;
    expect((await graphql(gateway.url, aliased, {}, token)).errors).toBeUndefined();
    const platform = bearer(integrator.platformToken);
    await createTenant(app, integrator.platformToken);
    const page = await graphql<{ tenants: { items: Array<{ id: string; profile: unknown }> } }>(
      gateway.url,
      '{ tenants(limit: 100) { items { id referenceId profile { uuid companyName } } } }',
      {},
      platform,
    );
    expect(page.errors).toBeUndefined();
    expect(page.data?.tenants.items.length).toBeGreaterThan(0);
    const sub = await subscribe(gateway.url, 'subscription { tenantCreated { id } }', {}, platform);
    try {
      await settle(800);
      const created = await createTenant(app, integrator.platformToken);
      expect(await sub.next()).toEqual({ data: { tenantCreated: { id: created.id } } });
    } finally {
      await sub.close();
    }
  });
});
