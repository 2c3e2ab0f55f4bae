/**
 * `npm start` runs the compiled build through src/processes/start.ts, which turns on V8's code cache
 * before loading the all-in-one process: every surface that process serves works from it, and the
 * cache is written beside the build. GraphQL's stack loads on its first use (single-process-server.ts):
 * the first GraphQL contact, over WebSocket and HTTP at once, is answered on both. Each read runs as
 * a caller holding only the scope it needs.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../prisma/seed/demo-identities.js';
import { graphql, subscribe } from './support/graphql-client.js';
import { bearer, createApiKey, platformToken, signIn } from './support/identities.js';
import { buildServer, freePort, startEntry, waitForHealth, type RunningProcess } from './support/processes.js';
import type { TestApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

describe('npm start, compiled', () => {
  let database: TestDatabase;
  let proc: RunningProcess;
  let app: TestApp;
  const dataDir = path.join(tmpdir(), `fg-compiled-${randomUUID()}`);

  beforeAll(async () => {
    buildServer();
    database = await createTestDatabase();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    proc = startEntry(
      'src/processes/main.ts',
      [],
      { DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir, SEED_DEMO_DATA: 'true' },
      { compiled: true },
    );
    await waitForHealth(url, proc);
    app = { url } as TestApp;
  }, 180_000);
  afterAll(async () => {
    await proc?.stop();
    await database?.drop();
  });

  async function tokenWith(scopes: string[]): Promise<string> {
    const { email, password } = DEMO_CREDENTIALS.integrator;
    const login = await signIn(app, email, password);
    const key = await createApiKey(app, login, { name: `compiled-${randomUUID()}`, scopes });
    return (await platformToken(app, key.key)).access_token;
  }

  it('runs through start.js, with its code cache written beside the build', () => {
    expect(proc.child.spawnargs).toContain('dist/server/src/processes/start.js');
    expect(existsSync(path.resolve('dist/server/.compile-cache'))).toBe(true);
  });

  // First among the GraphQL tests: nothing has loaded GraphQL's stack yet.
  it('loads GraphQL on its first use: a WebSocket upgrade and an HTTP request that arrive together both answer', async () => {
    const token = await tokenWith(['questionnaire:read']);
    const query = '{ questionnaires { id } }';
    const [overWebSocket, overHttp] = await Promise.all([
      subscribe<{ questionnaires: unknown[] }>(app.url, query, {}, { authorization: `Bearer ${token}` }),
      graphql<{ questionnaires: unknown[] }>(app.url, query, {}, bearer(token)),
    ]);
    try {
      const answered = await overWebSocket.next();
      expect(answered.errors).toBeUndefined();
      expect(answered.data!.questionnaires.length).toBeGreaterThan(0);
    } finally {
      await overWebSocket.close();
    }
    expect(overHttp.errors).toBeUndefined();
    expect(overHttp.data!.questionnaires.length).toBeGreaterThan(0);
    // Loaded once, for both, and the log says so (why the first GraphQL request took longer).
    expect(proc.output().match(/GraphQL loaded for its first request/g)).toHaveLength(1);
  });

  it('serves REST reads, and refuses a caller without a token', async () => {
    // Listing the account's tenants needs an integrator's platform token and no scope.
    const token = await tokenWith(['questionnaire:read']);
    const res = await fetch(`${app.url}/api/platform/v1/tenants`, { headers: bearer(token) });
    expect(res.status).toBe(200);
    expect(typeof (await res.json()).meta.total).toBe('number');
    expect((await fetch(`${app.url}/api/platform/v1/tenants`)).status).toBe(401);
  });

  it('serves GraphQL through the local schema, and refuses a token without the scope', async () => {
    const ask = async (token: string) =>
      (
        await fetch(`${app.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...bearer(token) },
          body: JSON.stringify({ query: '{ questionnaires { id } }' }),
        })
      ).json();
    const allowed = await ask(await tokenWith(['questionnaire:read']));
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data.questionnaires.length).toBeGreaterThan(0);
    // questionnaires.read takes questionnaire:read or profile:read; funding:read is neither.
    const refused = await ask(await tokenWith(['funding:read']));
    expect(refused.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('serves the API reference, its OpenAPI document and the widget script', async () => {
    const docs = await fetch(`${app.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('/docs/assets/api-docs.js');
    const scalar = await fetch(`${app.url}/docs/assets/scalar/standalone.esm.js`);
    expect(scalar.status).toBe(200);
    const openapi = await fetch(`${app.url}/openapi.json`);
    expect((await openapi.json()).paths['/api/platform/v1/tenants']).toBeDefined();
    const widget = await fetch(`${app.url}/app/ui/widget/widget.js`);
    expect(widget.status).toBe(200);
    expect(widget.headers.get('content-type')).toMatch(/javascript/);
  });
});
