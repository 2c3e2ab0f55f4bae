/**
 * A lender's client generated from the served /openapi.json with openapi-typescript, as a lender
 * would make it: its small program signs in at /oauth/token through openapi-fetch and receives
 * webhooks, typing the token call, the webhook body and the webhook headers from the generated types
 * alone (no cast; `@ts-expect-error` lines prove the types are exact, not `any`). It compiles
 * strictly, then runs against a started server: it signs in, and a real delivery reaches its
 * receiver, which verifies it with the `standardwebhooks` package and reads the event type and the
 * sequence number from the headers the document declares.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryPath } from '../src/kernel/repository-root.js';
import type { LenderCredentials } from '../src/modules/identity/bootstrap.js';
import { lenderCredentials, lenderIdToken } from './support/identities.js';
import { lenderOffers, storedLenderApplication } from './support/lender-applications.js';
import { eventually } from './support/lender-receiver.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { compileStrictProject, writeStrictProject } from './support/strict-project.js';

/** The lender's program: only the generated types, openapi-fetch and standardwebhooks. */
const LENDER_PROGRAM = `
import http from 'node:http';
import createClient from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import type { paths, webhooks } from './gateway.js';

type ApplicationCreated = webhooks['application.created']['post'];
type ApplicationUpdated = webhooks['application.updated']['post'];
type FundingApplication = ApplicationCreated['requestBody']['content']['application/json'];
type EventType = ApplicationCreated['parameters']['header']['webhook-event-type'];
const EVENT_TYPES: readonly EventType[] = ['application.created', 'application.updated'];

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(name + ' is required');
  return value;
};

const gateway = createClient<paths>({ baseUrl: env('GATEWAY_URL') });
const { data: tokens, error } = await gateway.POST('/oauth/token', {
  body: {
    grant_type: 'password',
    client_id: env('LENDER_CLIENT_ID'),
    client_secret: env('LENDER_CLIENT_SECRET'),
    username: env('LENDER_USERNAME'),
    password: env('LENDER_PASSWORD'),
    audience: env('LENDER_AUDIENCE'),
    scope: 'openid email profile',
  },
});
if (error) throw new Error('sign-in refused: ' + JSON.stringify(error));
const idToken: string = tokens.id_token;
const expiresIn: number = tokens.expires_in;
console.log(JSON.stringify({ signedIn: { tokenType: tokens.token_type, expiresIn, idTokenParts: idToken.split('.').length } }));

// What the compiler refuses (never called): the types are exact, not any.
async function refused(document: FundingApplication): Promise<void> {
  // @ts-expect-error the grant is the password grant only
  await gateway.POST('/oauth/token', { body: { grant_type: 'client_credentials', username: 'u', password: 'p' } });
  // @ts-expect-error the document has no such member
  console.log(document.application.lenderSecret);
}
void refused;

const webhook = new Webhook(env('LENDER_WEBHOOK_SECRET'));
let received = 0;
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    const headers = Object.fromEntries(Object.entries(req.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    try {
      webhook.verify(body, headers);
    } catch {
      res.writeHead(401).end();
      return;
    }
    const document: FundingApplication = JSON.parse(body);
    // Both webhooks carry the same document.
    const updated: ApplicationUpdated['requestBody']['content']['application/json'] = document;
    const event = EVENT_TYPES.find((type) => type === headers['webhook-event-type']);
    const sequence = Number(headers['webhook-sequence']);
    console.log(JSON.stringify({ received: { event, sequence, id: updated.application.id, status: document.application.status } }));
    const last = ++received === Number(env('EXPECTED_DELIVERIES'));
    res.writeHead(204).end(() => {
      if (!last) return;
      server.close();
      server.closeAllConnections();
    });
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object') console.log(JSON.stringify({ listening: 'http://127.0.0.1:' + address.port + '/webhooks' }));
});
`;

let app: TestApp;
let project: string;
let lender: LenderCredentials;
let program: ChildProcess | undefined;

beforeAll(async () => {
  app = await startTestApp();
  lender = await lenderCredentials(app);
  // The lender's project: the program, the types generated from the served document, its two libraries.
  project = await mkdtemp(path.join(tmpdir(), 'fg-lender-client-'));
  await mkdir(path.join(project, 'node_modules'), { recursive: true });
  for (const library of ['openapi-fetch', 'standardwebhooks'])
    await symlink(repositoryPath('node_modules', library), path.join(project, 'node_modules', library), 'dir');
  const served = await (await fetch(`${app.url}/openapi.json`)).json();
  await writeFile(path.join(project, 'gateway.ts'), astToString(await openapiTS(served)));
  await writeFile(path.join(project, 'lender.ts'), LENDER_PROGRAM);
  await writeStrictProject(project, 'lender-project', 'lender.ts');
}, 120_000);
afterAll(async () => {
  program?.kill();
  if (project) await rm(project, { recursive: true, force: true });
  await app?.close();
});

describe("a lender's client generated from /openapi.json with openapi-typescript", () => {
  it('types the token call, the webhook body and its headers with no cast, strictly', { timeout: 180_000 }, async () => {
    expect(LENDER_PROGRAM).not.toMatch(/\bas (?!const\b)\w|<any>|: any\b/);
    expect(await compileStrictProject(project)).toBe('');
  });

  it('runs: signs in with the typed call, and verifies a real delivery whose headers say its event and number', { timeout: 180_000 }, async () => {
    const lines: Array<Record<string, any>> = [];
    let stderr = '';
    program = spawn(process.execPath, [path.join(project, 'out', 'lender.js')], {
      cwd: project,
      env: {
        ...process.env,
        GATEWAY_URL: app.url,
        LENDER_CLIENT_ID: lender.clientId,
        LENDER_CLIENT_SECRET: lender.clientSecret,
        LENDER_USERNAME: lender.username,
        LENDER_PASSWORD: lender.password,
        LENDER_AUDIENCE: lender.audience,
        LENDER_WEBHOOK_SECRET: lender.webhookSecret,
        EXPECTED_DELIVERIES: '2',
      },
    });
    program.stdout!.on('data', (chunk: Buffer) =>
      lines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, any>),
      ),
    );
    program.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => program!.on('exit', resolve));

    const listening = await eventually(
      async () => [lines.find((line) => line.listening), stderr] as const,
      ([line, errors]) => line !== undefined || errors !== '',
    );
    expect(stderr).toBe('');
    expect(lines[0]).toEqual({ signedIn: { tokenType: 'Bearer', expiresIn: 120, idTokenParts: 3 } });

    // The lender's URLs point at the program; an application submitted to it, then acknowledged.
    const db = app.runtime.database.prisma;
    await db.lender.update({ where: { id: lender.lenderId }, data: { applicationUrl: listening[0]!.listening, updateUrl: null } });
    const profile = await db.profile.create({ data: { environment: 'demo' } });
    const applicationId = await storedLenderApplication(app, { lenderId: lender.lenderId, profileId: profile.id });
    // Two changes of one application: an offer, then another in its place.
    const token = await lenderIdToken(app, lender);
    await lenderOffers(app, token, applicationId);
    await lenderOffers(app, token, applicationId);

    expect(await exited).toBe(0);
    const received = lines.filter((line) => line.received).map((line) => line.received);
    const { status } = await db.lenderApplication.findUniqueOrThrow({ where: { id: applicationId } });
    expect(received).toEqual([
      { event: 'application.updated', sequence: 1, id: applicationId, status },
      { event: 'application.updated', sequence: 2, id: applicationId, status },
    ]);
  });
});
