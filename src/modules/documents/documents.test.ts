/**
 * Documents: multipart upload to a profile (type and size rules, checksum), listing, the
 * attachment in the lender's funding application, and the lender's download of its own
 * application's document only.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, lenderCredentials, lenderIdToken, marketplaceV1Token, signUpIntegrator } from '../../../test/support/identities.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';

let app: TestApp;
let v1: Record<string, string>;
let uuid: string;
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

beforeAll(async () => {
  app = await startTestApp();
  v1 = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
  uuid = (await (await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, v1)).json()).uuid;
});
afterAll(() => app?.close());

function upload(content: Buffer, type: string, name = 'accounts-2025.pdf', headers = v1): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)], { type }), name);
  return fetch(`${app.url}/api/marketplace/v1/profiles/${uuid}/documents`, { method: 'POST', headers, body: form });
}

describe('uploading', () => {
  it('stores a document with its checksum (201) and lists it', async () => {
    const res = await upload(PDF, 'application/pdf');
    expect(res.status).toBe(201);
    const document = await res.json();
    expect(document).toEqual({
      id: expect.any(String),
      fileName: 'accounts-2025.pdf',
      contentType: 'application/pdf',
      sizeBytes: PDF.length,
      sha256: createHash('sha256').update(PDF).digest('hex'),
      createdAt: expect.any(String),
    });
    const list = await (await fetch(`${app.url}/api/marketplace/v1/profiles/${uuid}/documents`, { headers: v1 })).json();
    expect(list.map((d: { id: string }) => d.id)).toContain(document.id);
  });

  it('refuses other types (422), empty files (400), files over 10 MB (413), a missing file (400), another account (404)', async () => {
    expect((await upload(Buffer.from('MZ...'), 'application/x-msdownload', 'tool.exe')).status).toBe(422);
    expect((await upload(Buffer.alloc(0), 'application/pdf')).status).toBe(400);
    const big = await upload(Buffer.alloc(10 * 1024 * 1024 + 1, 1), 'application/pdf');
    expect(big.status).toBe(413);
    expect((await big.json()).errors).toEqual([{ pointer: 'file', message: 'must be at most 10 MB' }]);
    const none = await fetch(`${app.url}/api/marketplace/v1/profiles/${uuid}/documents`, { method: 'POST', headers: v1, body: new FormData() });
    expect(none.status).toBe(400);
    const stranger = bearer((await marketplaceV1Token(app, (await signUpIntegrator(app)).apiKey)).jwt);
    expect((await upload(PDF, 'application/pdf', 'x.pdf', stranger)).status).toBe(404);
  });
});

describe('lenders download the documents of their own applications', () => {
  // Spec 4.5 note 4: {platform_base}/funding and the Marketplace V2 base alike.
  it.each(['/api/platform/v1/funding', '/api/marketplace/v2'])('at %s: streams the document with its type and name; another lender gets 404', async (base) => {
    const document = await (await upload(PDF, 'application/pdf', 'bank-statement.pdf')).json();
    const db = app.runtime.database.prisma;
    const lenders = await db.lender.findMany({ where: { environment: 'demo' }, orderBy: { id: 'asc' }, take: 2 });
    const mine = await lenderCredentials(app, lenders[0]!.id);
    const other = await lenderCredentials(app, lenders[1]!.id);
    const application = await db.lenderApplication.create({
      data: { lenderId: mine.lenderId, profileId: uuid, status: 'In Review', payload: { application: {} } },
    });
    const path = `${app.url}${base}/v1/funding/search/${application.id}/document/${document.id}`;
    const res = await fetch(path, { headers: bearer(await lenderIdToken(app, mine)) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename=bank-statement.pdf');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PDF);
    expect((await fetch(path, { headers: bearer(await lenderIdToken(app, other)) })).status).toBe(404);
    expect((await fetch(path.replace(document.id, '00000000-0000-4000-8000-000000000000'), { headers: bearer(await lenderIdToken(app, mine)) })).status).toBe(
      404,
    );
  });
});

describe('GraphQL', () => {
  it('attachDocument takes base64 content under the same rules; Profile.documents lists it', async () => {
    const { graphql } = await import('../../../test/support/graphql-client.js');
    const res = await graphql(
      app.url,
      'mutation($p: ID!, $c: String!) { attachDocument(profileId: $p, fileName: "id.png", contentType: "image/png", contentBase64: $c) { id fileName sizeBytes } }',
      { p: uuid, c: PNG_1X1 },
      v1,
    );
    expect(res.data?.attachDocument).toMatchObject({ fileName: 'id.png', sizeBytes: Buffer.from(PNG_1X1, 'base64').length });
    const bad = await graphql(
      app.url,
      'mutation($p: ID!) { attachDocument(profileId: $p, fileName: "x.exe", contentType: "application/x-msdownload", contentBase64: "AA==") { id } }',
      { p: uuid },
      v1,
    );
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'UNPROCESSABLE' });
    const listed = await graphql(app.url, 'query($p: ID!) { profile(uuid: $p) { documents { fileName } } }', { p: uuid }, v1);
    expect(listed.data?.profile.documents.map((d: { fileName: string }) => d.fileName)).toContain('id.png');
  });
});
