/**
 * Concurrent large uploads against `npm start` as its own process: every one is stored (201) with its
 * checksum, and the server's resident memory grows by far less than the files' total, because uploads
 * stream to disk and from there into the database in chunks.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../../../prisma/seed/demo-identities.js';
import { freePort, startEntry, waitForHealth, type RunningProcess } from '../../../test/support/processes.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { bearer, createApiKey, marketplaceV1Token, signIn } from '../../../test/support/identities.js';
import { postJson, testSigningKeys, type TestApp } from '../../../test/support/test-app.js';

const UPLOADS = 8;
const SIZE = 9 * 1024 * 1024;
const MB = 1024 * 1024;

/** Resident set size and its peak (Linux), in bytes. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

describe('eight concurrent 9 MB uploads', () => {
  let database: TestDatabase | undefined;
  let system: RunningProcess | undefined;
  afterAll(async () => {
    await system?.stop();
    await database?.drop();
  });

  it('are all stored, with the server growing well under 200 MB', async () => {
    database = await createTestDatabase();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    system = startEntry('src/processes/main.ts', [], {
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      AUTH_SIGNING_KEYS: await testSigningKeys(),
      LOG_LEVEL: 'warn',
    });
    await waitForHealth(url, system);
    const { email, password } = DEMO_CREDENTIALS.integrator;
    const app = { url } as TestApp;
    const key = await createApiKey(app, await signIn(app, email, password), { name: 'uploads', scopes: ['profile:read', 'profile:write'] });
    const v1 = bearer((await marketplaceV1Token(app, key.key)).jwt);
    const profile = await postJson(`${url}/api/marketplace/v1/profiles/blank`, undefined, v1);
    expect(profile.status).toBe(200);
    const { uuid } = await profile.json();

    // PDFs by their bytes (uploads are typed by content): a PDF header, then filler.
    const files = Array.from({ length: UPLOADS }, (_, i) => {
      const content = Buffer.alloc(SIZE, i + 1);
      content.write('%PDF-1.4\n', 0);
      return content;
    });
    // One small upload first, so that what follows measures the uploads, not first-use warm-up.
    const warmUp = new FormData();
    warmUp.append('file', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n'))], { type: 'application/pdf' }), 'warm-up.pdf');
    expect((await fetch(`${url}/api/marketplace/v1/profiles/${uuid}/documents`, { method: 'POST', headers: v1, body: warmUp })).status).toBe(201);
    const pid = system.child.pid!;
    writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets the peak (VmHWM) to the current RSS
    const before = memory(pid).rss;

    const responses = await Promise.all(
      files.map((content, i) => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(content)], { type: 'application/pdf' }), `statement-${i}.pdf`);
        return fetch(`${url}/api/marketplace/v1/profiles/${uuid}/documents`, { method: 'POST', headers: v1, body: form });
      }),
    );
    const growth = memory(pid).peak - before;

    expect(responses.map((r) => r.status)).toEqual(Array(UPLOADS).fill(201));
    const stored = await Promise.all(responses.map((r) => r.json()));
    expect(stored.map((d) => [d.fileName, d.sizeBytes, d.sha256])).toEqual(
      files.map((content, i) => [`statement-${i}.pdf`, SIZE, createHash('sha256').update(content).digest('hex')]),
    );
    expect(growth).toBeLessThan(200 * MB);
    expect(system.output()).not.toMatch(/"level":50/);

    const listed = await (await fetch(`${url}/api/marketplace/v1/profiles/${uuid}/documents`, { headers: v1 })).json();
    expect(listed.filter((d: { sizeBytes: number }) => d.sizeBytes === SIZE)).toHaveLength(UPLOADS);
  });
});
