/**
 * DATA_DIR/server.json (running-server.ts): the admin CLI trusts a record only while its server is
 * alive, answers, and uses the CLI's database; a server removes only its own record.
 */
import http from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseIdentity, recordRunningServer, runningServerOf, RUNNING_SERVER_FILE } from './running-server.js';

let dir = '';
let server: http.Server;
let url = '';
const warnings: unknown[] = [];
const logger = { warn: (...args: unknown[]) => void warnings.push(args) };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fg-running-server-'));
  server = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('the running server record', () => {
  const database = databaseIdentity('postgresql://app@db.example/funding');

  it('is found by a CLI on the same database while its server answers, and removed when it stops', async () => {
    const forget = await recordRunningServer(dir, { url, publicUrl: 'https://gateway.example', environment: 'demo', database }, logger);
    expect(await runningServerOf(dir, database)).toMatchObject({ pid: process.pid, url, publicUrl: 'https://gateway.example' });
    // Another database (the embedded one, or another DATABASE_URL): not this CLI's deployment.
    expect(await runningServerOf(dir, databaseIdentity(undefined))).toBeNull();
    expect(await runningServerOf(dir, databaseIdentity('postgresql://app@other.example/funding'))).toBeNull();
    // The file names the database by digest only.
    expect(await readFile(path.join(dir, RUNNING_SERVER_FILE), 'utf8')).not.toContain('db.example');
    await forget();
    expect(await runningServerOf(dir, database)).toBeNull();
  });

  it('is ignored when its process is gone or its URL does not answer; a server removes only its own', async () => {
    const file = path.join(dir, RUNNING_SERVER_FILE);
    const record = { url, publicUrl: 'https://gateway.example', environment: 'demo', database, startedAt: new Date().toISOString() };
    await writeFile(file, JSON.stringify({ ...record, pid: 2 ** 22 + 12345 }));
    expect(await runningServerOf(dir, database)).toBeNull();
    await writeFile(file, JSON.stringify({ ...record, pid: process.pid, url: 'http://127.0.0.1:9' }));
    expect(await runningServerOf(dir, database)).toBeNull();
    // A server whose record was replaced by another's leaves that one alone.
    const forget = await recordRunningServer(dir, { url, publicUrl: 'https://mine.example', environment: 'demo', database }, logger);
    await writeFile(file, JSON.stringify({ ...record, pid: 1 }));
    await forget();
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ pid: 1 });
  });

  it('is not written to a DATA_DIR that cannot be written, with a warning, and the server goes on', async () => {
    const blocked = path.join(dir, 'a-file');
    await writeFile(blocked, '');
    const forget = await recordRunningServer(path.join(blocked, 'data'), { url, publicUrl: 'https://gateway.example', environment: 'demo', database }, logger);
    await forget();
    expect(warnings).toHaveLength(1);
  });
});
