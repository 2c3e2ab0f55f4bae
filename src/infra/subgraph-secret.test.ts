import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../kernel/config.js';
import { loadSubgraphSecret } from './subgraph-secret.js';

const dirs: string[] = [];
const freshDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'fg-subgraph-secret-'));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('loadSubgraphSecret', () => {
  it('takes SUBGRAPH_SECRET as configured, whatever the file holds', async () => {
    const secret = 'a'.repeat(40);
    expect(await loadSubgraphSecret({ SUBGRAPH_SECRET: secret, DATA_DIR: await freshDir(), DEPLOY_ENV: 'production' })).toBe(secret);
  });

  it('in demo, generates one secret once in DATA_DIR: processes starting together all read the same, owner-readable only', async () => {
    const DATA_DIR = await freshDir();
    const secrets = await Promise.all(Array.from({ length: 6 }, () => loadSubgraphSecret({ DATA_DIR, DEPLOY_ENV: 'demo' })));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(path.join(DATA_DIR, 'subgraph-secret'))).mode & 0o777).toBe(0o600);
    expect(await loadSubgraphSecret({ DATA_DIR, DEPLOY_ENV: 'demo' })).toBe(secrets[0]);
  });

  it('in production, reads SUBGRAPH_SECRET_FILE and generates nothing: without either it refuses to start, naming both', async () => {
    const dir = await freshDir();
    const file = path.join(dir, 'secret');
    await expect(loadSubgraphSecret({ SUBGRAPH_SECRET_FILE: file, DATA_DIR: dir, DEPLOY_ENV: 'production' })).rejects.toThrow(
      /SUBGRAPH_SECRET is unset and its file .*secret does not exist/,
    );
    await writeFile(file, `${'b'.repeat(44)}\n`);
    expect(await loadSubgraphSecret({ SUBGRAPH_SECRET_FILE: file, DATA_DIR: dir, DEPLOY_ENV: 'production' })).toBe('b'.repeat(44));
    await writeFile(file, 'too-short\n');
    await expect(loadSubgraphSecret({ SUBGRAPH_SECRET_FILE: file, DATA_DIR: dir, DEPLOY_ENV: 'production' })).rejects.toThrow(/at least 32 characters/);
  });

  it('is refused at start when configured shorter than 32 characters or with characters the gateway would interpolate', () => {
    expect(() => loadConfig({ SUBGRAPH_SECRET: 'x'.repeat(31) })).toThrow(/SUBGRAPH_SECRET: must be at least 32 characters/);
    expect(() => loadConfig({ SUBGRAPH_SECRET: `{env.HOME}${'x'.repeat(32)}` })).toThrow(/SUBGRAPH_SECRET: letters, digits/);
    expect(loadConfig({ SUBGRAPH_SECRET: 'Zm9v+YmFy/'.repeat(4) }).SUBGRAPH_SECRET).toBe('Zm9v+YmFy/'.repeat(4));
  });
});
