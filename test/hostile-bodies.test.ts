/**
 * Hostile bodies, sent as an attacker would before any credential is read: a JSON body nested
 * thousands of levels deep, one with too many members, and text PostgreSQL cannot store. Each is a
 * 400 problem naming why, and the server keeps answering others meanwhile; GraphQL variables get the
 * same limits over HTTP (both the first request of a query text and the fast path after it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from '../src/kernel/json-inspection.js';
import { graphql } from './support/graphql-client.js';
import { bearer, signUpIntegrator } from './support/identities.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const LOGIN = '/api/platform/v1/auth/login';
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const sendRaw = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('REST JSON bodies', () => {
  it.each([4_000, 10_000])('a body nested %i deep is a 400 problem naming the depth limit, before any credential is read', async (depth) => {
    const res = await sendRaw(LOGIN, nested(depth));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const problem = await res.json();
    expect(problem.detail ?? problem.title).toMatch(new RegExp(`deeper than ${MAX_JSON_DEPTH} levels`));
    expect(problem.errors).toEqual([expect.objectContaining({ pointer: '' })]);
  });

  it('a body just within the depth limit reaches the operation (which judges its fields)', async () => {
    const res = await sendRaw(LOGIN, nested(MAX_JSON_DEPTH - 1));
    expect(res.status).toBe(400);
    const problem = await res.json();
    expect(JSON.stringify(problem)).not.toMatch(/deeper than/);
    expect(problem.errors.map((e: { pointer: string }) => e.pointer)).toContain('/a');
  });

  it('a body with more members than the limit is a 400 naming it', async () => {
    const res = await sendRaw(LOGIN, JSON.stringify({ email: 'x@example.test', password: 'p', padding: new Array(MAX_JSON_MEMBERS + 1).fill(0) }));
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(new RegExp(`more than ${MAX_JSON_MEMBERS} members`));
  });

  it('/health keeps answering while eight deep bodies are being refused', async () => {
    const deep = nested(10_000);
    const hostile = Array.from({ length: 8 }, () => sendRaw(LOGIN, deep));
    const health = await fetch(`${app.url}/health`);
    expect(health.status).toBe(200);
    expect((await Promise.all(hostile)).map((res) => res.status)).toEqual(new Array(8).fill(400));
  });

  it('a lone surrogate or a NUL in a key or a value is a 400 naming where, and nothing is stored', async () => {
    const integrator = await signUpIntegrator(app);
    const auth = bearer(integrator.platformToken);
    const tenantsBefore = await app.runtime.database.prisma.tenant.count();
    const surrogate = await sendRaw('/api/marketplace/v2/tenants', '{"referenceId":"ref\\ud800"}', auth);
    expect(surrogate.status).toBe(400);
    expect((await surrogate.json()).errors).toEqual([{ pointer: '/referenceId', message: expect.stringMatching(/lone UTF-16 surrogate/) }]);
    const nulKey = await sendRaw('/api/marketplace/v2/tenants', '{"ref\\u0000":"x"}', auth);
    expect(nulKey.status).toBe(400);
    expect((await nulKey.json()).errors).toEqual([{ pointer: '/ref\u0000', message: expect.stringMatching(/property name must not contain the NUL/) }]);
    // A surrogate pair (an emoji) is valid text.
    const emoji = await sendRaw('/api/marketplace/v2/tenants', JSON.stringify({ referenceId: `ref-${Date.now()}-\u{1F600}` }), auth);
    expect(emoji.status).toBe(201);
    expect(await app.runtime.database.prisma.tenant.count()).toBe(tenantsBefore + 1);
  });
});

describe('GraphQL variables', () => {
  const QUERY = 'query Search($q: String!) { companySearch(term: $q) { number } }';

  it('variables nested 10,000 deep are refused before the operation runs, on the first request of a query text and on later ones', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const res = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: `{"query":${JSON.stringify(QUERY)},"variables":{"q":"acme","x":${nested(10_000)}}}`,
      });
      const body = await res.json();
      expect(body.data ?? null).toBeNull();
      expect(body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/variables nests deeper than/), extensions: { code: 'BAD_REQUEST' } });
    }
  });

  it('a lone surrogate in a variable is refused naming it, also once the query text is known to the fast path', async () => {
    const integrator = await signUpIntegrator(app);
    const auth = bearer(integrator.platformToken);
    expect((await graphql(app.url, QUERY, { q: 'acme' }, auth)).errors).toBeUndefined();
    expect((await graphql(app.url, QUERY, { q: 'acme' }, auth)).errors).toBeUndefined();
    const refused = await graphql(app.url, QUERY, { q: 'acme\ud800' }, auth);
    expect(refused.data ?? null).toBeNull();
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_REQUEST',
      fields: [{ pointer: '/variables/q', message: expect.stringMatching(/lone UTF-16 surrogate/) }],
    });
  });
});
