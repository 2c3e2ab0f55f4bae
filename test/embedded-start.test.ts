import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { graphql } from './support/graphql-client.js';
import { freePort, startEntry, waitForHealth, type RunningProcess } from './support/processes.js';
import { DEMO_CREDENTIALS } from '../prisma/seed/demo-identities.js';
import { bearer, demoIntegratorToken } from './support/identities.js';
import { postJson } from './support/test-app.js';

// `npm start` on a fresh machine: no DATABASE_URL, so the embedded PGlite keeps data under DATA_DIR.
describe('npm start on the embedded default', () => {
  let dataDir = '';
  let proc: RunningProcess | undefined;
  afterAll(async () => {
    await proc?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('migrates, seeds, serves REST and GraphQL, and keeps data across a restart', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'fg-embedded-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1' };

    proc = startEntry('src/main.ts', [], env);
    expect(await waitForHealth(url, proc)).toEqual({ status: 'ok', service: 'all-in-one', database: 'ready' });
    expect(proc.output()).toContain('seeded');

    // The seeded demo integrator signs in, makes a key and a platform token: the README's flow.
    const { email, password } = DEMO_CREDENTIALS.integrator;
    const auth = bearer(await demoIntegratorToken(url, email, password));
    const created = await postJson(`${url}/api/business/v1/tenants`, { referenceId: 'persisted' }, auth);
    expect(created.status).toBe(201);
    const tenant = await created.json();
    const lenders = await graphql(url, '{ lenders { id } }', {}, auth);
    expect((lenders.data?.lenders as unknown[]).length).toBeGreaterThan(0);
    await proc.stop();

    proc = startEntry('src/main.ts', [], env);
    await waitForHealth(url, proc);
    expect(proc.output()).not.toContain('seeding demo data');
    // The signing key was kept in DATA_DIR too: the token from before the restart still verifies.
    const read = await graphql(url, 'query($id: ID!) { tenant(id: $id) { referenceId } }', { id: tenant.id }, auth);
    expect(read).toEqual({ data: { tenant: { referenceId: 'persisted' } } });
  });
});
