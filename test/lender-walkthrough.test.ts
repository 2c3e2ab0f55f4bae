/**
 * The lender onboarding walkthrough of docs/lenders.md, run as written (bash, curl, jq, the admin CLI and the lender
 * simulator) against a fresh deployment: the application reaches the simulator, which offers.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, startEntry } from './support/processes.js';
import { eventually } from './support/lender-receiver.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const MARKER = '<!-- lender-walkthrough:';

/** The shell block after the marker, with the deployment's address and the simulator's port set to this test's. */
async function walkthroughScript(baseUrl: string, simulatorPort: number): Promise<string> {
  const page = await readFile(new URL('../docs/lenders.md', import.meta.url), 'utf8');
  if (!page.includes(MARKER)) throw new Error('docs/lenders.md has no lender walkthrough marker');
  const block = /```sh\n([\s\S]*?)```/.exec(page.slice(page.indexOf(MARKER)))?.[1];
  if (!block) throw new Error('docs/lenders.md has no lender walkthrough block');
  expect(block).toMatch(/^B=\S+ /m);
  expect(block).toMatch(/^SIM_PORT=\d+ /m);
  return `set -euo pipefail\n${block.replace(/^B=\S+/m, `B=${baseUrl}`).replace(/^SIM_PORT=\d+/m, `SIM_PORT=${simulatorPort}`)}`;
}

let app: TestApp;
beforeAll(async () => {
  // As `npm start` on a fresh clone: demo data seeded, the demo users among it.
  app = await startTestApp({ config: { SEED_DEMO_DATA: true } });
});
afterAll(() => app?.close());

it('delivers the application to the simulator, which answers with an offer', { timeout: 180_000 }, async () => {
  const script = await walkthroughScript(app.url, await freePort());
  // Its own process group, so the simulator it leaves running in the background is stopped with it.
  const shell = spawn('bash', ['-c', script], {
    cwd: new URL('..', import.meta.url),
    detached: true,
    env: { ...process.env, DATABASE_URL: app.database.url, PUBLIC_URL: app.url, DEPLOY_ENV: 'demo', ENV_FILE: '/nonexistent/.env', LOG_LEVEL: 'warn' },
  });
  let output = '';
  shell.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  shell.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const code = await new Promise<number | null>((resolve) => shell.once('exit', resolve));
    expect(code, output).toBe(0);
    expect(output).toContain('"applications":[{"lenderId":');
    expect(output).toContain('"event":"created"');
    expect(output).toMatch(/"call":"\/applications\/\d+\/offer","status":200/);
    const lender = await app.runtime.database.prisma.lender.findFirstOrThrow({ where: { name: 'Walkthrough Lender' }, include: { products: true } });
    expect(lender.products.map((p) => p.productType)).toEqual(['TERM_LOAN']);
    const application = await eventually(
      () => app.runtime.database.prisma.lenderApplication.findFirstOrThrow({ where: { lenderId: lender.id } }),
      (a) => a.status === 'Offered',
    );
    expect(application.status).toBe('Offered');
  } finally {
    try {
      process.kill(-shell.pid!, 'SIGTERM');
    } catch {
      // the group has already ended
    }
  }
});

/** `npm run admin -- lender-product …` against the app's database: exit code and output. */
async function lenderProduct(args: string[]): Promise<{ code: number | null; output: string }> {
  const proc = startEntry('src/processes/cli/admin.ts', ['lender-product', ...args], {
    DATABASE_URL: app.database.url,
    DEPLOY_ENV: 'demo',
    LOG_LEVEL: 'silent',
    ENV_FILE: '/nonexistent/.env',
  });
  const code = await new Promise<number | null>((resolve) => proc.child.once('close', (c) => resolve(c)));
  return { code, output: proc.output() };
}

const TERMS = [
  '--name',
  'Checked loan',
  '--min-amount',
  '1000',
  '--max-amount',
  '50000',
  '--min-term-months',
  '3',
  '--max-term-months',
  '24',
  '--annual-rate-min',
  '6',
  '--annual-rate-max',
  '9',
];

it('lender-product refuses bad input naming the flag, and an unknown lender, storing nothing', async () => {
  const lender = await app.runtime.database.prisma.lender.findFirstOrThrow({ where: { environment: 'demo' }, orderBy: { id: 'asc' } });
  const before = await app.runtime.database.prisma.lenderProduct.count();
  const badType = await lenderProduct(['--lender-id', String(lender.id), '--product-type', 'PAYDAY_LOAN', ...TERMS]);
  expect(badType.code).toBe(2);
  expect(badType.output).toContain('--product-type');
  const badNumber = await lenderProduct(['--lender-id', String(lender.id), '--product-type', 'TERM_LOAN', ...TERMS.map((t) => (t === '50000' ? 'fifty' : t))]);
  expect(badNumber.code).toBe(2);
  expect(badNumber.output).toContain('--max-amount must be a number');
  const inverted = await lenderProduct(['--lender-id', String(lender.id), '--product-type', 'TERM_LOAN', ...TERMS.map((t) => (t === '9' ? '5' : t))]);
  expect(inverted.code).toBe(2);
  expect(inverted.output).toContain('--annual-rate-max must be at least annualRateMin');
  const missing = await lenderProduct(['--lender-id', String(lender.id), '--product-type', 'TERM_LOAN', '--name', 'No terms']);
  expect(missing.code).toBe(2);
  expect(missing.output).toContain('--min-amount');
  const unknown = await lenderProduct(['--lender-id', '999999', '--product-type', 'TERM_LOAN', ...TERMS]);
  expect(unknown.code).toBe(1);
  expect(unknown.output).toContain('no lender with id 999999');
  expect(await app.runtime.database.prisma.lenderProduct.count()).toBe(before);
});
