/**
 * HTTP compression on every text answer (src/api/http/response-compression.ts): a REST JSON answer,
 * a GraphQL answer, a page and the widget's script come gzip- or brotli-encoded when the client
 * accepts it, and the same bytes once decoded; streams (GraphQL over SSE) and downloads that carry
 * a digest of their exact bytes are sent as they are.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseCompression } from '../src/api/http/response-compression.js';
import { bearer, lenderCredentials, lenderIdToken, marketplaceV1Token, signUpIntegrator } from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes on the wire. */
  bytes: Buffer;
}

/** An answer as received, undecoded (fetch would decode it). */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function decoded(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(answer.bytes);
  if (encoding === 'br') return brotliDecompressSync(answer.bytes);
  return answer.bytes;
}

let app: TestApp;
let token: string;
/** A Marketplace V1 jwt (the questionnaires' surface). */
let marketplaceToken: string;

beforeAll(async () => {
  app = await startTestApp({ config: { SEED_DEMO_DATA: true } });
  const login = await postJson(`${app.url}/api/platform/v1/auth/login`, {
    email: 'integrator@demo.funding-gateway.test',
    password: 'demo-integrator-password',
  });
  const loginToken = ((await login.json()) as { access_token: string }).access_token;
  const created = await postJson(
    `${app.url}/api/platform/v1/api-key`,
    { name: 'compression', scopes: ['profile:read'] },
    { authorization: `Bearer ${loginToken}` },
  );
  const key = ((await created.json()) as { key: string }).key;
  const platform = await postJson(`${app.url}/api/platform/v1/auth/token`, '', { 'x-api-key': key });
  token = ((await platform.json()) as { access_token: string }).access_token;
  const authorized = await postJson(`${app.url}/api/marketplace/v1/auth/authorize?api_key=${encodeURIComponent(key)}`, '');
  marketplaceToken = ((await authorized.json()) as { jwt: string }).jwt;
});
afterAll(() => app?.close());

describe('text answers are compressed when the client accepts it', () => {
  const graphqlQuery = JSON.stringify({ query: '{ lenders { id name description priceBand products { id productType name instantOffer } } }' });
  const cases: Array<[string, () => { url: string; method?: string; headers?: Record<string, string>; body?: string }, RegExp]> = [
    [
      'a REST JSON answer',
      () => ({ url: `${app.url}/api/marketplace/v1/questionnaires`, headers: { authorization: `Bearer ${marketplaceToken}` } }),
      /^application\/json/,
    ],
    [
      'a GraphQL answer',
      () => ({
        url: `${app.url}/graphql`,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: graphqlQuery,
      }),
      /^application\/graphql-response\+json/,
    ],
    ['a page', () => ({ url: `${app.url}/docs/guides/integrator-rest` }), /^text\/html/],
    ["the widget's script", () => ({ url: `${app.url}/app/ui/widget/widget.js` }), /^application\/javascript|^text\/javascript/],
  ];

  it.for(cases)('%s: gzip and brotli, the same bytes once decoded, smaller', async ([, request, type]) => {
    const { url, ...options } = request();
    const plain = await raw(url, { ...options, headers: { ...options.headers, 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(type);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const encoding of ['gzip', 'br']) {
      const packed = await raw(url, { ...options, headers: { ...options.headers, 'accept-encoding': encoding } });
      expect(packed.status).toBe(200);
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(packed.headers.vary).toMatch(/accept-encoding/i);
      expect(packed.bytes.length).toBeLessThan(plain.bytes.length);
      // The answers are the same document (a GraphQL answer's bytes may differ only if the data did: it does not here).
      expect(decoded(packed).toString()).toBe(plain.bytes.toString());
    }
  });
});

describe('streams and digested downloads are sent as they are', () => {
  it('GraphQL over SSE: events, not compressed, however the client asks', async () => {
    const answer = await raw(`${app.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream', 'accept-encoding': 'gzip, br' },
      body: JSON.stringify({ query: '{ lenders { id name description } }' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    // Yoga marks its event streams `Content-Encoding: none` for proxies; either way, not compressed.
    expect([undefined, 'none']).toContain(answer.headers['content-encoding']);
    expect(answer.bytes.toString()).toMatch(/^event: next\ndata: \{"data":\{"lenders":\[/m);
  });

  it('a document download (a CSV) keeps its exact bytes, which its Digest and Content-Length name', async () => {
    const v1 = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
    const uuid = ((await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, v1)).json()) as { uuid: string }).uuid;
    const csv = Buffer.from(
      `month,revenue\n${Array.from({ length: 300 }, (_, i) => `2025-${String((i % 12) + 1).padStart(2, '0')},${1000 + i}`).join('\n')}\n`,
    );
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(csv)], { type: 'text/csv' }), 'revenue.csv');
    const uploaded = await fetch(`${app.url}/api/marketplace/v1/profiles/${uuid}/documents`, { method: 'POST', headers: v1, body: form });
    expect(uploaded.status).toBe(201);
    const document = (await uploaded.json()) as { id: string };
    const lender = await app.runtime.database.prisma.lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
    const credentials = await lenderCredentials(app, lender.id);
    const application = await app.runtime.database.prisma.lenderApplication.create({
      data: { lenderId: lender.id, profileId: uuid, status: 'In Review', payload: { application: {} } },
    });
    const answer = await raw(`${app.url}/api/platform/v1/funding/v1/funding/search/${application.id}/document/${document.id}`, {
      headers: { ...bearer(await lenderIdToken(app, credentials)), 'accept-encoding': 'gzip, br' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/csv/);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.bytes.equals(csv)).toBe(true);
    expect(answer.headers['content-length']).toBe(String(csv.length));
    expect(answer.headers.digest).toBe(`sha-256=${createHash('sha256').update(csv).digest('base64')}`);
  });

  it('the middleware leaves an answer with Digest, Repr-Digest or Content-Digest, and an event stream, untouched', async () => {
    const text = 'name,amount\n'.repeat(1000);
    const server = express()
      .use(responseCompression())
      .get('/plain', (_req, res) => res.type('text/csv').send(text))
      .get('/digest/:header', (req, res) => res.setHeader(req.params.header, 'sha-256=:AAAA:').type('text/csv').send(text))
      .get('/events', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${text.slice(0, 4000)}\n\n`);
      })
      .listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const gzip = { 'accept-encoding': 'gzip' };
      expect((await raw(`${base}/plain`, { headers: gzip })).headers['content-encoding']).toBe('gzip');
      for (const header of ['Digest', 'Repr-Digest', 'Content-Digest']) {
        const answer = await raw(`${base}/digest/${header}`, { headers: gzip });
        expect(answer.headers['content-encoding'], header).toBeUndefined();
        expect(answer.bytes.toString()).toBe(text);
      }
      expect((await raw(`${base}/events`, { headers: gzip })).headers['content-encoding']).toBeUndefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
