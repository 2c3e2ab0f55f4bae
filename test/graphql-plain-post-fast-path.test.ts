/**
 * The single-process /graphql fast path (src/api/graphql/plain-post-fast-path.ts): a plain POST of
 * a query text Yoga validated once is answered without Yoga's HTTP layer, and a client cannot tell:
 * the same status, content type and body as Yoga's own answer to the same request, errors and
 * masking included; one context (one credential check) per request whichever way it goes; and
 * everything unusual (first sight of a text, refusals, introspection, persisted-document
 * extensions, a streaming Accept, a refused credential) is still Yoga's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalGraphQL, plainPostFastPathOf, type LocalContextBuilder, type LocalGraphQL } from '../src/api/graphql/local-graphql.js';
import { gatewaySecurity } from '../src/api/graphql/gateway-security.js';
import { bodyAsStream, graphqlBodyLimit } from '../src/api/http/graphql-body-limit.js';
import { regularMediaTypeOf } from '../src/api/graphql/plain-post-fast-path.js';
import { bearer, signUpIntegrator } from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let auth: Record<string, string>;
let graphql: LocalGraphQL;
let server: http.Server;
let url: string;
/** Requests the fast path handed on to Yoga, and contexts built, since the last `reset()`. */
const seen = { handedOn: 0, contexts: 0 };
const CONTEXT_FAILS = 'x-test-context-fails';
const reset = () => Object.assign(seen, { handedOn: 0, contexts: 0 });

beforeAll(async () => {
  app = await startTestApp();
  auth = bearer((await signUpIntegrator(app)).platformToken);
  const contextFor: LocalContextBuilder = (headers) => {
    seen.contexts++;
    // A context that cannot be built (a failure of ours, e.g. the database gone), on request.
    const fails = headers instanceof Headers ? headers.get(CONTEXT_FAILS) : headers[CONTEXT_FAILS];
    return fails ? Promise.reject(new Error('the context could not be built')) : app.runtime.contextForRequest(headers);
  };
  const security = gatewaySecurity(app.runtime.config, async (headers) => (await contextFor(headers)).actor);
  // Introspection for staff only, as in production: its validation then depends on the caller.
  graphql = createLocalGraphQL(contextFor, { ...security, schemaAccess: { ...security.schemaAccess, introspection: 'staff' } });
  // Mounted as single-process-server.ts mounts it (gateway-server.ts), with a counter between the fast path and Yoga.
  const express_ = express();
  const countHandedOn: RequestHandler = (_req, _res, next) => {
    seen.handedOn++;
    next();
  };
  express_.use(
    '/graphql',
    graphqlBodyLimit(app.runtime.config, app.runtime.auth.tokens),
    plainPostFastPathOf(graphql)!,
    countHandedOn,
    bodyAsStream,
    graphql as unknown as RequestHandler,
  );
  server = http.createServer(express_);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await graphql?.dispose();
  await app?.close();
});

interface Answer {
  status: number;
  contentType: string | null;
  body: string;
}

async function post(body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
}

/** The first request of a text (Yoga's), then the same again: how each went, and the two answers. */
async function twice(body: unknown, headers: Record<string, string> = {}) {
  reset();
  const first = await post(body, headers);
  const firstWay = { ...seen };
  reset();
  const second = await post(body, headers);
  return { first, second, firstWay, secondWay: { ...seen } };
}

describe('the plain-POST fast path of single-process GraphQL', () => {
  let tenantId: string;
  beforeAll(async () => {
    tenantId = (await (await postJson(`${app.url}/api/business/v1/tenants`, { referenceId: 'fast-path-1' }, auth)).json()).id;
  });

  it('answers a query text Yoga has validated as Yoga answered it, building one context per request', async () => {
    const { first, second, firstWay, secondWay } = await twice(
      { query: 'query($id: ID!) { tenant(id: $id) { id referenceId profile { uuid } } }', variables: { id: tenantId } },
      auth,
    );
    expect(firstWay).toEqual({ handedOn: 1, contexts: 1 });
    expect(secondWay).toEqual({ handedOn: 0, contexts: 1 });
    expect(second).toEqual(first);
    expect(JSON.parse(second.body)).toEqual({ data: { tenant: { id: tenantId, referenceId: 'fast-path-1', profile: null } } });
    expect(second.contentType).toBe('application/json; charset=utf-8');
  });

  it('answers domain errors, refused variables and the graphql-response media type as Yoga does', async () => {
    const cases: Array<[unknown, Record<string, string>]> = [
      [{ query: '{ tenant(id: "00000000-0000-4000-8000-000000000000") { id } }' }, auth],
      [{ query: 'query($l: Int) { tenants(limit: $l) { total } }', variables: { l: 'many' } }, auth],
      [
        { query: 'query($l: Int) { tenants(limit: $l) { total } }', variables: { l: 'many' } },
        { ...auth, accept: 'application/graphql-response+json' },
      ],
      [{ query: '{ tenants(limit: 1) { total } }', operationName: null, variables: null }, {}],
    ];
    for (const [body, headers] of cases) {
      const { first, second, secondWay } = await twice(body, headers);
      expect(secondWay, JSON.stringify(body)).toEqual({ handedOn: 0, contexts: 1 });
      expect(second, JSON.stringify(body)).toEqual(first);
      expect(JSON.parse(second.body).errors?.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    const notFound = JSON.parse((await post(cases[0]![0], auth)).body);
    expect(notFound.errors[0]).toMatchObject({ message: 'Tenant was not found', extensions: { code: 'NOT_FOUND', status: 404 } });
  });

  it('runs a mutation once per request', async () => {
    const body = { query: 'mutation($r: String) { createTenant(input: { referenceId: $r }) { referenceId } }', variables: { r: 'fast-path-m' } };
    const { first, second, secondWay } = await twice(body, auth);
    expect(secondWay).toEqual({ handedOn: 0, contexts: 1 });
    expect(JSON.parse(first.body).data).toEqual({ createTenant: { referenceId: 'fast-path-m' } });
    // The referenceId is unique: the second run is refused as a conflict, exactly once.
    expect(JSON.parse(second.body).errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['CONFLICT']);
  });

  it('leaves to Yoga whatever is not a plain POST of a validated, caller-independent operation', async () => {
    const handedOnBothTimes: Array<[string, unknown, Record<string, string>]> = [
      ['a refused document', { query: '{ tenant(id: "x") { nope } }' }, auth],
      ['introspection', { query: '{ __schema { queryType { name } } }' }, auth],
      ['persisted-document extensions', { query: '{ tenants(limit: 1) { total } }', extensions: {} }, auth],
      ['a batch', [{ query: '{ tenants(limit: 1) { total } }' }], auth],
      ['a streaming Accept', { query: '{ tenants(limit: 1) { total } }' }, { ...auth, accept: 'text/event-stream' }],
      ['an unknown operation name', { query: '{ tenants(limit: 1) { total } }', operationName: 'Other' }, auth],
    ];
    for (const [what, body, headers] of handedOnBothTimes) {
      const { first, second, firstWay, secondWay } = await twice(body, headers);
      expect([firstWay.handedOn, secondWay.handedOn], what).toEqual([1, 1]);
      expect(second.status, what).toBe(first.status);
      expect(second.body, what).toBe(first.body);
    }
  });

  it('answers a refused credential as Yoga does', async () => {
    const { first, second, secondWay } = await twice({ query: '{ tenants(limit: 2) { total } }' }, { authorization: 'Bearer not-a-token' });
    expect(secondWay).toEqual({ handedOn: 0, contexts: 1 });
    expect(second).toEqual(first);
    expect(JSON.parse(second.body).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('hands a request whose context fails to Yoga with the context it already started', async () => {
    const validated = { query: '{ tenants(limit: 3) { total } }' };
    await post(validated, auth);
    reset();
    const yogasOwn = await post({ query: '{ tenants(limit: 4) { total } }' }, { ...auth, [CONTEXT_FAILS]: '1' });
    expect(seen).toEqual({ handedOn: 1, contexts: 1 });
    reset();
    const handedOn = await post(validated, { ...auth, [CONTEXT_FAILS]: '1' });
    expect(seen).toEqual({ handedOn: 1, contexts: 1 });
    expect(handedOn).toEqual(yogasOwn);
    expect(JSON.parse(handedOn.body).errors[0].message).toBe('Unexpected error.');
  });

  it('picks the media type Yoga picks from Accept, or none where Yoga would stream or refuse', () => {
    expect(regularMediaTypeOf(undefined)).toBe('application/json');
    expect(regularMediaTypeOf('*/*')).toBe('application/json');
    expect(regularMediaTypeOf('application/graphql-response+json')).toBe('application/graphql-response+json');
    // Yoga ignores q: of two JSON types the first listed wins, and a JSON type beats a stream.
    expect(regularMediaTypeOf('application/graphql-response+json, application/json;q=0.9')).toBe('application/graphql-response+json');
    expect(regularMediaTypeOf('multipart/mixed, application/json')).toBe('application/json');
    expect(regularMediaTypeOf('text/event-stream')).toBeUndefined();
    expect(regularMediaTypeOf('multipart/mixed')).toBeUndefined();
    expect(regularMediaTypeOf('application/json; charset=latin1')).toBeUndefined();
    expect(regularMediaTypeOf('text/html')).toBeUndefined();
  });
});
