import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKey, createTenant, masterToken, signUpIntegrator, type Integrator } from '../../../test/support/identities.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let me: Integrator;
let auth: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  me = await signUpIntegrator(app);
  auth = bearer(me.platformToken);
});
afterAll(() => app?.close());

const tenantCount = () => app.runtime.database.prisma.tenant.count();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each([
  ['Business V1', '/api/business/v1/tenants'],
  ['Marketplace V2', '/api/marketplace/v2/tenants'],
])('POST %s tenants', (_surface, path) => {
  it('creates a tenant: 201 with the spec 2.5 shape', async () => {
    const referenceId = `ref-${path.length}-${Date.now()}`;
    const res = await postJson(app.url + path, { referenceId }, auth);
    expect(res.status).toBe(201);
    const body = await res.json();
    // Marketplace V2 also gives the times under its own names (createdAt, updatedAt).
    const v2 = path.startsWith('/api/marketplace/v2') ? ['createdAt', 'updatedAt'] : [];
    expect(Object.keys(body).sort()).toEqual(['createdDateTime', 'id', 'referenceId', 'updatedDateTime', ...v2].sort());
    if (v2.length) expect(body).toMatchObject({ createdAt: body.createdDateTime, updatedAt: body.updatedDateTime });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.referenceId).toBe(referenceId);
    expect(body.createdDateTime).toMatch(ISO);
    expect(body.updatedDateTime).toMatch(ISO);
    const row = await app.runtime.database.prisma.tenant.findUnique({ where: { id: body.id } });
    expect(row?.referenceId).toBe(referenceId);
  });

  it('creates a tenant without referenceId, also with no body at all', async () => {
    const withEmpty = await postJson(app.url + path, {}, auth);
    expect(withEmpty.status).toBe(201);
    expect((await withEmpty.json()).referenceId).toBeNull();
    const withNone = await fetch(app.url + path, { method: 'POST', headers: auth });
    expect(withNone.status).toBe(201);
  });
});

describe('tenant creation errors', () => {
  it('refuses a duplicate referenceId with 409 and writes no second row', async () => {
    const first = await postJson(`${app.url}/api/business/v1/tenants`, { referenceId: 'dup-ref' }, auth);
    expect(first.status).toBe(201);
    const before = await tenantCount();
    const second = await postJson(`${app.url}/api/marketplace/v2/tenants`, { referenceId: 'dup-ref' }, auth);
    expect(second.status).toBe(409);
    expect(second.headers.get('content-type')).toContain('application/problem+json');
    expect(await second.json()).toEqual({
      type: '/docs/problems#CONFLICT',
      title: 'Conflict',
      status: 409,
      code: 'CONFLICT',
      detail: 'A tenant with this referenceId already exists',
      errors: [{ pointer: '/referenceId', message: 'is already used by another tenant' }],
      instance: expect.stringMatching(/^urn:request:/),
    });
    expect(await tenantCount()).toBe(before);
  });

  it.each([
    [{ referenceId: 'x', extra: true }, '/extra', 'is not an allowed property'],
    [{ referenceId: '' }, '/referenceId', 'must not be empty'],
    [{ referenceId: 42 }, '/referenceId', 'expected string'],
  ])('refuses body %j with 400 naming %s, and writes nothing', async (body, pointer, message) => {
    const before = await tenantCount();
    const res = await postJson(`${app.url}/api/business/v1/tenants`, body, auth);
    expect(res.status).toBe(400);
    const problem = await res.json();
    expect(problem).toMatchObject({ status: 400, code: 'BAD_REQUEST', title: 'Bad Request' });
    expect(problem.errors).toHaveLength(1);
    expect(problem.errors[0].pointer).toBe(pointer);
    expect(problem.errors[0].message).toContain(message);
    expect(await tenantCount()).toBe(before);
  });

  it('answers malformed JSON with a 400 problem', async () => {
    const res = await postJson(`${app.url}/api/business/v1/tenants`, '{"referenceId":', auth);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_REQUEST', detail: 'Request body is not valid JSON' });
  });
});

describe('GET {platform_base}/tenants/{tenantId}', () => {
  it('reads one tenant, 404s an unknown one and 400s a malformed id', async () => {
    const created = await (await postJson(`${app.url}/api/business/v1/tenants`, { referenceId: 'read-me' }, auth)).json();
    const res = await fetch(`${app.url}/api/platform/v1/tenants/${created.id}`, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(created);
    const missing = await fetch(`${app.url}/api/platform/v1/tenants/00000000-0000-4000-8000-000000000000`, { headers: auth });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND', detail: 'Tenant was not found' });
    const malformed = await fetch(`${app.url}/api/platform/v1/tenants/not-a-uuid`, { headers: auth });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).errors).toEqual([{ pointer: '', message: 'must be a uuid' }]);
  });
});

describe('GET tenants in keyset pages (after)', () => {
  const list = (base: string, query: string, token: string) => fetch(`${app.url}${base}/tenants?${query}`, { headers: bearer(token) });

  it.each([['/api/platform/v1'], ['/api/marketplace/v2']])(
    '%s: pages cover every tenant exactly once, in list order, while tenants are created between pages',
    async (base) => {
      const other = await signUpIntegrator(app);
      const token = other.platformToken;
      for (let i = 0; i < 5; i++) await createTenant(app, token, `keyset-${i}`);
      const first = await (await list(base, 'offset=0&limit=2', token)).json();
      const seen: string[] = first.data.map((t: { id: string }) => t.id);
      let after = seen[seen.length - 1]!;
      const createdMeanwhile: string[] = [];
      for (let page = 0; page < 20; page++) {
        createdMeanwhile.push((await createTenant(app, token, `keyset-meanwhile-${page}`)).id);
        const res = await list(base, `after=${after}&limit=2`, token);
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(Object.keys(body.meta).sort()).toEqual(['after', 'limit']);
        expect(body.meta).toEqual({ limit: 2, after });
        seen.push(...body.data.map((t: { id: string }) => t.id));
        if (!body.links.next) break;
        const next = new URL(body.links.next, 'http://host.invalid');
        expect(next.pathname).toBe(`${base}/tenants`);
        expect(next.searchParams.get('after')).toBe(body.data[body.data.length - 1].id);
        after = next.searchParams.get('after')!;
      }
      const all = await (await list(base, 'offset=0&limit=100', token)).json();
      expect(seen).toEqual(all.data.map((t: { id: string }) => t.id));
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of createdMeanwhile) expect(seen).toContain(id);
    },
  );

  it('answers the same tenants as offset pages, and the first keyset page links to the next', async () => {
    const other = await signUpIntegrator(app);
    for (let i = 0; i < 3; i++) await createTenant(app, other.platformToken, `same-${i}`);
    const offsetPage = await (await list('/api/platform/v1', 'offset=1&limit=2', other.platformToken)).json();
    const first = await (await list('/api/platform/v1', 'offset=0&limit=1', other.platformToken)).json();
    const keyset = await (await list('/api/platform/v1', `after=${first.data[0].id}&limit=2`, other.platformToken)).json();
    expect(keyset.data).toEqual(offsetPage.data);
    expect(keyset.links).toEqual({ self: `/api/platform/v1/tenants?after=${first.data[0].id}&limit=2` });
  });

  it("shows another account's cursor nothing: a 400 naming after", async () => {
    const owner = await signUpIntegrator(app);
    const tenant = await createTenant(app, owner.platformToken, 'not-yours');
    const res = await list('/api/platform/v1', `after=${tenant.id}`, me.platformToken);
    expect(res.status).toBe(400);
    const problem = await res.json();
    expect(problem).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(problem.errors).toEqual([{ pointer: '/after', message: 'is not the id of a tenant you can see' }]);
    expect(JSON.stringify(problem)).not.toContain('not-yours');
  });

  it.each([
    ['after=not-a-cursor', '/after', 'must be a uuid'],
    ['after=00000000-0000-4000-8000-000000000000', '/after', 'is not the id of a tenant you can see'],
    ['after=00000000-0000-4000-8000-000000000000&offset=3', '/after', 'cannot be combined with offset'],
  ])('refuses %s with a 400 problem naming %s', async (query, pointer, message) => {
    const res = await list('/api/platform/v1', query, me.platformToken);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = await res.json();
    expect(problem.errors).toEqual([{ pointer, message }]);
  });

  it('Marketplace V2 list items carry createdAt and updatedAt beside the spec 2.5 names, on offset and keyset pages; the platform list keeps spec 2.5 only', async () => {
    const other = await signUpIntegrator(app);
    const [first] = [await createTenant(app, other.platformToken, 'v2-times-0'), await createTenant(app, other.platformToken, 'v2-times-1')];
    // Read as Marketplace V2 integrators do: a master token, of a key holding no scope the list needs (it needs none).
    const master = (await masterToken(app, (await createApiKey(app, other.loginToken, { name: 'v2-lister', scopes: ['scoring:read'] })).key)).access_token;
    const offsetPage = await (await list('/api/marketplace/v2', 'offset=0&limit=10', master)).json();
    const keysetPage = await (await list('/api/marketplace/v2', `after=${first!.id}&limit=10`, master)).json();
    for (const item of [...offsetPage.data, ...keysetPage.data]) {
      expect(Object.keys(item).sort()).toEqual(['createdAt', 'createdDateTime', 'id', 'referenceId', 'updatedAt', 'updatedDateTime']);
      expect(item.createdAt).toBe(item.createdDateTime);
      expect(item.updatedAt).toBe(item.updatedDateTime);
    }
    expect(offsetPage.data).toHaveLength(2);
    expect(keysetPage.data).toHaveLength(1);
    const platform = await (await list('/api/platform/v1', 'offset=0&limit=10', other.platformToken)).json();
    expect(Object.keys(platform.data[0]).sort()).toEqual(['createdDateTime', 'id', 'referenceId', 'updatedDateTime']);
  });

  it('keeps offset pages as they were: total, offset and limit in meta, offset links', async () => {
    const res = await list('/api/platform/v1', 'offset=0&limit=1', me.platformToken);
    const body = await res.json();
    expect(Object.keys(body.meta).sort()).toEqual(['limit', 'offset', 'total', 'totalEntries']);
    expect(body.links.self).toBe('/api/platform/v1/tenants?offset=0&limit=1');
  });
});

describe('the REST edge', () => {
  it('answers unknown paths with a 404 problem in the same format', async () => {
    for (const path of ['/api/business/v1/nope', '/nothing-here']) {
      const res = await fetch(app.url + path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(await res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', title: 'Not Found' });
    }
  });

  it('reports liveness and database readiness on /health', async () => {
    const res = await fetch(`${app.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', service: 'all-in-one', database: 'ready' });
  });
});
