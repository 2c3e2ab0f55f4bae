/**
 * The OpenAPI document: served at /openapi.json, valid OpenAPI 3.1 (Redocly's linter, as CI runs
 * it), describing every route of the route table, and honoured by the server (contract checks of
 * real responses; the shared test clients check every response the suite receives the same way).
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { apiDocsRouter } from '../src/api/rest/api-docs-router.js';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, openApiPath, OPERATIONS_SERVED_ELSEWHERE } from '../src/api/rest/openapi-document.js';
import { ROUTES, servedRoutes } from '../src/api/rest/route-table.js';
import { repositoryPath } from '../src/kernel/repository-root.js';
import { contractViolation } from './support/openapi-contract.js';
import { bearer, signUpIntegrator } from './support/identities.js';
import { restClient } from './support/rest-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type Document = {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; tags: string[]; security: unknown[] }>>;
  tags: Array<{ name: string }>;
};

let app: TestApp;
let document: Document;
let served: string;

beforeAll(async () => {
  app = await startTestApp();
  const res = await fetch(`${app.url}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  served = await res.text();
  document = JSON.parse(served) as Document;
});
afterAll(() => app?.close());

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (Redocly lint, no errors)', async () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    const config = await createConfig({ extends: ['minimal'] });
    const problems = await lintFromString({ source: served, absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  it('describes every route of the route table, with its operation id and surface', () => {
    for (const route of ROUTES) {
      const operation = document.paths[openApiPath(route.path)]?.[route.method];
      expect(operation, `${route.method.toUpperCase()} ${route.path}`).toBeDefined();
      expect(operation!.operationId).toBe(route.operationId);
    }
    // And the identity provider's operations, served by its own router.
    for (const served of OPERATIONS_SERVED_ELSEWHERE) expect(document.paths[served.path]?.[served.method]?.operationId).toBe(served.operationId);
    const documented = Object.values(document.paths).flatMap((methods) => Object.keys(methods)).length;
    expect(documented).toBe(servedRoutes().length + OPERATIONS_SERVED_ELSEWHERE.length);
    expect(document.tags.map((t) => t.name)).toEqual(
      expect.arrayContaining(['Platform V1', 'Marketplace V1', 'Marketplace V2', 'Business V1', 'Lender Application API']),
    );
  });

  it('declares the JSON answer of every operation (no "JSON value"), and has the router parse every zod body and query', () => {
    const answersJson = (route: (typeof ROUTES)[number]) => route.successStatus !== 204 && !route.download;
    expect(ROUTES.filter((route) => answersJson(route) && !route.response).map((route) => route.operationId)).toEqual([]);
    // Every row with a zod body or query is made with route() (the router parses its input with the
    // row's own schemas) or routeCheckedInOperation() (handed to the operation to check once it has
    // found its object). Exempt are the rows with nothing of
    // the kind: those with neither body nor query (path parameters are the operation's to check)
    // and those whose body is validated by JSON Schema alone (the answer variants: questionnaire
    // answers and POST /applications), which their operations validate and the router hands over as sent.
    const takesZodInput = (route: (typeof ROUTES)[number]) => route.body !== undefined || route.query !== undefined;
    expect(ROUTES.filter((route) => takesZodInput(route) && !route.inputCheckedBy).map((route) => route.operationId)).toEqual([]);
    const jsonSchemaBodies = ROUTES.filter((route) => route.jsonSchemaBody).map((route) => route.operationId);
    expect(jsonSchemaBodies.sort()).toEqual(['AnswerController_patch', 'AnswerController_put', 'ApplicationController_create']);
    expect(ROUTES.filter((route) => route.jsonSchemaBody && route.body).map((route) => route.operationId)).toEqual([]);
    const document = buildOpenApiDocument() as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
    };
    for (const route of ROUTES.filter(answersJson)) {
      const schema = document.paths[openApiPath(route.path)]![route.method]!.responses[String(route.successStatus)]!.content!['application/json']!.schema;
      expect(schema, route.operationId).toHaveProperty('$ref');
    }
  });

  it('names the security of each surface: bearer tokens, X-API-Key, api_key and the lender OAuth password grant', () => {
    const doc = JSON.parse(served) as { components: { securitySchemes: Record<string, { type: string; flows?: { password?: { tokenUrl: string } } }> } };
    expect(doc.components.securitySchemes.lenderOAuth!.flows!.password!.tokenUrl).toBe(`${app.url}/oauth/token`);
    expect(document.paths['/api/platform/v1/auth/token']!.post!.security).toEqual([{ apiKey: [] }]);
    expect(document.paths['/api/platform/v1/funding/applications']!.get!.security).toEqual([{ lenderOAuth: [] }]);
    expect(document.paths['/api/marketplace/v1/profiles/{uuid}']!.get!.security).toEqual([{ marketplaceV1Bearer: [] }]);
  });
});

describe('what an integrator reads in the document', () => {
  type Operation = {
    summary?: string;
    description?: string;
    parameters?: Array<{ name: string; in: string; required?: boolean; schema?: unknown }>;
    security?: unknown[];
  };
  const full = () => JSON.parse(served) as { info: Record<string, any>; servers: Array<{ url: string }>; paths: Record<string, Record<string, Operation>> };

  it('names the deployment as an absolute server URL, the licence, a contact and a version', async () => {
    const doc = full();
    expect(doc.servers).toEqual([{ url: app.url, description: 'This deployment' }]);
    expect(doc.info.license).toEqual({ name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' });
    expect(doc.info.contact.url).toBe(`${app.url}/docs`);
    const pkg = JSON.parse(await readFile(repositoryPath('package.json'), 'utf8')) as { version: string; license: string };
    expect(pkg.license).toBe('Apache-2.0');
    expect(doc.info.version).toBe(pkg.version);
    expect(await readFile(repositoryPath('LICENSE'), 'utf8')).toContain('Apache License');
    // Without a configured PUBLIC_URL, the server is the URL the document was asked on.
    const docs = express().use(apiDocsRouter({}));
    const server = docs.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const asked = await fetch(`http://127.0.0.1:${port}/openapi.json`);
      expect(((await asked.json()) as { servers: Array<{ url: string }> }).servers[0]!.url).toBe(`http://127.0.0.1:${port}`);
    } finally {
      server.close();
    }
  });

  it('gives every operation a summary for its readers and a description saying who may call it', () => {
    for (const route of ROUTES) {
      const operation = full().paths[openApiPath(route.path)]![route.method]!;
      expect(operation.summary, route.operationId).toMatch(/^[A-Z]/);
      // Summaries are what a reader looks for, not implementation notes: short, no arrows or "an extension".
      expect(operation.summary!.length, route.operationId).toBeLessThanOrEqual(60);
      expect(operation.summary, route.operationId).not.toMatch(/→|extension|\(|\?/);
      expect(operation.description!.length, route.operationId).toBeGreaterThan(40);
      if (route.surface !== 'public') expect(operation.description, route.operationId).toContain('**Who may call:**');
    }
  });

  it('declares api_key as a query parameter of the Marketplace V1 operation that takes it, as well as its security scheme', () => {
    const authorize = full().paths['/api/marketplace/v1/auth/authorize']!.post!;
    expect(authorize.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'api_key', in: 'query' })]));
    expect(authorize.security).toEqual([{ apiKeyQuery: [] }]);
  });
});

describe('contract checks', () => {
  it('accept the real answers of the server and refuse a body that breaks the document', async () => {
    const res = await fetch(`${app.url}/api/platform/v1/tenants`, { headers: { authorization: 'Bearer nonsense' } });
    const text = await res.text();
    expect(res.status).toBe(401);
    expect(contractViolation('GET', res.url, res.status, res.headers.get('content-type'), text)).toBeUndefined();
    // The same problem without its required `code` is outside the contract.
    const broken = JSON.stringify({ ...JSON.parse(text), code: undefined });
    expect(contractViolation('GET', res.url, res.status, res.headers.get('content-type'), broken)?.message).toMatch(/code/);
    // A status the operation does not declare is refused too.
    expect(contractViolation('GET', res.url, 299, 'application/json', '{}')?.message).toMatch(/not declared/);
  });
});

describe('the typed client generated from the document', () => {
  it('creates, lists, reads and renames a tenant with compile-time checked paths and bodies', async () => {
    const me = await signUpIntegrator(app);
    const api = restClient(app.url, bearer(me.platformToken));
    const created = await api.POST('/api/platform/v1/tenants', { body: { referenceId: 'typed-client-1' } });
    expect(created.response.status).toBe(201);
    const tenantId: string = created.data!.id;
    const page = await api.GET('/api/platform/v1/tenants', { params: { query: { offset: 0, limit: 10 } } });
    expect(page.data!.data.map((t) => t.referenceId)).toContain('typed-client-1');
    // An offset page (no `after`) carries the total; a keyset page's meta has none.
    const meta = page.data!.meta;
    expect('total' in meta && meta.total).toBeGreaterThanOrEqual(1);
    const renamed = await api.PATCH('/api/platform/v1/tenants/{tenantId}', { params: { path: { tenantId } }, body: { referenceId: 'typed-client-2' } });
    expect(renamed.data).toMatchObject({ id: tenantId, referenceId: 'typed-client-2' });
    const missing = await api.GET('/api/platform/v1/tenants/{tenantId}', { params: { path: { tenantId: '00000000-0000-4000-8000-000000000000' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('the failures each operation lists', () => {
  type Responses = Record<string, unknown>;
  const responsesOf = (route: (typeof ROUTES)[number]) =>
    (document.paths[openApiPath(route.path)]![route.method] as unknown as { responses: Responses }).responses;

  it('lists 429 on every operation, 409 on every one that may write, 413 and 415 on every one that takes a body (not only under default)', () => {
    for (const route of ROUTES) {
      const listed = Object.keys(responsesOf(route));
      const name = `${route.method.toUpperCase()} ${route.path}`;
      expect(listed, name).toContain('429');
      if (route.method === 'get') expect(listed, name).not.toContain('409');
      else expect(listed, name).toContain('409');
      const takesBody = ['post', 'put', 'patch'].includes(route.method);
      for (const status of ['413', '415']) expect(listed.includes(status), `${name} ${status}`).toBe(takesBody);
    }
  });

  it('the server answers them as listed: 409, 413, 415 and 429 fit the operation that answered them', async () => {
    const integrator = await signUpIntegrator(app);
    const send = async (method: string, path: string, init: { headers?: Record<string, string>; body?: string }) => {
      const res = await fetch(`${app.url}${path}`, { method, ...init });
      const text = await res.text();
      const route = ROUTES.find((r) => r.method === method.toLowerCase() && new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`).test(path))!;
      expect(Object.keys(responsesOf(route))).toContain(String(res.status));
      expect(contractViolation(method, res.url, res.status, res.headers.get('content-type'), text)).toBeUndefined();
      return res.status;
    };
    const json = { ...bearer(integrator.loginToken), 'content-type': 'application/json' };
    expect(await send('POST', '/api/platform/v1/api-key', { headers: json, body: JSON.stringify({ name: 'integration', scopes: ['profile:read'] }) })).toBe(
      409,
    );
    expect(
      await send('POST', '/api/platform/v1/api-key', { headers: json, body: JSON.stringify({ name: 'x'.repeat(1_100_000), scopes: ['profile:read'] }) }),
    ).toBe(413);
    expect(
      await send('POST', '/api/platform/v1/api-key', { headers: { ...bearer(integrator.loginToken), 'content-type': 'text/plain' }, body: 'name=x' }),
    ).toBe(415);
    const login = { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: integrator.email, password: 'not-the-password' }) };
    const statuses: number[] = [];
    for (let i = 0; i < 8 && !statuses.includes(429); i++) statuses.push(await send('POST', '/api/platform/v1/auth/login', login));
    expect(statuses).toContain(429);
  });
});
