/**
 * GraphQL and graphql-ws limits (docs/security/graphql-limits.md), tried as an attacker would: a
 * stock graphql-ws client (createClient over `ws`) or a bare WebSocket, and fetch. Each probe uses
 * the least credential that could try it: a platform token of a fresh API key holding no scope any
 * rule names (tenantCreated needs none), or a lender's own id_token.
 */
import { randomUUID } from 'node:crypto';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { TOKEN_TTL_SECONDS } from '../src/modules/identity/token-service.js';
import { UNRELATED_KEY_SCOPE } from './support/credentials.js';
import { graphql, settle } from './support/graphql-client.js';
import {
  bearer,
  createApiKey,
  createTenant,
  lenderCredentials,
  lenderIdToken,
  platformToken,
  signUpIntegrator,
  type Integrator,
} from './support/identities.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { createLogger } from '../src/infra/logger.js';
import { startRemoteGatewayServer } from '../src/processes/remote-gateway-server.js';
import { startSubgraphServer } from '../src/processes/subgraph-server.js';
import type { RunningServer } from '../src/api/http/listen.js';

const INIT_TIMEOUT_MS = 1_000;
const TENANT_CREATED = 'subscription { tenantCreated { id } }';
const STATUS_CHANGED = 'subscription { applicationStatusChanged { applicationId status } }';

let app: TestApp;
let integrator: Integrator;
const lenders: LenderCredentials[] = [];
beforeAll(async () => {
  app = await startTestApp({
    config: {
      GRAPHQL_WS_INIT_TIMEOUT_MS: INIT_TIMEOUT_MS,
      GRAPHQL_WS_CREDENTIAL_RECHECK_MS: 500,
      // Low enough to reach in a test; every other probe here uses a fresh key with its own budget.
      RATE_LIMIT_PER_CREDENTIAL: 200,
    },
  });
  integrator = await signUpIntegrator(app);
  const rows = await app.runtime.database.prisma.lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 2 });
  for (const row of rows) lenders.push(await lenderCredentials(app, row.id));
});
afterAll(() => app?.close());

/** A platform token of a fresh key (its own rate-limit budget and socket count) holding no relevant scope. */
async function freshKeyToken(): Promise<string> {
  const key = await createApiKey(app, integrator.loginToken, { name: `ws-limits-${randomUUID().slice(0, 8)}`, scopes: [UNRELATED_KEY_SCOPE] });
  return (await platformToken(app, key.key)).access_token;
}

interface Connection {
  client: Client;
  /** True once acknowledged; false when the socket closed first. */
  connected: Promise<boolean>;
  closed: Promise<{ code: number; reason: string }>;
}

/** A stock graphql-ws client that does not retry, so the server's close is what the test sees. */
function connect(connectionParams: Record<string, string>, upgradeHeaders: Record<string, string> = {}, baseUrl = app.url): Connection {
  let closedWith: (event: { code: number; reason: string }) => void = () => {};
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (closedWith = resolve));
  let connectedWith: (ok: boolean) => void = () => {};
  const connected = new Promise<boolean>((resolve) => (connectedWith = resolve));
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    // Headers on the upgrade request, as non-browser clients send them.
    webSocketImpl: class extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: upgradeHeaders });
      }
    },
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: () => {},
    connectionParams,
    on: {
      connected: () => connectedWith(true),
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: string };
        connectedWith(false);
        closedWith({ code, reason: String(reason) });
      },
    },
  });
  return { client, connected, closed };
}

/**
 * connection_init payloads a stock client may send that are refused, each with the reason the close
 * must give: an expired token, a token that is no API token (a signed link), an API key sent as if it
 * were a token, a token of a revoked API key.
 */
async function badCredentials(): Promise<Array<[Record<string, string>, RegExp]>> {
  const lender = lenders[0]!;
  const shortLived = await app.runtime.auth.tokens.sign(
    { tkn: 'lender', scope: 'openid', lid: lender.lenderId, azp: lender.clientId },
    { subject: `lender:${lender.lenderId}`, ttlSeconds: 1, audience: lender.clientId },
  );
  const link = await app.runtime.auth.tokens.signLink('00000000-0000-4000-8000-000000000000', 300);
  const key = await createApiKey(app, integrator.loginToken, { name: `ws-revoked-${randomUUID().slice(0, 8)}`, scopes: [UNRELATED_KEY_SCOPE] });
  const revoked = (await platformToken(app, key.key)).access_token;
  const revoking = await fetch(`${app.url}/api/platform/v1/api-key/${key.id}`, { method: 'DELETE', headers: bearer(integrator.loginToken) });
  expect(revoking.status).toBe(204);
  await settle(2_100); // the short-lived token expires (JWT times are whole seconds)
  return [
    [{}, /^Forbidden: A bearer token is required/],
    [bearer(shortLived), /^Forbidden: Invalid token: it has expired/],
    [bearer(link), /^Forbidden: Invalid token: /],
    [bearer(key.key), /^Forbidden: Invalid token: it is not a well-formed signed JWT/],
    [bearer(revoked), /^Forbidden: Invalid token: its API key has been revoked/],
  ];
}

/** The first result (or error) of one operation over a connection. */
function firstAnswer(client: Client, query: string): Promise<unknown> {
  return firstAnswerOf(client, query, {});
}

function firstAnswerOf(client: Client, query: string, variables: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve) => {
    let answer: unknown;
    client.subscribe({ query, variables }, { next: (value) => (answer ??= value), error: (err) => resolve(err), complete: () => resolve(answer) });
  });
}

/** Subscribes; resolves with the first error (or 'completed') the subscription receives. */
function subscription(client: Client, query: string): { ended: Promise<unknown> } {
  let end: (value: unknown) => void = () => {};
  const ended = new Promise<unknown>((resolve) => (end = resolve));
  client.subscribe({ query }, { next: () => {}, error: (err) => end(err), complete: () => end('completed') });
  return { ended };
}

const COMPANY_SEARCH = 'query($n: Int) { companySearch(term: "acme", limit: $n) { number } }';

/** Operations just past one limit each (defaults: tokens 2000, depth 12, directives 20, cost 5000), with the error each gets. */
const LIMIT_PROBES: Array<[string, Record<string, unknown>, string]> = [
  [`{ ${Array.from({ length: 1001 }, (_, i) => `a${i}: b`).join(' ')} }`, {}, 'Syntax Error: Token limit of 2000 exceeded.'],
  // Refused before the fields are looked up: the depth of the document is enough.
  [`{ ${'a { '.repeat(12)}b${' }'.repeat(12)} }`, {}, 'Syntax Error: Query depth limit of 12 exceeded, found 13.'],
  [
    `{ ${Array.from({ length: 21 }, (_, i) => `t${i}: __typename @include(if: true)`).join(' ')} }`,
    {},
    'Syntax Error: Directives limit of 20 exceeded, found 21.',
  ],
  [COMPANY_SEARCH, { n: 1_000_000 }, 'Query refused: estimated cost over 50000 exceeds 5000 (GRAPHQL_MAX_COST).'],
];

/** The error code each probe's refusal carries, as before the limits moved to one library (the cost one is a validation error). */
const LIMIT_CODES = [{ code: 'GRAPHQL_PARSE_FAILED' }, undefined, undefined, { code: 'GRAPHQL_VALIDATION_FAILED' }];

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms))]);

describe('graphql-ws: authentication at connection_init', () => {
  it('closes a socket that sends no connection_init with 4408 once GRAPHQL_WS_INIT_TIMEOUT_MS has passed', async () => {
    const socket = new WebSocket(`${app.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    const code = await within(new Promise<number>((resolve) => socket.on('close', (c) => resolve(c))), 5_000, 'close');
    expect(code).toBe(4408);
  });

  it('refuses connection_init without credentials, and with a bad token, with 4403 saying why', async () => {
    const anonymous = connect({});
    expect(await anonymous.connected).toBe(false);
    expect(await anonymous.closed).toEqual({ code: 4403, reason: expect.stringMatching(/bearer token is required/i) });
    const forged = connect({ authorization: 'Bearer not-a-token' });
    expect(await forged.connected).toBe(false);
    expect((await forged.closed).code).toBe(4403);
    await Promise.all([anonymous.client.dispose(), forged.client.dispose()]);
  });

  it('refuses, before reading any subscription, an expired token, a token of another kind, a bare API key and a revoked key, each saying why', async () => {
    for (const [params, reason] of await badCredentials()) {
      const refused = connect(params);
      expect(await refused.connected).toBe(false);
      expect(await refused.closed).toEqual({ code: 4403, reason: expect.stringMatching(reason) });
      await refused.client.dispose();
    }
    // A good token of the least privilege is acknowledged and its subscriptions run.
    const good = connect(bearer(await freshKeyToken()));
    expect(await good.connected).toBe(true);
    expect(await firstAnswer(good.client, '{ __typename }')).toEqual({ data: { __typename: 'Query' } });
    await good.client.dispose();
  });

  it('reads no subscribe message before the connection is acknowledged (graphql-ws closes with 4401), even with a bad token', async () => {
    for (const token of ['not-a-token', await freshKeyToken()]) {
      const socket = new WebSocket(`${app.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
      const received: string[] = [];
      socket.on('message', (data) => received.push(String(data)));
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      await new Promise((resolve) => socket.once('open', resolve));
      // Both at once: the subscribe arrives while connection_init is still being checked.
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
      socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: TENANT_CREATED } }));
      expect([4401, 4403]).toContain(await within(closed, 10_000, 'close'));
      expect(received.filter((m) => !m.includes('connection_ack'))).toEqual([]);
    }
  });

  it('takes credentials from the upgrade request too; when both places carry one, they must agree (else 4403)', async () => {
    const token = await freshKeyToken();
    const upgradeOnly = connect({ clientName: 'not a credential' }, bearer(token));
    expect(await upgradeOnly.connected).toBe(true);
    const agreeing = connect(bearer(token), bearer(token));
    expect(await agreeing.connected).toBe(true);
    const disagreeing = connect({ authorization: 'Bearer not-a-token' }, bearer(token));
    expect(await disagreeing.connected).toBe(false);
    expect(await disagreeing.closed).toEqual({ code: 4403, reason: expect.stringMatching(/different authorization/) });
    await Promise.all([upgradeOnly, agreeing, disagreeing].map((c) => c.client.dispose()));
  });
});

describe('graphql-ws: caps per credential', () => {
  it('refuses the 101st subscription of one credential over its sockets, naming the limit', async () => {
    const token = await freshKeyToken();
    const [first, second] = [connect(bearer(token)), connect(bearer(token))];
    try {
      expect(await Promise.all([first.connected, second.connected])).toEqual([true, true]);
      const live = [
        ...Array.from({ length: 50 }, () => subscription(first.client, TENANT_CREATED)),
        ...Array.from({ length: 50 }, () => subscription(second.client, TENANT_CREATED)),
      ];
      // graphql-ws tells a client nothing when a subscription is registered: give both sockets' messages time to arrive.
      await settle(1_000);
      const refused = await within(subscription(second.client, TENANT_CREATED).ended, 10_000, 'the 101st subscription');
      expect(refused).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(/at most 100 at once \(GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL\)/),
          extensions: expect.objectContaining({ code: 'TOO_MANY_REQUESTS' }),
        }),
      ]);
      // The hundred stay live.
      const stillLive = await Promise.race([Promise.race(live.map((s) => s.ended)), new Promise((r) => setTimeout(() => r('live'), 500))]);
      expect(stillLive).toBe('live');
    } finally {
      await Promise.all([first.client.dispose(), second.client.dispose()]);
    }
  });

  it('closes the 21st socket of one credential with 4429, naming the limit', async () => {
    const token = await freshKeyToken();
    const open = Array.from({ length: 20 }, () => connect(bearer(token)));
    try {
      expect(await Promise.all(open.map((c) => c.connected))).toEqual(Array(20).fill(true));
      const extra = connect(bearer(token));
      expect(await extra.connected).toBe(false);
      expect(await extra.closed).toEqual({ code: 4429, reason: expect.stringMatching(/GRAPHQL_WS_MAX_SOCKETS_PER_CREDENTIAL/) });
      await extra.client.dispose();
    } finally {
      await Promise.all(open.map((c) => c.client.dispose()));
    }
  });

  it('charges each subscribe message to the same rate limits as HTTP requests', async () => {
    const token = await freshKeyToken();
    // Half the credential's budget spent over HTTP, the rest over graphql-ws: the next message is refused.
    for (let i = 0; i < 100; i++) expect((await graphql(app.url, '{ __typename }', {}, bearer(token))).data).toEqual({ __typename: 'Query' });
    const conn = connect(bearer(token));
    try {
      expect(await conn.connected).toBe(true);
      const ask = () =>
        new Promise<unknown>((resolve) => {
          let answer: unknown;
          conn.client.subscribe({ query: '{ __typename }' }, { next: (v) => (answer = v), error: (e) => resolve(e), complete: () => resolve(answer) });
        });
      for (let i = 0; i < 100; i++) expect(await ask()).toEqual({ data: { __typename: 'Query' } });
      expect(await ask()).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(/Too many requests/),
          extensions: expect.objectContaining({ code: 'TOO_MANY_REQUESTS', retryAfterSeconds: expect.any(Number) }),
        }),
      ]);
      // And HTTP is refused too: one budget.
      const res = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(token) },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(res.status).toBe(429);
    } finally {
      await conn.client.dispose();
    }
  });
});

describe('graphql-ws: message size', () => {
  it('closes the socket (1009) on a message over GRAPHQL_WS_MAX_MESSAGE_BYTES', async () => {
    const conn = connect(bearer(await freshKeyToken()));
    expect(await conn.connected).toBe(true);
    const oversize = `# ${'x'.repeat(100 * 1024)}\n${TENANT_CREATED}`;
    subscription(conn.client, oversize);
    expect((await within(conn.closed, 10_000, 'close')).code).toBe(1009);
    await conn.client.dispose();
  });
});

describe("graphql-ws: a subscriber's credential keeps counting", () => {
  it("ends a lender's subscription when its token expires (4403)", async () => {
    const lender = lenders[0]!;
    // A lender id_token as /oauth/token signs it (lender-oauth-service.ts), living 3 s instead of 120.
    const token = await app.runtime.auth.tokens.sign(
      { tkn: 'lender', scope: 'openid', lid: lender.lenderId, azp: lender.clientId },
      { subject: `lender:${lender.lenderId}`, ttlSeconds: 3, audience: lender.clientId },
    );
    expect(TOKEN_TTL_SECONDS.lender).toBeGreaterThan(3);
    const conn = connect(bearer(token));
    expect(await conn.connected).toBe(true);
    const sub = subscription(conn.client, STATUS_CHANGED);
    expect(await within(conn.closed, 15_000, 'close at expiry')).toEqual({ code: 4403, reason: 'Forbidden: the token has expired' });
    expect(await sub.ended).toMatchObject({ code: 4403 });
    await conn.client.dispose();
  });

  it("ends a lender's subscription once its credentials are re-issued, and its old token stops working on REST", async () => {
    const lender = lenders[1]!;
    const token = await lenderIdToken(app, lender);
    const conn = connect(bearer(token));
    expect(await conn.connected).toBe(true);
    const sub = subscription(conn.client, STATUS_CHANGED);
    // As the admin CLI's `lender-credentials` does, in another process: the answer cached here
    // (CREDENTIAL_STATUS_TTL_MS, 30 s) delays the end by at most that long.
    await lenderCredentials(app, lender.lenderId);
    const closed = await within(conn.closed, 45_000, 'close after re-issue');
    expect(closed).toEqual({ code: 4403, reason: expect.stringMatching(/re-issued/) });
    expect(await sub.ended).toMatchObject({ code: 4403 });
    const rest = await fetch(`${app.url}/api/platform/v1/funding/applications`, { headers: bearer(token) });
    expect(rest.status).toBe(401);
    await conn.client.dispose();
  }, 60_000);
});

describe('GraphQL over HTTP: cost and size', () => {
  it('refuses 400 repeats of one field (no aliases, within the token limit) before validating, naming the limit', async () => {
    for (const field of ['__typename', 'lenders { name }']) {
      const res = await graphql(app.url, `{ ${Array.from({ length: 400 }, () => field).join(' ')} }`);
      expect(res.data ?? null).toBeNull();
      expect(res.errors).toEqual([
        expect.objectContaining({
          message: `Query refused: field "${field.split(' ')[0]}" is selected 400 times in one selection set; at most 10 (GRAPHQL_MAX_FIELD_REPEATS).`,
        }),
      ]);
    }
    // Fragments count where they are spread.
    const spreads = await graphql(app.url, `{ ${Array.from({ length: 11 }, () => '... on Query { __typename }').join(' ')} }`);
    expect(spreads.errors?.[0]?.message).toMatch(/selected 11 times.*GRAPHQL_MAX_FIELD_REPEATS/);
    // Ten are allowed.
    expect(await graphql(app.url, `{ ${Array.from({ length: 10 }, () => '__typename').join(' ')} }`)).toEqual({ data: { __typename: 'Query' } });
  });

  it('refuses a 2 MB body from a caller without a token before parsing it, declared or chunked', async () => {
    const big = JSON.stringify({ query: `{ __typename } # ${'x'.repeat(2 * 1024 * 1024)}` });
    const declared = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      detail: 'Request body is larger than 1048576 bytes (GRAPHQL_MAX_BODY_BYTES_ANONYMOUS)',
    });
    // Not JSON at all: refused for its size, so it was never parsed.
    const garbage = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{'.repeat(2 * 1024 * 1024) });
    expect(await garbage.json()).toMatchObject({ detail: expect.stringMatching(/GRAPHQL_MAX_BODY_BYTES_ANONYMOUS/) });
    // Streamed without a Content-Length: counted while it arrives.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 32; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(64 * 1024)));
        controller.close();
      },
    });
    const chunked = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toMatchObject({ detail: expect.stringMatching(/GRAPHQL_MAX_BODY_BYTES_ANONYMOUS/) });
    // A caller with a verified token may send it (room for a 10 MB document in base64).
    const signedIn = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...bearer(await freshKeyToken()) },
      body: big,
    });
    expect(await signedIn.json()).toEqual({ data: { __typename: 'Query' } });
    // Ordinary anonymous requests are untouched.
    expect(await graphql(app.url, '{ __typename }')).toEqual({ data: { __typename: 'Query' } });
  });

  it('refuses past the depth, directives and variable-given cost limits, naming each; within them the operation runs', async () => {
    const token = bearer(await freshKeyToken());
    for (const [index, [query, variables, message]] of LIMIT_PROBES.entries()) {
      const res = await graphql(app.url, query, variables, token);
      expect(res.data ?? null).toBeNull();
      expect(res.errors).toEqual([expect.objectContaining({ message })]);
      expect(res.errors?.[0]?.extensions).toEqual(LIMIT_CODES[index]);
    }
    // As validation errors are: 400 for a client asking for application/graphql-response+json.
    const strict = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...token },
      body: JSON.stringify({ query: COMPANY_SEARCH, variables: { n: 1_000_000 } }),
    });
    expect(strict.status).toBe(400);
    expect(await strict.json()).toEqual({
      errors: [expect.objectContaining({ message: LIMIT_PROBES[3]![2], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })],
    });
    // Over graphql-ws the same operation gets the same refusal.
    const conn = connect(token);
    expect(await conn.connected).toBe(true);
    expect(await firstAnswerOf(conn.client, COMPANY_SEARCH, { n: 1_000_000 })).toEqual({
      errors: [expect.objectContaining({ message: LIMIT_PROBES[3]![2], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })],
    });
    await conn.client.dispose();
    // A page size within the limit, from a variable, runs (the answer is the access rule's, not a limit's).
    const within = await graphql(app.url, COMPANY_SEARCH, { n: 5 }, token);
    expect(JSON.stringify(within.errors ?? [])).not.toMatch(/GRAPHQL_MAX|limit of/);
  });

  it('suggests field names in demo, where introspection is open to everyone', async () => {
    const res = await graphql(app.url, '{ lendrs { name } }');
    expect(res.errors?.[0]?.message).toMatch(/Did you mean "lenders" or "lender"\?/);
  });
});

describe('the distributed gateway (subgraphs over HTTP and graphql-ws) applies the same limits', () => {
  let subgraph: RunningServer;
  let gateway: RunningServer;
  beforeAll(async () => {
    subgraph = await startSubgraphServer('tenants', app.runtime, 0);
    const unreachable = 'http://127.0.0.1:9/graphql';
    gateway = await startRemoteGatewayServer(
      { profiles: unreachable, matches: unreachable, applications: unreachable, tenants: `${subgraph.url}/graphql` },
      { ...app.runtime.config, PORT: 0, HOST: '127.0.0.1', METRICS_TOKEN: undefined, METRICS_PORT: undefined },
      createLogger('silent'),
    );
  });
  afterAll(async () => {
    await gateway?.close();
    await subgraph?.close();
  });

  it('refuses sockets without credentials (4403), closes them when the token expires, and closes on over-size messages (1009)', async () => {
    const anonymous = connect({}, {}, gateway.url);
    expect(await anonymous.closed).toMatchObject({ code: 4403 });
    const lender = lenders[0]!;
    const shortLived = await app.runtime.auth.tokens.sign(
      { tkn: 'lender', scope: 'openid', lid: lender.lenderId, azp: lender.clientId },
      { subject: `lender:${lender.lenderId}`, ttlSeconds: 3, audience: lender.clientId },
    );
    const expiring = connect(bearer(shortLived), {}, gateway.url);
    expect(await expiring.connected).toBe(true);
    expect(await within(expiring.closed, 15_000, 'close at expiry')).toEqual({ code: 4403, reason: 'Forbidden: the token has expired' });
    const oversize = connect(bearer(await freshKeyToken()), {}, gateway.url);
    expect(await oversize.connected).toBe(true);
    subscription(oversize.client, `# ${'x'.repeat(100 * 1024)}\n${TENANT_CREATED}`);
    expect((await within(oversize.closed, 10_000, 'close')).code).toBe(1009);
    await Promise.all([anonymous, expiring, oversize].map((c) => c.client.dispose()));
  });

  it('refuses at connection_init, saying why, what the single process refuses: a revoked key among them (asked of a subgraph)', async () => {
    for (const [params, reason] of await badCredentials()) {
      const refused = connect(params, {}, gateway.url);
      expect(await refused.connected).toBe(false);
      expect(await refused.closed).toEqual({ code: 4403, reason: expect.stringMatching(reason) });
      await refused.client.dispose();
    }
    const good = connect(bearer(await freshKeyToken()), {}, gateway.url);
    expect(await good.connected).toBe(true);
    await good.client.dispose();
  });

  it("closes a connection whose key is revoked while it is open (4403), on the gateway's re-check", async () => {
    const key = await createApiKey(app, integrator.loginToken, { name: `ws-revoke-live-${randomUUID().slice(0, 8)}`, scopes: [UNRELATED_KEY_SCOPE] });
    const conn = connect(bearer((await platformToken(app, key.key)).access_token), {}, gateway.url);
    expect(await conn.connected).toBe(true);
    expect((await fetch(`${app.url}/api/platform/v1/api-key/${key.id}`, { method: 'DELETE', headers: bearer(integrator.loginToken) })).status).toBe(204);
    // GRAPHQL_WS_CREDENTIAL_RECHECK_MS is 500 here; the revoking process forgot its cached answer at once.
    expect(await within(conn.closed, 15_000, 'close after revocation')).toEqual({
      code: 4403,
      reason: 'Forbidden: Invalid token: its API key has been revoked',
    });
    await conn.client.dispose();
  });

  it("delivers each account's tenantCreated only to that account's subscribers, whose keys hold no scope", async () => {
    const [mine, other] = [integrator, await signUpIntegrator(app)];
    const leastPrivileged = async (owner: Integrator) =>
      (await platformToken(app, (await createApiKey(app, owner.loginToken, { name: `ws-sub-${randomUUID().slice(0, 8)}`, scopes: [UNRELATED_KEY_SCOPE] })).key))
        .access_token;
    const heard = { mine: [] as string[], other: [] as string[] };
    const connections = await Promise.all(
      (['mine', 'other'] as const).map(async (who) => {
        const conn = connect(bearer(await leastPrivileged(who === 'mine' ? mine : other)), {}, gateway.url);
        expect(await conn.connected).toBe(true);
        conn.client.subscribe<{ tenantCreated: { id: string } }>(
          { query: TENANT_CREATED },
          { next: (r) => r.data && heard[who].push(r.data.tenantCreated.id), error: () => {}, complete: () => {} },
        );
        return conn;
      }),
    );
    try {
      await settle(1_000); // both subscriptions reach the subgraph
      const created = await createTenant(app, mine.platformToken);
      await within(
        (async () => {
          while (!heard.mine.includes(created.id)) await settle(100);
        })(),
        15_000,
        "the owner's event",
      );
      await settle(500);
      expect(heard.other).toEqual([]);
    } finally {
      await Promise.all(connections.map((c) => c.client.dispose()));
    }
  });

  it('refuses past the depth, directives and variable-given cost limits, naming each', async () => {
    const token = bearer(await freshKeyToken());
    for (const [index, [query, variables, message]] of LIMIT_PROBES.entries()) {
      const res = await graphql(gateway.url, query, variables, token);
      expect(res.errors).toEqual([expect.objectContaining({ message })]);
      expect(res.errors?.[0]?.extensions).toEqual(LIMIT_CODES[index]);
    }
  });

  it('refuses 400 repeats of one field and a 2 MB anonymous body', async () => {
    const repeated = await graphql(gateway.url, `{ ${Array.from({ length: 400 }, () => '__typename').join(' ')} }`);
    expect(repeated.errors?.[0]?.message).toMatch(/selected 400 times.*GRAPHQL_MAX_FIELD_REPEATS/);
    const big = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ __typename } # ${'x'.repeat(2 * 1024 * 1024)}` }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ detail: expect.stringMatching(/GRAPHQL_MAX_BODY_BYTES_ANONYMOUS/) });
  });
});
