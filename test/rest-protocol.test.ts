/**
 * HTTP protocol answers of the REST adapter: an unknown path is a 404 saying so, a known path with
 * another method a 405 with `Allow`, and a body in another format than JSON a 415; none writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUpIntegrator, type Integrator } from './support/identities.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let me: Integrator;
const tenants = () => app.runtime.database.prisma.tenant.count();

beforeAll(async () => {
  app = await startTestApp();
  me = await signUpIntegrator(app);
});
afterAll(() => app?.close());

describe('unknown paths', () => {
  it.each(['/api/platform/v1/nothing-here', '/nothing-here'])('%s is a 404 "No such endpoint"', async (path) => {
    const res = await fetch(`${app.url}${path}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toEqual({
      type: '/docs/problems#NOT_FOUND',
      title: 'Not Found',
      status: 404,
      code: 'NOT_FOUND',
      detail: 'No such endpoint',
      instance: expect.stringMatching(/^urn:request:/),
    });
  });
});

describe('a known path with another method', () => {
  it('is a 405 with Allow naming its methods, changing nothing', async () => {
    const before = await tenants();
    const res = await fetch(`${app.url}/api/platform/v1/tenants`, { method: 'DELETE', headers: bearer(me.platformToken) });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect(await res.json()).toEqual({
      type: '/docs/problems#METHOD_NOT_ALLOWED',
      title: 'Method Not Allowed',
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
      detail: 'DELETE is not allowed here; use POST, GET, HEAD',
      instance: expect.stringMatching(/^urn:request:/),
    });
    expect(await tenants()).toBe(before);
  });

  it('matches paths with parameters too', async () => {
    const res = await fetch(`${app.url}/api/platform/v1/tenants/0b7c2f9e-0000-4000-8000-000000000000`, { method: 'DELETE', headers: bearer(me.platformToken) });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'PATCH']);
  });
});

describe('a JSON body sent as another media type', () => {
  it('is a 415 naming the expected type, creating nothing', async () => {
    const before = await tenants();
    const res = await fetch(`${app.url}/api/platform/v1/tenants`, {
      method: 'POST',
      headers: { ...bearer(me.platformToken), 'content-type': 'text/plain' },
      body: JSON.stringify({ referenceId: 'sent-as-text' }),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      type: '/docs/problems#UNSUPPORTED_MEDIA_TYPE',
      title: 'Unsupported Media Type',
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      instance: expect.stringMatching(/^urn:request:/),
      detail: 'The request body must be application/json or application/*+json, not text/plain',
      errors: [{ pointer: 'header:content-type', message: 'must be application/json or application/*+json' }],
    });
    expect(await tenants()).toBe(before);
  });

  it('still takes JSON with a charset, and a request without a body', async () => {
    const typed = await fetch(`${app.url}/api/platform/v1/tenants`, {
      method: 'POST',
      headers: { ...bearer(me.platformToken), 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ referenceId: `charset-${Date.now()}` }),
    });
    expect(typed.status).toBe(201);
    const empty = await fetch(`${app.url}/api/platform/v1/tenants`, { method: 'POST', headers: bearer(me.platformToken) });
    expect(empty.status).toBe(201);
  });
});
