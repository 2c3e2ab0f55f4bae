/**
 * `npm start` on a fresh machine: no DATABASE_URL, so the application starts its own PostgreSQL server
 * with its files under DATA_DIR. One application per DATA_DIR; the admin CLI shares the server that
 * runs, or starts one for itself; a server left behind by `kill -9` is recovered by the next start.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { graphql } from './support/graphql-client.js';
import { freePort, startEntry, waitForHealth, type RunningProcess } from './support/processes.js';
import { DEMO_CREDENTIALS } from '../prisma/seed/demo-identities.js';
import { bearer, createApiKey, createTenant, demoIntegratorToken, platformToken, signIn } from './support/identities.js';
import { postJson, type TestApp } from './support/test-app.js';

const dirs: string[] = [];
const running: RunningProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fg-embedded-'));
  dirs.push(dir);
  return dir;
}

function start(env: Record<string, string>): RunningProcess {
  const proc = startEntry('src/processes/main.ts', [], env);
  running.push(proc);
  return proc;
}

async function exited(proc: RunningProcess): Promise<number | null> {
  if (proc.child.exitCode !== null) return proc.child.exitCode;
  return new Promise((resolve) => proc.child.once('exit', (code) => resolve(code)));
}

/** `npm run admin -- register-lender` on a DATA_DIR: the printed credentials. */
async function registerLender(
  dir: string,
  name: string,
): Promise<{ clientId: string; clientSecret: string; username: string; password: string; lenderId: number }> {
  const cli = startEntry('src/processes/cli/admin.ts', ['register-lender', '--name', name, '--application-url', 'https://lender.example/applications'], {
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
  });
  let stdout = '';
  cli.child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const code = await exited(cli);
  if (code !== 0) throw new Error(`admin exited ${code}:\n${cli.output()}`);
  return JSON.parse(stdout);
}

function lenderGrant(url: string, c: { clientId: string; clientSecret: string; username: string; password: string }): Promise<Response> {
  return postJson(`${url}/oauth/token`, {
    grant_type: 'password',
    client_id: c.clientId,
    client_secret: c.clientSecret,
    username: c.username,
    password: c.password,
    scope: 'openid',
  });
}

describe('npm start on the embedded default', () => {
  it('serves, shares its server with the CLI, refuses a second start, and recovers from kill -9 with its data', async () => {
    const dir = await dataDir();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { PORT: String(port), DATA_DIR: dir, HOST: '127.0.0.1' };

    const first = start(env);
    expect(await waitForHealth(url, first)).toEqual({ status: 'ok', service: 'all-in-one', database: 'ready' });
    expect(first.output()).toMatch(/embedded PostgreSQL 18\.\d+ serving .*127\.0\.0\.1:\d+/);
    expect(first.output()).toContain('demo data: seeded companies (400), demo lenders (30) and products (55), demo users');

    // The seeded demo integrator signs in, makes a key and a platform token: the flow of docs/integrators.md.
    const { email, password } = DEMO_CREDENTIALS.integrator;
    const auth = bearer(await demoIntegratorToken(url, email, password));
    const created = await postJson(`${url}/api/business/v1/tenants`, { referenceId: 'persisted' }, auth);
    expect(created.status).toBe(201);
    const tenant = await created.json();

    // The CLI writes through the running server: the lender's grant works at once.
    const credentials = await registerLender(dir, 'Live Capital');
    const grant = await lenderGrant(url, credentials);
    expect(grant.status).toBe(200);
    expect(await grant.json()).toMatchObject({ id_token: expect.any(String), token_type: 'Bearer' });

    // A second application on the same DATA_DIR refuses, naming the first.
    const second = start({ ...env, PORT: String(await freePort()) });
    expect(await exited(second)).toBe(1);
    expect(second.output()).toContain(`DATA_DIR ${dir} is in use by another funding gateway (pid ${first.child.pid})`);

    first.child.kill('SIGKILL');
    await exited(first);
    const restarted = start(env);
    await waitForHealth(url, restarted);
    expect(restarted.output()).toContain(`its previous owner (pid ${first.child.pid}) is gone; recovering`);
    expect(restarted.output()).toMatch(/stopping the server \(pid \d+\) left running by its previous owner/);
    expect(restarted.output()).toContain('demo data: seeded nothing; already there: companies, demo lenders and products, demo users');
    // The signing key was kept in DATA_DIR too: the token from before the kill still verifies.
    const read = await graphql(url, 'query($id: ID!) { tenant(id: $id) { referenceId } }', { id: tenant.id }, auth);
    expect(read).toEqual({ data: { tenant: { referenceId: 'persisted' } } });
    expect((await lenderGrant(url, credentials)).status).toBe(200);

    // A clean stop takes the server down with it and frees DATA_DIR.
    await restarted.stop();
    expect(existsSync(path.join(dir, 'postgres.lock'))).toBe(false);
    expect(existsSync(path.join(dir, 'postgres', 'postmaster.pid'))).toBe(false);
  });

  it('seeds the demo catalogue even when a lender was registered before the first start; reads .env', async () => {
    const dir = await dataDir();
    // No server runs: the CLI starts one for itself and stops it when done.
    const early = await registerLender(dir, 'Early Capital');
    expect(existsSync(path.join(dir, 'postgres.lock'))).toBe(false);
    expect(existsSync(path.join(dir, 'postgres', 'postmaster.pid'))).toBe(false);

    // The configuration comes from an env file only.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const envFile = path.join(dir, 'gateway.env');
    await writeFile(envFile, `# as .env.example\nPORT=${port}\nHOST=127.0.0.1\nDATA_DIR=${dir}\n`);
    const proc = start({ ENV_FILE: envFile });
    await waitForHealth(url, proc);
    expect(proc.output()).toContain('demo data: seeded companies (400), demo lenders (30) and products (55), demo users');
    expect((await lenderGrant(url, early)).status).toBe(200);

    // A profile set-up from the registry works: the registry was seeded.
    const app = { url } as TestApp;
    const key = await createApiKey(app, await signIn(app, DEMO_CREDENTIALS.integrator.email, DEMO_CREDENTIALS.integrator.password), {
      name: 'early',
      scopes: ['profile:read', 'profile:write', 'funding:read', 'funding:write'],
    });
    const { id } = await createTenant(app, (await platformToken(app, key.key)).access_token);
    const setUp = await postJson(
      `${url}/api/business/v1/profile`,
      { companyInformation: { registrationNumber: '09876543' } },
      bearer((await platformToken(app, key.key, id)).access_token),
    );
    expect(setUp.status).toBe(201);
    expect((await setUp.json()).companyInformation).toMatchObject({ name: 'ACME WIDGETS LIMITED' });
    expect(JSON.parse(await readFile(path.join(dir, 'postgres.lock'), 'utf8'))).toMatchObject({ pid: proc.child.pid, role: 'server' });
  });
});
