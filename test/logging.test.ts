/**
 * Log lines as an operator reads them: JSON in production and tests (one document per line, for a
 * collector), pretty human-readable lines in development (LOG_FORMAT, default pretty when
 * NODE_ENV=development); each request's access line slim, with one `route` key and no headers.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/kernel/config.js';
import { createLogger, logDestination } from '../src/infra/logger.js';
import { accessLogAndMetrics } from '../src/api/http/access-log.js';
import { capturedLogLines } from './support/log-lines.js';
import { graphql } from './support/graphql-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('LOG_FORMAT', () => {
  it('is pretty when NODE_ENV=development, JSON otherwise, unless set', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).LOG_FORMAT).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'production' }).LOG_FORMAT).toBe('json');
    expect(loadConfig({ NODE_ENV: 'test' }).LOG_FORMAT).toBe('json');
    expect(loadConfig({}).LOG_FORMAT).toBe('json');
    expect(loadConfig({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'development', LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('pretty: one human-readable line per entry (time, level, name, message, then the fields), credentials still redacted', async () => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    const logger = createLogger('info', 'pretty-test', logDestination('pretty', sink));
    logger.info({ route: '/api/platform/v1/tenants', status: 401, password: 'hunter2-secret' }, 'GET /api/platform/v1/tenants 401');
    logger.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO \(pretty-test\): GET \/api\/platform\/v1\/tenants 401 \{.*"route":"\/api\/platform\/v1\/tenants".*"status":401/,
    );
    expect(() => JSON.parse(lines[0]!)).toThrow();
    expect(text).not.toContain('hunter2-secret');
    expect(text).not.toMatch(/"pid"|"hostname"/);
  });

  it('json: the logger writes JSON documents to the stream it is given', () => {
    const { stream, lines } = capturedLogLines();
    createLogger('info', 'json-test', logDestination('json', stream)).info({ status: 200 }, 'done');
    expect(lines).toEqual([expect.objectContaining({ name: 'json-test', msg: 'done', status: 200, level: 30 })]);
  });
});

describe('access lines', () => {
  const { stream, lines, raw } = capturedLogLines();
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ config: { LOG_LEVEL: 'info' }, logger: createLogger('info', 'logging-test', stream) });
  });
  afterAll(() => app?.close());

  it('carry one route key, the request id and what an operator reads, and no header, in a few hundred bytes', async () => {
    const asked = [
      ['GET', '/api/platform/v1/tenants'],
      ['GET', '/no/such/path'],
      ['GET', '/api/platform/v1/funding/applications/42'],
    ] as const;
    for (const [index, [method, path]] of asked.entries()) {
      await fetch(`${app.url}${path}`, {
        method,
        headers: {
          'x-request-id': `log-${index}`,
          cookie: 'session=cookie-secret',
          'user-agent': 'logging-test-agent/1.0',
          authorization: 'Bearer not-a-token',
        },
      });
    }
    await graphql(app.url, '{ __typename }', {}, { 'x-request-id': 'log-graphql' });
    const deadline = Date.now() + 5_000;
    const accessLines = () => raw.filter((line) => /"requestId":"log-/.test(line) && /"status":/.test(line));
    while (accessLines().length < asked.length + 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const written = accessLines();
    expect(written).toHaveLength(asked.length + 1);
    for (const line of written) {
      expect(line.match(/"route":/g)).toHaveLength(1);
      expect(line.length).toBeLessThan(400);
      expect(line).not.toMatch(/headers|user-agent|logging-test-agent|cookie-secret|not-a-token|"req"|"res"/);
      expect(Object.keys(JSON.parse(line) as object).sort()).toEqual(
        expect.arrayContaining(['durationMs', 'level', 'method', 'msg', 'path', 'requestId', 'route', 'status', 'time']),
      );
    }
    const byId = (id: string) => lines.find((l) => l.requestId === id && l.status !== undefined);
    expect(byId('log-0')).toMatchObject({ method: 'GET', route: '/api/platform/v1/tenants', status: 401, msg: 'GET /api/platform/v1/tenants 401' });
    expect(byId('log-1')).toMatchObject({ route: 'unmatched', status: 404 });
    expect(byId('log-graphql')).toMatchObject({ method: 'POST', route: '/graphql', status: 200 });
  });

  it('of the health probes are debug lines: absent at info, written at debug, an error still an error', async () => {
    await fetch(`${app.url}/health`, { headers: { 'x-request-id': 'probe-info' } });
    await fetch(`${app.url}/health/ready?from=kubelet`, { headers: { 'x-request-id': 'probe-info-ready' } });
    await fetch(`${app.url}/api/platform/v1/tenants`, { headers: { 'x-request-id': 'probe-info-after' } });
    const deadline = Date.now() + 5_000;
    while (!lines.some((l) => l.requestId === 'probe-info-after' && l.status !== undefined) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(lines.filter((l) => String(l.requestId).startsWith('probe-info') && l.status !== undefined).map((l) => l.requestId)).toEqual(['probe-info-after']);

    // The same middleware under a debug logger: the probe's line is there, at level 20 (debug).
    const debug = capturedLogLines();
    const server = express()
      .use(accessLogAndMetrics(createLogger('debug', 'probe-test', debug.stream)))
      .get('/health', (_req, res) => void res.json({ status: 'ok' }))
      .get('/health/ready', (_req, res) => void res.status(503).json({ status: 'unavailable' }))
      .listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await (await fetch(`${base}/health`)).text();
      await (await fetch(`${base}/health/ready`)).text();
      const until = Date.now() + 5_000;
      while (debug.lines.filter((l) => l.status !== undefined).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(debug.lines.filter((l) => l.status !== undefined).map((l) => [l.path, l.level])).toEqual([
        ['/health', 20],
        ['/health/ready', 50],
      ]);
    } finally {
      server.close();
    }
  });
});
