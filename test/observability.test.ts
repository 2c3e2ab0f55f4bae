/**
 * Operability as an operator meets it: a request's id (given or generated) comes back in its
 * response, its problem body (`instance`), its access log line and the log of the webhook delivery
 * it caused (and reaches the lender); access logs carry no credential; /health/ready names each
 * dependency and the delivery backlog (the distributed gateway's: its supergraph and each subgraph, apart from its liveness); /metrics (token-protected here) counts HTTP, GraphQL and deliveries.
 */
import http from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLogLines } from './support/log-lines.js';
import type { LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { closeServer, listen } from '../src/api/http/listen.js';
import { mountMetrics } from '../src/api/http/observability.js';
import { createLogger } from '../src/infra/logger.js';
import { startRemoteGatewayServer } from '../src/processes/remote-gateway-server.js';
import { startSubgraphServer } from '../src/processes/subgraph-server.js';
import { graphql } from './support/graphql-client.js';
import { collectEvents } from './support/probe-client.js';
import { bearer, lenderCredentials, lenderIdToken } from './support/identities.js';
import { eventually, startLenderReceiver, type LenderReceiver } from './support/lender-receiver.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

const METRICS_TOKEN = 'metrics-token-for-the-observability-test';
const { stream: logStream, lines } = capturedLogLines();

let app: TestApp;
let receiver: LenderReceiver;
let lender: LenderCredentials;
const db = () => app.runtime.database.prisma;
const linesOf = (requestId: string) => lines.filter((l) => l.requestId === requestId);

beforeAll(async () => {
  app = await startTestApp({
    config: { METRICS_TOKEN, WEBHOOK_RETRY_DELAYS: [0, 0.3], LOG_LEVEL: 'info' },
    logger: createLogger('info', 'observability-test', logStream),
  });
  receiver = await startLenderReceiver();
  const first = await db().lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
  await db().lender.update({ where: { id: first.id }, data: { applicationUrl: receiver.url, updateUrl: null } });
  lender = await lenderCredentials(app, first.id);
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

describe('request ids', () => {
  it("come back in the response, the problem body's instance and the access log line", async () => {
    const res = await fetch(`${app.url}/api/platform/v1/tenants`, { headers: { 'x-request-id': 'obs-problem-1', authorization: 'Bearer not-a-token' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBe('obs-problem-1');
    expect(await res.json()).toMatchObject({ status: 401, instance: 'urn:request:obs-problem-1' });
    const access = await eventually(async () => linesOf('obs-problem-1').find((l) => l.status !== undefined), Boolean, 5000);
    expect(access).toMatchObject({
      route: '/api/platform/v1/tenants',
      method: 'GET',
      path: '/api/platform/v1/tenants',
      status: 401,
      msg: 'GET /api/platform/v1/tenants 401',
    });
    expect(access!.durationMs).toEqual(expect.any(Number));
  });

  it('are generated when the caller sends none, or one that is not a plain token', async () => {
    const none = await fetch(`${app.url}/health`);
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const odd = await fetch(`${app.url}/health`, { headers: { 'x-request-id': 'two words\tand a tab' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("travel with the webhook delivery a request causes: the delivery's log lines and the lender's request carry it", async () => {
    const profile = await db().profile.create({ data: { environment: 'demo' } });
    const row = await db().lenderApplication.create({
      data: { lenderId: lender.lenderId, profileId: profile.id, status: 'In Review', payload: { application: {} } },
    });
    const res = await postJson(
      `${app.url}/api/platform/v1/funding/applications/${row.id}/acknowledgement`,
      { reference: `OBS-${row.id}` },
      { ...bearer(await lenderIdToken(app, lender)), 'x-request-id': 'obs-delivery-1' },
    );
    expect(res.status).toBe(200);
    await eventually(
      async () => db().webhookDelivery.findFirstOrThrow({ where: { lenderApplicationId: row.id } }),
      (d) => d.status === 'DELIVERED',
    );
    const attempt = await eventually(async () => linesOf('obs-delivery-1').find((l) => l.msg === 'webhook delivery attempt'), Boolean, 5000);
    expect(attempt).toMatchObject({ outcome: 'delivered', requestId: 'obs-delivery-1' });
    const access = linesOf('obs-delivery-1').find((l) => l.status !== undefined);
    expect(access).toMatchObject({ method: 'POST', status: 200, credential: `lender:${lender.lenderId}` });
    const delivered = receiver.received.find((r) => JSON.parse(r.body).application?.id === row.id);
    expect(delivered?.headers['x-request-id']).toBe('obs-delivery-1');
  });
});

describe('the gateway -> subgraph hop', () => {
  it("carries the request id: the subgraph's access log line names the caller's request", async () => {
    const subgraph = await startSubgraphServer('tenants', app.runtime, 0);
    const unreachable = 'http://127.0.0.1:9/graphql';
    const gatewayLogger = createLogger('info', 'observability-gateway', logStream);
    const gateway = await startRemoteGatewayServer(
      { profiles: unreachable, matches: unreachable, applications: unreachable, tenants: `${subgraph.url}/graphql` },
      { ...app.runtime.config, PORT: 0, HOST: '127.0.0.1', METRICS_TOKEN: undefined, METRICS_PORT: undefined },
      gatewayLogger,
    );
    try {
      const res = await graphql(gateway.url, 'query HopProbe { tenants { total } }', {}, { 'x-request-id': 'obs-hop-1' });
      expect(res.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      const seen = await eventually(
        async () =>
          linesOf('obs-hop-1')
            .filter((l) => l.status !== undefined)
            .map((l) => l.name),
        (names) => names.includes('observability-test') && names.includes('observability-gateway'),
        5000,
      );
      expect(seen.sort()).toEqual(['observability-gateway', 'observability-test']);
    } finally {
      await gateway.close();
      await subgraph.close();
    }
  });
});

describe('access logs', () => {
  it('never carry a token, an API key, a cookie, or the accessToken and token query parameters', async () => {
    const secrets = ['Bearer-secret-abc123', 'fgk_apikeysecret123', 'cookie-secret-xyz', 'widget-access-secret', 'link-token-secret'];
    await fetch(`${app.url}/app/funding-search/00000000-0000-4000-8000-000000000000?token=${secrets[4]}&accessToken=${secrets[3]}`, {
      headers: { authorization: `Bearer ${secrets[0]}`, 'x-api-key': secrets[1]!, cookie: `session=${secrets[2]}`, 'x-request-id': 'obs-redaction-1' },
    });
    const access = await eventually(async () => linesOf('obs-redaction-1').find((l) => l.status !== undefined), Boolean, 5000);
    const logged = JSON.stringify(linesOf('obs-redaction-1'));
    for (const secret of secrets) expect(logged).not.toContain(secret);
    expect(access).toMatchObject({ path: expect.stringContaining('accessToken=[redacted]') });
    expect(access!.path).toContain('token=[redacted]');
  });
});

describe('GET /health/ready', () => {
  it('names the database and the event bus, and reports the delivery backlog, apart from liveness on /health', async () => {
    const res = await fetch(`${app.url}/health/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ready',
      service: 'all-in-one',
      checks: { database: 'ready', deliveries: { due: expect.any(Number), oldestDueSeconds: expect.any(Number) }, eventBus: 'in-process' },
    });
  });
});

describe("the distributed gateway's /health and /health/ready", () => {
  it('liveness is the process alone (a subgraph outage does not fail it); readiness names the supergraph and each subgraph', async () => {
    const names = ['profiles', 'matches', 'applications', 'tenants'] as const;
    const subgraphs = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await startSubgraphServer(name, app.runtime, 0)] as const)));
    const open = new Set<string>(names);
    const gateway = await startRemoteGatewayServer(
      Object.fromEntries(names.map((name) => [name, `${subgraphs[name]!.url}/graphql`])) as Record<(typeof names)[number], string>,
      { ...app.runtime.config, PORT: 0, HOST: '127.0.0.1', METRICS_TOKEN: undefined, METRICS_PORT: undefined },
      createLogger('silent'),
    );
    try {
      const live = await fetch(`${gateway.url}/health`);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: 'ok', service: 'gateway', supergraph: 'loaded' });
      const ready = await fetch(`${gateway.url}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ready',
        service: 'gateway',
        checks: { supergraph: 'ready', profiles: 'ready', matches: 'ready', applications: 'ready', tenants: 'ready' },
      });
      // A subgraph goes away: the gateway is still alive (not restarted), but not ready, naming it.
      await subgraphs.matches!.close();
      open.delete('matches');
      expect((await fetch(`${gateway.url}/health`)).status).toBe(200);
      const degraded = await fetch(`${gateway.url}/health/ready`);
      expect(degraded.status).toBe(503);
      expect(await degraded.json()).toEqual({
        status: 'unavailable',
        service: 'gateway',
        checks: { supergraph: 'ready', profiles: 'ready', matches: 'unavailable', applications: 'ready', tenants: 'ready' },
      });
    } finally {
      await gateway.close();
      await Promise.all([...open].map((name) => subgraphs[name]!.close()));
    }
  });
});

describe('GET /metrics', () => {
  it('refuses a scrape without the metrics token', async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${app.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-of-some-length' } })).status).toBe(401);
  });

  it('counts HTTP requests by route template, GraphQL operations by name, deliveries by outcome, and exposes the queue, pool and process', async () => {
    await graphql(app.url, 'query ObservabilityProbe { __typename }', {}, {});
    await graphql(app.url, 'query ObservabilityFailure { noSuchField }', {}, {});
    const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
    expect(
      value(/^http_requests_total\{route="\/api\/platform\/v1\/funding\/applications\/:id\/acknowledgement",method="POST",status="200"\} (\d+)/m),
    ).toBeGreaterThan(0);
    expect(value(/^http_request_duration_seconds_count\{route="\/api\/platform\/v1\/tenants",method="GET",status="401"\} (\d+)/m)).toBeGreaterThan(0);
    expect(value(/^graphql_operations_total\{operation="ObservabilityProbe",type="query",outcome="ok"\} (\d+)/m)).toBe(1);
    expect(text).toMatch(/^graphql_operations_total\{operation="ObservabilityFailure"[^}]*\} 1$/m);
    expect(value(/^webhook_delivery_attempts_total\{lender="[^"]+",outcome="delivered"\} (\d+)/m)).toBeGreaterThan(0);
    expect(value(/^webhook_delivery_attempt_duration_seconds_count\{lender="[^"]+",outcome="delivered"\} (\d+)/m)).toBeGreaterThan(0);
    expect(text).toMatch(/^webhook_delivery_queue_depth \d+/m);
    expect(text).toMatch(/^webhook_delivery_oldest_pending_age_seconds [\d.e+-]+/m);
    expect(text).toMatch(/^webhook_delivery_dead_letters \d+/m);
    expect(text).toMatch(/^graphql_live_subscriptions \d+/m);
    expect(value(/^db_pool_connections\{state="total"\} (\d+)/m)).toBeGreaterThan(0);
    expect(text).toMatch(/^process_cpu_user_seconds_total [\d.]+/m);
  });

  it('counts live subscriptions while they are open, and not those refused', async () => {
    const scrape = async () => {
      const text = await (await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      return Number(/^graphql_live_subscriptions (\d+)/m.exec(text)?.[1]);
    };
    const before = await scrape();
    const lenderAuth = bearer(await lenderIdToken(app, lender));
    const open = await collectEvents(app.url, 'subscription { applicationStatusChanged { applicationId } }', {}, lenderAuth);
    // A lender may not follow new tenants: its subscription is refused (sockets without credentials are closed at connection_init).
    const refused = await collectEvents(app.url, 'subscription { tenantCreated { id } }', {}, lenderAuth);
    try {
      await refused.waitFor((m) => (m.errors?.length ?? 0) > 0);
      expect(await eventually(scrape, (n) => n === before + 1, 5000)).toBe(before + 1);
    } finally {
      await open.close();
      await refused.close();
    }
    expect(await eventually(scrape, (n) => n === before, 5000)).toBe(before);
  });

  it('can be served alone on METRICS_PORT instead, leaving the main port without it', async () => {
    const main = express();
    const metrics = await mountMetrics(main, { METRICS_PORT: 0, METRICS_TOKEN: undefined, DEPLOY_ENV: 'production', HOST: '127.0.0.1' });
    try {
      expect(metrics).toBeDefined();
      const res = await fetch(`${metrics!.url}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^http_requests_total/m);
      const server = http.createServer(main);
      const mainUrl = await listen(server, 0, '127.0.0.1');
      expect((await fetch(`${mainUrl}/metrics`)).status).toBe(404);
      await closeServer(server);
    } finally {
      await metrics?.close();
    }
  });
});
