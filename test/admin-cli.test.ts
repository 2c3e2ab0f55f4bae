/**
 * The bootstrap CLI (`npm run admin`), run for real as a child process against the same database as a
 * running app, whose HTTP API then accepts what the CLI made; and the demo sign-in identities.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS, seedDemoIdentities } from '../prisma/seed/demo-identities.js';
import { generateSigningJwk } from '../src/infra/signing-keys.js';
import { freePort, startEntry, waitForHealth } from './support/processes.js';
import { postJson, startTestApp, type TestApp } from './support/test-app.js';

interface CliRun {
  code: number | null;
  stdout: string;
  /** stdout and stderr together. */
  output: string;
}

let app: TestApp;
let dataDir = '';

beforeAll(async () => {
  app = await startTestApp();
  dataDir = await mkdtemp(path.join(tmpdir(), 'fg-admin-'));
});
afterAll(async () => {
  await app?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** `npm run admin -- <args>` against the app's database. */
async function admin(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const proc = startEntry('src/processes/cli/admin.ts', args, {
    DATABASE_URL: app.database.url,
    DEPLOY_ENV: 'demo',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    ...env,
  });
  let stdout = '';
  proc.child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  const code = await new Promise<number | null>((resolve) => proc.child.once('close', (c) => resolve(c)));
  return { code, stdout, output: proc.output() };
}

function resultOf(run: CliRun): any {
  if (run.code !== 0) throw new Error(`admin exited ${run.code}:\n${run.output}`);
  return JSON.parse(run.stdout);
}

async function login(email: string, password: string): Promise<Response> {
  return postJson(`${app.url}/api/platform/v1/auth/login`, { email, password });
}

async function lenderToken(c: { clientId: string; clientSecret: string; username: string; password: string; audience?: string }): Promise<Response> {
  return postJson(`${app.url}/oauth/token`, {
    grant_type: 'password',
    ...(c.audience ? { audience: c.audience } : {}),
    client_id: c.clientId,
    client_secret: c.clientSecret,
    username: c.username,
    password: c.password,
    scope: 'openid email profile',
  });
}

describe('npm run admin', () => {
  it('create-user makes an account and a user who can sign in; the password is never printed', async () => {
    const email = `ops-${randomUUID().slice(0, 8)}@example.test`;
    const password = `pw-${randomUUID()}`;
    const run = await admin(['create-user', '--email', email.toUpperCase(), '--password', password, '--account-name', 'Ops Ltd', '--role', 'STAFF']);
    const created = resultOf(run);
    expect(created).toEqual({ accountId: expect.any(String), userId: expect.any(String), email, role: 'STAFF', environment: 'demo' });
    expect(run.output).not.toContain(password);

    const res = await login(email, password);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ expires_in: 86400, token_type: 'Bearer', scope: expect.stringContaining('staff') });
    const account = await app.runtime.database.prisma.account.findUniqueOrThrow({ where: { id: created.accountId } });
    expect(account).toMatchObject({ name: 'Ops Ltd', environment: 'demo' });
  });

  it('create-user without --password generates one, shown once, that signs in (as ADMIN by default)', async () => {
    const email = `gen-${randomUUID().slice(0, 8)}@example.test`;
    const run = await admin(['create-user', '--email', email]);
    const created = resultOf(run);
    expect(created).toMatchObject({ email, role: 'ADMIN', password: expect.any(String) });
    expect(created.password.length).toBeGreaterThanOrEqual(12);
    expect(run.output).toMatch(/shown once/);
    expect((await login(email, created.password)).status).toBe(200);
  });

  it('create-user refuses an email already taken, and a short password', async () => {
    const email = `dup-${randomUUID().slice(0, 8)}@example.test`;
    resultOf(await admin(['create-user', '--email', email, '--password', 'long-enough-password']));
    const users = await app.runtime.database.prisma.platformUser.count();

    const duplicate = await admin(['create-user', '--email', email, '--password', 'another-long-password']);
    expect(duplicate.code).toBe(1);
    expect(duplicate.output).toContain(`a user with email ${email} already exists`);

    const short = await admin(['create-user', '--email', `other-${email}`, '--password', 'short-pw']);
    expect(short.code).toBe(2);
    expect(short.output).toMatch(/--password must be at least 12 characters; usage: npm run admin -- create-user/);
    // The policy of every path that sets a password (NIST SP 800-63B): no common password either.
    const common = await admin(['create-user', '--email', `common-${email}`, '--password', 'password1234']);
    expect(common.code).toBe(2);
    expect(common.output).toMatch(/--password is one of the most commonly used passwords/);
    expect(await app.runtime.database.prisma.platformUser.count()).toBe(users);
  });

  it('register-lender prints credentials once that obtain an id_token at /oauth/token', async () => {
    const run = await admin(['register-lender', '--name', 'Acme Capital', '--application-url', 'https://acme.example/applications'], {
      PUBLIC_URL: app.runtime.config.PUBLIC_URL,
    });
    const credentials = resultOf(run);
    expect(Object.keys(credentials)).toEqual([
      'clientId',
      'clientSecret',
      'username',
      'password',
      'audience',
      'tokenUrl',
      'webhookSecret',
      'authorizationTokenKey',
      'previousWebhookSecretValidUntil',
      'lenderId',
      'slug',
    ]);
    expect(credentials.audience).toBe(`${app.runtime.config.PUBLIC_URL}/api/platform/v1/funding`);
    expect(credentials.tokenUrl).toBe(`${app.runtime.config.PUBLIC_URL}/oauth/token`);
    expect(run.output).toMatch(/shown once/);
    const lender = await app.runtime.database.prisma.lender.findUniqueOrThrow({ where: { id: credentials.lenderId } });
    expect(lender).toMatchObject({ name: 'Acme Capital', environment: 'demo', applicationUrl: 'https://acme.example/applications', updateUrl: null });
    // The slug /metrics labels the lender's deliveries with and the log lines name it by.
    expect(credentials.slug).toBe(lender.slug);
    expect(credentials.slug).toMatch(/^acme-capital-[0-9a-f]{6}$/);

    const res = await lenderToken(credentials);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id_token: expect.any(String), token_type: 'Bearer' });
  });

  it('lender-credentials re-issues credentials: the new ones work, the old ones stop', async () => {
    const publicUrl = { PUBLIC_URL: app.runtime.config.PUBLIC_URL };
    const first = resultOf(await admin(['register-lender', '--name', 'Reissue Bank', '--application-url', 'http://reissue.example/apps'], publicUrl));
    const second = resultOf(await admin(['lender-credentials', '--lender-id', String(first.lenderId)], publicUrl));
    expect(second.audience).toBe(first.audience);
    expect(second.lenderId).toBe(first.lenderId);
    expect(second.clientId).not.toBe(first.clientId);
    // The webhook secret it replaced keeps signing, beside the new one, for WEBHOOK_SECRET_OVERLAP_SECONDS (default one day).
    expect(first.previousWebhookSecretValidUntil).toBeNull();
    expect(Date.parse(second.previousWebhookSecretValidUntil) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    expect(second.authorizationTokenKey).not.toBe(first.authorizationTokenKey);
    expect((await lenderToken(second)).status).toBe(200);
    expect((await lenderToken(first)).status).toBe(401);

    const missing = await admin(['lender-credentials', '--lender-id', '2147483647']);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('no lender with id 2147483647 in the demo environment');
  });

  it('rotate-signing-key puts a new key in front of the file and keeps the previous one', async () => {
    const file = path.join(dataDir, `keys-${randomUUID()}.json`);
    const previous = await generateSigningJwk();
    await writeFile(file, JSON.stringify({ keys: [previous] }));

    const rotated = resultOf(await admin(['rotate-signing-key', '--file', file]));
    const { keys } = JSON.parse(await readFile(file, 'utf8')) as { keys: Array<{ kid: string }> };
    expect(keys.map((k) => k.kid)).toEqual([rotated.kid, previous.kid]);
    expect(rotated).toEqual({ kid: rotated.kid, file, keys: 2 });
  });

  it('rotate-signing-key defaults to DATA_DIR/signing-keys.json, and is refused for an inline AUTH_SIGNING_KEYS', async () => {
    const rotated = resultOf(await admin(['rotate-signing-key']));
    expect(rotated.file).toBe(path.join(dataDir, 'signing-keys.json'));

    const refused = await admin(['rotate-signing-key'], { AUTH_SIGNING_KEYS: JSON.stringify({ keys: [await generateSigningJwk()] }) });
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/AUTH_SIGNING_KEYS .*secret store/);
  });

  it.each<{ args: string[]; message: RegExp }>([
    { args: [], message: /no command given; usage: npm run admin -- <create-user\|/ },
    { args: ['make-coffee'], message: /unknown command "make-coffee"; usage:/ },
    { args: ['create-user'], message: /--email is required; usage: npm run admin -- create-user/ },
    { args: ['create-user', '--email', 'not-an-email'], message: /--email must be an email address/ },
    { args: ['create-user', '--email', 'a@example.test', '--role', 'OWNER'], message: /--role must be one of ADMIN, MEMBER, STAFF/ },
    { args: ['create-user', '--email', 'a@example.test', '--colour', 'blue'], message: /Unknown option '--colour'; usage:/ },
    { args: ['register-lender', '--name', 'X', '--application-url', 'ftp://x.example'], message: /--application-url must be an http\(s\) URL/ },
    {
      args: ['register-lender', '--name', 'X', '--application-url', 'https://x.example', '--update-url', 'nope'],
      message: /--update-url must be an http\(s\) URL/,
    },
    { args: ['lender-credentials', '--lender-id', 'abc'], message: /--lender-id must be a lender's numeric id/ },
  ])('bad usage $args exits 2 with a one-line usage error', async ({ args, message }) => {
    const run = await admin(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.output.trim().split('\n')).toHaveLength(1);
    expect(run.output).toMatch(message);
  });
});

describe("credentials for the deployment's public URL", () => {
  it('register-lender beside a server on another port names that server (audience, token URL), whose /oauth/token and lender API accept them', async () => {
    const serverDataDir = await mkdtemp(path.join(tmpdir(), 'fg-admin-server-'));
    const port = await freePort();
    const serverUrl = `http://localhost:${port}`;
    // `npm start` on its own port and DATA_DIR, on the test's database; no PUBLIC_URL anywhere, and
    // the CLI's own PORT is the default (4000): only the server's record can give the right URL.
    const server = startEntry('src/processes/main.ts', [], {
      DATABASE_URL: app.database.url,
      DEPLOY_ENV: 'demo',
      SEED_DEMO_DATA: 'false',
      PORT: String(port),
      DATA_DIR: serverDataDir,
      LOG_LEVEL: 'warn',
    });
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, server);
      // Recorded right after it starts listening.
      for (let i = 0; i < 100 && !(await readFile(path.join(serverDataDir, 'server.json'), 'utf8').catch(() => '')); i++)
        await new Promise((r) => setTimeout(r, 100));

      const run = await admin(['register-lender', '--name', 'Beside Bank', '--application-url', 'https://beside.example/applications'], {
        DATA_DIR: serverDataDir,
      });
      const credentials = resultOf(run);
      expect(credentials.audience).toBe(`${serverUrl}/api/platform/v1/funding`);
      expect(credentials.tokenUrl).toBe(`${serverUrl}/oauth/token`);
      expect(run.output).not.toMatch(/No running server/);

      const token = await postJson(credentials.tokenUrl, {
        grant_type: 'password',
        audience: credentials.audience,
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        username: credentials.username,
        password: credentials.password,
        scope: 'openid email profile',
      });
      expect(token.status).toBe(200);
      const { id_token } = (await token.json()) as { id_token: string };
      const applications = await fetch(`${serverUrl}/api/platform/v1/funding/applications`, { headers: { authorization: `Bearer ${id_token}` } });
      expect(applications.status).toBe(200);
    } finally {
      await server.stop();
    }
    // Stopped: its record is gone, and the CLI says which URL it assumed instead.
    const alone = await admin(['register-lender', '--name', 'Alone Bank', '--application-url', 'https://alone.example/applications'], {
      DATA_DIR: serverDataDir,
    });
    expect(resultOf(alone).audience).toBe('http://localhost:4000/api/platform/v1/funding');
    expect(alone.output).toMatch(
      /No running server was found in .*server\.json and PUBLIC_URL is not set: the credentials below assume the deployment answers at http:\/\/localhost:4000/,
    );
    await rm(serverDataDir, { recursive: true, force: true });
  }, 240_000);
});

describe('demo identities', () => {
  it('are seeded idempotently, and the demo staff and integrator can sign in', async () => {
    const prisma = app.runtime.database.prisma;
    const first = await seedDemoIdentities(prisma);
    const users = await prisma.platformUser.count();
    const second = await seedDemoIdentities(prisma);
    expect(first.created).toEqual([DEMO_CREDENTIALS.staff.email, DEMO_CREDENTIALS.integrator.email]);
    expect(second).toEqual({ created: [], skipped: first.created });
    expect(await prisma.platformUser.count()).toBe(users);

    const staff = await login(DEMO_CREDENTIALS.staff.email, DEMO_CREDENTIALS.staff.password);
    expect(staff.status).toBe(200);
    expect((await staff.json()).scope).toContain('staff');
    expect((await login(DEMO_CREDENTIALS.integrator.email, DEMO_CREDENTIALS.integrator.password)).status).toBe(200);

    const accounts = await prisma.account.findMany({ where: { users: { some: { email: { in: first.created } } } }, include: { users: true } });
    expect(accounts.map((a) => [a.name, a.environment, a.users.map((u) => u.role)]).sort()).toEqual([
      ['Demo Integrator Ltd', 'demo', ['ADMIN']],
      ['Funding Gateway Staff', 'demo', ['STAFF']],
    ]);
  });
});
